"""What the redactor made of each text it was given in this process: each distinct text is
redacted once (a transcript writes a tool's output twice, in the message and in
`toolUseResult`; a listing repeats titles; the guard sees the same names again).

Owns: `DONE` (text -> what it became and the kinds removed, least recently used first) and
`remember`, which drops the least recently used past `REMEMBERED` characters or `ENTRIES`
texts in all (a text's entry costs some 200 bytes beside its characters: a listing of 100,000
short ids must not hold them all). Holds
only what the default rule table made of a text (`engine.Redactor` decides what to keep).
"""

from __future__ import annotations

DONE: dict[str, tuple[str, tuple[str, ...]]] = {}
REMEMBERED = 1 << 21  # characters of text remembered at most: the repeats are near (a few MB held)
ENTRIES = 4096  # texts remembered at most
_held = [0]


def remember(text: str, redacted: str, kinds: tuple[str, ...]) -> None:
    """Keep what `text` became (`redacted`, having removed `kinds`)."""
    if len(text) > REMEMBERED or text in DONE:
        return
    DONE[text] = (redacted, kinds)
    _held[0] += len(text)
    while _held[0] > REMEMBERED or len(DONE) > ENTRIES:
        oldest = next(iter(DONE))
        _held[0] -= len(oldest)
        del DONE[oldest]
