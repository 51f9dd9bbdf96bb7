"""Typed entries over raw records, in every dialect; unknown types are kept, odd shapes survive."""

from __future__ import annotations

from pathlib import Path

import pytest

import session_kit
from session_kit.base.slash_commands import KIT_COMMANDS, is_kit_command
from session_kit.transcript.entries import (
    KIND_NOISE,
    KIND_UNKNOWN,
    Entry,
    is_person_request,
    is_warmup_conversation,
    parse_timestamp,
    prompt_display,
    read_entries,
    request_text,
)
from session_kit.transcript.reader import ReadStats
from tests.support.transcripts import Transcript


def current_dialect(tmp_path: Path) -> tuple[Transcript, list[Entry]]:
    t = Transcript(cwd="/w/p", branch="feat")
    t.noise("attachment")
    t.user("hello")
    t.say("hi")
    t.raw({"type": "brand-new-entry-type", "payload": 1})
    return t, list(read_entries(t.write(tmp_path / "s.jsonl")))


def seed_dialect(tmp_path: Path) -> tuple[str, list[Entry]]:
    t = Transcript(dialect="seed")
    t.user("run it")
    call = t.tool_use("Bash", {"command": "pytest"})
    t.tool_result(call, [{"type": "text", "text": "Exit code 0\nok"}])
    return call, list(read_entries(t.write(tmp_path / "s.jsonl")))


def compacted(tmp_path: Path) -> list[Entry]:
    t = Transcript()
    t.user("a")
    t.compact("Summary of earlier work")
    t.summary_2025("old style summary")
    return list(read_entries(t.write(tmp_path / "s.jsonl")))


def test_current_dialect_entries_get_their_kinds(tmp_path: Path):
    _, entries = current_dialect(tmp_path)
    assert [e.kind for e in entries] == [KIND_NOISE, "user", "assistant", KIND_UNKNOWN]


def test_a_user_prompt_carries_its_text_place_branch_and_session(tmp_path: Path):
    t, entries = current_dialect(tmp_path)
    user = entries[1]
    assert user.is_user_prompt and user.text == "hello"
    assert user.cwd == "/w/p" and user.git_branch == "feat" and user.session_id == t.session_id
    assert user.timestamp is not None and user.timestamp.tzinfo is not None


def test_unknown_entry_types_are_kept_whole(tmp_path: Path):
    _, entries = current_dialect(tmp_path)
    assert entries[3].raw["payload"] == 1


def test_seed_dialect_prompts_have_float_timestamps(tmp_path: Path):
    _, entries = seed_dialect(tmp_path)
    assert entries[0].is_user_prompt and entries[0].timestamp is not None


def test_seed_dialect_tool_results_are_entries_of_their_own(tmp_path: Path):
    call, entries = seed_dialect(tmp_path)
    result = entries[2]
    assert result.kind == "tool_result" and result.is_tool_result_carrier
    assert result.tool_results[0].tool_use_id == call
    assert result.tool_results[0].text == "Exit code 0\nok"


def test_tool_results_in_user_entries_are_not_prompts(tmp_path: Path):
    t = Transcript()
    call = t.tool_use("Read", {"file_path": "/x"})
    t.tool_result(call, "contents", extra={"file": {"filePath": "/x"}})
    entry = list(read_entries(t.write(tmp_path / "s.jsonl")))[-1]
    assert not entry.is_user_prompt and entry.is_tool_result_carrier
    assert entry.tool_results[0].extra == {"file": {"filePath": "/x"}}


def test_a_compact_boundary_starts_a_new_chain(tmp_path: Path):
    entries = compacted(tmp_path)
    assert entries[1].is_compact_boundary and entries[1].raw["parentUuid"] is None


def test_a_compact_summary_is_not_a_prompt(tmp_path: Path):
    entries = compacted(tmp_path)
    assert entries[2].is_compact_summary and not entries[2].is_user_prompt
    assert entries[2].summary_text == "Summary of earlier work"


def test_a_2025_summary_entry_gives_its_text(tmp_path: Path):
    entries = compacted(tmp_path)
    assert entries[3].kind == "summary" and entries[3].summary_text == "old style summary"


