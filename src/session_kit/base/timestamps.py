"""Times the kit reads from files, clamped to what every later step can hold. Standard library
only and cheap to import (`datetime` is loaded only by the functions that make one): the
follower, and so the hooks, load it.

Owns: the one clamp of every time the kit reads, per value (a row, a file), never per root:
- a file's mtime (`mtime_ns`, `mtime`): to what a signed 64-bit count of nanoseconds holds
  (1677 to 2262), the range SQLite's INTEGER, an `array('q')` and `datetime` all take; a
  transcript touched to year 36800 is listed as of 2262, not an error for the whole root;
- a time a file records (`moment`, `from_seconds`): to `EARLIEST_S`..`LATEST_S` (year 1 east of
  UTC or 9999 west of it has no UTC time at all; an hour or a day bucket, a local copy all
  fit), and seconds past what `datetime` holds (a `history.jsonl` stamp of year 10000 or
  more) clamped rather than refused.
Does not: parse a transcript's timestamp (`transcript.entries.parse_timestamp`, which uses it)
or format one.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

EARLIEST_S = -62135424000  # 0001-01-03T00:00:00Z
LATEST_S = 253402041600  # 9999-12-29T00:00:00Z
_NS_MIN, _NS_MAX = -(2**63), 2**63 - 1


def mtime_ns(st: os.stat_result) -> int:
    """`st`'s mtime in ns, within a signed 64-bit integer."""
    ns = st.st_mtime_ns
    return _NS_MIN if ns < _NS_MIN else _NS_MAX if ns > _NS_MAX else ns


def mtime(st: os.stat_result) -> float:
    """`st`'s mtime in seconds, within what `mtime_ns` holds (so also what `datetime` does)."""
    return mtime_ns(st) / 1e9


def seconds(value: float) -> float:
    """Unix seconds within `EARLIEST_S`..`LATEST_S` (NaN: the epoch)."""
    if value != value:  # NaN
        return 0.0
    return EARLIEST_S if value < EARLIEST_S else LATEST_S if value > LATEST_S else value


def from_seconds(value: float) -> datetime:
    """An aware UTC datetime of Unix seconds, clamped (`seconds`)."""
    from datetime import datetime, timezone

    return datetime.fromtimestamp(seconds(value), tz=timezone.utc)


def moment(value: datetime) -> datetime:
    """An aware datetime clamped to `EARLIEST_S`..`LATEST_S` (compared as aware times: no overflow)."""
    earliest, latest = bounds()
    return earliest if value < earliest else latest if value > latest else value


_BOUNDS: list[datetime] = []


def bounds() -> tuple[datetime, datetime]:
    """`EARLIEST_S` and `LATEST_S` as aware datetimes (made once, `datetime` loaded then)."""
    if not _BOUNDS:
        from datetime import datetime, timezone

        _BOUNDS.extend(datetime.fromtimestamp(s, tz=timezone.utc) for s in (EARLIEST_S, LATEST_S))
    return _BOUNDS[0], _BOUNDS[1]
