"""Token usage, counted once per API message however many lines the message spans, and split
into input, output, cache read and cache write by tier, per model."""

from __future__ import annotations

from pathlib import Path

from session_kit.transcript.entries import read_entries
from session_kit.transcript.tokens import TokenTally, Usage, usage_of
from tests.support.transcripts import Transcript


def tally_of(path: Path) -> TokenTally:
    tally = TokenTally()
    for e in read_entries(path):
        tally.add(e)
    return tally


def test_tokens_count_once_per_message_id(tmp_path: Path):
    t = Transcript()
    t.assistant(
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
        {"type": "text", "text": "c"},
        usage={"input_tokens": 7, "output_tokens": 3},
    )
    t.say("d")  # a second message with the builder's default usage
    tally = tally_of(t.write(tmp_path / "s.jsonl"))
    assert tally.messages == 2
    assert tally.input == 7 + 10 and tally.output == 3 + 5


def test_a_message_split_over_lines_counts_the_last_lines_output_not_the_first_partial_one(tmp_path: Path):
    # Older clients wrote each block as it streamed: the first line's output_tokens is a
    # partial count, the last line holds the final one.
    t = Transcript()
    lines = t.assistant(
        {"type": "thinking", "thinking": "hm"},
        {"type": "text", "text": "x"},
        {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}},
        usage={"input_tokens": 5, "output_tokens": 1},
    )
    lines[1]["message"]["usage"] = {"input_tokens": 5, "output_tokens": 36}
    lines[2]["message"]["usage"] = {"input_tokens": 5, "output_tokens": 800}
    tally = tally_of(t.write(tmp_path / "s.jsonl"))
    assert (tally.messages, tally.input, tally.output) == (1, 5, 800)


def test_lines_without_a_message_id_are_one_message_per_request_id(tmp_path: Path):
    t = Transcript()
    for out in (2, 9):
        [line] = t.say("x")
        del line["message"]["id"]
        line["requestId"] = "req_1"
        line["message"]["usage"] = {"input_tokens": 4, "output_tokens": out}
    tally = tally_of(t.write(tmp_path / "s.jsonl"))
    assert (tally.messages, tally.input, tally.output) == (1, 4, 9)


def test_repeated_lines_of_a_resumed_or_copied_file_count_once(tmp_path: Path):
    t = Transcript()
    t.say("a")
    t.say("b")
    t.lines.extend([dict(line) for line in t.lines])  # the whole history written again
    tally = tally_of(t.write(tmp_path / "s.jsonl"))
    assert tally.messages == 2 and tally.input == 20


def test_cache_writes_are_split_into_the_five_minute_and_one_hour_tiers():
    usage = usage_of(
        {
            "input_tokens": 1,
            "output_tokens": 2,
            "cache_read_input_tokens": 3,
            "cache_creation_input_tokens": 700,
            "cache_creation": {"ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 500},
        }
    )
    assert (usage.cache_write_5m, usage.cache_write_1h, usage.cache_write) == (200, 500, 700)


def test_the_billed_cache_write_total_wins_over_tiers_that_add_up_to_more():
    usage = usage_of(
        {
            "cache_creation_input_tokens": 300,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 900},
        }
    )
    assert (usage.cache_write_5m, usage.cache_write_1h) == (0, 300)


def test_tiers_without_a_total_are_counted_as_they_are():
    usage = usage_of({"cache_creation": {"ephemeral_5m_input_tokens": 4, "ephemeral_1h_input_tokens": 6}})
    assert (usage.cache_write_5m, usage.cache_write_1h) == (4, 6)


def test_cache_writes_without_tiers_are_five_minute_writes():
    usage = usage_of({"cache_creation_input_tokens": 70})
    assert (usage.cache_write_5m, usage.cache_write_1h) == (70, 0)


def test_server_side_tool_use_is_counted():
    usage = usage_of({"server_tool_use": {"web_search_requests": 3, "web_fetch_requests": 1}})
    assert (usage.web_search, usage.web_fetch) == (3, 1)


def test_malformed_usage_fields_count_as_zero():
    usage = usage_of({"input_tokens": "12", "output_tokens": True, "cache_creation": [1], "server_tool_use": 5})
    assert usage == Usage(messages=1)


def test_a_count_past_the_kits_bound_is_no_count():
    from session_kit.transcript import entries, usagefields

    assert usagefields.MAX_COUNT == entries.MAX_COUNT
    assert usage_of({"input_tokens": 10**4000, "output_tokens": entries.MAX_COUNT}) == Usage(
        output=entries.MAX_COUNT, messages=1
    )


def test_tokens_are_kept_per_model(tmp_path: Path):
    t = Transcript()
    [a] = t.say("a")
    [b] = t.say("b")
    b["message"]["model"] = "claude-other"
    [c] = t.say("c")
    c["message"]["model"] = "<synthetic>"  # the client's own error line: no API call
    summary = tally_of(t.write(tmp_path / "s.jsonl")).summary()
    assert dict(summary.by_model) == {
        "claude-test": Usage(10, 5, 1000, 100, 0, 0, 0, 1),
        "claude-other": Usage(10, 5, 1000, 100, 0, 0, 0, 1),
    }
    assert summary.total.messages == 2 and summary.total.tokens == 2 * 1115
