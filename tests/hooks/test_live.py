"""The hooks that watch subagents live, as the client runs them (`python -I -S run.py EVENT`):
SubagentStart/SubagentStop keep the live record, PreToolUse enforces the budget per subagent,
a resumed SessionStart tells the person what a cold cache costs. Event shapes as clients
2.1.328 and 2.1.332 send them (docs/reference/hooks.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from session_kit.state import live_agents
from tests.hooks.test_handlers import hook
from tests.support.transcripts import Transcript

SID = "5e55101d-aaaa-bbbb-cccc-000000000001"
AGENT = "a1b2c3d4e5f60718"
PER_MESSAGE = 10 + 5 + 100 + 1000  # the tokens of one message the transcript helper writes


@pytest.fixture
def state_root(isolated_home: Path) -> Path:
    return Path(os.environ["SESSION_KIT_HOME"])


@pytest.fixture
def session(claude_root: Path) -> tuple[Transcript, Path]:
    t = Transcript(SID, cwd="/work/proj")
    t.user("look around")
    t.tool_use("Agent", {"subagent_type": "Explore", "prompt": "find the parser", "run_in_background": True})
    return t, t.write_session(claude_root)


def agent_log(claude_root: Path, parent: Transcript, messages: int) -> Path:
    a = Transcript(SID, cwd=parent.cwd, agent_id=AGENT)
    a.user("find the parser")
    for i in range(messages):
        a.tool_use("Bash", {"command": f"ls {i}"})
    return a.write_subagent(claude_root, parent)


def scratch_of(state_root: Path) -> Path:
    return state_root / "projects" / "-work-proj" / "sessions" / SID


def tool_call(transcript: Path, *, agent_type: str | None = "Explore", agent: bool = True, env: dict | None = None):
    event = {
        "session_id": SID,
        "transcript_path": str(transcript),
        "cwd": "/work/proj",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_use_id": "toolu_1",
    }
    if agent:
        event.update(agent_id=AGENT, agent_type=agent_type)
    proc = hook("pre-tool-use", event, env=env)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    return json.loads(proc.stdout) if proc.stdout.strip() else None


def test_subagent_start_and_stop_keep_the_agent_in_the_sessions_live_record(session, state_root: Path):
    _, transcript = session
    base = {"session_id": SID, "transcript_path": str(transcript), "cwd": "/work/proj"}
    started = hook(
        "subagent-start", {**base, "hook_event_name": "SubagentStart", "agent_id": AGENT, "agent_type": "Explore"}
    )
    assert started.returncode == 0 and started.stdout == b"" and not started.stderr
    record = live_agents.read_live(str(scratch_of(state_root)))[AGENT]
    assert record["type"] == "Explore" and record["started"] and "stopped" not in record

    stop = {
        **base,
        "hook_event_name": "SubagentStop",
        "agent_id": AGENT,
        "agent_type": "Explore",
        "agent_transcript_path": "/x/agent.jsonl",
        "last_assistant_message": "The parser is in src/parse.py.",
        "stop_hook_active": False,
        "background_tasks": [],
    }
    stopped = hook("subagent-stop", stop)
    assert stopped.returncode == 0 and stopped.stdout == b""
    record = live_agents.read_live(str(scratch_of(state_root)))[AGENT]
    assert record["stopped"] >= record["started"]
    assert record["last_message"] == "The parser is in src/parse.py." and record["log"] == "/x/agent.jsonl"
    assert oct((scratch_of(state_root) / live_agents.LIVE_FILE).stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize(
    ("agent_id", "log"),
    [("acompact-9f2e1d", None), ("acompact-9f2e1d", "/x/agent-acompact-9f2e1d.jsonl"), ("c0mpact10n", None)],
    ids=["its id, no log", "its id, a log never written", "a stop with no start and no log"],
)
def test_the_compaction_summarisers_subagent_stop_keeps_no_agent(
    session, state_root: Path, agent_id: str, log: str | None
):
    """2.1.332 fires SubagentStop for the compaction summariser, with no log file: it is no agent
    of the conversation, and neither `agents` nor the status line may show it."""
    from tests.support.cli import invoke_json

    _, transcript = session
    stop = {"session_id": SID, "transcript_path": str(transcript), "cwd": "/work/proj"}
    stop |= {"hook_event_name": "SubagentStop", "agent_id": agent_id, "agent_type": "compact"}
    stop |= {"last_assistant_message": "<summary>1. Fix the parser</summary>", "stop_hook_active": False}
    if log is not None:
        stop["agent_transcript_path"] = log
    assert hook("subagent-stop", stop).returncode == 0
    assert agent_id not in live_agents.read_live(str(scratch_of(state_root)))
    shown = invoke_json("agents", SID)
    assert agent_id not in [a["agent_id"] for a in shown["agents"]]


def test_a_subagent_past_its_budget_has_its_tool_calls_denied_with_a_reason_naming_the_budget(
    session, claude_root: Path, state_root: Path
):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    answer = tool_call(transcript, env={"SESSION_KIT_AGENT_BUDGET": "2000"})
    specific = answer["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse" and specific["permissionDecision"] == "deny"
    reason = specific["permissionDecisionReason"]
    assert f"{3 * PER_MESSAGE:,} tokens" in reason and "budget of 2,000 tokens" in reason
    assert "report what you have" in reason
    denied = live_agents.read_live(str(scratch_of(state_root)))[AGENT]["denied"]
    assert denied["budget"] == 2000 and denied["tokens"] == 3 * PER_MESSAGE and denied["calls"] == 1


def test_the_main_thread_is_never_denied_whatever_the_budget(session, claude_root: Path):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    assert tool_call(transcript, agent=False, env={"SESSION_KIT_AGENT_BUDGET": "1"}) is None


def test_a_main_thread_call_whose_tool_input_names_an_agent_id_is_still_never_denied(session, claude_root: Path):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    event = {"session_id": SID, "transcript_path": str(transcript), "cwd": "/work/proj", "tool_name": "Bash"}
    event["tool_input"] = {"command": f'echo \'{{"agent_id": "{AGENT}"}}\''}
    proc = hook("pre-tool-use", event, env={"SESSION_KIT_AGENT_BUDGET": "1"})
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""


@pytest.mark.parametrize("stdin", [b"", b"not json", b'{"session_id": "x",', b"[1, 2]"])
def test_a_tool_calls_hook_given_no_event_object_says_so_and_lets_the_call_go_on(stdin: bytes, state_root: Path):
    proc = hook("pre-tool-use", None, raw=stdin)
    assert proc.returncode == 0 and proc.stdout == b""
    assert proc.stderr.startswith(b"session-kit hook pre-tool-use: HookInputError")


def test_without_a_budget_nothing_is_denied(session, claude_root: Path, state_root: Path):
    parent, transcript = session
    agent_log(claude_root, parent, messages=30)
    assert tool_call(transcript) is None
    assert not (scratch_of(state_root) / "agents-budget.json").exists()  # nothing was even counted


def test_a_subagent_within_its_budget_goes_on_until_its_log_passes_it(session, claude_root: Path):
    parent, transcript = session
    log = agent_log(claude_root, parent, messages=1)
    env = {"SESSION_KIT_AGENT_BUDGET": "2k"}
    assert tool_call(transcript, env=env) is None
    more = Transcript(SID, cwd=parent.cwd, agent_id=AGENT)
    more.tool_use("Bash", {"command": "ls more"})
    with log.open("a") as f:
        f.write(more.text())
    assert tool_call(transcript, env=env)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_budget_for_the_agents_type_in_the_config_file_wins_over_the_variable(
    session, claude_root: Path, state_root: Path
):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    state_root.mkdir(parents=True, exist_ok=True)
    (state_root / "config.json").write_text(json.dumps({"agents": {"budget_by_type": {"Explore": 10_000}}}))
    env = {"SESSION_KIT_AGENT_BUDGET": "2000"}
    assert tool_call(transcript, agent_type="Explore", env=env) is None
    denied = tool_call(transcript, agent_type="general-purpose", env=env)
    assert "budget of 2,000 tokens" in denied["hookSpecificOutput"]["permissionDecisionReason"]


def test_the_config_files_budget_alone_turns_the_budget_on(session, claude_root: Path, state_root: Path):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    state_root.mkdir(parents=True, exist_ok=True)
    (state_root / "config.json").write_text(json.dumps({"agents": {"budget": 1000}}))
    assert tool_call(transcript)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert tool_call(transcript, env={"SESSION_KIT_AGENT_BUDGET": "off"}) is None


def resume(state_root: Path, **fields):
    event = {
        "session_id": SID,
        "cwd": "/work/proj",
        "hook_event_name": "SessionStart",
        "source": "resume",
        "transcript_path": f"/x/{SID}.jsonl",
        **fields,
    }
    proc = hook("session-start", event)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout) if proc.stdout.strip() else {}


def test_a_resume_after_the_cache_went_cold_tells_the_person_the_clients_cost_and_the_model_nothing(state_root):
    answer = resume(
        state_root,
        seconds_since_last_response=4000,
        context_tokens=182_000,
        prompt_cache_likely_expired=True,
        estimated_cache_write_usd=1.1375,
    )
    notice = answer["systemMessage"]
    assert "cold" in notice and "$1.14" in notice and "182,000 tokens" in notice and "1h 6m idle" in notice
    context = answer.get("hookSpecificOutput", {}).get("additionalContext", "")
    assert "cache" not in context and "$" not in context


def test_a_resume_while_the_cache_is_warm_says_nothing_of_it(state_root):
    answer = resume(
        state_root,
        seconds_since_last_response=30,
        context_tokens=182_000,
        prompt_cache_likely_expired=False,
        estimated_cache_write_usd=1.1375,
    )
    assert "systemMessage" not in answer


def test_a_running_agents_status_is_stalled_once_its_log_has_not_grown_for_the_threshold():
    from session_kit.base.agents import FINISHED, RUNNING, STALLED, live_status

    record = {"started": "2026-11-26T10:00:00.000Z"}
    now = live_agents.parse_iso("2026-11-26T10:20:00.000Z")

    def status(record: dict, log_mtime: float | None) -> str:
        last = live_agents.last_activity(record, log_mtime)
        return live_status(stopped=bool(record.get("stopped")), last_activity=last, now=now, stalled_after_s=600)

    assert status(record, now - 30) == RUNNING
    assert status(record, now - 900) == STALLED
    assert status(record, None) == STALLED
    assert status({**record, "stopped": "2026-11-26T10:01:00.000Z"}, now - 900) == FINISHED


def test_the_kits_time_stamps_read_back_as_the_same_instant():
    import calendar
    import time

    assert (
        live_agents.parse_iso("2026-11-26T10:20:03.250Z")
        == calendar.timegm(time.strptime("2026-11-26T10:20:03", "%Y-%m-%dT%H:%M:%S")) + 0.25
    )


def test_the_budget_hook_loads_only_its_input_reader_before_it_knows_the_call_is_a_subagents():
    """PreToolUse runs before every tool call: on the main thread it must stay near a bare
    interpreter's start, so its import leaves the state package's other modules unloaded."""
    import ast
    import subprocess
    import sys

    import session_kit

    src = str(Path(session_kit.__file__).parents[1])
    code = f"import sys; sys.path.insert(0, {src!r}); import session_kit.hooks.live; print(sorted(sys.modules))"
    loaded = set(
        ast.literal_eval(
            subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True).stdout
        )
    )
    kit = {m for m in loaded if m.startswith("session_kit")}
    assert kit == {
        "session_kit",
        "session_kit.hooks",
        "session_kit.hooks.hookio",
        "session_kit.hooks.live",
        "session_kit.state",
        "session_kit.base",
        "session_kit.base.fastjson",
        "session_kit.state.root",
    }
    assert not {"json", "re", "typing", "dataclasses", "collections.abc"} & loaded


# --- issue 39 item 7: budget values and the walk-arounds -------------------------------------


def raw_tool_call(transcript: Path, env: dict, *, tool_use_id: str = "toolu_1"):
    event = {
        "session_id": SID,
        "transcript_path": str(transcript),
        "cwd": "/work/proj",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_use_id": tool_use_id,
        "agent_id": AGENT,
        "agent_type": "Explore",
    }
    return hook("pre-tool-use", event, env=env)


@pytest.mark.parametrize("value", ["inf", "1e400", "0x10", "2k tokens", "abc", "1,5m", "-3", "0"])
def test_a_malformed_agent_budget_is_warned_once_and_denies_nothing(session, claude_root: Path, value: str):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    env = {"SESSION_KIT_AGENT_BUDGET": value}
    first = raw_tool_call(transcript, env)
    assert first.returncode == 0 and first.stdout == b""
    assert b"SESSION_KIT_AGENT_BUDGET" in first.stderr and b"left out" in first.stderr
    assert b"Error" not in first.stderr and b"Traceback" not in first.stderr
    again = raw_tool_call(transcript, env)
    assert again.returncode == 0 and again.stdout == b"" and again.stderr == b""  # said once


def test_agents_shows_a_session_whatever_the_budget_variable_holds(session, claude_root: Path):
    from tests.support.cli import invoke

    parent, _transcript = session
    agent_log(claude_root, parent, messages=3)
    for value in ("inf", "1e400"):
        result = invoke("agents", SID, env={"SESSION_KIT_AGENT_BUDGET": value})
        assert result.exit_code == 0, result.output


def test_a_string_in_budget_by_type_is_warned_and_the_general_budget_still_applies(
    session, claude_root: Path, state_root: Path
):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    state_root.mkdir(parents=True, exist_ok=True)
    (state_root / "config.json").write_text(json.dumps({"agents": {"budget_by_type": {"Explore": "lots"}}}))
    proc = raw_tool_call(transcript, {"SESSION_KIT_AGENT_BUDGET": "2000"})
    assert b"agents.budget_by_type.Explore" in proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_budget_by_type_written_as_text_is_read_as_the_variable_is(session, claude_root: Path, state_root: Path):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    state_root.mkdir(parents=True, exist_ok=True)
    (state_root / "config.json").write_text(json.dumps({"agents": {"budget_by_type": {"Explore": "2k"}}}))
    assert tool_call(transcript)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_subagent_that_shortens_its_log_stays_past_its_budget(session, claude_root: Path):
    parent, transcript = session
    log = agent_log(claude_root, parent, messages=3)
    env = {"SESSION_KIT_AGENT_BUDGET": "2000"}
    assert tool_call(transcript, env=env)["hookSpecificOutput"]["permissionDecision"] == "deny"
    log.write_text(log.read_text().splitlines(keepends=True)[0])  # only its prompt left
    assert tool_call(transcript, env=env)["hookSpecificOutput"]["permissionDecision"] == "deny"
    log.unlink()
    assert tool_call(transcript, env=env)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_subagent_cannot_reset_its_count_from_its_scratch_dir(session, claude_root: Path, state_root: Path):
    parent, transcript = session
    agent_log(claude_root, parent, messages=3)
    env = {"SESSION_KIT_AGENT_BUDGET": "2000"}
    assert tool_call(transcript, env=env) is not None
    scratch = scratch_of(state_root)
    assert not [p.name for p in scratch.iterdir() if "budget" in p.name]  # no count kept where it writes
    (scratch / "agents-budget.json").write_text(json.dumps({AGENT: {"offset": 10**9, "messages": {}}}))
    assert tool_call(transcript, env=env)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_subagent_whose_log_cannot_be_read_counts_as_past_its_budget(session, claude_root: Path):
    parent, transcript = session
    log = agent_log(claude_root, parent, messages=1)
    log.unlink()
    log.mkdir()  # no regular file where its log is (as root, a mode of 000 would still read)
    answer = tool_call(transcript, env={"SESSION_KIT_AGENT_BUDGET": "1m"})
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "cannot be read" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_a_call_whose_line_is_not_in_an_existing_log_yet_does_not_wait(session, claude_root: Path):
    import time

    parent, transcript = session
    agent_log(claude_root, parent, messages=1)
    started = time.monotonic()
    proc = raw_tool_call(transcript, {"SESSION_KIT_AGENT_BUDGET": "1m"}, tool_use_id="toolu_not_written_yet")
    assert proc.returncode == 0 and proc.stdout == b""
    assert time.monotonic() - started < 0.45  # it waited 0.5 s for the line before
