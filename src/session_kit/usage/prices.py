"""Prices of tokens, and the cost of a `TokenUsage`.

Owns: `PriceTable` — the bundled table (`prices.json` beside this module: dated, with its
source, per model and token kind, both cache-write tiers, web search per 1,000 requests)
with a user's override laid over it (`$SESSION_KIT_PRICES`, else `prices.json` in the kit's
state root: the same shape, its models added to or replacing the bundled ones) — and `Cost`.
A model with no price is reported as unknown, with its tokens: never priced at zero
silently. Reading the files, finding a model's row and the arithmetic are `pricerows`'
(shared with the status line). Does not count tokens.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from session_kit.errors import BadFile
from session_kit.state.root import state_root as default_state_root
from session_kit.transcript.tokens import TokenUsage, Usage
from session_kit.usage.pricerows import BUNDLED, ENV_PRICES, cost_of, find_row, override_path, read_rows, read_table

__all__ = ["BUNDLED", "ENV_PRICES", "Cost", "Price", "PriceFileError", "PriceTable", "load_prices"]


class PriceFileError(BadFile):
    """A price file that cannot be read or is not of the table's shape (exit 5)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"price file {path}: {reason}", path=path)


class Price(NamedTuple):
    """USD per million tokens of each kind; web search per 1,000 requests."""

    input: float
    output: float
    cache_read: float
    cache_write_5m: float
    cache_write_1h: float
    web_search_per_1000: float = 0.0

    def cost(self, u: Usage) -> float:
        return cost_of(
            (
                self.input,
                self.output,
                self.cache_read,
                self.cache_write_5m,
                self.cache_write_1h,
                self.web_search_per_1000,
            ),
            (u.input, u.output, u.cache_read, u.cache_write_5m, u.cache_write_1h, u.web_search),
        )


class Cost(NamedTuple):
    """What a usage cost: `usd` for the priced models; `unknown_models` had no price (their
    tokens are left out of `usd`, so `complete` is False)."""

    usd: float
    unknown_models: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.unknown_models

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.usd + other.usd, tuple(sorted(set(self.unknown_models) | set(other.unknown_models))))

    def as_dict(self) -> dict[str, Any]:
        return {"usd": round(self.usd, 6), "complete": self.complete, "unknown_models": list(self.unknown_models)}

    def display(self) -> str:
        """`$1.23`, `$1.23+` when some models had no price, `?` when none had one."""
        if self.unknown_models and self.usd == 0:
            return "?"
        return f"${self.usd:,.2f}" + ("+" if self.unknown_models else "")


class PriceTable(NamedTuple):
    date: str
    source: str
    models: Mapping[str, tuple[float, ...]]  # pricerows' rows
    override: str | None = None  # the user's price file, when one was read

    def price_of(self, model: str) -> Price | None:
        row = find_row(self.models, model)
        return Price(*row) if row is not None else None

    def cost(self, usage: TokenUsage) -> Cost:
        usd = 0.0
        unknown = []
        for model, u in usage.by_model:
            price = self.price_of(model)
            if price is None:
                if u.tokens or u.web_search:
                    unknown.append(model)
                continue
            usd += price.cost(u)
        return Cost(usd, tuple(unknown))

    def as_dict(self) -> dict[str, Any]:
        return {"date": self.date, "source": self.source, "override": self.override}


def _rows(path: str) -> tuple[Mapping[str, Any], dict[str, tuple[float, ...]]]:
    try:
        data = read_table(path)
        return data, read_rows(data)
    except (OSError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PriceFileError(path, reason) from None


def load_prices(*, state_root: str | None = None, env: Mapping[str, str] | None = None) -> PriceTable:
    """The bundled table with the user's file laid over it (`PriceFileError` when that file is
    not of the table's shape; a missing default file is no error)."""
    env = os.environ if env is None else env
    bundled, models = _rows(BUNDLED)
    if env.get(ENV_PRICES):
        override: str | None = env[ENV_PRICES]
    else:
        override = override_path(dict(env), state_root if state_root is not None else default_state_root(env))
    date = str(bundled.get("date", "?"))
    if override is not None:
        user, mine = _rows(override)
        models.update(mine)
        date = str(user.get("date", date))
    return PriceTable(date=date, source=str(bundled.get("source", "")), models=models, override=override)
