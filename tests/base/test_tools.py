"""The tool roles (`base.tools`): one table, read by the hooks, the status line and the commands."""

from __future__ import annotations

import pytest

from session_kit.base import tools
from session_kit.transcript.tools import SUMMARIES, written_file


def test_both_names_of_the_spawning_tool_spawn_an_agent_and_nothing_else_does():
    assert {name for name in SUMMARIES if tools.spawns_agent(name)} == {"Agent", "Task"}
    assert not tools.spawns_agent(None)


@pytest.mark.parametrize(
    ("name", "tool_input", "path"),
    [
        ("Write", {"file_path": "/w/a.py", "content": "x"}, "/w/a.py"),
        ("Edit", {"file_path": "/w/b.py"}, "/w/b.py"),
        ("MultiEdit", {"file_path": "/w/c.py"}, "/w/c.py"),
        ("NotebookEdit", {"notebook_path": "/w/d.ipynb"}, "/w/d.ipynb"),
        ("Read", {"file_path": "/w/e.py"}, None),
        ("Bash", {"command": "touch f"}, None),
    ],
)
def test_a_writing_call_names_its_file_by_its_tools_key(name: str, tool_input: dict, path: str | None):
    assert written_file(name, tool_input) == path


def test_every_role_is_played_by_tools_the_kit_knows_and_the_readers_share_the_one_table():
    from session_kit.memory import fold
    from session_kit.usage import filecount

    known = {v for k, v in vars(tools).items() if k.isupper() and isinstance(v, str)}
    roles = [tools.SPAWNS_AGENT, set(tools.WRITES_FILE), tools.READS_FILE, tools.KEYED_BY_PATH, tools.PLAN_TOOLS]
    roles += [tools.TODO_TOOLS, tools.TASK_TOOLS, tools.RESULT_MATTERS]
    assert all(role <= known for role in roles)
    assert tools.SPAWNS_AGENT <= tools.RESULT_MATTERS  # a spawned agent's answer is in its result
    assert fold.SPAWNS_AGENT is tools.SPAWNS_AGENT and filecount.SPAWNS_AGENT is tools.SPAWNS_AGENT
