"""Prices of tokens, and the cost of a `TokenUsage`.

Owns: the bundled price table (`prices.json` beside this module: dated, with its source, per
model and token kind, both cache-write tiers, web search per 1,000 requests), a user's
override (`$SESSION_KIT_PRICES`, else `prices.json` in the kit's state root: the same shape,
its models added to or replacing the bundled ones), how a model id finds its price (as
written, then without a `-YYYYMMDD` date or a `[1m]` suffix), and `Cost`. A model with no
price is reported as unknown, with its tokens: never priced at zero silently. Reads only
the two price files; stdlib only, so the status line can use it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from session_kit.errors import BadFile
from session_kit.state.root import state_root as default_state_root
from session_kit.transcript.tokens import TokenUsage, Usage

BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prices.json")
ENV_PRICES = "SESSION_KIT_PRICES"
PER_TOKENS = 1_000_000
_KINDS = ("input", "output", "cache_read", "cache_write_5m", "cache_write_1h")


class PriceFileError(BadFile):
    """A price file that cannot be read or is not of the table's shape (exit 5)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"price file {path}: {reason}", path=path)


@dataclass(frozen=True, slots=True)
class Price:
    """USD per million tokens of each kind; web search per 1,000 requests."""

    input: float
    output: float
    cache_read: float
    cache_write_5m: float
    cache_write_1h: float
    web_search_per_1000: float = 0.0

    def cost(self, u: Usage) -> float:
        tokens = (
            u.input * self.input
            + u.output * self.output
            + u.cache_read * self.cache_read
            + u.cache_write_5m * self.cache_write_5m
            + u.cache_write_1h * self.cache_write_1h
        )
        return tokens / PER_TOKENS + u.web_search * self.web_search_per_1000 / 1000


@dataclass(frozen=True, slots=True)
class Cost:
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


@dataclass(frozen=True, slots=True)
class PriceTable:
    date: str
    source: str
    models: Mapping[str, Price]
    override: str | None = None  # the user's price file, when one was read

    def price_of(self, model: str) -> Price | None:
        for candidate in _candidates(model):
            price = self.models.get(candidate)
            if price is not None:
                return price
        return None

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


def _candidates(model: str) -> list[str]:
    names = [model]
    base = model[:-4] if model.endswith("[1m]") else model
    if base != model:
        names.append(base)
    head, _, tail = base.rpartition("-")
    if head and len(tail) == 8 and tail.isdigit():
        names.append(head)
    return names


def _read(path: str) -> Mapping[str, Any]:
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read())
    except (OSError, ValueError) as exc:
        raise PriceFileError(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    if not isinstance(data, Mapping) or not isinstance(data.get("models"), Mapping):
        raise PriceFileError(path, 'expected an object with "models": {model: {input, output, ...}}')
    return data


def _prices(data: Mapping[str, Any], path: str) -> dict[str, Price]:
    search = data.get("web_search_per_1000", 0)
    out = {}
    for model, row in data["models"].items():
        if not isinstance(row, Mapping):
            raise PriceFileError(path, f"{model}: expected an object of prices")
        values = []
        for kind in _KINDS:
            value = row.get(kind)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise PriceFileError(path, f"{model}: {kind} must be a number >= 0")
            values.append(float(value))
        out[str(model)] = Price(*values, web_search_per_1000=float(row.get("web_search_per_1000", search) or 0))
    return out


def load_prices(*, state_root: str | None = None, env: Mapping[str, str] | None = None) -> PriceTable:
    """The bundled table with the user's file laid over it (`PriceFileError` when that file is
    not of the table's shape; a missing default file is no error)."""
    env = os.environ if env is None else env
    bundled = _read(BUNDLED)
    models = _prices(bundled, BUNDLED)
    override = env.get(ENV_PRICES) or None
    if override is None:
        state_root = state_root if state_root is not None else default_state_root(env)
        default = os.path.join(state_root, "prices.json")
        override = default if os.path.exists(default) else None
    date = str(bundled.get("date", "?"))
    if override is not None:
        user = _read(override)
        models.update(_prices(user, override))
        date = str(user.get("date", date))
    return PriceTable(date=date, source=str(bundled.get("source", "")), models=models, override=override)
