"""The engine's loop over the rules with the compiled pass: the same rules, in the same order,
tried at the same anchors, but only where the pass says a rule's pattern may match.

Owns: `redact_compiled(redactor, text, compiled)`, what `Redactor._redact` does when a
compiled pass is loaded (`redaction.compiled`). One hyperscan scan gives, for each rule with a
head, where its head ends, and for each rule without one, whether one of its anchors may be
there. A rule found nowhere is not visited; a rule found is tried at its anchors as by the `re`
engine (`Redactor._apply`), but only at a start with a head's end within its width after it.
While no rule has replaced anything, a rule's anchors are searched for only in the windows
around its heads' ends; once one has, the text is scanned again (a marker can make or unmake a
match) and anchors are found as the `re` engine finds them (in the text as given, moved past
the markers). So what is replaced is exactly what the `re` engine replaces.
"""

from __future__ import annotations

from session_kit.redaction.compiled import ANCHORS, Pass
from session_kit.redaction.positions import lowered as _lower
from session_kit.redaction.positions import moved as _moved
from session_kit.redaction.positions import positions as _positions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def redact_compiled(redactor: Any, text: str, compiled: Pass) -> str:
    """`text` redacted by `redactor` (an `engine.Redactor`) with the compiled pass."""
    rules = redactor.rules
    plan = redactor._plan
    widths = compiled.widths
    reported = compiled.ends(text)
    bare = {i - ANCHORS for i in reported if i >= ANCHORS}  # rules without a head, an anchor there
    todo = _visited(rules, widths, reported, bare, -1)
    if not todo:
        return text
    original = text
    low: str | None = None
    found: dict[int, list[int]] = {}
    seen: dict[int, int] = {}
    rounds: list[list[tuple[int, int, int]]] = []
    i = 0
    while i < len(todo):
        index = todo[i]
        i += 1
        rule = rules[index]
        width = widths.get(index)
        ends = reported.get(index) if width is not None else None
        if width is not None and ends is None:
            continue
        if low is None and not rule.exact:
            low = _lower(original)
        searched = original if rule.exact else low
        assert searched is not None
        if not rounds and ends is not None and rule.scan is None:  # the text as given: windows
            starts = _windowed(searched, rule, ends, width)
        else:
            starts = rule.scan.starts(text) if rule.scan is not None else []
            for key, anchor in zip(plan.keys[index], rule.anchors):
                positions = found.get(key)
                if positions is None:
                    positions = found[key] = _positions(searched, anchor)
                at = seen.get(key, 0)
                if at != len(rounds):
                    for edits in rounds[at:]:
                        positions = _moved(positions, edits)
                    found[key] = positions
                    seen[key] = len(rounds)
                starts.extend(positions)
            if len(rule.anchors) > 1:
                starts.sort()
        if not starts:
            continue
        edits: list[tuple[int, int, int]] = []
        redacted = redactor._apply(rule, text, starts, edits, ends, width or 0)
        if redacted is not None:
            text = redacted
            rounds.append(edits)
            # a marker can make or unmake a match: the text is scanned again for what follows
            reported = compiled.ends(text)
            todo = _visited(rules, widths, reported, bare, index)
            i = 0
    return text


def _visited(
    rules: tuple, widths: dict[int, int], reported: dict[int, list[int]], bare: set[int], after: int
) -> list[int]:
    """The rules after index `after` to visit, in order: those whose head was found, those
    without a head with an anchor there (found in the text as given, as the `re` engine does),
    and those found by a scan."""
    return [
        index
        for index, rule in enumerate(rules)
        if index > after and (index in reported if index in widths else (index in bare or rule.scan is not None))
    ]


def _windowed(searched: str, rule: object, ends: list[int], width: int) -> list[int]:
    """The rule's anchors' positions (sorted) from which a start the engine may try (`back`
    before it, at a family's prefix, or moved to a match's end) has a head's end within
    `width` after it: the others could not match."""
    slack = abs(rule.back) + 16  # type: ignore[attr-defined]  # a family's prefix is shorter
    windows: list[list[int]] = []
    for end in ends:
        lo, hi = end - width - slack, end + slack
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = hi
        else:
            windows.append([max(lo, 0), hi])
    starts: list[int] = []
    for anchor in rule.anchors:  # type: ignore[attr-defined]
        size = len(anchor)
        for lo, hi in windows:
            at = searched.find(anchor, lo, hi + size)
            while at >= 0:
                starts.append(at)
                at = searched.find(anchor, at + 1, hi + size)
    if len(rule.anchors) > 1:  # type: ignore[attr-defined]
        starts.sort()
    return starts
