from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.queries.drift import drift_report
from tests.support import dialects
from tests.support.cli import invoke, invoke_json
from tests.support.dialects import every_type_2_1_330
from tests.support.transcripts import Transcript


def _drifted(root: Path) -> Transcript:
    t = Transcript("d71f0000-0000-0000-0000-000000000001", version="2.1.330")
    t.user("hi")
    t.raw({"type": "brand-new-entry", "sessionId": t.session_id, "version": "2.1.330"})
    t.assistant({"type": "hologram", "data": "?"})
    t.write_session(root)
    return t


def test_known_formats_of_every_generation_show_no_drift(claude_root: Path, tmp_path: Path):
    dialects.inline_1_0(claude_root)
    dialects.legacy_2_0(claude_root)
    dialects.odd_files(claude_root, tmp_path / "elsewhere")
    report = drift_report(claude_root)
    assert not report.drifted and report.files == 11
    assert set(report.versions) == {"1.0.98", "2.0.30", "2.1.328"}


def test_unknown_entry_and_block_types_are_reported_by_version_with_an_example(claude_root: Path):
    t = _drifted(claude_root)
    data = drift_report(claude_root).as_dict()
    entry = data["unknown_entry_types"]["brand-new-entry"]
    assert entry["count"] == 1 and entry["versions"] == {"2.1.330": 1}
    assert entry["example"].endswith(f"{t.session_id}.jsonl:2")
    assert data["unknown_block_types"]["hologram"]["versions"] == {"2.1.330": 1}
    assert data["drifted"] is True


def test_doctor_transcripts_exits_7_with_strict_only_when_something_is_unknown(claude_root: Path):
    dialects.subagents_2_1(claude_root)
    assert invoke("doctor", "--transcripts", "--strict").exit_code == 0
    _drifted(claude_root)
    text = invoke("doctor", "--transcripts")
    assert text.exit_code == 0 and "brand-new-entry  1 (2.1.330 1)" in text.stdout
    assert invoke("doctor", "--transcripts", "--strict").exit_code == 7
    assert invoke_json("doctor", "--transcripts")["kind"] == "doctor-transcripts"


def test_the_attachment_kinds_2_1_332_added_are_known(claude_root: Path):
    # 2.1.332 writes two attachment kinds earlier clients did not (docs/reference/transcripts.md)
    t = Transcript("d71f0000-0000-0000-0000-000000000332", version="2.1.332")
    t.user("hi")
    t.attachment("first_week", content="tips")
    t.attachment("progress_reminder_sent")
    t.say("ok")
    t.write_session(claude_root)
    assert drift_report(claude_root).as_dict()["unknown_attachment_kinds"] == {}


def test_strict_alone_is_a_usage_error(claude_root: Path):
    assert invoke("doctor", "--strict").exit_code == 2


# --- the current client's files pass --strict ---------------------------------------------------

REAL = Path(__file__).parent.parent / "fixtures" / "real"


def test_the_real_clients_files_show_no_drift():
    report = drift_report(REAL)
    assert report.files == 3 and not report.drifted
    assert report.as_dict()["unknown_attachment_kinds"] == {}
    assert invoke("doctor", "--transcripts", "--strict", "--claude-dir", str(REAL)).exit_code == 0


def test_a_2_1_330_session_with_every_line_type_passes_strict(claude_root: Path):
    every_type_2_1_330(claude_root)
    report = drift_report(claude_root)
    assert not report.drifted and report.as_dict()["unknown_attachment_kinds"] == {}
    assert set(report.versions) == {"2.1.330"}
    assert invoke("doctor", "--transcripts", "--strict").exit_code == 0


def test_an_unknown_attachment_kind_is_reported_without_failing_strict(claude_root: Path):
    t = Transcript("d71f0000-0000-0000-0000-000000000002", version="2.1.330")
    t.user("hi")
    t.attachment("brand_new_context", content="?")
    t.write_session(claude_root)
    data = drift_report(claude_root).as_dict()
    assert data["unknown_attachment_kinds"]["brand_new_context"]["count"] == 1 and data["drifted"] is False
    text = invoke("doctor", "--transcripts", "--strict")
    assert text.exit_code == 0 and "brand_new_context" in text.stdout


def test_a_claude_root_that_is_not_there_is_not_found(tmp_path: Path):
    from session_kit.errors import NotFound

    with pytest.raises(NotFound, match="^no Claude root at "):
        drift_report(tmp_path / "missing")
