from __future__ import annotations

from pathlib import Path

from session_kit.queries.drift import drift_report
from tests.support import dialects
from tests.support.cli import invoke, invoke_json
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


def test_strict_alone_is_a_usage_error(claude_root: Path):
    assert invoke("doctor", "--strict").exit_code == 2
