"""Watching a session live, in the real client (the kit given with `--plugin-dir`, beside a
probe plugin that keeps every input its hooks get):

- two background subagents: one finishes, the other's second request is held by the fake API
  past a short stall threshold; while it is held, `session-kit agents --json` shows the first
  finished with its last message, the held one stalled (and running under a longer threshold);
- a budget that trips inside a subagent: its tool calls are denied with a reason naming the
  budget, the main thread's calls run;
- a resume after the prompt cache went cold (the last response's time moved back two hours,
  which is what the client measures): the person gets the client's cost figure in a
  `systemMessage`, the model nothing;
- the inputs of SubagentStart, SubagentStop, PreToolUse (inside a subagent and on the main
  thread) and a resumed SessionStart, field by field.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from .fake_api import Script, agent, bash
from .routes import Route, plugin_route

PROBE_EVENTS = ("SubagentStart", "SubagentStop", "PreToolUse", "SessionStart")
STALL = "3s"
HELD_S = 25.0  # how long the fake holds the slow agent's second request at most


def _probe_plugin(folder: Path, log: Path) -> Path:
    """A plugin whose hooks append their whole input, one JSON line each, to `log`."""
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "probe", "version": "0.0.1"}))
    command = f"cat >> '{log}'; echo >> '{log}'"
    hooks = {event: [{"hooks": [{"type": "command", "command": command}]}] for event in PROBE_EVENTS}
    (folder / "hooks").mkdir()
    (folder / "hooks" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    return folder


def probed(log: Path, event: str) -> list[dict]:
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return [e for e in lines if e.get("hook_event_name") == event]


def kit(route: Route, *args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**route.home.env(), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "session_kit", *args],
        capture_output=True,
        text=True,
        env=environment,
        cwd=route.project,
        timeout=60,
    )


class Watch:
    """The fake's `decide`: holds the slow agent's second request, and while it is held asks
    `session-kit agents` what it sees."""

    def __init__(self) -> None:
        self.route: Route | None = None
        self.seen: dict[str, dict] = {}
        self.problems: list[str] = []

    def __call__(self, exchange):
        if exchange.conversation != "agent:SLOW-AGENT" or exchange.turn != 1 or self.seen:
            return None
        try:
            self._look(exchange.headers.get("x-claude-code-session-id", ""))
        except Exception as exc:  # said in the test, not as a 500 to the client
            self.problems.append(f"{type(exc).__name__}: {exc}")
        return "SLOW-DONE: the lexer is fine."

    def _look(self, session_id: str) -> None:
        assert self.route is not None
        deadline = time.monotonic() + HELD_S
        while time.monotonic() < deadline:  # the fast agent's SubagentStop, then a silence past the threshold
            time.sleep(1.0)
            done = kit(self.route, "agents", session_id, "--json", "--stalled-after", STALL)
            if done.returncode != 0:
                self.problems.append(done.stderr)
                continue
            report = json.loads(done.stdout)
            statuses = sorted(a["status"] for a in report["agents"])
            if statuses == ["finished", "stalled"]:
                self.seen["short"] = report
                break
        longer = kit(self.route, "agents", session_id, "--json", "--stalled-after", "10")
        self.seen["long"] = json.loads(longer.stdout) if longer.returncode == 0 else {"error": longer.stderr}
        text = kit(self.route, "agents", session_id, "--stalled-after", STALL)
        self.seen["text"] = {"out": text.stdout, "err": text.stderr}


@pytest.fixture(scope="module")
def live(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("live-agents")
    log = tmp / "probe.jsonl"
    probe = _probe_plugin(tmp / "probe", log)
    watch = Watch()
    script = Script(
        main={
            "LIVE-START": [
                [
                    agent("Explore", "FAST-AGENT: find the parser", description="Find the parser", background=True),
                    agent("Explore", "SLOW-AGENT: read the lexer", description="Read the lexer", background=True),
                ],
                "Both are running.",
            ],
            "BUDGET-START": [
                [bash("echo $((5*5))-MAIN-BEFORE")],
                [agent("general-purpose", "BUDGET-AGENT: survey", description="Survey", background=False)],
                [bash("echo $((5*5))-MAIN-AFTER")],
                "Done.",
            ],
            "CACHE-START": ["Noted."],
            "CACHE-AGAIN": ["Back again."],
        },
        agents={
            "FAST-AGENT": [[bash("true")], "FAST-DONE: the parser is in src/parse.py."],
            "SLOW-AGENT": [[bash("true")]],  # its second turn: `Watch`
            "BUDGET-AGENT": [
                [bash("echo $((6*7))-AGENT-ONE")],
                [bash("echo $((6*7))-AGENT-TWO")],
                [bash("echo $((6*7))-AGENT-THREE")],
                "BUDGET-REPORT: stopped as told.",
            ],
        },
        decide=watch,
    )
    with plugin_route(claude_binary, tmp, script) as route:
        route.plugin_dirs = (*route.plugin_dirs, probe)
        watch.route = route
        yield route, watch, log


@pytest.fixture(scope="module")
def watched(live):
    route, watch, log = live
    run = route.run("LIVE-START: look at the parser and the lexer")
    return route, watch, log, run


def test_agents_shows_the_finished_one_with_its_last_message_and_the_held_one_stalled(watched):
    route, watch, _log, _run = watched
    assert not watch.problems, watch.problems
    assert "short" in watch.seen, (watch.seen, route.fake.log_tail())
    agents = {a["description"]: a for a in watch.seen["short"]["agents"]}
    fast, slow = agents["Find the parser"], agents["Read the lexer"]
    assert fast["status"] == "finished" and fast["last_message"] == "FAST-DONE: the parser is in src/parse.py."
    assert fast["last_message_source"] == "hooks" and "hooks" in fast["sources"]
    assert slow["status"] == "stalled" and slow["idle_s"] >= 3 and slow["doing"].startswith("Bash")
    assert fast["type"] == slow["type"] == "Explore" and slow["tokens"] > 0
    longer = {a["description"]: a["status"] for a in watch.seen["long"]["agents"]}
    assert longer == {"Find the parser": "finished", "Read the lexer": "running"}
    assert "1 stalled · 1 finished" in watch.seen["text"]["out"], watch.seen["text"]


def test_after_the_run_both_agents_are_finished(watched):
    route, _watch, _log, run = watched
    done = kit(route, "agents", run.session_id, "--json", "--stalled-after", STALL)
    assert done.returncode == 0, done.stderr
    statuses = {a["description"]: (a["status"], a["last_message"]) for a in json.loads(done.stdout)["agents"]}
    assert statuses["Read the lexer"] == ("finished", "SLOW-DONE: the lexer is fine.")


def test_subagent_hooks_get_the_fields_the_kit_reads(watched):
    _route, _watch, log, run = watched
    starts = [e for e in probed(log, "SubagentStart") if e["session_id"] == run.session_id]
    stops = [e for e in probed(log, "SubagentStop") if e["session_id"] == run.session_id]
    assert len(starts) == len(stops) == 2
    for event in starts:
        assert {"agent_id", "agent_type"} <= set(event) and event["agent_type"] == "Explore"
    for event in stops:
        assert {"agent_id", "agent_type", "agent_transcript_path", "last_assistant_message", "stop_hook_active"} <= set(
            event
        )
        assert Path(event["agent_transcript_path"]).name == f"agent-{event['agent_id']}.jsonl"
    assert {e["last_assistant_message"] for e in stops} == {
        "FAST-DONE: the parser is in src/parse.py.",
        "SLOW-DONE: the lexer is fine.",
    }


def test_a_subagent_past_its_budget_is_denied_its_calls_and_the_main_thread_is_not(live):
    route, _watch, log = live
    run = route.run("BUDGET-START: survey the code", env={"SESSION_KIT_AGENT_BUDGET": "1000"})
    fake = route.fake
    assert fake.requests_containing("25-MAIN-BEFORE") and fake.requests_containing("25-MAIN-AFTER"), fake.log_tail()
    agent_texts = [e.text() for e in fake.agent_requests("BUDGET-AGENT")]
    assert any("past its budget of 1,000 tokens" in t for t in agent_texts), fake.log_tail()
    ran = sorted({w for t in agent_texts for w in ("42-AGENT-ONE", "42-AGENT-TWO", "42-AGENT-THREE") if w in t})
    assert ran == [], (ran, [t[-1500:] for t in agent_texts])
    report = json.loads(kit(route, "agents", run.session_id, "--json", env={"SESSION_KIT_AGENT_BUDGET": "1000"}).stdout)
    (survey,) = [a for a in report["agents"] if a["description"] == "Survey"]
    assert survey["over_budget"] is True and survey["denied_calls"] >= 1 and survey["budget"] == 1000
    # PreToolUse carries agent_id/agent_type inside a subagent only
    calls = [e for e in probed(log, "PreToolUse") if e["session_id"] == run.session_id]
    inside = [e for e in calls if e.get("agent_id")]
    main = [e for e in calls if not e.get("agent_id")]
    assert inside and all(e["agent_type"] == "general-purpose" for e in inside)
    assert main and all("agent_type" not in e for e in main)


def _age_last_response(transcript: Path, hours: float) -> None:
    """Move every timestamp of the transcript back: the client measures the cache's age from
    its last assistant response."""
    lines = []
    for line in transcript.read_text().splitlines():
        entry = json.loads(line)
        stamp = entry.get("timestamp")
        if isinstance(stamp, str):
            at = datetime.fromisoformat(stamp.replace("Z", "+00:00")) - timedelta(hours=hours)
            entry["timestamp"] = at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        lines.append(json.dumps(entry))
    transcript.write_text("\n".join(lines) + "\n")


def test_a_resume_after_the_cache_went_cold_tells_the_person_the_clients_cost(live):
    route, _watch, log = live
    first = route.run("CACHE-START: remember this")
    _age_last_response(first.transcript_path, hours=2)
    # stream-json with hook events: where -p shows what a hook said to the person
    again = route.run(
        "CACHE-AGAIN: carry on",
        resume=first.session_id,
        args=["--output-format", "stream-json", "--verbose", "--include-hook-events"],
    )
    (start,) = [
        e for e in probed(log, "SessionStart") if e["session_id"] == first.session_id and e["source"] == "resume"
    ]
    assert start["prompt_cache_likely_expired"] is True and start["seconds_since_last_response"] >= 7200
    assert isinstance(start["estimated_cache_write_usd"], (int, float)) and start["context_tokens"] > 0
    usd = start["estimated_cache_write_usd"]
    figure = f"about ${usd:,.2f}" if usd >= 0.01 else f"about ${usd:.4f}"
    answers = [
        json.loads(json.loads(line)["output"])
        for line in again.stdout.splitlines()
        if '"hook_response"' in line and '"SessionStart"' in line and "systemMessage" in line
    ]
    notices = [a["systemMessage"] for a in answers if "cold" in a.get("systemMessage", "")]
    assert notices and figure in notices[0] and f"{start['context_tokens']:,} tokens" in notices[0], again.stdout[
        -3000:
    ]
    assert all("cache" not in a.get("hookSpecificOutput", {}).get("additionalContext", "") for a in answers)
    assert not route.fake.requests_containing("prompt cache is cold")  # the model is told nothing
