"""The price table's rows as plain numbers: reading a price file, finding a model's row, and
what a model's usage costs — the part of pricing the status line needs.

Owns: `KINDS` (the priced token kinds, in `usagefields.FIELDS` order), `read_rows` (a price
file to `{model: (5 per-million prices, web search per 1,000)}`, `ValueError` with the reason
when it is not of the table's shape), `lookup_names` (a model id as written, then without a
`-YYYYMMDD` date or a `[1m]` suffix: never by prefix, so a new model is not priced as an
older one), `override_path` (the user's file: `$SESSION_KIT_PRICES`, else `prices.json` in
the kit's state root) and `cost_of`. `usage.prices` builds its values on these. Parses with
`state.fastjson`, never `json`: the status line runs in a hook's time budget. Does not make
values or words (`usage.prices`).
"""

from __future__ import annotations

import os

from session_kit.base import fastjson
from session_kit.base.fileio import read_small

KINDS = ("input", "output", "cache_read", "cache_write_5m", "cache_write_1h")
BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prices.json")
ENV_PRICES = "SESSION_KIT_PRICES"
PER_TOKENS = 1_000_000
MAX_FILE = 4 << 20  # a price table is a few kilobytes


def read_table(path: str) -> dict:
    """The price file as an object (OSError, or ValueError when it is not JSON)."""
    data = fastjson.loads(read_small(path, MAX_FILE).decode("utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        raise ValueError('expected an object with "models": {model: {input, output, ...}}')
    return data


def bundled_date() -> str:
    """The date of the price table shipped with the kit."""
    try:
        return str(read_table(BUNDLED).get("date", "?"))
    except (OSError, ValueError):
        return "?"


def read_rows(data: dict) -> dict:
    """`{model: (input, output, cache_read, cache_write_5m, cache_write_1h, web_search_per_1000)}`."""
    search = data.get("web_search_per_1000", 0)
    rows = {}
    for model, row in data["models"].items():
        if not isinstance(row, dict):
            raise ValueError(f"{model}: expected an object of prices")
        values = []
        for kind in KINDS:
            value = row.get(kind)
            if type(value) not in (int, float) or value < 0:
                raise ValueError(f"{model}: {kind} must be a number >= 0")
            values.append(float(value))
        per_search = row.get("web_search_per_1000", search)
        values.append(float(per_search) if type(per_search) in (int, float) and per_search > 0 else 0.0)
        rows[str(model)] = tuple(values)
    return rows


def lookup_names(model: str) -> list:
    names = [model]
    base = model[:-4] if model.endswith("[1m]") else model
    if base != model:
        names.append(base)
    head, _, tail = base.rpartition("-")
    if head and len(tail) == 8 and tail.isdigit():
        names.append(head)
    return names


def find_row(rows: dict, model: str) -> tuple | None:
    for name in lookup_names(model):
        row = rows.get(name)
        if row is not None:
            return row
    return None


def cost_of(row: tuple, fields: tuple) -> float:
    """USD for usage `fields` (in `usagefields.FIELDS` order) at a model's `row` of prices."""
    tokens = sum(fields[i] * row[i] for i in range(5))
    return tokens / PER_TOKENS + fields[5] * row[5] / 1000


def override_path(env: dict, state_root: str) -> str | None:
    """The user's price file, when there is one."""
    explicit = env.get(ENV_PRICES)
    if explicit:
        return explicit
    default = os.path.join(state_root, "prices.json")
    return default if os.path.exists(default) else None
