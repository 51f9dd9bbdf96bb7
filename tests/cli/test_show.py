"""`session-kit show`, in process: a session's summary, its capped lists, and files that are no transcript."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_sessions import NEW
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript


def test_show_text_names_the_failed_call_and_the_failed_agent(built):
    text = invoke("show", built.current.session_id[:8])
    assert text.exit_code == 0, text.stderr
    assert "ls /nonexistent-dir" in text.stdout and "finished, 1 failed call" in text.stdout


def test_show_json_counts_tools_compactions_agents_and_tokens(built):
    doc = invoke_json("show", built.current.session_id)
    assert doc["tools"]["Bash"] == 2 and len(doc["compactions"]) == 1
    # status: how each agent ended; a failed tool call inside one is counted apart
    assert [(a["status"], a["failures"]) for a in doc["agents"]] == [("finished", 0), ("finished", 1)]
    assert doc["tokens"]["messages"] > 0


def test_garbage_lines_are_skipped_and_said_so(claude_root: Path, tmp_path: Path):
    garbage = tmp_path / "garbage.jsonl"
    entry = b'{"type":"user","sessionId":"garbage","message":{"role":"user","content":"hi"}}\n'
    garbage.write_bytes(b"\x00\xff not json\n{\n" + b"[" * 5000 + b"\n" + entry)
    for command in ("show", "events"):
        result = invoke(command, str(garbage))
        assert result.exit_code == 0 and result.exception is None
    assert "skipped" in invoke("show", str(garbage)).stderr


def test_a_file_of_garbage_alone_is_not_a_transcript(claude_root: Path, tmp_path: Path):
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\xff not json\n{\n" + b"[" * 5000 + b"\n")
    result = invoke("show", str(garbage))
    assert result.exit_code == 3 and result.stderr.startswith("session-kit: not a transcript")


def test_a_missing_transcript_file_is_not_found(claude_root: Path, tmp_path: Path):
    assert invoke("show", str(tmp_path / "missing.jsonl")).exit_code == 3


def test_show_prints_a_compactions_summary_without_the_clients_framing():
    real = Path(__file__).parents[1] / "fixtures" / "real"
    text = invoke("show", "266f", "--claude-dir", str(real)).stdout
    assert "(manual)  SCENARIO-SUMMARY: the session ran Bash" in text
    assert "This session is being continued" not in text


def test_show_caps_its_lists_with_a_count_of_the_rest_and_full_lists_all(claude_root: Path):
    t = Transcript(NEW)
    for n in range(30):
        t.user(f"request number {n}")
        t.say("ok")
    t.write_session(claude_root)
    capped = invoke("show", NEW).stdout
    assert "Requests (30):" in capped and "request number 19" in capped and "request number 20" not in capped
    assert "  … and 10 more (--full lists all)\n" in capped
    full = invoke("show", NEW, "--full").stdout
    assert "request number 29" in full and "more (--full" not in full


def test_show_says_one_call_not_one_calls(claude_root: Path):
    t = Transcript(NEW)
    t.user("go")
    t.bash("true", "")
    t.write_session(claude_root)
    assert "Tools (1 call): Bash 1" in invoke("show", NEW).stdout


def test_show_entries_line_counts_the_clients_bookkeeping_in_one_figure(claude_root: Path):
    t = Transcript()
    t.user("go")
    t.assistant({"type": "text", "text": "ok"})
    for kind in ("attachment", "api-request", "queue-operation"):
        t.noise(kind)
    t.write_session(claude_root)
    [line] = [x for x in invoke("show", t.session_id).stdout.splitlines() if x.startswith("  entries:")]
    assert line.endswith("(user 1, assistant 1, client bookkeeping 3)"), line
    assert invoke_json("show", t.session_id)["entry_types"]["api-request"] == 1  # --json keeps each type
