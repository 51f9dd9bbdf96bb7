"""The kit's slash commands inside the real client, by both routes: `./install.sh` (bare
`/debug-agent`) and `--plugin-dir` (namespaced `/session-kit:debug-agent`).

Each route gets one home and one scripted session, in which a Plan agent and a
general-purpose agent run and the latter's `Bash` call fails (the general-purpose agent also
starts an Explore agent), and the main conversation proposes a plan with ExitPlanMode. Then,
in order, what the fake API receives proves:
- `/debug-agent` puts both agents, the failing command, its exit code and its error text into
  the request (the command file's `!` line ran the kit with `${CLAUDE_SESSION_ID}`);
- what a person types after `/debug-agent` never becomes shell;
- `/plan` returns this session's plan, and a second session of the same project, with a plan
  of its own, does not leak into it (nor the other way round);
- `/session-info` gives the session's card;
- the same for the older layout: hand-made 2025-style sessions (agent logs beside the
  sessions, `Task` calls) resumed in the client;
- (install route) plan files written in plan mode by two sessions of one project each stay
  with their own session, though the other one's file is newer.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from session_kit.base.encoding import encode_project_dir
from tests.support.transcripts import Transcript  # hand-made files

from .fake_api import Exchange, Script, agent, bash, exit_plan_mode, tool_use
from .routes import Route, installed_route, plugin_route

MISSING = "/nonexistent-e2e-debug-file"
PLAN_ALPHA = "PLAN-ALPHA-E2E: 1. read the notes 2. fix them"
PLAN_BETA = "PLAN-BETA-E2E: the other session's plan"
LEGACY_MISSING = "/nonexistent-legacy-file"
LEGACY_PLAN = "LEGACY-PLAN-E2E: the old session's plan"
LEGACY_OTHER_PLAN = "LEGACY-OTHER-PLAN-E2E: its neighbour's plan"
# The client names the plan file in its plan-mode reminder (observed with 2.1.328).
PLAN_FILE = re.compile(r"(/[^\s`'\"]+/plans/[^\s`'\"]+\.md)")


def _write_plan_file(exchange: Exchange):
    """In plan mode, write `# <tag>-CONTENT` to the plan file the client named."""
    prompt = exchange.last_human_text
    if exchange.conversation != "main" or exchange.turn != 0 or "PLANFILE-" not in prompt:
        return None
    found = PLAN_FILE.search(exchange.text())
    if not found:
        return "No plan file was named."
    tag = prompt[prompt.index("PLANFILE-") :].split(":")[0]
    return [tool_use("Write", {"file_path": found.group(1), "content": f"# {tag}-CONTENT\n"})]


def script() -> Script:
    return Script(
        main={
            "AGENTS-START": [
                [
                    agent("Plan", "PLAN-AGENT-E2E: design the fix", description="Design the fix", background=False),
                    agent(
                        "general-purpose",
                        "WORKER-E2E: check the notes",
                        description="Check the notes",
                        background=False,
                    ),
                ],
                [exit_plan_mode(PLAN_ALPHA)],
                "Started.",
            ],
            "OTHER-SESSION": [[exit_plan_mode(PLAN_BETA)], "Other done."],
        },
        agents={
            "PLAN-AGENT-E2E": ["Plan agent report: PLAN-AGENT-REPORT-E2E"],
            "WORKER-E2E": [
                [bash(f"cat {MISSING}")],
                [agent("Explore", "NESTED-E2E: look around", description="Look around", background=False)],
                "Worker report: the file is missing.",
            ],
            "NESTED-E2E": ["Nested report."],
        },
        decide=_write_plan_file,
    )


@pytest.fixture(scope="module")
def installed(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with installed_route(claude_binary, tmp_path_factory.mktemp("commands-installed"), script()) as route:
        yield route


@pytest.fixture(scope="module")
def plugin(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with plugin_route(claude_binary, tmp_path_factory.mktemp("commands-plugin"), script()) as route:
        yield route


@pytest.fixture(params=["installed", "plugin"], scope="module")
def route(request: pytest.FixtureRequest) -> Route:
    return request.getfixturevalue(request.param)


# --- helpers ------------------------------------------------------------------------------------


def slash(route: Route, name: str, args: str = "", *, session: str) -> str:
    """Run a kit slash command in `session`; the text of the main requests it caused."""
    before = len(route.fake.exchanges)
    route.run(f"{route.command(name)} {args}".rstrip(), resume=session)
    texts = [e.text() for e in route.fake.exchanges[before:] if e.conversation == "main"]
    assert texts, route.fake.log_tail()
    return texts[-1]


def agents_on_disk(route: Route, session_id: str) -> dict[str, str]:
    """agentType -> agentId, read from the client's own meta files (not through the kit)."""
    folder = route.home.projects / encode_project_dir(str(route.project.resolve())) / session_id / "subagents"
    metas = {p: json.loads(p.read_text()) for p in folder.glob("agent-*.meta.json")}
    return {m["agentType"]: p.name[len("agent-") : -len(".meta.json")] for p, m in metas.items()}


