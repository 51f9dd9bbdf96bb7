"""Text made safe to show: the one sanitizer of everything the kit prints or writes as text.

Owns: `safe(text)`, the rule for characters a transcript must not send to a reader as they
are: every C0 control but newline and tab, DEL and every C1 control is written as a visible
escape (`\\u001b`), so no transcript sets a terminal's title, clears its screen or hides a
link (ESC, CSI and OSC never go out raw); bidi controls (which reorder what is shown) and
zero-width or invisible characters (which hide text inside text) are written the same way,
so a line reads in the order it is stored and nothing in it is unseen. A zero-width joiner
between two emoji is kept (it makes one picture of them, and hides nothing).

The `\\uXXXX` form is also a JSON string's escape: a JSON document passed through `safe`
decodes to the same values, so one rule serves text and `--json` alike (characters past
U+FFFF are written as their JSON surrogate pair).

`SafeStream`: a text stream that writes everything through `safe`, letting out only the exact
sequences its owner names (the command line's own colours): the command line puts its
stdout and stderr behind one, so no command can print around the rule.

Loads nothing (the status line, run by the client on every turn, uses it: no `re`, no
`typing`). Does not
redact secrets (that is `redact`), cut or lay out text.
"""

from __future__ import annotations

from io import TextIOBase as TextIO  # for annotations; `io` is loaded in every interpreter


def _code_points() -> list[int]:
    """What is never shown as it is: C0 (but tab and newline), DEL, C1; bidi embeddings,
    overrides, isolates and marks; zero-width and invisible characters (soft hyphen, joiners,
    fillers, word joiner and invisible operators, line and paragraph separators, BOM,
    interlinear annotation, tag characters)."""
    ranges = [
        (0x00, 0x08),
        (0x0B, 0x1F),
        (0x7F, 0x9F),
        (0xAD, 0xAD),
        (0x34F, 0x34F),
        (0x61C, 0x61C),
        (0x115F, 0x1160),
        (0x17B4, 0x17B5),
        (0x180B, 0x180E),
        (0x200B, 0x200F),
        (0x2028, 0x202E),
        (0x2060, 0x206F),
        (0x3164, 0x3164),
        (0xFEFF, 0xFEFF),
        (0xFFA0, 0xFFA0),
        (0xFFF9, 0xFFFB),
        (0xE0000, 0xE007F),
    ]
    return [code for low, high in ranges for code in range(low, high + 1)]


def _escape(code: int) -> str:
    if code > 0xFFFF:  # as JSON writes it: a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


UNSAFE = frozenset(map(chr, _code_points()))
_TABLE = {code: _escape(code) for code in _code_points()}
ZWJ = "\u200d"
_ZWJ_ESCAPED = _TABLE[ord(ZWJ)]


def _is_emoji(char: str) -> bool:
    code = ord(char)
    return 0x2600 <= code <= 0x27BF or code == 0xFE0F or 0x1F000 <= code <= 0x1FAFF


# Invisible, yet printable to `str.isprintable` (combining and filler letters): looked for one
# by one in text that passes it.
_PRINTABLE_UNSAFE = tuple(sorted(char for char in UNSAFE if char.isprintable()))


def is_safe(text: str) -> bool:
    """Whether `safe` leaves `text` as it is (most text: checked in C, no copy)."""
    if text.isprintable():
        return not any(char in text for char in _PRINTABLE_UNSAFE)
    return not any(char in UNSAFE for char in text)


def safe(text: str) -> str:
    """`text` with every control, bidi and invisible character written as `\\uXXXX`."""
    if (text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable()) and not any(
        char in text for char in _PRINTABLE_UNSAFE
    ):
        return text  # most text, checked in C (a non-printable but safe character goes on below)
    out = text.translate(_TABLE)
    if len(out) == len(text):
        return text
    return _joined_emoji(text, out) if ZWJ in text else out


def _joined_emoji(text: str, out: str) -> str:
    """`out` with the zero-width joiners that join two emoji of `text` put back."""
    kept = [i for i, char in enumerate(text) if char == ZWJ and 0 < i < len(text) - 1]
    kept = [i for i in kept if _is_emoji(text[i - 1]) and _is_emoji(text[i + 1])]
    if not kept:
        return out
    pieces = []
    start = 0
    for i in kept:
        pieces.append(text[start:i].translate(_TABLE))
        pieces.append(ZWJ)
        start = i + 1
    pieces.append(text[start:].translate(_TABLE))
    return "".join(pieces)


class SafeStream:
    """A text stream that writes through `safe`, but for the exact sequences in `keep` (the
    writer's own colours; each starts with ESC), and a carriage return that starts a write
    when `keep_leading_cr` (a progress line redrawn in place). All else is the wrapped
    stream's."""

    def __init__(self, stream: TextIO, keep: tuple[str, ...] = (), *, keep_leading_cr: bool = False) -> None:
        if any(not token.startswith("\x1b") for token in keep):
            raise ValueError("a kept sequence starts with ESC")
        self._stream = stream
        self._keep = tuple(sorted(set(keep), key=len, reverse=True))
        self._leading_cr = keep_leading_cr

    @property
    def wrapped(self) -> TextIO:
        return self._stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            return self._stream.write(text)  # bytes into a text stream: the stream's own error
        self._stream.write(self.cleaned(text))
        return len(text)

    def cleaned(self, text: str) -> str:
        head = ""
        if self._leading_cr and text.startswith("\r"):
            head, text = "\r", text[1:]
        if not self._keep or "\x1b" not in text:
            return head + safe(text)
        pieces = [head]
        start = at = 0
        while (at := text.find("\x1b", at)) >= 0:
            token = next((token for token in self._keep if text.startswith(token, at)), None)
            if token is None:
                at += 1  # not one of ours: made safe with the text around it
                continue
            pieces.append(safe(text[start:at]))
            pieces.append(token)
            start = at = at + len(token)
        pieces.append(safe(text[start:]))
        return "".join(pieces)

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)
