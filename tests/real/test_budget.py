"""The budget per session's running count (`usage.spend`, on `usage.filecount` with only the
last 16 messages of a file kept one by one, the older ones added up per model) against the
truth of each real transcript without agents (the truth's messages are the main thread's; the
budget counts a 1.0.x file's inline agents too, as `show`'s total does): the same tokens as each
API message's last line, counted once (a file with no conversation, such as a lone warmup
greeting, is left out: the truth counts no messages there)."""

from __future__ import annotations

import pytest

from session_kit.usage.filecount import count_file, record_models
from session_kit.usage.spend import KEEP
from tests.real.corpus import Truth, has_conversation, params


@pytest.mark.parametrize("truth", params(lambda t: not t.agents and has_conversation(t)))
def test_the_budgets_folded_count_of_a_transcript_is_its_tokens(truth: Truth) -> None:
    record = count_file(str(truth.path), {}, main=True, keep=KEEP)
    assert len(record["messages"]) <= KEEP
    per_model = record_models(record)
    counted = {
        "input": sum(f[0] for f in per_model.values()),
        "output": sum(f[1] for f in per_model.values()),
        "cache_read": sum(f[2] for f in per_model.values()),
        "cache_creation": sum(f[3] + f[4] for f in per_model.values()),
        "messages": sum(f[7] for f in per_model.values()),
    }
    assert counted == truth.token_totals()
