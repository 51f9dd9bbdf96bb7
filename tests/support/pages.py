"""Checks on the HTML the view writes, independent of the kit: every tag closed in order."""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"meta", "input", "br", "hr", "img", "link", "rect", "path", "line"}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()


def unclosed_tags(html: str) -> list[str]:
    """What is wrong with the nesting of `html`'s tags (nothing: an empty list)."""
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser.errors + [f"<{tag}> never closed" for tag in parser.stack]
