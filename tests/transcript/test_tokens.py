"""Token usage, counted once per API message however many lines the message spans."""

from __future__ import annotations

from pathlib import Path

from session_kit.transcript.entries import read_entries
from session_kit.transcript.tokens import TokenTally
from tests.support.transcripts import Transcript


def test_tokens_count_once_per_message_id(tmp_path: Path):
    t = Transcript()
    t.assistant(
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
        {"type": "text", "text": "c"},
        usage={"input_tokens": 7, "output_tokens": 3},
    )
    t.say("d")  # a second message with the builder's default usage
    tally = TokenTally()
    for e in read_entries(t.write(tmp_path / "s.jsonl")):
        tally.add(e)
    assert tally.messages == 2
    assert tally.input == 7 + 10 and tally.output == 3 + 5