def kit_json(route: Route, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(route.home.config_dir), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# --- the current layout ------------------------------------------------------------------------


def test_debug_agent_puts_both_agents_and_the_failure_into_the_request(route: Route):
    run = route.run("AGENTS-START: run a Plan agent and a worker, then propose a plan")
    route.session_id = run.session_id
    ids = agents_on_disk(route, run.session_id)
    assert {"Plan", "general-purpose", "Explore"} <= set(ids), ids
    sent = slash(route, "debug-agent", session=run.session_id)
    assert ids["Plan"] in sent and ids["general-purpose"] in sent, sent[-3000:]
    assert f"cat {MISSING}" in sent and "exit 1" in sent
    assert f"cat: {MISSING}: No such file or directory" in sent
    assert f"Session {run.session_id}" in sent  # ${CLAUDE_SESSION_ID} reached the `!` line
    # the agent the worker started is nested under it (checked on the client's files)
    nested = {a["agent_id"]: a for a in kit_json(route, "debug-agent", "--all", "--session", run.session_id)["agents"]}
    assert nested[ids["Explore"]]["parent_agent_id"] == ids["general-purpose"] and nested[ids["Explore"]]["depth"] == 1


def test_arguments_never_become_shell(route: Route, tmp_path: Path):
    pwned = tmp_path / "pwned"
    args = f'x"; touch {pwned}1; " $(touch {pwned}2) `touch {pwned}3` !`touch {pwned}4`'
    sent = slash(route, "debug-agent", args, session=route.session_id)
    assert not list(tmp_path.glob("pwned*"))
    assert f"touch {pwned}1" in sent  # handed to the model as text
    assert f"cat {MISSING}" in sent  # and the kit's own command still ran


def test_plan_is_this_sessions_and_never_another_sessions(route: Route):
    other = route.run("OTHER-SESSION: plan something else in the same project")
    assert other.session_id != route.session_id
    mine = slash(route, "plan", session=route.session_id)
    assert PLAN_ALPHA in mine and PLAN_BETA not in mine, mine[-2000:]
    theirs = slash(route, "plan", session=other.session_id)
    assert PLAN_BETA in theirs and PLAN_ALPHA not in theirs


def test_session_info_gives_the_card(route: Route):
    sent = slash(route, "session-info", session=route.session_id)
    assert f"Session {route.session_id}" in sent and f"{route.session_id}.jsonl" in sent
    assert "agents:      3, 1 failed" in sent
    key = encode_project_dir(str(route.project.resolve()))
    assert str(route.state_root / "projects" / key / "sessions" / route.session_id) in sent
    assert "(not created yet)" not in sent  # the kit's hook made it at session start


# --- the older layout, on hand-made files ---------------------------------------------------------


def _legacy(route: Route, session_id: str, plan: str, *, failing: str | None, start: datetime) -> dict[str, str]:
    """A 2025-style session of the route's project: `Task` calls, agent logs beside it."""
    t = Transcript(session_id, cwd=str(route.project.resolve()), start=start)
    t.user("Plan the old way")
    agents = {}
    for kind, prompt in (("Plan", "LEGACY-PLANNER: plan"), ("general-purpose", "LEGACY-WORKER: work")):
        call = t.tool_use("Task", {"subagent_type": kind, "description": f"Old {kind}", "prompt": prompt})
        agent_id = f"{kind[:4].lower()}{session_id[-6:]}"  # unique per session
        log = Transcript(session_id, cwd=t.cwd, agent_id=agent_id, start=t.clock)
        log.user(prompt)
        if kind == "general-purpose" and failing:
            log.bash(f"cat {failing}", exit_code=1, stderr=f"cat: {failing}: No such file or directory")
        log.say(f"{kind} report")
        t.clock = log.clock
        t.tool_result(call, f"{kind} report")
        log.write_legacy_agent(route.home.config_dir, t)
        agents[kind] = agent_id
    t.tool_use("ExitPlanMode", {"plan": plan})
    t.say("Proposed.")
    for line in t.lines:
        line["version"] = "1.0.98"
    t.write_session(route.home.config_dir)
    return agents


def test_older_layout_debug_agent_and_plan(route: Route):
    at = datetime(2025, 9, 1, 9, 0, tzinfo=timezone.utc)  # both at once: linked by sessionId, not time
    old, neighbour = "01d5e551-0000-4000-8000-000000000001", "01d5e551-0000-4000-8000-000000000002"
    mine = _legacy(route, old, LEGACY_PLAN, failing=LEGACY_MISSING, start=at)
    theirs = _legacy(route, neighbour, LEGACY_OTHER_PLAN, failing=None, start=at)
    sent = slash(route, "debug-agent", session=old)
    assert mine["Plan"] in sent and mine["general-purpose"] in sent, sent[-3000:]
    assert f"cat {LEGACY_MISSING}" in sent and "exit 1" in sent and "No such file or directory" in sent
    assert theirs["Plan"] not in sent and theirs["general-purpose"] not in sent
    plan = slash(route, "plan", session=old)
    assert LEGACY_PLAN in plan and LEGACY_OTHER_PLAN not in plan
    other = slash(route, "plan", session=neighbour)
    assert LEGACY_OTHER_PLAN in other and LEGACY_PLAN not in other


# --- plan files, written by the real client in plan mode --------------------------------------------


def test_plan_files_stay_with_their_session(installed: Route):
    one = installed.run("PLANFILE-ONE: make a plan", permission_mode="plan")
    two = installed.run("PLANFILE-TWO: make another plan", permission_mode="plan")  # its file is newer
    files = sorted(p.read_text() for p in (installed.home.config_dir / "plans").glob("*.md"))
    assert files == ["# PLANFILE-ONE-CONTENT\n", "# PLANFILE-TWO-CONTENT\n"], installed.fake.log_tail()
    sent = slash(installed, "plan", session=one.session_id)
    assert "PLANFILE-ONE-CONTENT" in sent and "PLANFILE-TWO-CONTENT" not in sent, sent[-2000:]
    sent = slash(installed, "plan", session=two.session_id)
    assert "PLANFILE-TWO-CONTENT" in sent and "PLANFILE-ONE-CONTENT" not in sent


# --- the kit's own echoes, as the real client writes them ------------------------------------------


def test_search_leaves_out_what_a_kit_command_wrote_and_lists_it_last_with_kit(route: Route):
    # the kit's command as a new session's first prompt: its request and body hold the word
    run = route.run(f"{route.command('sessions-search')} kitechoword")
    for engine in ((), ("--scan",)):
        doc = kit_json(route, "search", "kitechoword", "--all", *engine)
        assert doc["hits"] == [] and doc["kit_hits"] >= 2, doc
        shown = kit_json(route, "search", "kitechoword", "--all", "--kit", *engine)["hits"]
        assert shown and all(h["kit"] and h["session_id"] == run.session_id for h in shown)
    listed = {s["id"]: s for s in kit_json(route, "sessions", "--all")["sessions"]}
    assert listed[run.session_id]["first_prompt"] is None  # the kit's request is not the person's
