"""The `--json` envelope (its `kind` is the command's name) and the text formatting helpers."""

from __future__ import annotations

import json

import pytest

from session_kit.cli.text import as_is, clip, human_duration, human_size, visible
from tests.support.cli import invoke, invoke_json
from tests.support.secret_probes import leaked
from tests.support.sessions import build_leaky

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
    assert visible("\x1b[1mbold\x07") == "\\u001b[1mbold\\u0007"
    assert visible("tab\tand\nnewline") == "tab\tand\nnewline"  # layout is kept


def test_as_is_keeps_lines_and_says_how_much_it_cut():
    assert as_is("one\ntwo", None, "  ") == ["  one", "  two"]
    assert as_is("abcdef", 3, "") == ["abc… [3 more characters; --full shows all]"]


def test_durations_and_sizes_are_short():
    assert [human_duration(s) for s in (None, 5, 125, 7300)] == ["-", "5s", "2m05s", "2h01m"]
    assert [human_size(n) for n in (10, 2048, 5 * 1024**3)] == ["10B", "2.0K", "5.0G"]


# --- no secret printed: every output carrying transcript text is redacted by default ---------

LEAKY_SID = "5ec2e700-aaaa-bbbb-cccc-ddddeeeeffff"
AGENT = "1eaf1eaf00000001"
TRANSCRIPT_COMMANDS = [
    ["sessions", "--all"],
    ["show", LEAKY_SID],
    ["events", LEAKY_SID],
    ["events", LEAKY_SID, "--errors"],
    ["search", "aws_secret_access_key", "--all"],
    ["search", "keys used were", "--all"],
    ["search", "psql", "--all"],
    ["search", "password", "--all"],
    ["debug-agent", LEAKY_SID, "--all"],
    ["debug-agent", LEAKY_SID, AGENT, "--full"],
    ["plan", LEAKY_SID, "--all"],
    ["info", LEAKY_SID],
]


@pytest.fixture
def leaky(claude_root):
    return build_leaky(claude_root)


def _leaks(out: str, secrets) -> list[str]:
    return [s for s in secrets if leaked(s, out)]


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("args", TRANSCRIPT_COMMANDS, ids=" ".join)
def test_no_command_prints_a_secret_of_the_transcript(leaky, args, as_json):
    result = invoke(*args, *(["--json"] if as_json else []))
    assert result.exit_code == 0, result.output
    assert _leaks(result.stdout + result.stderr, leaky.secrets) == []
    if args[0] != "sessions" or as_json:  # (the listing's text shows 60 characters of the prompt)
        assert "[REDACTED:" in result.stdout  # the secrets were there, and said so


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("args", TRANSCRIPT_COMMANDS, ids=" ".join)
def test_no_redact_shows_the_transcript_as_written(leaky, args, as_json):
    result = invoke(*args, "--no-redact", *(["--json"] if as_json else []))
    assert result.exit_code == 0, result.output
    assert "[REDACTED:" not in result.stdout
    if args[0] != "sessions" or as_json:
        assert _leaks(result.stdout, leaky.secrets) != []


def test_the_json_of_agents_carries_no_secret_in_their_descriptions(leaky):
    doc = invoke_json("debug-agent", LEAKY_SID, "--all")
    [agent] = doc["agents"]
    assert agent["description"] == "Push with [REDACTED:github-token]"


def test_a_summary_cut_inside_a_url_still_loses_its_password(leaky):
    doc = invoke_json("events", LEAKY_SID, "--errors")
    [psql] = [c for c in doc["events"] if c["name"] == "Bash" and "psql" in c["summary"]]
    assert psql["summary"].endswith("…")  # the cut falls after the password
    assert "[REDACTED:url-password]" in psql["summary"]


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Etc/GMT+12"])
def test_times_at_the_ends_of_the_calendar_print_in_any_time_zone(zone: str, monkeypatch: pytest.MonkeyPatch):
    import time
    from datetime import datetime, timezone

    from session_kit.cli.text import clock, local_time

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        for moment in (datetime.min.replace(tzinfo=timezone.utc), datetime.max.replace(tzinfo=timezone.utc)):
            assert local_time(moment).strip() and clock(moment).strip()
    finally:
        monkeypatch.undo()
        time.tzset()


def test_json_output_never_holds_infinity_or_an_unprintable_integer(capsys: pytest.CaptureFixture[str]):
    from session_kit.cli.envelope import emit_json

    emit_json("events", {"input": {"n": float("inf"), "m": float("nan"), "big": 10**4299 * 11, "ok": 1.5}})
    document = json.loads(capsys.readouterr().out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    assert document["input"] == {"n": None, "m": None, "big": None, "ok": 1.5}


def test_plurals_agree_with_their_count():
    from session_kit.cli.text import plural

    assert (plural(1, "call"), plural(2, "call"), plural(0, "call")) == ("1 call", "2 calls", "0 calls")
    assert plural(1, "entry", "entries") == "1 entry" and plural(3, "entry", "entries") == "3 entries"


def test_one_api_message_is_not_messages():
    from types import SimpleNamespace

    from session_kit.cli.tokens import usage_text

    tokens = SimpleNamespace(
        tokens=10, input=5, output=5, cache_read=0, cache_write_5m=0, cache_write_1h=0, web_search=0, messages=1
    )
    assert usage_text(tokens, SimpleNamespace(display=lambda: "$0.01")).endswith("; 1 API message)")


ROWS = {
    "plain": lambda i: {"id": f"s{i}", "cwd": "/w/token=ghp_" + "a" * 36, "title": "password=hunter2hunter2 ü", "n": i},
    "nested": lambda i: {"id": f"s{i}", "title": "password=hunter2hunter2", "nested": {"a": [1, {"b": None}]}},
    "secret-named": lambda i: {
        "id": f"s{i}",
        "api_key": "k" * 20,
        "empty_token": "",
        "title": "Bearer abcdefghijklmnop1234",
    },
}


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
@pytest.mark.parametrize("count", [0, 1, 3, 300])
@pytest.mark.parametrize("shape", sorted(ROWS))
def test_a_json_list_written_item_by_item_is_the_document_emit_json_writes(
    shape: str, count: int, terminal: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    from session_kit.cli import envelope, style

    monkeypatch.setattr(style, "isatty", lambda stream: terminal)
    items = [ROWS[shape](i) for i in range(count)]
    items[-1:] = [{**item, "bad": float("nan")} for item in items[-1:]]  # the fallback, for one item
    envelope.emit_json("sessions", {"claude_root": "/r", "sessions": items})
    whole = capsys.readouterr().out
    envelope.emit_json_list("sessions", {"claude_root": "/r"}, "sessions", iter(items))
    assert capsys.readouterr().out == whole
    assert "hunter2" not in whole and "k" * 20 not in whole
