"""The one reading of a budget value (`base.budget`): what is a budget, what is off, and what
is refused with one sentence (issue 39 item 7: `inf`, `1e400`, `0x10`, `2k tokens`, `abc` and
`1,5m` used to fault or mean something else silently)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from session_kit.base.budget import MAX_TOKENS, TOKENS, USD, Budget, BudgetProblem, human, parse_budget


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2000", Budget(2000, TOKENS)),
        ("500k", Budget(500_000, TOKENS)),
        ("2m", Budget(2_000_000, TOKENS)),
        ("2M", Budget(2_000_000, TOKENS)),
        ("1.5m", Budget(1_500_000, TOKENS)),
        (" 1_000_000 ", Budget(1_000_000, TOKENS)),
        ("1,000,000", Budget(1_000_000, TOKENS)),
        (2000, Budget(2000, TOKENS)),
        (2000.0, Budget(2000, TOKENS)),
        ("$5", Budget(5.0, USD)),
        ("$5.50", Budget(5.5, USD)),
        ("5.50$", Budget(5.5, USD)),
        ("$ 1,200", Budget(1200.0, USD)),
    ],
)
def test_a_budget_is_tokens_with_k_or_m_or_dollars_with_a_dollar_sign(value: object, expected: Budget):
    assert parse_budget(value, where="X") == expected


@pytest.mark.parametrize("value", ["off", "OFF", " none ", "no"])
def test_off_says_no_budget(value: str):
    assert parse_budget(value, where="X") is None


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("inf", "no budget"),
        ("nan", "no budget"),
        ("1e400", "no budget"),
        (float("inf"), "not a finite number"),
        (float("nan"), "not a finite number"),
        ("0x10", "no budget"),
        ("2k tokens", "no budget"),
        ("abc", "no budget"),
        ("1,5m", "no budget"),
        ("12,34", "no budget"),
        ("-5", "no budget"),
        (-5, "would deny everything"),
        ("0", "would deny everything"),
        (0, "would deny everything"),
        ("$0", "would deny everything"),
        ("0.4", "less than one token"),
        ("9" * 40, "past the largest budget"),
        (10**400, "past the largest budget"),
        ("$9999999999", "past the largest budget"),
        (True, "no budget"),
        (None, "no budget"),
        ([5], "a list, not a budget"),
        ({"usd": 5}, "a dict, not a budget"),
        ("", "no budget"),
        ("$", "no budget"),
        ("5$$", "no budget"),
        ("1__000", "no budget"),
        ("١٢٣", "no budget"),  # digits of another script
    ],
)
def test_anything_else_is_refused_with_one_sentence_naming_where_it_was_written(value: object, why: str):
    with pytest.raises(BudgetProblem) as caught:
        parse_budget(value, where="SESSION_KIT_SESSION_BUDGET")
    message = str(caught.value)
    assert message.startswith("SESSION_KIT_SESSION_BUDGET") and why in message and "\n" not in message


def test_a_budget_per_subagent_is_in_tokens_only():
    with pytest.raises(BudgetProblem, match="in tokens"):
        parse_budget("$5", where="SESSION_KIT_AGENT_BUDGET", dollars=False)


@given(st.text(max_size=12))
def test_any_text_is_a_budget_off_or_one_problem_never_a_fault(text: str):
    try:
        found = parse_budget(text, where="X")
    except BudgetProblem:
        return
    assert found is None or (0 < found.amount <= MAX_TOKENS)


def test_amounts_read_in_human_units():
    assert human(950, TOKENS) == "950 tokens"
    assert human(500_000, TOKENS) == "500k tokens"
    assert human(1_500_000, TOKENS) == "1.5M tokens"
    assert human(5, USD) == "$5.00"
    assert str(Budget(2_000_000, TOKENS)) == "2M tokens"


def test_a_budget_is_raised_in_its_own_unit_only():
    assert Budget(5.0, USD).plus(Budget(2.0, USD)) == Budget(7.0, USD)
    with pytest.raises(BudgetProblem, match="in dollars"):
        Budget(5.0, USD).plus(Budget(500, TOKENS))
