"""Well-formed XML text: escaping, forbidden characters, and element strings.

Owns: turning arbitrary Python strings into XML 1.0 character data and attribute values that
every standard parser accepts: `&`, `<`, `>` (and `"` and whitespace in attributes) escaped,
characters XML forbids (C0 controls other than tab/newline/carriage return, lone surrogates,
U+FFFE/U+FFFF) replaced by U+FFFD (`conversation.items.clean`). Builds element strings; does not decide
which elements exist (that is `elements`), how units are laid out (that is `render.xml`) or
where documents are cut (that is `sinks`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from session_kit.conversation.items import REPLACEMENT, clean

__all__ = [
    "REPLACEMENT",
    "XML_DECLARATION",
    "attrs",
    "clean",
    "element",
    "escape_attr",
    "escape_markup",
    "escape_text",
    "text_element",
]

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def escape_text(text: str) -> str:
    """Character data for element content."""
    return escape_markup(clean(text))


def escape_markup(text: str) -> str:
    """`&`, `<` and `>` as references, for text already cleaned of forbidden characters."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def escape_attr(value: str) -> str:
    """An attribute value for double quotes; whitespace kept as character references
    (a parser would otherwise normalise newlines and tabs to spaces)."""
    value = escape_text(value)
    if '"' in value:
        value = value.replace('"', "&quot;")
    if "\n" in value:
        value = value.replace("\n", "&#10;")
    if "\r" in value:
        value = value.replace("\r", "&#13;")
    if "\t" in value:
        value = value.replace("\t", "&#9;")
    return value


def attrs(values: Mapping[str, object] | Iterable[tuple[str, object]]) -> str:
    """` name="value"…` for the pairs whose value is not None (names are trusted)."""
    items = values.items() if isinstance(values, Mapping) else values
    out = []
    for name, value in items:
        if value is None:
            continue
        if value is True:
            text = "true"
        elif value is False:
            text = "false"
        elif isinstance(value, int):
            text = str(value)
        else:
            text = str(value)
            if _ATTR_SPECIAL.search(text) is not None:
                text = escape_attr(text)
        out.append(f' {name}="{text}"')
    return "".join(out)


# Anything `escape_attr` would change (the forbidden characters included).
_ATTR_SPECIAL = re.compile('[&<>"\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]')


def element(
    name: str, attributes: Mapping[str, object] | Iterable[tuple[str, object]] = (), body: str | None = None
) -> str:
    """`<name attrs>body</name>`, or `<name attrs/>` when `body` is None or empty.

    `body` must already be XML (escaped text and/or elements).
    """
    head = name + attrs(attributes)
    if not body:
        return f"<{head}/>"
    return f"<{head}>{body}</{name}>"


def text_element(name: str, attributes: Mapping[str, object] | Iterable[tuple[str, object]], text: str) -> str:
    """An element whose content is plain text (escaped here)."""
    return element(name, attributes, escape_text(text))
