"""The timeline's geometry: lanes in tree order, bars on a 0..1000 scale, a handful of ticks."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from session_kit.view.model import MAIN
from session_kit.view.timeline import MAX_TICKS, _Scale, _ticks, duration_text, tree_order

START = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "span",
    [timedelta(seconds=0), timedelta(seconds=3), timedelta(minutes=7), timedelta(hours=9), timedelta(days=40)],
)
def test_there_are_a_handful_of_ticks_whatever_the_span(span: timedelta):
    ticks = _ticks(_Scale(START, START + span))
    assert 1 <= len(ticks) <= MAX_TICKS + 1
    assert ticks[0].x == 0 and all(0 <= t.x <= 1000 for t in ticks)


def test_a_session_from_year_one_to_9999_still_has_a_handful_of_ticks():
    first = datetime(1, 1, 1, tzinfo=timezone.utc)
    last = datetime(9999, 12, 31, tzinfo=timezone.utc)
    ticks = _ticks(_Scale(first, last))
    assert 1 <= len(ticks) <= MAX_TICKS + 1


def test_durations_read_at_a_glance():
    assert [duration_text(s) for s in (42, 185, 7620, 273600)] == ["42s", "3m05s", "2h07m", "3d04h"]


def test_lanes_come_depth_first_each_agent_under_its_parent_in_spawn_order():
    parents = {"a": MAIN, "b": "a", "c": MAIN, "d": "a", "loop1": "loop2", "loop2": "loop1"}
    order = tree_order(["a", "b", "c", "d", "loop1", "loop2"], parents)
    assert order[:5] == [(MAIN, 0), ("a", 1), ("b", 2), ("d", 2), ("c", 1)]
    assert {key for key, _ in order} == {MAIN, "a", "b", "c", "d", "loop1", "loop2"}  # a cycle is still shown
