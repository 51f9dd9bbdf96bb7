"""`--since` and `--until`: a point in time as a person types it.

Owns: reading `2026-11-20`, `2026-11-20T14:00`, `2026-11-20 14:00:00Z` (no zone: UTC, the
zone every output shows) and ages (`30m`, `12h`, `7d`, `2w`: that long before now) into an
aware datetime, and the click type that does it. Does not filter anything: commands compare.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import click

AGE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
AGE = re.compile(r"^(\d+(?:\.\d+)?)([smhdw])$")


def parse_when(text: str, *, now: datetime | None = None) -> datetime:
    """The moment `text` names; ValueError when it names none."""
    value = text.strip()
    age = AGE.match(value)
    if age:
        now = now or datetime.now(timezone.utc)
        return now - timedelta(seconds=float(age.group(1)) * AGE_UNITS[age.group(2)])
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    moment = datetime.fromisoformat(value)  # ValueError for anything else
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class When(click.ParamType):
    name = "WHEN"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> datetime:
        if isinstance(value, datetime):
            return value
        try:
            return parse_when(str(value))
        except ValueError:
            self.fail(f"{value!r} is not a date, a time or an age (2026-11-20, 2026-11-20T14:00, 7d, 12h)", param, ctx)
