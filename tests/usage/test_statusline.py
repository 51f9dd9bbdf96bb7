"""The status line: this session's tokens and cost so far, its running agents and its
compactions; each run reads only what the transcript gained; it never fails the client."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from session_kit.queries.report import session_report
from session_kit.sessions.store import find_session_by_id
from session_kit.state.root import state_root
from session_kit.usage.statusline import SCRIPT, STATE_FILE, status_line
from tests.support.transcripts import Transcript

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
REAL_ID = "266f5872-b716-4df1-b42b-7ca857a257ae"


def event(t: Transcript, path: Path) -> dict:
    return {"session_id": t.session_id, "transcript_path": str(path), "cwd": t.cwd, "model": {"id": "claude-opus-5-5"}}


def run_script(stdin: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {"SESSION_KIT_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-I", "-S", SCRIPT], input=stdin, capture_output=True, text=True, env=env, timeout=30
    )


def opus(t: Transcript, output: int, *blocks: dict) -> list[dict]:
    lines = t.assistant(
        *(blocks or ({"type": "text", "text": "x"},)), usage={"input_tokens": 100, "output_tokens": output}
    )
    for line in lines:
        line["message"]["model"] = "claude-opus-5-5"
    return lines


def test_the_line_shows_the_id_prefix_tokens_cost_and_compactions_of_a_real_client_session():
    path = REAL / "projects" / "-tmp-real-fixture-project" / f"{REAL_ID}.jsonl"
    line = status_line({"session_id": REAL_ID, "transcript_path": str(path), "cwd": "/tmp/x"})
    total = session_report(find_session_by_id(REAL, REAL_ID)).usage.total.total.tokens
    assert line == f"266f5872 · {total / 1000:.1f}k tok · $0.68 · 1 compaction"


def test_a_second_run_counts_only_what_was_appended(tmp_path: Path):
    t = Transcript()
    t.user("go")
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    assert " · 110 tok · " in status_line(event(t, path))
    opus(t, 20)
    path.write_text(t.text())
    assert " · 230 tok · " in status_line(event(t, path))
    [cache] = Path(state_root()).glob(f"projects/*/sessions/{t.session_id}/{STATE_FILE}")
    files = json.loads(cache.read_text())["files"]
    assert files[str(path)]["offset"] == path.stat().st_size


def test_a_message_split_across_two_runs_counts_its_last_line_once(tmp_path: Path):
    t = Transcript()
    first, last = opus(t, 1, {"type": "text", "text": "a"}, {"type": "text", "text": "b"})
    last["message"]["usage"] = {"input_tokens": 100, "output_tokens": 800}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(first) + "\n")
    assert " · 101 tok · " in status_line(event(t, path))
    path.write_text(json.dumps(first) + "\n" + json.dumps(last) + "\n")
    assert " · 900 tok · " in status_line(event(t, path))


def test_a_half_written_last_line_waits_for_the_next_run(tmp_path: Path):
    t = Transcript()
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl", tail=b'{"type":"assistant","message":{"usage":{"output_tok')
    assert " · 110 tok · " in status_line(event(t, path))


def test_subagents_logs_count_and_running_agents_are_shown(tmp_path: Path):
    root = tmp_path / "claude"
    t = Transcript()
    t.user("go")
    call = t.tool_use("Agent", {"prompt": "look"})
    path = t.write_session(root)
    a = Transcript(t.session_id, agent_id="ag1")
    opus(a, 7)
    a.write_subagent(root, t)
    line = status_line(event(t, path))
    assert "1 agent running" in line and " · 1.2k tok · " in line  # 1115 (the builder's usage) + 107
    t.tool_result(call, "done", extra={"agentId": "ag1", "status": "completed"})
    path.write_text(t.text())
    assert "running" not in status_line(event(t, path))


def test_a_replaced_or_shortened_transcript_is_counted_again(tmp_path: Path):
    t = Transcript()
    opus(t, 10)
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    assert " · 220 tok · " in status_line(event(t, path))
    t.lines = t.lines[:1]
    path.unlink()
    t.write(path)
    assert " · 110 tok · " in status_line(event(t, path))


def test_an_unpriced_model_shows_a_question_mark_not_zero(tmp_path: Path):
    t = Transcript()
    t.say("x")  # the builder's `claude-test`
    path = t.write(tmp_path / "s.jsonl")
    assert status_line(event(t, path)).endswith("· $?")


@pytest.mark.parametrize("stdin", ["", "not json", "[1, 2]", '{"session_id": "../../etc", "transcript_path": "/x"}'])
def test_bad_input_prints_a_line_and_exits_0_without_a_traceback(stdin: str, tmp_path: Path):
    proc = run_script(stdin, tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() and "Traceback" not in proc.stderr


def test_the_script_runs_as_the_client_runs_it(tmp_path: Path):
    t = Transcript()
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    proc = run_script(json.dumps(event(t, path)), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{t.session_id[:8]} · 110 tok · $0.00\n"


def test_the_script_loads_neither_json_nor_dataclasses_nor_typing(tmp_path: Path):
    t = Transcript()
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    env = {"SESSION_KIT_HOME": str(tmp_path / "state"), "HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-I", "-S", SCRIPT],
        input=json.dumps(event(t, path)),
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert proc.returncode == 0 and " · 110 tok · " in proc.stdout
    loaded = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert {"json", "dataclasses", "typing", "re", "click"} & loaded == set()
    assert {
        "session_kit.transcript.tokens",
        "session_kit.transcript.entries",
        "session_kit.usage.prices",
    } & loaded == set()


def test_main_writes_one_line(tmp_path: Path):
    from session_kit.usage.statusline import main

    out = io.StringIO()
    assert main(io.BytesIO(b"{}"), out) == 0
    assert out.getvalue() == "session-kit: no session\n"


@pytest.mark.parametrize(
    "damage",
    [
        '{"version": 1, "transcript": "%s", "files": []}',
        '{"version": 1, "transcript": "%s", "files": {"%s": 7}}',
        "\x00",
    ],
)
def test_a_damaged_count_file_is_counted_again_not_trusted(tmp_path: Path, damage: str):
    t = Transcript()
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    assert " · 110 tok · " in status_line(event(t, path))
    [cache] = Path(state_root()).glob(f"projects/*/sessions/{t.session_id}/{STATE_FILE}")
    cache.write_text(damage.replace("%s", str(path)))
    assert " · 110 tok · " in status_line(event(t, path))


def test_an_agent_launched_in_the_background_runs_while_its_log_is_being_written(tmp_path: Path):
    import os

    root = tmp_path / "claude"
    t = Transcript()
    call = t.tool_use("Agent", {"prompt": "look", "run_in_background": True})
    t.tool_result(call, "launched", extra={"agentId": "bg1", "status": "async_launched"})
    path = t.write_session(root)
    a = Transcript(t.session_id, agent_id="bg1")
    opus(a, 7)
    log = a.write_subagent(root, t)
    assert "1 agent running" in status_line(event(t, path))
    os.utime(log, (log.stat().st_atime, log.stat().st_mtime - 600))  # quiet for ten minutes: done
    assert "running" not in status_line(event(t, path))


def test_a_fifo_as_transcript_path_prints_a_line_without_waiting(tmp_path: Path):
    import os

    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    t = Transcript()
    proc = run_script(json.dumps(event(t, fifo)), tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith(t.session_id[:8])


def test_the_first_line_of_a_transcript_that_starts_with_a_bom_is_counted(tmp_path: Path):
    t = Transcript()
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert " · 110 tok · " in status_line(event(t, path))


def test_a_transcript_rewritten_in_place_to_the_same_size_is_counted_again(tmp_path: Path):
    t = Transcript()
    opus(t, 10)
    t.user("padding " * 1000)
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    assert " · 220 tok · " in status_line(event(t, path))
    data = path.read_bytes()
    with path.open("r+b") as f:  # the first message's usage rewritten: same inode, same size
        f.write(data.replace(b'"output_tokens":10', b'"output_tokens":90', 1))
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert " · 300 tok · " in status_line(event(t, path))


def test_a_half_written_line_completed_later_is_counted_once(tmp_path: Path):
    t = Transcript()
    opus(t, 10)
    path = t.write(tmp_path / "s.jsonl")
    whole = path.read_bytes()
    more = Transcript(t.session_id)
    opus(more, 20)
    line = more.text().encode()
    path.write_bytes(whole + line[:40])
    assert " · 110 tok · " in status_line(event(t, path))
    path.write_bytes(whole + line)
    assert " · 230 tok · " in status_line(event(t, path))


def test_a_session_id_holding_escape_sequences_reaches_the_status_line_made_visible():
    from session_kit.usage.statusline import main

    out = io.StringIO()
    event = {"session_id": "\x1b]0;X\x07\u202e", "transcript_path": "/nowhere.jsonl"}
    assert main(io.BytesIO(json.dumps(event).encode()), out) == 0
    line = out.getvalue()
    assert "\x1b" not in line and "\x07" not in line and "\u202e" not in line
    assert line.startswith("\\u001b]0;X")


def _live_session(tmp_path: Path) -> tuple[Transcript, Path, str]:
    """A session with two background agents the hooks saw start: `quiet` silent for 12
    minutes, `busy` writing now."""
    import os
    import time

    from session_kit.state import live_agents
    from session_kit.state.scratch import SessionScratch

    root = tmp_path / "claude"
    t = Transcript()
    t.user("go")
    path = t.write_session(root)
    for agent_id, age in (("quiet", 720), ("busy", 1)):
        a = Transcript(t.session_id, agent_id=agent_id)
        opus(a, 7)
        log = a.write_subagent(root, t)
        os.utime(log, (time.time() - age, time.time() - age))
    scratch = SessionScratch.for_session(t.session_id, project_path=t.cwd).create()
    for agent_id in ("quiet", "busy"):
        live_agents.record_start(scratch.path, agent_id, agent_type="Explore")
    return t, path, scratch.path


def test_the_line_names_the_running_agents_and_the_stalled_ones_with_their_silence(tmp_path: Path):
    t, path, _ = _live_session(tmp_path)
    line = status_line(event(t, path))
    assert " · 2 agents · 1 stalled 12m" in line


def test_a_stopped_agent_leaves_the_line_and_one_denied_by_its_budget_is_named(tmp_path: Path):
    from session_kit.state import live_agents

    t, path, scratch = _live_session(tmp_path)
    live_agents.record_stop(scratch, "quiet", agent_type="Explore", log=None, last_message="done")
    live_agents.record_denied(scratch, "busy", agent_type="Explore", budget=1000, tokens=1200)
    line = status_line(event(t, path))
    assert " · 1 agent · 1 over budget" in line and "stalled" not in line


def test_the_line_says_the_cache_is_warm_or_what_re_writing_it_costs(tmp_path: Path):
    t = Transcript()
    t.user("go")
    path = t.write(tmp_path / "s.jsonl")
    cache = {"warm": True, "ttl": "5m", "recache_tokens_if_cold": 200_000, "requests": 3}
    assert status_line({**event(t, path), "prompt_cache": cache}).endswith(" · cache warm")
    from session_kit.usage import pricerows

    row = pricerows.find_row(pricerows.read_rows(pricerows.read_table(pricerows.BUNDLED)), "claude-opus-5-5")
    cold = status_line({**event(t, path), "prompt_cache": {**cache, "warm": False}})
    # 200k tokens at the model's cache-write price of the cache's tier (5 minutes, 1 hour)
    assert cold.endswith(f" · cache cold (${200_000 * row[3] / 1e6:,.2f} to re-write)")
    hour = status_line({**event(t, path), "prompt_cache": {**cache, "warm": False, "ttl": "1h"}})
    assert hour.endswith(f" · cache cold (${200_000 * row[4] / 1e6:,.2f} to re-write)") and hour != cold
    assert "cache" not in status_line(event(t, path))  # before the first request the client sends none


def test_the_line_says_when_the_session_is_past_80_percent_of_its_budget_and_past_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    t = Transcript()
    t.user("go")
    opus(t, 10)  # 110 tokens
    path = t.write(tmp_path / "s.jsonl")
    monkeypatch.setenv("SESSION_KIT_SESSION_BUDGET", "200")
    assert "budget" not in status_line(event(t, path))
    monkeypatch.setenv("SESSION_KIT_SESSION_BUDGET", "130")
    assert status_line(event(t, path)).endswith(" · budget 84% of 130 tokens")
    monkeypatch.setenv("SESSION_KIT_SESSION_BUDGET", "100")
    assert status_line(event(t, path)).endswith(" · over budget (100 tokens)")
