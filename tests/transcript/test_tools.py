"""A one-line summary of each tool's input."""

from __future__ import annotations

import pytest

from session_kit.transcript.tools import summarize_input


@pytest.mark.parametrize(
    ("tool", "tool_input", "summary"),
    [
        ("Bash", {"command": "ls  -la\n/tmp"}, "ls -la /tmp"),
        ("Read", {"file_path": "/a/b.py"}, "/a/b.py"),
        ("Write", {"file_path": "/a", "content": "héllo"}, "/a (6 bytes)"),
        ("Grep", {"pattern": "TODO", "path": "src"}, "TODO in src"),
        ("Glob", {"pattern": "**/*.py"}, "**/*.py"),
        ("Task", {"subagent_type": "Explore", "description": "look"}, "[Explore] look"),
        ("Agent", {"description": "d"}, "[general-purpose] d"),
        ("MysteryTool", {"b": 1, "a": 2}, "keys: a, b"),
    ],
)
def test_each_tool_input_has_its_summary(tool: str, tool_input: dict, summary: str):
    assert summarize_input(tool, tool_input) == summary


def test_a_long_input_summary_is_cut_to_160_characters():
    assert len(summarize_input("Bash", {"command": "x" * 1000})) == 160
