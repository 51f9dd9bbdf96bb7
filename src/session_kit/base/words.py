"""The distinct words of a text: which of many short strings it may hold, in one pass.

Owns: `words_table` (how a text becomes its words: `bytes.translate` keeps lower-case letters,
lowers upper case, writes every digit as `0`, keeps `:`, newlines and the punctuation the
strings hold, and makes anything else a space), `runs` (a string's own words, cut the same
way) and `distinct_words` (a text's words, each once, as one string). A string can be in a text
only if each of its runs is in one of the text's words, so a search of the text for a string
whose runs are not all there is skipped: a text repeats its lines and words (more so with its
numbers' digits all `0`), and its distinct words are a small part of it. The secret guard's
screen (`redaction.screen`) and the redactor (`redact`) look for the rules' anchors this
way. Standard library only, nothing imported: the hook side shares it.
"""

from __future__ import annotations


def words_table(strings: tuple[str, ...]) -> bytes:
    """How a text becomes its words for finding `strings` (see the module's docstring)."""
    keep = {*range(ord("a"), ord("z") + 1), ord("0"), ord(":"), ord("\n")}
    keep.update(c for string in strings for c in string.encode() if 33 <= c < 127 and not chr(c).isalnum())
    return bytes(c if c in keep else c + 32 if 65 <= c <= 90 else 48 if 48 <= c <= 57 else 32 for c in range(256))


def runs(string: str, table: bytes) -> tuple[bytes, ...]:
    """The words of `string` (lower-cased), cut as a text's are by `table`."""
    return tuple(string.lower().encode("utf-8", "surrogatepass").translate(table).split())


def distinct_words(data: bytes, table: bytes) -> bytes:
    """The distinct words of a text (lower-cased and encoded), as one string: each distinct line
    first, then, when those are still long, each distinct word of them."""
    lines = data.translate(table)
    distinct = b"\n".join(set(lines.split(b"\n")))
    if len(distinct) > len(lines) >> 3:
        distinct = b" ".join(set(distinct.split()))
    return distinct
