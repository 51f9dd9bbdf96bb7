"""What `preprocess` writes of the client's bookkeeping and of types nobody knows: nothing raw."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from session_kit.preprocess import PreprocessOptions, PreprocessResult, preprocess_session
from session_kit.sessions.store import session_ref_from_path
from tests.support.dialects import BOOKKEEPING_MARK, every_type_2_1_330
from tests.support.transcripts import Transcript


def run(path: Path, tmp_path: Path, **options) -> PreprocessResult:
    return preprocess_session(session_ref_from_path(path), PreprocessOptions(output_dir=tmp_path / "out", **options))


def xml_of(result: PreprocessResult) -> str:
    return "".join(d.path.read_text(encoding="utf-8") for d in result.documents)


@pytest.mark.parametrize("filtering", [True, False])
def test_hook_progress_mode_changes_and_attachments_never_reach_the_xml(tmp_path: Path, filtering: bool):
    built = every_type_2_1_330(tmp_path / "root")
    result = run(built.path, tmp_path, filtering=filtering)
    xml = xml_of(result)
    for raw in (BOOKKEEPING_MARK, "parentUuid", "hook_progress", "permissionMode", "<entry"):
        assert raw not in xml
    assert xml.count("<tool_result") == 6 and "All checks passed." in xml


def test_hook_progress_lines_are_counted_as_noise(tmp_path: Path):
    built = every_type_2_1_330(tmp_path / "root")
    steps = {s["step"]: s for s in run(built.path, tmp_path).reduction.as_dict()["steps"]}
    assert steps["noise"]["entries"] >= built.progress_lines + 2  # and the two mode changes


def _with_unknowns(root: Path) -> Path:
    t = Transcript("c0ffee00-0000-0000-0000-000000000023", version="2.1.330")
    t.user("Look at the logs")
    t.raw({"type": "brand-new-entry", "sessionId": t.session_id, "payload": {"secret": "UNKNOWN_CONTENT"}})
    t.assistant({"type": "hologram", "data": "UNKNOWN_BLOCK_CONTENT"}, {"type": "text", "text": "Looked."})
    t.say("All fine.")
    return t.write_session(root)


@pytest.mark.parametrize("filtering", [True, False])
def test_an_entry_or_block_of_an_unknown_type_is_a_marker_without_its_content(tmp_path: Path, filtering: bool):
    result = run(_with_unknowns(tmp_path / "root"), tmp_path, filtering=filtering)
    xml = xml_of(result)
    assert "UNKNOWN_CONTENT" not in xml and "UNKNOWN_BLOCK_CONTENT" not in xml
    doc = ET.fromstring(result.documents[0].path.read_bytes())
    [entry] = doc.iter("entry")
    assert entry.get("type") == "brand-new-entry" and entry.get("line") == "2" and not list(entry) and not entry.text
    [block] = doc.iter("block")
    assert block.get("type") == "hologram" and not block.text
