"""Recall on the held-out probes (`tests/support/heldout_secrets.py`): formats the redactor's
own fixtures never hold, in the families the rules were widened for (CI runner tokens, key
file bodies, URL passwords with reserved characters, positional credentials, newer prefixed
keys, chat-bot tokens in code, age keys), each in several placements."""

from __future__ import annotations

import pytest

from session_kit.redact import redact_many, redact_text
from tests.support.heldout_secrets import BENIGN, figures, heldout

FAMILIES = sorted({probe.family for probe in heldout()})


@pytest.fixture(scope="module")
def measured():
    return figures(redact_text)


def test_the_held_out_set_has_every_family_and_64_benign_texts():
    assert len(FAMILIES) == 7 and len(heldout()) >= 70
    assert len(BENIGN) == 64


@pytest.mark.parametrize("family", FAMILIES)
def test_recall_on_held_out_formats_is_at_least_97_percent_in_each_family(measured, family: str):
    per_family, missed, _ = measured
    found, total = per_family[family]
    assert found / total >= 0.97, [m for m in missed if any(p.kind in m for p in heldout() if p.family == family)]


def test_at_most_two_of_64_benign_texts_are_altered(measured):
    _, _, altered = measured
    assert len(altered) <= 2, altered


def test_each_held_out_probe_is_found_in_a_batch_right_after_itself():
    texts = [text for probe in heldout() for text in ("x", f"see {probe.line}", probe.line)]
    out = redact_many(texts)
    missed = [
        probe.kind
        for i, probe in enumerate(heldout())
        if redact_text(probe.line) != probe.line and out[3 * i + 2] != redact_text(probe.line)
    ]
    assert missed == []
