"""The kit's own echoes (`transcript.kit_echoes`): a kit slash command's request and the body
the client expanded it into are the kit's; the person's requests and the model's answers are not."""

from __future__ import annotations

from pathlib import Path

from session_kit.transcript.entries import Entry, read_entries, request_text
from session_kit.transcript.kit_echoes import KitEchoes, is_echo_of
from tests.support.transcripts import Transcript

BODY = "# Search\n\nFrom `session-kit search`:\n\nflaky-test hits: 3\nsession-kit exit status 0\n"


def _entries(t: Transcript, tmp_path: Path) -> list[Entry]:
    return [e for e in read_entries(t.write(tmp_path / "s.jsonl")) if e.kind in ("user", "assistant")]


def _echoes(entries: list[Entry], **kw) -> list[bool]:
    echoes = KitEchoes(**kw)
    return [echoes.is_echo(e) for e in entries]


def test_a_kit_commands_request_and_its_body_are_the_kits_and_nothing_else_is(tmp_path: Path):
    t = Transcript()
    t.user("fix the flaky-test in CI")
    t.say("Looking at the flaky-test.")
    t.slash_command("/session-kit:sessions-search", BODY, args="flaky-test")
    t.say("The flaky-test shows up in 3 sessions.")  # the model's own answer
    t.user("now fix it")
    assert _echoes(_entries(t, tmp_path)) == [False, False, True, True, False, False]


def test_the_installed_name_counts_as_the_plugins_does(tmp_path: Path):
    t = Transcript()
    t.slash_command("/debug-agent", BODY)
    assert _echoes(_entries(t, tmp_path)) == [True, True]


def test_another_commands_body_is_not_the_kits(tmp_path: Path):
    t = Transcript()
    t.slash_command("/review", "Review the diff: flaky-test")
    t.slash_command("/other-plugin:sessions-search", "flaky-test")
    assert _echoes(_entries(t, tmp_path)) == [False, False, False, False]


def test_a_body_read_after_its_request_in_an_earlier_pass_is_the_kits(tmp_path: Path):
    t = Transcript()
    t.slash_command("/plan", BODY)
    body = _entries(t, tmp_path)[1:]
    assert _echoes(body, after_request=True) == [True]
    assert _echoes(body) == [False]


def test_the_kits_command_is_not_a_request_of_the_person(tmp_path: Path):
    t = Transcript()
    t.slash_command("/session-kit:session-info", BODY)
    t.user("what next")
    assert [request_text(e) for e in _entries(t, tmp_path)] == [None, None, "what next"]


def test_an_entry_met_alone_is_the_kits_body_only_with_its_request_as_parent(tmp_path: Path):
    t = Transcript()
    t.user("something else")
    t.slash_command("/view", BODY)
    other, request, body = _entries(t, tmp_path)
    assert is_echo_of(request, None)
    assert is_echo_of(body, request)
    assert not is_echo_of(body, other) and not is_echo_of(body, None)
