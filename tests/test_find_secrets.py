"""`find_secrets`: where the redactor's rules find secrets, exactly what `redact` replaces."""

from __future__ import annotations

from session_kit.redaction.engine import find_secrets, marker, redact
from tests.support.secret_probes import PLACEMENTS, probes


def _replaced(text: str) -> str:
    """`text` with each found span replaced by its kind's marker."""
    pieces, done = [], 0
    for found in find_secrets(text):
        pieces += [text[done : found.start], marker(found.kind)]
        done = found.end
    return "".join(pieces) + text[done:]


def test_the_spans_found_are_what_redact_replaces_for_every_probe_in_every_placement():
    texts = [placement.wrap(probe.line) for probe in probes() for placement in PLACEMENTS]
    assert len(texts) > 2500
    different = [text for text in texts if _replaced(text) != redact(text)]
    assert not different, different[:3]


def test_spans_are_in_the_text_given_after_earlier_rules_moved_things():
    key = "sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyuiop"
    text = f"first {key} then password=hunter2-Tr0ub4dor and AKIAIOSFODNN7Q7ZK2MX"
    found = find_secrets(text)
    assert [(f.kind, text[f.start : f.end]) for f in found] == [
        ("anthropic-api-key", key),
        ("password", "hunter2-Tr0ub4dor"),
        ("aws-access-key", "AKIAIOSFODNN7Q7ZK2MX"),
    ]


def test_ordinary_text_has_no_secrets():
    assert find_secrets("uuid 5ec2e700-aaaa-bbbb-cccc-ddddeeeeffff, commit 3f2a9c1, max_tokens=4096") == []
