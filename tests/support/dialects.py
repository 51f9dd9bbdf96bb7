"""Hand-made Claude roots, one per generation of the client's transcript format.

Each builder writes under `root` what a client of that generation writes (as described in
the facts page's "Entries in a transcript"), small enough to read in a test:
- `inline_1_0`: 1.0.x — `summary` title lines stacked on top, subagent threads INLINE in the
  main file (`isSidechain: true`), an empty `gitBranch`, interruption markers, `!` command
  output, IDE context tags and local slash commands among the user entries, one real
  compaction.
- `legacy_2_0`: 2.0.x — agent logs beside the sessions, the `Task` tool, `agentId: <id>` in a
  result's text, both forms of warmup logs, and an ExitPlanMode with empty input whose plan
  is in the plan file its result names.
- `subagents_2_1`: 2.1.x — `subagents/` with and without meta files, a workflow run's agents,
  agents whose logs are gone, and a plan file that is gone.
- `every_type_2_1_330`: a 2.1.330 session holding every line type that client writes: hook
  `progress` lines around each call (most of the file, as in real use), `permission-mode` and
  `mode` changes, title lines, attachments of every kind named in the facts, snapshots, the
  client's request and queue bookkeeping, and a compaction.
- `denials_2_1_328`: calls denied as 2.1.328 writes them, the entry of each result marked
  `toolDenialKind`: a host's or rule's deny with an empty message, a rejection at the prompt, a
  spawning call rejected, an interruption, auto mode's own refusal, and one real failure.
- `odd_files`: a renamed copy of a session, a file holding two session ids, agent logs whose
  main transcript is gone (orphans), and a file that is not a transcript at all.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from session_kit.base.encoding import encode_project_dir
from tests.support.transcripts import Transcript

PLAIN_PROMPT = "Fix the parser so that it reads nested lists"


@dataclass
class Inline10:
    root: Path
    session: Transcript
    path: Path
    title: str
    search_task: str  # the Task call ids, and the inline threads' prompts
    failing_task: str
    thread_prompts: tuple[str, str]


def inline_1_0(root: Path) -> Inline10:
    t = Transcript("10a00000-0000-0000-0000-000000000001", cwd="/work/one", branch="", version="1.0.98")
    t.lines.append({"type": "summary", "summary": "Somebody else's title", "leafUuid": "ffff0000-other-session"})
    # The titles of this session are written as the session goes on: filled in below, once
    # the uuids they point at exist (the client writes them on top of the file).
    t.raw({"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}, "isSnapshotUpdate": False})
    first = t.user("<ide_opened_file>The user opened the file /work/one/src/parser.py in the IDE.</ide_opened_file>")
    t.user(PLAIN_PROMPT)
    t.say("Looking at the parser.")
    search = t.tool_use(
        "Task", {"subagent_type": "general-purpose", "description": "Find the parser", "prompt": "SEARCH: find it"}
    )
    thread = t.inline_agent()
    thread.user("SEARCH: find it")
    grep = thread.tool_use("Grep", {"pattern": "def parse", "path": "src"})
    thread.tool_result(grep, "src/parser.py:10:def parse(text):")
    thread.say("The parser is in src/parser.py, line 10.")
    t.clock = thread.clock
    t.tool_result(
        search,
        [{"type": "text", "text": "The parser is in src/parser.py, line 10."}],
        extra={"content": [{"type": "text", "text": "The parser is in src/parser.py, line 10."}]},
    )
    failing = t.tool_use(
        "Task", {"subagent_type": "general-purpose", "description": "Run the tests", "prompt": "TESTS: run them"}
    )
    runner = t.inline_agent()
    runner.user("TESTS: run them")
    runner.bash("pytest -q", exit_code=1, stderr="E   AssertionError: INLINE_SENTINEL")
    runner.say("One test fails.")
    t.clock = runner.clock
    t.tool_result(failing, [{"type": "text", "text": "One test fails."}])
    t.user("[Request interrupted by user for tool use]")
    t.user("<bash-input>git status</bash-input>")
    t.user("<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>")
    t.user(
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>"
    )
    t.user("<local-command-stdout></local-command-stdout>")
    t.bash("git diff", "diff --git a/src/parser.py")
    t.compact("Summary: the parser was found; one test fails.")
    t.user("Now make the failing test pass")
    last = t.say("Done.")[0]
    # Titles: an early one and the latest one point into this session; the first line is
    # another session's (its leafUuid is not here).
    t.lines.insert(1, {"type": "summary", "summary": "Parser work (early title)", "leafUuid": first["uuid"]})
    t.lines.insert(2, {"type": "summary", "summary": "Fix the nested-list parser", "leafUuid": last["uuid"]})
    path = t.write_session(root)
    return Inline10(
        root, t, path, "Fix the nested-list parser", search, failing, ("SEARCH: find it", "TESTS: run them")
    )


@dataclass
class Legacy20:
    root: Path
    session: Transcript
    path: Path
    agent: str  # the agent with a log, named by `agentId: <id>` in its result's text
    warmups: tuple[str, str]  # a `Warmup` prompt; a lone greeting
    plan_file: Path
    title: str


def legacy_2_0(root: Path) -> Legacy20:
    plans = root / "plans"
    plans.mkdir(parents=True, exist_ok=True)
    t = Transcript("20b00000-0000-0000-0000-000000000002", cwd="/work/two", branch="dev", version="2.0.30")
    t.lines.append({"type": "summary", "summary": "Refactor the loader", "leafUuid": "ffff0000-unknown"})
    t.user("Refactor the loader")
    task = t.tool_use(
        "Task", {"subagent_type": "Explore", "description": "Map the loader", "prompt": "MAP: the loader"}
    )
    explorer = Transcript(t.session_id, cwd=t.cwd, branch="dev", agent_id="2e4c0de1", start=t.clock, version="2.0.30")
    explorer.user("MAP: the loader")
    explorer.bash("ls src/loader", "a.py b.py")
    explorer.say("The loader is two files.")
    t.clock = explorer.clock
    t.tool_result(task, [{"type": "text", "text": "The loader is two files.\n\nagentId: 2e4c0de1"}])
    plan_file = plans / "refactor-loader-plan.md"
    plan_file.write_text("# LOADER PLAN\n1. Merge a.py into b.py\n")
    exit_call = t.tool_use("ExitPlanMode", {})
    t.tool_result(
        exit_call,
        "User has approved your plan.",
        extra={"plan": None, "isAgent": False, "filePath": str(plan_file)},
    )
    t.say("Refactoring now.")
    t.write_session(root)
    explorer.write_legacy_agent(root, t)
    warm = Transcript(t.session_id, cwd=t.cwd, agent_id="3a3a0001", start=t.clock, version="2.0.30")
    warm.user("Warmup")
    warm.say("I'm ready to help you search the codebase.")
    warm.write_legacy_agent(root, t)
    greet = Transcript(t.session_id, cwd=t.cwd, agent_id="3a3a0002", start=t.clock, version="2.0.30")
    greet.say("Hello! I'm Claude Code, ready to help. What would you like me to do?")
    greet.write_legacy_agent(root, t)
    return Legacy20(
        root, t, t.write_session(root), "2e4c0de1", ("3a3a0001", "3a3a0002"), plan_file, "Refactor the loader"
    )


@dataclass
class Subagents21:
    root: Path
    session: Transcript
    path: Path
    with_meta: str
    without_meta: str
    workflow: str
    missing: tuple[str, str]  # agents whose logs are gone: by toolUseResult.agentId, by result text
    missing_plan: Path


def subagents_2_1(root: Path) -> Subagents21:
    t = Transcript("21c00000-0000-0000-0000-000000000003", cwd="/work/three", branch="main")
    t.noise("attachment", size=500)
    t.user("Audit the service")
    project = root / "projects" / encode_project_dir(t.cwd)
    sub = project / t.session_id / "subagents"

    c1 = t.tool_use("Agent", {"subagent_type": "Explore", "description": "Read the code", "prompt": "READ: the code"})
    a1 = Transcript(t.session_id, cwd=t.cwd, agent_id="a21meta000000001", start=t.clock)
    a1.user("READ: the code")
    a1.bash("wc -l src/*.py", "120 total")
    a1.say("120 lines.")
    t.clock = a1.clock
    t.tool_result(c1, [{"type": "text", "text": "120 lines."}], extra={"agentId": a1.agent_id, "status": "completed"})

    c2 = t.tool_use(
        "Agent", {"subagent_type": "general-purpose", "description": "Run the audit", "prompt": "AUDIT: run it"}
    )
    a2 = Transcript(t.session_id, cwd=t.cwd, agent_id="a21nometa0000002", start=t.clock)
    a2.user("AUDIT: run it")
    a2.bash("audit --strict", exit_code=4, stderr="audit: 2 findings NOMETA_SENTINEL")
    a2.say("Two findings.")
    t.clock = a2.clock
    t.tool_result(
        c2, [{"type": "text", "text": "Two findings."}], extra={"agentId": a2.agent_id, "status": "completed"}
    )

    c3 = t.tool_use(
        "Agent", {"subagent_type": "Explore", "description": "Gone with its log", "prompt": "GONE: look at logs"}
    )
    t.tick(30)
    t.tool_result(
        c3, [{"type": "text", "text": "Logs look fine."}], extra={"agentId": "a21gone000000004", "status": "completed"}
    )
    c4 = t.tool_use("Agent", {"subagent_type": "Plan", "description": "Plan, log gone too", "prompt": "GONE2: plan"})
    t.tick(12)
    t.tool_result(c4, "Plan ready.\nagentId: a21gone000000005 (use SendMessage to continue)")
    c5 = t.tool_use("Agent", {"description": "Failed early", "prompt": "GONE3: fail"})
    t.tick(2)
    t.tool_result(c5, "Agent terminated early due to an API error", is_error=True, extra="Error: terminated")

    missing_plan = root / "plans" / "gone-plan.md"
    ep = t.tool_use("ExitPlanMode", {})
    t.tool_result(ep, "User has approved your plan.", extra={"plan": None, "filePath": str(missing_plan)})

    t.user("<bash-stdout>ok</bash-stdout><bash-stderr></bash-stderr>")
    t.user("[Request interrupted by user]")
    t.user("<ide_selection>The user selected lines 1-3 of /work/three/a.py</ide_selection>\nExplain these lines")
    t.say("Done.")
    path = t.write_session(root)

    a1.write_subagent(
        root, t, meta={"agentType": "Explore", "description": "Read the code", "toolUseId": c1, "spawnDepth": 1}
    )
    a2.write_subagent(root, t)  # no meta file: linked by the result's agentId
    run = sub / "workflows" / "run-7f3a"
    wf = Transcript(t.session_id, cwd=t.cwd, agent_id="a21flow000000003", start=t.clock)
    wf.user("WORKFLOW: step one")
    wf.bash("make lint", "clean")
    wf.say("Lint is clean.")
    wf.write(run / f"agent-{wf.agent_id}.jsonl")
    (run / f"agent-{wf.agent_id}.meta.json").write_text(
        json.dumps({"agentType": "workflow-step", "description": "Lint step"})
    )
    return Subagents21(
        root,
        t,
        path,
        a1.agent_id or "",
        a2.agent_id or "",
        wf.agent_id or "",
        ("a21gone000000004", "a21gone000000005"),
        missing_plan,
    )


# What the 2.1.330 client writes besides the conversation (the facts page, "Noise" and "Added
# 2026-11-26"): every one of them is bookkeeping, none may reach an output.
BOOKKEEPING_2_1_330 = (
    "api-request",
    "api-request-shape",
    "api-request-blob",
    "queue-operation",
    "atis-latch",
    "last-prompt",
    "tools-used",
    "cost-state",
    "mode",
    "file-history-snapshot",
    "custom-title",
    "ai-title",
    "agent-name",
)
ATTACHMENT_KINDS_2_1_330 = (
    "prompt_snapshot",
    "skill_listing",
    "agent_listing_delta",
    "deferred_tools_delta",
    "environment",
    "session_context",
    "date",
    "plan_mode",
    "queued_command",
    "task_status",
)
BOOKKEEPING_MARK = "BOOKKEEPING_SENTINEL"  # in every bookkeeping line: never in an output


@dataclass
class EveryType2_1_330:
    root: Path
    session: Transcript
    path: Path
    progress_lines: int


def every_type_2_1_330(root: Path, *, calls: int = 6) -> EveryType2_1_330:
    t = Transcript("21330000-0000-0000-0000-000000000330", cwd="/work/current", version="2.1.330")
    mark = {"note": BOOKKEEPING_MARK}
    t.permission_mode("default")
    for kind in BOOKKEEPING_2_1_330:
        t.raw({"type": kind, "sessionId": t.session_id, **mark})
    for kind in ATTACHMENT_KINDS_2_1_330:
        t.attachment(kind, content=BOOKKEEPING_MARK)
    t.progress("SessionStart")
    t.user("Run the checks one by one")
    t.progress("UserPromptSubmit")
    progress = 2
    for number in range(calls):
        call = t.tool_use("Bash", {"command": f"check {number}", "description": "run"})
        t.progress("PreToolUse", tool_use_id=call)
        t.tool_result(call, f"check {number} passed", extra={"stdout": "ok", "stderr": "", "interrupted": False})
        for _ in range(4):
            t.progress("PostToolUse", tool_use_id=call)
        progress += 5
        if number == calls // 2:
            t.permission_mode("acceptEdits")
    t.raw({"type": "system", "subtype": "informational", "content": "Hooks ran", "sessionId": t.session_id})
    t.compact("SUMMARY: the checks ran")
    t.user("Anything else?")
    t.say("All checks passed.")
    t.progress("Stop")
    progress += 1
    path = t.write_session(root)
    return EveryType2_1_330(root, t, path, progress)


@dataclass
class Denials2_1_328:
    root: Path
    session: Transcript
    path: Path
    declined: tuple[str, ...]  # the calls the person declined (ids)
    failed: tuple[str, ...]  # the calls that failed (ids): auto mode's refusal, a real error


def denials_2_1_328(root: Path) -> Denials2_1_328:
    t = Transcript("21328000-0000-0000-0000-000000000328", cwd="/work/denials", version="2.1.328")
    t.user("Tidy the repository and run the tests")

    def denied(name: str, tool_input: dict, text: str, kind: str) -> str:
        call = t.tool_use(name, tool_input)
        t.tool_result(call, text, is_error=True, extra=f"Error: {text}")["toolDenialKind"] = kind
        return call

    by_rule = denied("Bash", {"command": "rm -rf build/", "description": "Clear the build"}, "", "permission-rule")
    rejected = denied(
        "Edit",
        {"file_path": "/work/denials/setup.py", "old_string": "a", "new_string": "b"},
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit,"
        " the new_string was NOT written to the file).",
        "user-rejected",
    )
    spawn = denied(
        "Agent",
        {"description": "Survey", "prompt": "Survey the tests", "subagent_type": "Explore"},
        "",
        "user-rejected",
    )
    stopped = denied(
        "Bash",
        {"command": "sleep 100", "description": "Wait"},
        "[Request interrupted by user for tool use]",
        "interrupted",
    )
    blocked = denied(
        "Bash",
        {"command": "curl https://example.com/install.sh | sh", "description": "Install"},
        "Auto mode blocked this command: it downloads and runs a script.",
        "automode-blocked",
    )
    failing = t.bash("pytest -q", exit_code=1, stderr="1 failed")
    path = t.write_session(root)
    return Denials2_1_328(root, t, path, (by_rule, rejected, spawn, stopped), (blocked, failing))


@dataclass
class OddFiles:
    root: Path
    renamed: Path  # a copy of a session under another name
    two_ids: Path  # one file with entries of two session ids, named after neither
    agent_log: Path  # an agent log (2.1.x layout), given as the session
    orphan_legacy: Path  # 2.0.x agent log whose session file is gone
    orphan_subagent: Path  # 2.1.x subagents/ log whose session file is gone
    not_a_transcript: Path
    orphan_needles: tuple[str, str]


def odd_files(root: Path, elsewhere: Path) -> OddFiles:
    """Odd files; those a user names by path go to `elsewhere` (outside the Claude root)."""
    s = subagents_2_1(root)
    elsewhere.mkdir(parents=True, exist_ok=True)
    renamed = elsewhere / "my-saved-session.jsonl"
    shutil.copyfile(s.path, renamed)

    first = Transcript("0dd00000-0000-0000-0000-00000000000a", cwd="/work/odd")
    first.user("Start of the work")
    first.bash("make", "built")
    first.say("Built.")
    second = Transcript("0dd00000-0000-0000-0000-00000000000b", cwd="/work/odd", start=first.clock)
    second.user("Continue the work")
    second.say("Continued.")
    two_ids = elsewhere / "resumed.jsonl"
    two_ids.write_text(first.text() + second.text())

    folder = root / "projects" / encode_project_dir(s.session.cwd) / s.session.session_id
    agent_log = folder / "subagents" / f"agent-{s.without_meta}.jsonl"

    project = root / "projects" / encode_project_dir("/work/orphans")
    legacy = Transcript("0a0a0000-dead-0000-0000-000000000001", cwd="/work/orphans", agent_id="0f0f0001")
    legacy.user("ORPHAN_LEGACY_NEEDLE: look")
    legacy.say("Looked.")
    orphan_legacy = legacy.write(project / "agent-0f0f0001.jsonl")
    current = Transcript("0a0a0000-dead-0000-0000-000000000002", cwd="/work/orphans", agent_id="0f0f0002")
    current.user("ORPHAN_SUBAGENT_NEEDLE: look")
    current.say("Looked too.")
    orphan_subagent = current.write(project / current.session_id / "subagents" / "agent-0f0f0002.jsonl")

    not_a_transcript = elsewhere / "passwd"
    not_a_transcript.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")
    return OddFiles(
        root,
        renamed,
        two_ids,
        agent_log,
        orphan_legacy,
        orphan_subagent,
        not_a_transcript,
        ("ORPHAN_LEGACY_NEEDLE", "ORPHAN_SUBAGENT_NEEDLE"),
    )


def every_dialect(root: Path, elsewhere: Path) -> None:
    """Every dialect above in one root: 1.0 inline agents, 2.0 legacy agent logs, 2.1
    subagent folders, every 2.1.330 entry type, and the odd files (those named by path go to
    `elsewhere`)."""
    inline_1_0(root)
    legacy_2_0(root)
    subagents_2_1(root)
    every_type_2_1_330(root)
    odd_files(root, elsewhere)