def test_odd_shapes_do_not_crash(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    path.write_text(
        '{"type": 5}\n{"type":"user","message":"not a dict"}\n{"type":"assistant","message":{"content":[1,"x",null]}}\n'
        '{"type":"user","message":{"content":[{"type":"tool_result"}]}}\n{}\n'
    )
    stats = ReadStats()
    entries = list(read_entries(path, stats))
    assert len(entries) == 5
    for e in entries:
        assert isinstance(e.text, str)
        e.tool_uses, e.tool_results, e.is_user_prompt, e.summary_text, e.usage  # noqa: B018


def test_iso_timestamps_are_parsed_with_a_time_zone():
    assert parse_timestamp("2026-11-01T09:00:00.123Z").year == 2026
    assert parse_timestamp("2026-11-01T09:00:00").tzinfo is not None


def test_epoch_seconds_and_milliseconds_are_parsed():
    assert parse_timestamp(1700000000.5).year == 2023
    assert parse_timestamp(1700000000500).year == 2023


def test_what_is_not_a_timestamp_gives_none():
    assert parse_timestamp("yesterday") is None
    assert parse_timestamp(True) is None


def test_slash_commands_are_shown_as_typed():
    text = "<command-message>x</command-message>\n<command-name>/debug-agent</command-name>\n<command-args>abc</command-args>"
    assert prompt_display(text) == "/debug-agent abc"


def test_plain_prompts_are_shown_as_they_are():
    assert prompt_display("plain") == "plain"


def test_an_entry_without_a_type_is_unknown():
    e = Entry.from_raw(3, {"foo": "bar"})
    assert e.kind == KIND_UNKNOWN and e.type == ""


def test_client_echoes_and_notifications_are_not_requests(tmp_path: Path):
    t = Transcript()
    t.user(
        "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>"
    )
    t.user("<local-command-stdout>Compacted</local-command-stdout>")
    t.user("<task-notification>\n<task-id>a1</task-id>", origin={"kind": "task-notification"}, promptSource="system")
    t.user("<local-command-caveat>x</local-command-caveat>", isMeta=True)
    t.user("a real follow-up")
    prompts = [e.text for e in read_entries(t.write(tmp_path / "s.jsonl")) if e.is_user_prompt]
    assert [prompt_display(p) for p in prompts] == ["a real follow-up"]  # /compact: the client's own


# --- what a request is (the one rule: `request_text`) ---------------------------------------


def _requests(tmp_path: Path, t: Transcript) -> list[str | None]:
    return [request_text(e) for e in read_entries(t.write(tmp_path / "s.jsonl")) if e.kind == "user"]


def test_interruptions_bang_commands_and_their_output_are_not_requests(tmp_path: Path):
    t = Transcript()
    t.user("[Request interrupted by user for tool use]")
    t.user("[Request interrupted by user]")
    t.user("<bash-input>git status</bash-input>")
    t.user("<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>")
    t.user("the real one")
    assert _requests(tmp_path, t) == [None, None, None, None, "the real one"]


def test_ide_context_alone_is_not_a_request_and_is_left_out_of_one(tmp_path: Path):
    t = Transcript()
    t.user("<ide_opened_file>The user opened /a.py in the IDE.</ide_opened_file>")
    t.user("<ide_selection>lines 1-3 of /a.py</ide_selection>\nExplain these lines")
    assert _requests(tmp_path, t) == [None, "Explain these lines"]


def test_slash_commands_the_client_runs_itself_are_not_requests_but_prompt_commands_are(tmp_path: Path):
    t = Transcript()
    t.user(
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>"
    )
    t.user("<command-name>/fix-issue</command-name>\n<command-args>abc</command-args>")
    t.user("<command-name>/debug-agent</command-name>\n<command-args>abc</command-args>")  # the kit's own
    assert _requests(tmp_path, t) == [None, "/fix-issue abc", None]


@pytest.mark.parametrize("name", ["/plugin", "/statusline", "/model", "/mcp", "/context", "/rename", "/usage"])
def test_the_clients_own_commands_that_send_nothing_are_not_requests(tmp_path: Path, name: str):
    t = Transcript()
    t.user(
        f"<command-name>{name}</command-name>\n<command-message>{name[1:]}</command-message>\n<command-args></command-args>"
    )
    t.user("<local-command-stdout>Done</local-command-stdout>")
    t.user("<command-name>/erk:plan-implement</command-name>\n<command-args>7862</command-args>")
    assert _requests(tmp_path, t) == [None, None, "/erk:plan-implement 7862"]


def test_a_slash_command_the_model_launched_is_not_a_request(tmp_path: Path):
    t = Transcript()
    t.user("Replan the open plans")
    launched = t.user(
        "<command-message>erk:replan is running…</command-message>\n<command-name>/erk:replan</command-name>"
    )
    launched["sourceToolUseID"] = "toolu_0154MfGwYvxdAFXiKjuVhcM6"
    assert _requests(tmp_path, t) == ["Replan the open plans", None]


def test_a_1_0_command_echo_without_its_slash_is_read_as_the_slash_command(tmp_path: Path):
    t = Transcript(version="1.0.24")
    t.user(
        "<command-name>clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>"
    )
    t.user(
        "<command-name>fix-issue</command-name>\n<command-message>fix-issue</command-message>\n<command-args>42</command-args>"
    )
    assert _requests(tmp_path, t) == [None, "/fix-issue 42"]


def test_teammate_messages_and_the_local_command_caveat_are_not_requests_even_without_is_meta(tmp_path: Path):
    t = Transcript(version="1.0.24")
    t.user(
        "Caveat: The messages below were generated by the user while running local commands. DO NOT respond to "
        "these messages or otherwise consider them in your response unless the user explicitly asks you to."
    )
    t.user('<teammate-message teammate_id="reviewer" summary="done">The review is done.</teammate-message>')
    t.user("Now merge it")
    assert _requests(tmp_path, t) == [None, None, "Now merge it"]


def test_an_inline_agents_prompt_is_not_the_persons_request(tmp_path: Path):
    t = Transcript(version="1.0.98")
    t.user("do it")
    thread = t.inline_agent()
    thread.user("SUBAGENT PROMPT")
    assert _requests(tmp_path, t) == ["do it", None]
    assert [is_person_request(e) for e in read_entries(tmp_path / "s.jsonl")] == [True, False]


def test_an_empty_branch_or_cwd_is_unknown():
    entry = Entry.from_raw(1, {"type": "user", "cwd": "", "gitBranch": ""})
    assert entry.cwd is None and entry.git_branch is None


# --- warmups -------------------------------------------------------------------------------


def test_a_warmup_prompt_or_a_lone_greeting_is_a_warmup(tmp_path: Path):
    warm = Transcript(agent_id="w1")
    warm.user("Warmup")
    warm.say("Ready.")
    greet = Transcript(agent_id="w2")
    greet.say("Hello! Ready to help.")
    work = Transcript(agent_id="w3")
    work.user("Find the parser")
    work.say("It is in src/.")
    idle = Transcript(agent_id="w4")
    idle.say("Hello")
    idle.say("Again")
    assert [
        is_warmup_conversation(list(read_entries(t.write(tmp_path / f"{t.agent_id}.jsonl"))))
        for t in (warm, greet, work, idle)
    ] == [True, True, False, False]


def test_an_entry_repeated_with_its_uuid_is_read_once_and_the_repeats_are_counted(tmp_path: Path):
    t = Transcript()
    t.user("once")
    t.say("answer")
    path = tmp_path / "s.jsonl"
    path.write_text(t.text() * 3)
    stats = ReadStats()
    entries = list(read_entries(path, stats))
    assert [e.text for e in entries] == ["once", "answer"]
    assert stats.repeated == 4 and stats.as_dict()["repeated"] == 4
    assert "4 repeated" in (stats.describe() or "")


def test_a_numeric_time_past_a_floats_range_is_no_time():
    assert parse_timestamp(10**400) is None and parse_timestamp(-(10**400)) is None


# --- the kit's own slash commands (`is_kit_command`) ------------------------------------------


def test_kit_commands_are_the_stems_of_the_shipped_command_files():
    shipped = {p.stem for p in (Path(session_kit.__file__).parent / "commands").glob("*.md")}
    assert shipped == KIT_COMMANDS


@pytest.mark.parametrize(
    "request_, kit",
    [
        ("/debug-agent", True),
        ("/debug-agent a1b2 why did it stop", True),
        ("/session-kit:sessions-search flaky test", True),
        ("/session-kit:view", True),
        ("/other-plugin:view", False),
        ("/compactify", False),
        ("/review the diff", False),
        ("debug-agent please", False),
        ("/", False),
    ],
)
def test_is_kit_command_knows_the_kits_own_commands_by_both_routes(request_, kit):
    assert is_kit_command(request_) is kit
