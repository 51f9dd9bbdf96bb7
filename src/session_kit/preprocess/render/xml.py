"""The XML renderer: units as elements, documents with a declaration and one root element.

Owns: the layout of the XML documents (one entry a line; an assistant message's, a user
turn's and a tool result's children each on their own line, a tool use's parameters on one;
`<omitted lines="N"/>` for left-out lines) and escaping every text and attribute through
`xmlwriter`. Unit texts are already clean of characters XML forbids (see `conversation.items.clean`); only
`&`, `<` and `>` need references here. Does not decide which elements exist (that is
`elements`) or where documents are cut (that is `sinks`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from session_kit.conversation.items import Element, Unit
from session_kit.preprocess.render.xmlwriter import XML_DECLARATION, attrs, escape_markup

# Elements whose children follow each other on one line; every other element puts a line
# break between its children (readers that cut long lines keep each child whole).
_INLINE = frozenset({"tool_use"})


def _element(element: Element, out: Callable[[str], None]) -> None:
    name = element.name
    attributes = element.attrs
    head = f"<{name}{attrs(attributes)}" if attributes else "<" + name
    children = element.children
    if children is None:
        out(head + "/>")
        return
    out(head + ">")
    separator = "" if name in _INLINE else "\n"
    first = True
    for child in children:
        if first:
            first = False
        elif separator:
            out(separator)
        kind = child.__class__
        if kind is str:
            if "&" in child or "<" in child or ">" in child:  # type: ignore[operator]
                child = escape_markup(child)  # type: ignore[arg-type]
            out(child)  # type: ignore[arg-type]
        elif kind is Element:
            _element(child, out)  # type: ignore[arg-type]
        else:
            out(f'<omitted lines="{child.lines}"/>')  # type: ignore[union-attr]
    out(f"</{name}>")


class XmlRenderer:
    extension = "xml"

    def unit(self, unit: Unit) -> str:
        pieces: list[str] = []
        out = pieces.append
        for element in unit:
            _element(element, out)
        out("\n")
        return "".join(pieces)

    def open(self, root: str, attributes: Mapping[str, Any], *, nested: bool = False) -> str:
        head = f"<{root}{attrs(attributes)}>\n"
        return head if nested else XML_DECLARATION + head

    def close(self, root: str) -> str:
        return f"</{root}>\n"


RENDERER = XmlRenderer()
