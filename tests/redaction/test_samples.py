"""Every rule's own samples, where it is defined (`Rule.samples`, `Rule.not_samples`): each true
sample loses a part to a marker through the whole redactor, each false one comes out as written."""

from __future__ import annotations

import pytest

from session_kit.redaction.engine import redact
from session_kit.redaction.table import RULES

SAMPLES = [(i, text) for i, rule in enumerate(RULES) for text in rule.samples]
NOT_SAMPLES = [(i, text) for i, rule in enumerate(RULES) for text in rule.not_samples]


def test_every_rule_carries_a_true_and_a_false_sample():
    bare = [f"{i}-{rule.kind}: {rule.pattern.pattern[:60]}" for i, rule in enumerate(RULES) if not rule.samples]
    unchecked = [
        f"{i}-{rule.kind}: {rule.pattern.pattern[:60]}" for i, rule in enumerate(RULES) if not rule.not_samples
    ]
    assert not bare, bare
    assert not unchecked, unchecked


@pytest.mark.parametrize(("rule", "text"), SAMPLES, ids=[f"{i}-{RULES[i].kind}" for i, _ in SAMPLES])
def test_a_rules_sample_is_redacted(rule: int, text: str):
    out = redact(text)
    assert "[REDACTED:" in out, (RULES[rule].pattern.pattern[:80], text)


@pytest.mark.parametrize(("rule", "text"), NOT_SAMPLES, ids=[f"{i}-{RULES[i].kind}" for i, _ in NOT_SAMPLES])
def test_a_rules_false_sample_is_left_as_written(rule: int, text: str):
    assert redact(text) == text, RULES[rule].pattern.pattern[:80]
