"""Format-neutral units: what one transcript entry becomes, before any output format.

Owns: the small tree a converted entry is (`Element`s with a name, attributes and children;
a child is text, a nested element or an `Omitted` run of lines), the `Unit` (the elements of
one entry, in order), the text guarantee every unit keeps (no character that no output may
carry: `clean`), and replacing a unit's texts in order (`replace_texts`, for redaction done in
batches). Does not decide which elements exist (that is `elements`), escape anything or choose
a layout (that is a renderer in `render/`).

A child list of None means an element with no content at all (`<image/>` in XML); an empty
list or a list holding an empty text means an element whose content happens to be empty.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

REPLACEMENT = "\ufffd"
# C0 controls other than tab/newline/CR, lone surrogates, U+FFFE/U+FFFF: XML 1.0 forbids them,
# UTF-8 cannot encode a lone surrogate, and a terminal would act on the controls.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_FORBIDDEN_BUT_NUL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(text: str, *, keep_nul: bool = False) -> str:
    """`text` with every character no output may carry replaced by U+FFFD.

    `keep_nul` leaves NUL alone, for callers that use it to join texts and split them later.
    """
    forbidden = _FORBIDDEN_BUT_NUL if keep_nul else _FORBIDDEN
    if forbidden.search(text) is None:
        return text
    return forbidden.sub(REPLACEMENT, text)


class Omitted:
    """That many lines of tool output left out here."""

    __slots__ = ("lines",)

    def __init__(self, lines: int) -> None:
        self.lines = lines

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Omitted) and other.lines == self.lines

    def __repr__(self) -> str:
        return f"Omitted({self.lines})"


class Element:
    """A named node: attributes (a None value means absent) and children (None: no content)."""

    __slots__ = ("name", "attrs", "children")

    def __init__(
        self,
        name: str,
        attrs: Mapping[str, Any] | None = None,
        children: list[Child] | None = None,
    ) -> None:
        self.name = name
        self.attrs = attrs
        self.children = children

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Element)
            and other.name == self.name
            and dict(other.attrs or {}) == dict(self.attrs or {})
            and other.children == self.children
        )

    def __repr__(self) -> str:
        return f"Element({self.name!r}, {self.attrs!r}, {self.children!r})"


Child = str | Element | Omitted
Unit = Sequence[Element]  # one entry's elements, in order (mostly one)


def texts(unit: Unit) -> Iterator[str]:
    """Every text of the unit, depth first, in document order."""
    for element in unit:
        yield from _texts(element)


def _texts(element: Element) -> Iterator[str]:
    for child in element.children or ():
        if isinstance(child, str):
            yield child
        elif isinstance(child, Element):
            yield from _texts(child)


def replace_texts(unit: Unit, new: Iterator[str]) -> None:
    """Put the next of `new` in place of each text of the unit, in the order of `texts`."""
    for element in unit:
        _replace(element, new)


def _replace(element: Element, new: Iterator[str]) -> None:
    children = element.children
    if not children:
        return
    for index, child in enumerate(children):
        if isinstance(child, str):
            children[index] = next(new)
        elif isinstance(child, Element):
            _replace(child, new)
