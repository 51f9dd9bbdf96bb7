"""Sessions on disk, shared by the sessions, queries and CLI tests: a short session (`make_session`),
a small Claude root with one rich session per layout (`build`), and one with plans and nested
agents (`build_planned`); and a session deleted as the client deletes it
(`delete_as_the_client_does`)."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.support.transcripts import Transcript


def make_session(
    root: Path, sid: str, *, cwd: str = "/work/proj", mtime: float | None = None, prompt: str = "do it"
) -> Transcript:
    """A short session (noise, one request, one answer) written under `root`, with `mtime` if given."""
    t = Transcript(sid, cwd=cwd)
    t.noise("attachment", size=5000)
    t.user(prompt)
    t.say("ok")
    path = t.write_session(root)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return t


@dataclass
class Built:
    root: Path
    current: Transcript  # current layout: subagents/ + meta, Agent tool, compaction
    legacy: Transcript  # 2025 layout: agent-*.jsonl beside, Task tool, summary entry
    plan_agent: str
    worker_agent: str
    legacy_agent: str


def build(root: Path) -> Built:
    t = Transcript("c0ffee00-1111-2222-3333-444455556666", cwd="/work/proj", branch="feat/kit")
    t.noise("attachment", size=3000)
    t.noise("queue-operation")
    t.user("Please build the feature")
    t.bash("echo hello", "hello\n")
    t.bash("ls /nonexistent-dir", exit_code=2, stderr="ls: cannot access '/nonexistent-dir': No such file or directory")
    w = t.tool_use("Write", {"file_path": "/work/proj/notes.txt", "content": "alpha beta\n"})
    t.tool_result(w, "File created successfully at: /work/proj/notes.txt", extra={"type": "create"})
    r = t.tool_use("Read", {"file_path": "/work/proj/notes.txt"})
    t.tool_result(r, "     1\talpha beta\n", extra={"type": "text"})
    e = t.tool_use("Edit", {"file_path": "/work/proj/notes.txt", "old_string": "beta", "new_string": "gamma"})
    t.tool_result(e, "The file has been updated.", extra={"filePath": "/work/proj/notes.txt"})
    plan_call = t.tool_use(
        "Agent", {"subagent_type": "Plan", "description": "Plan the feature", "prompt": "Make a plan for the feature"}
    )
    plan = Transcript(t.session_id, cwd=t.cwd, agent_id="a11ce0000000plan", start=t.clock)
    plan.user("Make a plan for the feature")
    plan.say("1. Do A\n2. Do B")
    t.clock = plan.clock
    t.tool_result(
        plan_call,
        [{"type": "text", "text": "1. Do A\n2. Do B"}],
        extra={"agentId": "a11ce0000000plan", "status": "completed"},
    )
    work_call = t.tool_use(
        "Agent",
        {"subagent_type": "general-purpose", "description": "Run the checks", "prompt": "Run the checks please"},
    )
    worker = Transcript(t.session_id, cwd=t.cwd, agent_id="b0b000000000work", start=t.clock)
    worker.user("Run the checks please")
    worker.bash("make check", exit_code=3, stderr="make: *** [check] Error 3 SENTINEL_FAILURE")
    worker.say("The checks failed with exit code 3.")
    t.clock = worker.clock
    t.tool_result(
        work_call,
        [{"type": "text", "text": "The checks failed with exit code 3."}],
        extra={"agentId": "b0b000000000work", "status": "completed"},
    )
    t.tool_use("ExitPlanMode", {"plan": "# The Plan\n\nDo A, then B."})
    t.compact("Summary: the feature was planned; checks failed.")
    t.user("Go on after compaction")
    t.say("Continuing.")
    t.write_session(root)
    plan.write_subagent(
        root, t, meta={"agentType": "Plan", "description": "Plan the feature", "toolUseId": plan_call, "spawnDepth": 1}
    )
    worker.write_subagent(
        root,
        t,
        meta={"agentType": "general-purpose", "description": "Run the checks", "toolUseId": work_call, "spawnDepth": 1},
    )

    old = Transcript("0ld5e551-0000-0000-0000-000000000000", cwd="/work/old", branch="main")
    old.summary_2025("Earlier: explored the repo")
    old.raw({"type": "file-history-snapshot", "messageId": "m", "snapshot": {}})
    old.user("Explore the old code")
    task = old.tool_use(
        "Task", {"subagent_type": "Explore", "description": "Explore code", "prompt": "Find the parser"}
    )
    explorer = Transcript(old.session_id, cwd=old.cwd, agent_id="e4c0de01", start=old.clock)
    explorer.user("Find the parser")
    explorer.bash("grep -rn parse src", "src/parser.py:1:def parse")
    explorer.say("The parser is in src/parser.py")
    old.clock = explorer.clock
    old.tool_result(task, "The parser is in src/parser.py")
    old.write_session(root)
    explorer.write_legacy_agent(root, old)
    return Built(root, t, old, "a11ce0000000plan", "b0b000000000work", "e4c0de01")


@dataclass
class Planned:
    """Two sessions of one project running at the same time (current layout), and two of an
    older project (2025 layout); each with its own plans, and agents nested and failing."""

    root: Path
    alpha: Transcript  # slug plan file, Plan agent, nested agents, an agent ending in an API error
    beta: Transcript  # same project, same time, its own plan file (written last)
    old: Transcript  # 2025 layout: a Task-spawned Plan agent beside the sessions
    old_other: Transcript  # same 2025 project, its own plan and agent
    plan_agent: str
    outer_agent: str
    inner_agent: str
    error_agent: str
    legacy_plan_agent: str
    markup_error: str


MARKUP_ERROR = "<b>not bold</b> [red]not red[/red] <tool_use_error>kept</tool_use_error> \x1b[1m"


def build_planned(root: Path) -> Planned:
    plans = root / "plans"
    plans.mkdir(parents=True, exist_ok=True)
    a = Transcript("a1fa0000-0000-0000-0000-000000000001", cwd="/work/multi", slug="alpha-slug-one")
    b = Transcript("be7a0000-0000-0000-0000-000000000002", cwd="/work/multi", slug="beta-slug-two")
    a.user("Plan and build it")
    a.attachment(
        "plan_mode",
        reminderType="full",
        isSubAgent=False,
        planFilePath=str(plans / "alpha-slug-one.md"),
        planExists=False,
    )
    w = a.tool_use("Write", {"file_path": str(plans / "alpha-slug-one.md"), "content": "# ALPHA PLAN FILE\n1. first\n"})
    a.tool_result(
        w, "File created successfully", extra={"type": "create", "filePath": str(plans / "alpha-slug-one.md")}
    )
    # a Plan agent
    pc = a.tool_use(
        "Agent", {"subagent_type": "Plan", "description": "Design it", "prompt": "ALPHA-PLAN-AGENT: design it"}
    )
    plan = Transcript(a.session_id, cwd=a.cwd, agent_id="aplan0000000001", start=a.clock)
    plan.user("ALPHA-PLAN-AGENT: design it")
    plan.tool_use("ExitPlanMode", {"plan": "ALPHA AGENT EXIT PLAN"})
    plan.say("ALPHA PLAN AGENT ANSWER: step one, step two")
    a.clock = plan.clock
    a.tool_result(
        pc,
        [{"type": "text", "text": "ALPHA PLAN AGENT ANSWER"}],
        extra={"agentId": "aplan0000000001", "status": "completed"},
    )
    # a general-purpose agent whose Bash fails and which starts an Explore agent that fails too
    oc = a.tool_use(
        "Agent", {"subagent_type": "general-purpose", "description": "Outer work", "prompt": "OUTER: do the work"}
    )
    outer = Transcript(a.session_id, cwd=a.cwd, agent_id="aouter000000002", start=a.clock)
    outer.user("OUTER: do the work")
    outer.bash("make it", exit_code=7, stderr=MARKUP_ERROR)
    nc = outer.tool_use(
        "Agent", {"subagent_type": "Explore", "description": "Inner look", "prompt": "INNER: look around"}
    )
    inner = Transcript(a.session_id, cwd=a.cwd, agent_id="ainner000000003", start=outer.clock)
    inner.user("INNER: look around")
    inner.bash("cat /nonexistent-inner", exit_code=1, stderr="cat: /nonexistent-inner: No such file or directory")
    inner.say("Inner report.")
    outer.clock = inner.clock
    outer.tool_result(nc, [{"type": "text", "text": "Inner report."}])  # no toolUseResult inside agents (observed)
    outer.say("Outer report.")
    a.clock = outer.clock
    a.tool_result(
        oc, [{"type": "text", "text": "Outer report."}], extra={"agentId": "aouter000000002", "status": "completed"}
    )
    # an agent whose API call failed: its log ends in an API error, its spawning call failed
    ec = a.tool_use("Agent", {"subagent_type": "general-purpose", "description": "Erroring one", "prompt": "ERR: fail"})
    err = Transcript(a.session_id, cwd=a.cwd, agent_id="aerror000000004", start=a.clock)
    err.user("ERR: fail")
    err.api_error("API Error: 400 FAKE-BAD-REQUEST")
    a.clock = err.clock
    failure = "Agent terminated early due to an API error: API Error: 400 FAKE-BAD-REQUEST"
    a.tool_result(ec, failure, is_error=True, extra=f"Error: {failure}")
    a.tool_use("ExitPlanMode", {"plan": "ALPHA EXIT PLAN"})
    a.say("Done.")
    a.write_session(root)
    plan.write_subagent(
        root, a, meta={"agentType": "Plan", "description": "Design it", "toolUseId": pc, "spawnDepth": 1}
    )
    outer.write_subagent(
        root, a, meta={"agentType": "general-purpose", "description": "Outer work", "toolUseId": oc, "spawnDepth": 1}
    )
    inner.write_subagent(
        root,
        a,
        meta={
            "agentType": "Explore",
            "description": "Inner look",
            "toolUseId": nc,
            "parentAgentId": "aouter000000002",
            "spawnDepth": 2,
        },
    )
    err.write_subagent(
        root, a, meta={"agentType": "general-purpose", "description": "Erroring one", "toolUseId": ec, "spawnDepth": 1}
    )
    (plans / "alpha-slug-one.md").write_text("# ALPHA PLAN FILE\n1. first\n")

    b.user("Another plan, same project, same time")
    b.tool_use("ExitPlanMode", {"plan": "BETA EXIT PLAN"})
    b.write_session(root)
    (plans / "beta-slug-two.md").write_text("# BETA PLAN FILE\n")
    (plans / "unlinked-newest.md").write_text("# NOBODY'S PLAN\n")
    now = os.stat(plans / "alpha-slug-one.md").st_mtime
    os.utime(plans / "alpha-slug-one.md", (now - 100, now - 100))
    os.utime(plans / "beta-slug-two.md", (now - 50, now - 50))  # newer than alpha's

    old = Transcript("01d00000-0000-0000-0000-000000000005", cwd="/work/old2")
    old.user("Plan the old way")
    task = old.tool_use("Task", {"subagent_type": "Plan", "description": "Old plan", "prompt": "LEGACY-PLAN: plan it"})
    planner = Transcript(old.session_id, cwd=old.cwd, agent_id="0ldp1an5", start=old.clock)
    planner.user("LEGACY-PLAN: plan it")
    planner.say("LEGACY PLAN AGENT ANSWER")
    old.clock = planner.clock
    old.tool_result(task, "LEGACY PLAN AGENT ANSWER")
    old.tool_use("ExitPlanMode", {"plan": "LEGACY EXIT PLAN"})
    old.write_session(root)
    planner.write_legacy_agent(root, old)
    other = Transcript("01d00000-0000-0000-0000-000000000006", cwd="/work/old2", start=old.clock)
    other.user("Another old session")
    t2 = other.tool_use("Task", {"subagent_type": "Plan", "description": "Other plan", "prompt": "OTHER-LEGACY: plan"})
    op = Transcript(other.session_id, cwd=other.cwd, agent_id="07herp1a", start=other.clock)
    op.user("OTHER-LEGACY: plan")
    op.say("OTHER LEGACY PLAN AGENT ANSWER")
    other.clock = op.clock
    other.tool_result(t2, "OTHER LEGACY PLAN AGENT ANSWER")
    other.tool_use("ExitPlanMode", {"plan": "OTHER LEGACY EXIT PLAN"})
    other.write_session(root)
    op.write_legacy_agent(root, other)
    return Planned(
        root,
        a,
        b,
        old,
        other,
        "aplan0000000001",
        "aouter000000002",
        "ainner000000003",
        "aerror000000004",
        "0ldp1an5",
        MARKUP_ERROR,
    )


def agent_runs(root: Path, session_id: str) -> list:
    """The linked agent runs of the session `session_id` under `root`, calls with their payload."""
    from session_kit.sessions.resolve import resolve_session
    from session_kit.sessions.session import Session

    return Session(resolve_session(session_id, root), keep_payload=True).agents


@dataclass
class Leaky:
    """A session whose prompts, commands, tool output, agents, plan and compaction summary
    hold secrets (fake ones, in their vendors' shapes), some placed where the kit cuts text."""

    root: Path
    session: Transcript
    agent: str
    secrets: tuple[str, ...]


ANTHROPIC_KEY = "sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyuiopASDFGH12-AA"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY9Q7ZK2MXKEY"
PG_PASSWORD = "Sup3rS3cretPgPass-x9Kq7Zt2Lw4"
GITHUB_TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
STRIPE_KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
PROMPT_PASSWORD = "hunter2-Tr0ub4dor-correct-horse"
AGENT_TOKEN = "glpat-9xQ2kR7mN1pV8sT3yB6c"


def build_leaky(root: Path) -> Leaky:
    t = Transcript("5ec2e700-aaaa-bbbb-cccc-ddddeeeeffff", cwd="/work/leaky")
    # cut at the listing's 200 characters and the request preview's 300, inside the secret
    head = "x" * 168 + f" password={PROMPT_PASSWORD} "
    t.user(head + "y" * (290 - len(head) - 8) + f" token: {STRIPE_KEY} and more")
    t.bash(
        "cat ~/.aws/credentials && echo $ANTHROPIC_API_KEY",
        f"[default]\naws_access_key_id = AKIAIOSFODNN7Q7ZK2MX\naws_secret_access_key = {AWS_SECRET}\n{ANTHROPIC_KEY}\n",
    )
    # the summary of a command is cut at 160 characters: the URL's `@` falls after the cut
    t.bash(
        "psql " + "-v ON_ERROR_STOP=1 " * 6 + f"postgres://app:{PG_PASSWORD}@db.internal:5432/app -c 'select 1'",
        exit_code=2,
        stderr=f"psql: error: connection to postgres://app:{PG_PASSWORD}@db.internal failed",
    )
    call = t.tool_use(
        "Agent",
        {
            "subagent_type": "general-purpose",
            "description": f"Push with {GITHUB_TOKEN}",
            "prompt": f"Use {AGENT_TOKEN}",
        },
    )
    agent = Transcript(t.session_id, cwd=t.cwd, agent_id="1eaf1eaf00000001", start=t.clock)
    agent.user(f"Use {AGENT_TOKEN}")
    agent.bash(
        f"git push https://oauth2:{AGENT_TOKEN}@gitlab.example.com/a/b.git",
        exit_code=128,
        stderr=f"denied for {AGENT_TOKEN}",
    )
    agent.say(f"Failed: the token {AGENT_TOKEN} was refused.")
    t.clock = agent.clock
    t.tool_result(call, [{"type": "text", "text": "Failed."}], extra={"agentId": agent.agent_id, "status": "completed"})
    t.tool_use("ExitPlanMode", {"plan": f"# Plan\n\nSet STRIPE_KEY={STRIPE_KEY} in prod."})
    t.compact(f"Summary: keys used were {ANTHROPIC_KEY} and AWS_SECRET_ACCESS_KEY={AWS_SECRET}.")
    t.raw(
        {
            "type": "x-telemetry",
            "sessionId": t.session_id,
            "body": {"env": f'{{\\"password\\": \\"{PROMPT_PASSWORD}\\"}}'},
        }
    )
    t.write_session(root)
    agent.write_subagent(
        root,
        t,
        meta={"agentType": "general-purpose", "description": f"Push with {GITHUB_TOKEN}", "toolUseId": call},
    )
    secrets = (ANTHROPIC_KEY, AWS_SECRET, PG_PASSWORD, GITHUB_TOKEN, STRIPE_KEY, PROMPT_PASSWORD, AGENT_TOKEN)
    return Leaky(root, t, agent.agent_id, secrets)


def delete_as_the_client_does(root: Path, sid: str) -> None:
    """Remove a session's transcript and its folder, as the client's clean-up does."""
    project = root / "projects" / "-work-proj"
    (project / f"{sid}.jsonl").unlink()
    shutil.rmtree(project / sid, ignore_errors=True)
