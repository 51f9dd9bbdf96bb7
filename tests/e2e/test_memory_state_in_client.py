"""The working memory holds the state at the compaction, in the real client: after `/compact`
(the task tools off, as they are by default) and after an automatic compaction mid-turn (the
task tools on).

Session one (`/compact`): the first request; a plan kept in `.impl/plan.md` (a checklist,
one item ticked off on disk after it was written); `cat notes.txt` failing, then `cat -n
notes.txt` succeeding once the file exists (fixed by a modified command); a command that fails
and stays failed; a background agent that finishes; then a request with a standing
instruction, pushed out of the latest requests by six more. Session two: TaskCreate and
TaskUpdate with `CLAUDE_CODE_ENABLE_TODO_TOOLS=1`, then an automatic compaction
(`CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=1`) in the middle of the turn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .fake_api import Script, agent, bash, text, tool_use
from .routes import plugin_route

START = "STATE-START: fix the parser; the plan is in .impl/plan.md"
MIDDLE = "STATE-MIDDLE: carry on. Never run git push from this session."
AFTER = "STATE-AFTER: continue"
PLAN = "# Plan\n- [x] read the parser\n- [ ] STATE-ITEM-DONE-LATER\n- [ ] STATE-ITEM-OPEN fix the comma split\n"
OPEN_COMMAND = "python3 -c \"raise SystemExit('STATE-OPEN-ERROR: the parser still fails')\""
BG_REPORT = "BG-AGENT-REPORT: three parsers found, none cached."
TASK = "TASKS-ONE: port the tokenizer"


def state_script(project: Path) -> Script:
    return Script(
        main={
            "STATE-START": [
                [tool_use("Write", {"file_path": str(project / ".impl" / "plan.md"), "content": PLAN})],
                [bash("cat notes.txt", description="Read the notes")],
                [tool_use("Write", {"file_path": str(project / "notes.txt"), "content": "alpha\n"})],
                [bash("cat -n notes.txt", description="Read the notes again")],
                [bash(OPEN_COMMAND, description="Run the parser check")],
                [
                    agent(
                        "general-purpose", "BG-AGENT: survey the parsers", description="Survey parsers", background=True
                    )
                ],
                [text("Waiting for the survey.")],
            ],
            "STATE-MIDDLE": ["Noted."],
            "STATE-MORE": ["Done."],
            "STATE-AFTER": ["Continuing."],
        },
        agents={"BG-AGENT": [BG_REPORT]},
        compact_summary="Summary: some work happened.",
    )


@pytest.fixture(scope="module")
def after_compact(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("memory-state")
    project = tmp / "my project"
    with plugin_route(claude_binary, tmp, state_script(project)) as route:
        first = route.run(START)
        sid = first.session_id
        (project / ".impl" / "plan.md").write_text(PLAN.replace("- [ ] STATE-ITEM-DONE", "- [x] STATE-ITEM-DONE"))
        route.run(MIDDLE, resume=sid)
        for n in range(6):
            route.run(f"STATE-MORE-{n}: next", resume=sid)
        route.run("/compact", resume=sid)
        route.run(AFTER, resume=sid)
        after = [r for r in route.fake.main_requests() if AFTER in r.last_human_text]
        assert after, route.fake.log_tail()
        yield route, after[0].text()


def section(block: str, heading: str) -> str:
    return block.split(heading, 1)[1].split("\n\n", 1)[0] if heading in block else ""


def test_after_compact_the_first_request_and_a_standing_instruction_come_back(after_compact):
    route, after = after_compact
    assert "working memory" in after, route.fake.log_tail()
    assert START in after and "Never run git push from this session." in after
    assert "STATE-MORE-5" in after


def test_after_compact_the_failure_a_modified_command_fixed_is_not_open(after_compact):
    _, after = after_compact
    failures = section(after, "Failed and not fixed since")
    assert "STATE-OPEN-ERROR" in failures and "raise SystemExit" in failures
    assert "cat notes.txt" not in failures


def test_after_compact_the_background_agent_is_finished_with_its_answer(after_compact):
    _, after = after_compact
    agents = section(after, "Subagents, as they stand now:")
    assert 'agent "Survey parsers": finished' in agents and BG_REPORT in agents
    assert "still running" not in after


def test_after_compact_the_working_document_is_the_plan_and_the_task_list(after_compact):
    _, after = after_compact
    assert "the plan followed: .impl/plan.md" in after
    assert "[ ] STATE-ITEM-OPEN fix the comma split" in after
    assert "[ ] STATE-ITEM-DONE-LATER" not in after  # ticked off on disk after it was written
    assert "- [pending] STATE-ITEM-OPEN fix the comma split" in section(after, "Task list (the checklist in")


def tasks_script() -> Script:
    steps = iter(
        [
            [
                tool_use("TaskCreate", {"subject": TASK, "description": TASK, "activeForm": "Porting"}),
                tool_use("TaskCreate", {"subject": "TASKS-TWO: test it", "description": "t", "activeForm": "Testing"}),
            ],
            [tool_use("TaskUpdate", {"taskId": "1", "status": "in_progress"})],
            [bash("echo TASKS-STEP-3", description="Step")],
            [bash("seq 1 4000", description="A long output")],
            [bash("echo TASKS-STEP-5", description="Step")],
        ]
    )

    def decide(exchange):  # each main request takes the next step, whatever a compaction left
        return next(steps, [text("TASKS-DONE")]) if exchange.conversation == "main" else None

    return Script(decide=decide, compact_summary="Summary: tasks happened.")


def test_an_automatic_compaction_mid_turn_puts_back_the_tasks_with_their_status(
    claude_binary: Path, tmp_path_factory: pytest.TempPathFactory
):
    tmp = tmp_path_factory.mktemp("memory-auto")
    with plugin_route(claude_binary, tmp, tasks_script()) as route:
        # A threshold a little under the client's own first request: it compacts once the
        # turn's third request is in (the client waits three turns between compactions).
        env = {"CLAUDE_CODE_ENABLE_TODO_TOOLS": "1", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "1.6"}
        route.run("TASKS-START: port the tokenizer, in steps", env=env, check=False)
        exchanges = route.fake.message_requests()
        compacted = [i for i, e in enumerate(exchanges) if e.conversation == "compact"]
        assert compacted, route.fake.log_tail()
        later = [e for e in exchanges[compacted[0] :] if e.conversation == "main"]
        assert later, route.fake.log_tail()
        after = later[0].text()
        assert "working memory" in after, route.fake.log_tail()
        assert "TASKS-START: port the tokenizer, in steps" in after
        tasks = section(after, "Task list (")
        assert f"[in_progress] {TASK}" in tasks and "[pending] TASKS-TWO: test it" in tasks
