"""The kit's own echoes in `search` (both engines), in `sessions` and in the index: a kit
slash command's request and what it expanded into (its `!` lines' output) are left out of the
hits unless `--kit`, then listed after every real hit; never the person's first request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

SID = "5ea7c400-0000-0000-0000-000000000001"
# What `/session-kit:sessions-search flakyword` expands into: the command file's text with the
# output of its `!` line, which repeats the words searched for.
BODY = (
    "# Search the history\n\nFrom `session-kit search flakyword`:\n\n"
    f"{SID}:4  2026-11-01 09:00:04Z  user\n    fix the flakyword test\n"
    f"{SID}:9  2026-11-01 09:00:09Z  tool_output Bash\n    FAILED test_flakyword\n"
    "2 hits (best first).\n"
)


def _session(root: Path) -> Transcript:
    t = Transcript(SID, cwd="/work/kit-echoes")
    t.slash_command("/session-kit:sessions-search", BODY, args="flakyword")
    t.say("The search found two earlier mentions.")
    t.user("fix the flakyword test")
    t.bash("pytest -k flakyword", exit_code=1, stderr="FAILED test_flakyword")
    t.say("Fixed the flakyword test.")
    t.write_session(root)
    return t


@pytest.fixture
def session(claude_root: Path) -> Transcript:
    return _session(claude_root)


@pytest.mark.parametrize("engine", [(), ("--scan",)], ids=["index", "scan"])
def test_search_leaves_the_kits_own_echoes_out_and_counts_them(session: Transcript, engine):
    doc = invoke_json("search", "flakyword", "--all", *engine)
    assert doc["hits"] and not any(h["kit"] for h in doc["hits"])
    assert {h["line"] for h in doc["hits"]} & {1, 2} == set()  # the request and its body
    assert doc["kit_hits"] == 2
    text = invoke("search", "flakyword", "--all", *engine).stdout
    assert "2 more in the kit's own commands (--kit shows them)" in text
    assert "(the kit's own)" not in text


@pytest.mark.parametrize("engine", [(), ("--scan",)], ids=["index", "scan"])
def test_search_kit_lists_the_echoes_after_every_real_hit(session: Transcript, engine):
    hits = invoke_json("search", "flakyword", "--all", "--kit", *engine)["hits"]
    marks = [h["kit"] for h in hits]
    assert marks == sorted(marks) and marks.count(True) == 2 and marks[0] is False
    assert {h["line"] for h in hits if h["kit"]} == {1, 2}
    text = invoke("search", "flakyword", "--all", "--kit", *engine).stdout
    assert text.count("(the kit's own)") == 2 and "--kit shows" not in text


def test_a_search_with_only_the_kits_echoes_says_where_they_are(claude_root: Path):
    t = Transcript("5ea7c400-0000-0000-0000-000000000002", cwd="/work/kit-only")
    t.slash_command("/debug-agent", "Agent report: onlyechoword failed")
    t.write_session(claude_root)
    out = invoke("search", "onlyechoword", "--all").stdout
    assert out == "No match for 'onlyechoword' in the index; 1 more in the kit's own commands (--kit shows it).\n"


def test_a_body_written_after_an_index_update_is_still_the_kits(claude_root: Path):
    t = Transcript("5ea7c400-0000-0000-0000-000000000003", cwd="/work/kit-later")
    t.slash_command("/plan", "Plan: laterword plan text")
    path = t.write_session(claude_root)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0])  # the client has written the request alone so far
    assert invoke_json("search", "laterword", "--all")["kit_hits"] == 0
    path.write_bytes(b"".join(lines))
    doc = invoke_json("search", "laterword", "--all", "--kit")
    assert [h["kit"] for h in doc["hits"]] == [True] and doc["kit_hits"] == 1


def test_the_index_marks_the_echoes_in_its_export(session: Transcript, tmp_path: Path):
    assert invoke("export", "--output-dir", str(tmp_path / "out")).exit_code == 0
    rows = [json.loads(line) for line in (tmp_path / "out" / "texts.jsonl").read_text().splitlines()]
    assert {r["line"] for r in rows if r["kit"]} == {1, 2}


def test_a_kit_command_is_not_the_sessions_first_request_anywhere(session: Transcript):
    listed = invoke_json("sessions", "--all")["sessions"]
    assert [s["first_prompt"] for s in listed] == ["fix the flakyword test"]
    shown = invoke_json("show", SID)
    assert [r["text"] for r in shown["requests"]] == ["fix the flakyword test"]
