"""The timeline's geometry: lanes in tree order, bars along the session's span, ticks.

Owns: the order of the lanes (the main conversation, then each agent under the lane that
spawned it, in spawn order, depth first), where each call's bar starts and ends on a
0..1000 scale over the session's first to last time (a pending call runs to its lane's end;
a bar is never thinner than `MIN_WIDTH`, so a one-second call in a day-long session can still
be seen and clicked), each lane's active stretch, the compactions' rules and the time axis'
ticks. Pure: no text, no format. Does not read anything (that is `build`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from session_kit.view.model import MAIN, Bar, Call, Card, Compaction, Lane, Thread, Tick, Tokens

SCALE = 1000.0
MIN_WIDTH = 2.0  # of SCALE
# Tick steps in seconds: the smallest giving at most MAX_TICKS intervals is used.
_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)
MAX_TICKS = 6
LANE_BARS = 400  # past this many bars a lane's close neighbours are merged
PAGE_BARS = 3000  # and past this many on the page, more of them, until it fits


def duration_text(seconds: float) -> str:
    """`42s`, `3m05s`, `2h07m`, `3d04h` (whole seconds; what a person reads at a glance)."""
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    return f"{s // 86400}d{s % 86400 // 3600:02d}h"


class _Scale:
    def __init__(self, start: datetime | None, end: datetime | None) -> None:
        self.start = start
        span = (end - start).total_seconds() if start is not None and end is not None else 0.0
        self.seconds = max(span, 1.0)

    def x(self, time: datetime) -> float:
        assert self.start is not None
        return round(max(0.0, min(SCALE, (time - self.start).total_seconds() / self.seconds * SCALE)), 2)


def tree_order(keys: Sequence[str], parents: Mapping[str, str]) -> list[tuple[str, int]]:
    """`(key, depth)` depth first from MAIN, children in the order of `keys`; a key whose
    parent is unknown (or in a cycle) hangs under MAIN."""
    known = set(keys) | {MAIN}
    kids: dict[str, list[str]] = {}
    for key in keys:
        parent = parents.get(key, MAIN)
        kids.setdefault(parent if parent in known and parent != key else MAIN, []).append(key)
    out: list[tuple[str, int]] = []
    seen: set[str] = set()

    def visit(key: str, depth: int) -> None:
        if key in seen:
            return
        seen.add(key)
        out.append((key, depth))
        for child in kids.get(key, []):
            visit(child, depth + 1)

    visit(MAIN, 0)
    for key in keys:  # members of a cycle have no path from MAIN
        visit(key, 1)
    return out


def lay_out(
    card: Card,
    threads: Sequence[Thread],
    *,
    parents: Mapping[str, str],
    spans: Mapping[str, tuple[datetime | None, datetime | None]],
    tokens: Mapping[str, Tokens],
    compactions: Sequence[Compaction],
) -> tuple[tuple[Lane, ...], tuple[Tick, ...], tuple[tuple[float, Compaction], ...]]:
    scale = _Scale(card.start, card.end)
    by_key = {t.key: t for t in threads}
    lanes = []
    for key, depth in tree_order([t.key for t in threads if t.key != MAIN], parents):
        thread = by_key[key]
        start, end = spans.get(key, (None, None))
        calls = [i for i in thread.items if isinstance(i, Call)]
        bars = [_bar(c, scale, end) for c in calls if c.started is not None and card.start is not None]
        span = None
        if start is not None and end is not None and card.start is not None:
            span = (scale.x(start), max(scale.x(end) - scale.x(start), MIN_WIDTH))
        spawn = thread.spawned_by
        failed = any(c.failed for c in calls) or (spawn is not None and spawn.failed)
        lanes.append(
            Lane(
                key=key,
                label=thread.label,
                depth=depth,
                start=start,
                end=end,
                tokens=tokens.get(key, Tokens()),
                bars=tuple(bars),
                span=span,
                failed=failed,
                thread_anchor=thread.anchor,
                missing_log=thread.missing_log,
                agent=thread.agent,
            )
        )
    rules = tuple((scale.x(c.time), c) for c in compactions if c.time is not None and card.start is not None)
    return _thinned(lanes), _ticks(scale), rules


def merge_close(bars: Sequence[Bar], gap: float) -> list[Bar]:
    """Bars of one status that start within `gap` of the previous one's end drawn as one."""
    out: list[Bar] = []
    last: dict[str, int] = {}  # status -> index in `out` of its latest bar
    for bar in bars:
        status = bar.call.status
        at = last.get(status)
        if at is not None and bar.x <= out[at].x + out[at].width + gap:
            kept = out[at]
            end = max(kept.x + kept.width, bar.x + bar.width)
            out[at] = Bar(kept.call, kept.x, round(end - kept.x, 2), kept.count + bar.count)
            continue
        last[status] = len(out)
        out.append(bar)
    return out


def _thinned(lanes: list[Lane]) -> tuple[Lane, ...]:
    """Lanes whose bars a page can hold: a lane past `LANE_BARS` has its neighbouring bars
    merged; past `PAGE_BARS` in all, every lane's, with wider and wider gaps. A merged bar
    still links to its first call; its count says how many it stands for."""
    gap = 0.0
    thinned = [
        lane if len(lane.bars) <= LANE_BARS else replace(lane, bars=merge_close(lane.bars, gap)) for lane in lanes
    ]
    while sum(len(lane.bars) for lane in thinned) > PAGE_BARS and gap < SCALE:
        gap = gap * 2 or MIN_WIDTH
        thinned = [replace(lane, bars=merge_close(lane.bars, gap)) for lane in lanes]
    return tuple(replace(lane, bars=tuple(lane.bars)) for lane in thinned)


def _bar(call: Call, scale: _Scale, lane_end: datetime | None) -> Bar:
    assert call.started is not None
    x = scale.x(call.started)
    end = call.ended or lane_end or call.started
    return Bar(call, x, max(round(scale.x(end) - x, 2), MIN_WIDTH))


def _ticks(scale: _Scale) -> tuple[Tick, ...]:
    if scale.start is None:
        return ()
    step = next((s for s in _STEPS if scale.seconds / s <= MAX_TICKS), None)
    if step is None:  # weeks or millennia (hand-made times): a round number of days
        days = scale.seconds / 86400 / MAX_TICKS
        magnitude = 10 ** math.floor(math.log10(days))
        step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= days) * 86400
    ticks = []
    at = 0
    while at <= scale.seconds:
        ticks.append(Tick(round(at / scale.seconds * SCALE, 2), "0" if at == 0 else "+" + duration_text(at)))
        at += step
    return tuple(ticks)
