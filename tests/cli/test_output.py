"""The `--json` envelope (its `kind` is the command's name) and the text formatting helpers."""

from __future__ import annotations

import json

import pytest

from session_kit.cli.output import as_is, clip, human_duration, human_size, visible
from tests.support.cli import invoke

SID = "c0ffee00-1111-2222-3333-444455556666"


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["sessions", "--all"], "sessions"),
        (["show", SID], "show"),
        (["events", SID], "events"),
        (["search", "hello", "--all"], "search"),
        (["debug-agent", SID], "debug-agent"),
        (["plan", SID], "plan"),
        (["info", SID], "info"),
        (["preprocess", SID], "preprocess"),
        (["doctor"], "doctor"),
        (["install", "--dry-run"], "install"),
        (["uninstall", "--dry-run"], "uninstall"),
        (["scratch", "show", "--session", SID], "scratch-show"),
        (["scratch", "list"], "scratch-list"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_the_json_kind_is_the_commands_name(built, args, kind):
    result = invoke(*args, "--json")
    doc = json.loads(result.stdout)
    assert (doc["version"], doc["kind"]) == (2, kind)


def test_clip_puts_text_on_one_line_and_cuts_it():
    assert clip("a\n b\tc", 10) == "a b c"
    assert clip("abcdefghij", 5) == "abcd…"
    assert clip(None, 5) == ""


def test_visible_writes_control_characters_out():
    assert visible("\x1b[1mbold\x07") == "\\x1b[1mbold\\x07"
    assert visible("tab\tand\nnewline") == "tab\tand\nnewline"  # layout is kept


def test_as_is_keeps_lines_and_says_how_much_it_cut():
    assert as_is("one\ntwo", None, "  ") == ["  one", "  two"]
    assert as_is("abcdef", 3, "") == ["abc… [3 more characters; --full shows all]"]


def test_durations_and_sizes_are_short():
    assert [human_duration(s) for s in (None, 5, 125, 7300)] == ["-", "5s", "2m05s", "2h01m"]
    assert [human_size(n) for n in (10, 2048, 5 * 1024**3)] == ["10B", "2.0K", "5.0G"]
