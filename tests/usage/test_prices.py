"""The bundled price table, a user's override, and cost: unknown models are named, never
priced at zero."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_kit.transcript.tokens import TokenUsage, Usage
from session_kit.usage.prices import PriceFileError, load_prices

MILLION = 1_000_000


def usage(model: str, **kinds: int) -> TokenUsage:
    return TokenUsage(((model, Usage(**kinds, messages=1)),))


def test_the_bundled_table_is_dated_and_names_its_source():
    table = load_prices()
    assert table.date == "2026-11-23" and "platform.claude.com" in table.source and table.override is None


def test_every_kind_of_token_has_its_own_price_including_both_cache_write_tiers():
    table = load_prices()
    cost = table.cost(
        usage(
            "claude-opus-5-5",
            input=MILLION,
            output=MILLION,
            cache_read=MILLION,
            cache_write_5m=MILLION,
            cache_write_1h=MILLION,
        )
    )
    assert cost.usd == pytest.approx(4 + 20 + 0.2 + 5 + 8) and cost.complete


def test_web_searches_are_priced_per_thousand_requests():
    assert load_prices().cost(usage("claude-opus-5-5", web_search=1000)).usd == pytest.approx(10)


def test_a_dated_model_id_and_a_1m_context_suffix_find_the_models_price():
    table = load_prices()
    assert table.price_of("claude-sonnet-4-5-20250929") == table.price_of("claude-sonnet-4-5") is not None
    assert table.price_of("claude-opus-4-6[1m]") == table.price_of("claude-opus-4-6") is not None


def test_an_unknown_model_is_reported_as_unknown_and_not_priced_at_zero():
    cost = load_prices().cost(usage("claude-test", input=MILLION) + usage("claude-opus-5-5", input=MILLION))
    assert cost.unknown_models == ("claude-test",) and not cost.complete
    assert cost.usd == pytest.approx(4)
    assert cost.display() == "$4.00+"
    assert load_prices().cost(usage("claude-test", input=5)).display() == "?"


def test_a_model_is_not_priced_as_another_whose_name_it_starts_with():
    assert load_prices().price_of("claude-sonnet-5-5") is None  # not Sonnet 5's price by prefix


def test_a_user_file_adds_and_replaces_models(tmp_path: Path):
    mine = tmp_path / "prices.json"
    row = {"input": 1, "output": 2, "cache_read": 0, "cache_write_5m": 0, "cache_write_1h": 0}
    mine.write_text(json.dumps({"date": "2027-01-01", "models": {"claude-test": row}}))
    table = load_prices(env={"SESSION_KIT_PRICES": str(mine)})
    assert table.date == "2027-01-01" and table.override == str(mine)
    assert table.cost(usage("claude-test", input=MILLION, output=MILLION)).usd == pytest.approx(3)
    assert table.price_of("claude-opus-5-5") is not None  # the bundled ones stay


def test_prices_json_in_the_state_root_is_read_without_the_variable(tmp_path: Path):
    row = {"input": 1, "output": 1, "cache_read": 1, "cache_write_5m": 1, "cache_write_1h": 1}
    (tmp_path / "prices.json").write_text(json.dumps({"models": {"claude-test": row}}))
    assert load_prices(state_root=str(tmp_path), env={}).price_of("claude-test") is not None


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"models": {"m": {"input": "cheap"}}}', '{"models": {"m": {"input": -1}}}'],
)
def test_a_bad_user_file_is_a_clear_error_with_its_path(tmp_path: Path, text: str):
    bad = tmp_path / "prices.json"
    bad.write_text(text)
    with pytest.raises(PriceFileError) as caught:
        load_prices(env={"SESSION_KIT_PRICES": str(bad)})
    assert str(bad) in caught.value.message and caught.value.exit_code == 5


def test_a_fifo_as_the_price_file_is_a_clear_error_not_a_hang(tmp_path: Path):
    import os

    fifo = tmp_path / "prices.json"
    os.mkfifo(fifo)
    with pytest.raises(PriceFileError):
        load_prices(env={"SESSION_KIT_PRICES": str(fifo)})
