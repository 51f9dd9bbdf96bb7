"""The working memory inside the real client: what a session did comes back after `/compact`,
though the compaction summary (the fake's) keeps none of it.

One session per route: a request naming a ticket, a task list, files written and edited, a
test run that fails with a clear error, then (in plan mode) a proposed plan; then `/compact`
with a deliberately lossy summary, then "continue". The first request the fake receives after
the compaction must carry the request text, the failing command and its error line, the task
items with their status, the changed files and the plan. The same session with capture turned
off (the kit's config file) must carry none of them, so the check can fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .fake_api import Script, bash, exit_plan_mode, text, tool_use
from .routes import Route, installed_route, plugin_route

TICKET = "PARSE-4711"
START = f"MEM-START: fix the comma bug in mytok.py for ticket {TICKET}, then run its test"
PLAN_PROMPT = "MEM-PLAN: plan the rest of the work"
AFTER = "MEM-AFTER: continue"
TEST_COMMAND = "python3 test_mytok.py"
ERROR_LINE = "MEM-ERROR-LINE: expected 3 tokens, got 2"
PLAN_TEXT = "MEM-PLAN-TEXT: 1. split on commas as well as spaces 2. rerun test_mytok.py"
LOSSY_SUMMARY = "Summary: the person and the assistant worked on some code."
TASK_ONE = "Fix the comma split in mytok"
TASK_TWO = "Run test_mytok.py until it passes"

MYTOK = "def tokens(text):\n    return text.split()\n"
TEST = (
    "import mytok\n\n"
    "found = mytok.tokens('a,b c')\n"
    "assert len(found) == 3, f'MEM-ERROR-LINE: expected 3 tokens, got {len(found)}'\n"
)


def script() -> Script:
    return Script(
        main={
            "MEM-START": [
                [
                    tool_use("TaskCreate", {"subject": TASK_ONE, "description": TASK_ONE, "activeForm": "Fixing"}),
                    tool_use("TaskCreate", {"subject": TASK_TWO, "description": TASK_TWO, "activeForm": "Running"}),
                ],
                [tool_use("TaskUpdate", {"taskId": "1", "status": "in_progress"})],
                [tool_use("Write", {"file_path": "{cwd}/mytok.py", "content": MYTOK})],
                [tool_use("Write", {"file_path": "{cwd}/test_mytok.py", "content": TEST})],
                [
                    tool_use(
                        "Edit",
                        {
                            "file_path": "{cwd}/mytok.py",
                            "old_string": "return text.split()",
                            "new_string": "return text.split(' ')",
                        },
                    )
                ],
                [bash(TEST_COMMAND, description="Run the tokenizer test")],
                [text("The test still fails. Next I will make tokens() split on commas too.")],
            ],
            "MEM-PLAN": [[exit_plan_mode(PLAN_TEXT)], "Plan proposed."],
            "MEM-AFTER": ["Continuing."],
        },
        compact_summary=LOSSY_SUMMARY,
    )


def with_cwd(script: Script, cwd: Path) -> Script:
    """The script with `{cwd}` in tool inputs replaced by the project folder."""
    for turns in script.main.values():
        for turn in turns:
            for block in turn if isinstance(turn, list) else []:
                if block.get("type") == "tool_use":
                    block["input"] = json.loads(json.dumps(block["input"]).replace("{cwd}", str(cwd)))
    return script


def run_session(route: Route) -> str:
    """The whole session; returns the text of the first request after the compaction."""
    # The task tools are off by default in `-p` sessions; a real person's session has them.
    first = route.run(START, env={"CLAUDE_CODE_ENABLE_TODO_TOOLS": "1"})
    route.session_id = first.session_id
    route.run(PLAN_PROMPT, resume=first.session_id, permission_mode="plan")
    route.run("/compact", resume=first.session_id)
    route.run(AFTER, resume=first.session_id)
    after = [r for r in route.fake.main_requests() if AFTER in r.last_human_text]
    assert after, route.fake.log_tail()
    return after[0].text()


@pytest.fixture(params=["installed", "plugin"], scope="module")
def remembered(request: pytest.FixtureRequest, claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp(f"memory-{request.param}")
    project = tmp / "my project"
    make = installed_route if request.param == "installed" else plugin_route
    with make(claude_binary, tmp, with_cwd(script(), project)) as route:
        assert route.project == project
        yield route, run_session(route)


@pytest.fixture(scope="module")
def forgotten(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("memory-off")
    project = tmp / "my project"
    with plugin_route(claude_binary, tmp, with_cwd(script(), project)) as route:
        route.state_root.mkdir(parents=True, exist_ok=True)
        (route.state_root / "config.json").write_text(json.dumps({"memory": {"capture": False}}))
        yield route, run_session(route)


def test_the_compaction_summary_itself_keeps_none_of_it(remembered):
    route, _ = remembered
    summaries = [e for e in route.fake.exchanges if e.conversation == "compact"]
    assert summaries and all(LOSSY_SUMMARY in json.dumps(e.reply) for e in summaries)


def test_the_first_request_after_compact_carries_the_working_memory(remembered):
    route, after = remembered
    assert "working memory" in after, route.fake.log_tail()
    assert START in after  # the person's request, verbatim, with its ticket
    assert TEST_COMMAND in after and "exit code 1" in after
    assert ERROR_LINE in after  # the error line of the failed test, not just "it failed"
    assert f"[in_progress] {TASK_ONE}" in after and f"[pending] {TASK_TWO}" in after
    assert "mytok.py (created; 2 changes)" in after and "test_mytok.py (created)" in after
    assert PLAN_TEXT in after


def test_memory_command_shows_what_was_restored(remembered):
    route, _ = remembered
    scratch = next(route.state_root.glob(f"projects/*/sessions/{route.session_id}"))
    memory = json.loads((scratch / "memory.json").read_text())
    assert memory["requests"]["first"]["text"] == START
    assert [f["command"] for f in memory["failures"]] == [TEST_COMMAND]
    assert memory["plan"]["text"] == PLAN_TEXT
    # the client's summary as the PostCompact hook got it; one compaction, counted once
    assert [c.get("client_summary") for c in memory["compactions"]] == [LOSSY_SUMMARY]


def test_with_capture_off_none_of_it_comes_back(forgotten):
    route, after = forgotten
    assert AFTER in after
    for lost in (TICKET, ERROR_LINE, TASK_ONE, PLAN_TEXT, "mytok.py (created"):
        assert lost not in after, lost


def test_the_session_memory_command_shows_it_in_the_session(remembered):
    route, _ = remembered
    route.run(route.command("session-memory"), resume=route.session_id)
    shown = route.fake.last_main_request().text()
    assert START in shown and ERROR_LINE in shown and "transcript line" in shown
