"""A rule's pattern as one the compiled pass can scan for: a superset of its matches' heads.

Owns: `superset(pattern)`, which turns a Python regular expression into a hyperscan one
(bytes, every character one byte: see `as_bytes`) that matches wherever the Python one
could start a match, with a bound on how far after that start it reports its end. Pure
functions; does not scan (that is `redaction.compiled`).

How it stays a superset (so the compiled pass never hides a match `re` would find):
- lookarounds and anchors (`(?=…)`, `(?<!…)`, `\\b`, `^`, `$`) are dropped: each only
  narrows where a match may be;
- every character class is written out as bytes: its ASCII members as Python's `re` decides
  them (with the case-insensitive flag where it is on), plus `?`, which stands for every
  character outside ASCII in the scanned bytes (`as_bytes`), whenever the class could take
  one (a negated class, `\\w`, `\\d`, `\\s`, `.`); the four characters `re` matches to an
  ASCII letter under the case-insensitive flag (the Kelvin sign, the long s, the dotted and
  the dotless i) are scanned as that letter, which a negated class then also takes;
- the pattern is cut at its first repeat without a bound (or one of more than `LONGEST`): a
  match's head up to there is kept, with the repeat's minimum; so the head found has a known
  longest width (`Superset.width`), and a match of the rule starting at `s` gives a reported
  end in `[s, s + width]`;
- a back-reference or a conditional cuts the pattern there too.
A pattern whose head could be empty, or is shorter than `SHORTEST` characters, has no
superset (None): its rule is tried at all its anchors, as by the `re` engine.
"""

from __future__ import annotations

import re
from collections import namedtuple

try:  # Python 3.11+
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

LONGEST = 32  # a bounded repeat longer than this is cut like one without a bound
SPREAD = 8  # a repeat without a bound is followed this many times, then cut (see `_Emit.spread`)
SHORTEST = 3  # a head shorter than this reports nearly everywhere: not worth a callback each
WILD = ord("?")  # the byte every character outside ASCII becomes in the scanned text

Superset = namedtuple("Superset", ("expression", "width"))

_MAXREPEAT = _c.MAXREPEAT
_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT)}
_GROUPS = {_c.SUBPATTERN, getattr(_c, "ATOMIC_GROUP", _c.SUBPATTERN)}
_DROPPED = {_c.AT, _c.ASSERT, _c.ASSERT_NOT}
_CUT = {_c.GROUPREF, _c.GROUPREF_EXISTS, getattr(_c, "GROUPREF_IGNORE", _c.GROUPREF)}
_ATOMS = {_c.LITERAL, _c.NOT_LITERAL, _c.ANY, _c.IN}
_ASCII = [chr(i) for i in range(128)]
_CATEGORIES = {
    _c.CATEGORY_DIGIT: re.compile(r"\d"),
    _c.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    _c.CATEGORY_SPACE: re.compile(r"\s"),
    _c.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    _c.CATEGORY_WORD: re.compile(r"\w"),
    _c.CATEGORY_NOT_WORD: re.compile(r"\W"),
}


# The characters outside ASCII that `re` matches to an ASCII letter under the case-insensitive
# flag (tests/redaction/test_engines.py checks every code point): each is scanned as that letter.
FOLDS = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
_FOLDED = frozenset(ord(letter) for letter in FOLDS.values())


def as_bytes(text: str) -> bytes:
    """`text` as the compiled pass scans it: one byte per character, ASCII as itself, the
    characters of `FOLDS` as their letter, every other character (and a lone surrogate) as `?`."""
    if not text.isascii():
        for char, letter in FOLDS.items():
            if char in text:
                text = text.replace(char, letter)
    return text.encode("ascii", "replace")


def anchors_expression(anchors: tuple[str, ...], *, folded: bool) -> str:
    """A hyperscan expression found wherever one of `anchors` is in a text (`folded`: in the
    lower-cased text), in the bytes `as_bytes` makes of it."""
    words = ["".join(_byte_class(_literal(ord(ch), folded)) for ch in anchor) for anchor in anchors]
    return "(?:" + "|".join(words) + ")"


def superset(pattern: str) -> Superset | None:
    """The hyperscan expression standing for `pattern`'s heads, or None (see the module)."""
    try:
        parsed = _p.parse(pattern)
    except Exception:  # pragma: no cover - the rules' patterns compile
        return None
    out = _Emit(parsed.state.flags if hasattr(parsed, "state") else parsed.pattern.flags)
    items = list(parsed)
    # A leading part that may be empty (`[\s\S]{0,48}?` before a name, a line's start) is left
    # out: what follows it ends where the match's rest does, within its width more.
    skipped = 0
    while items:
        op, av = items[0]
        if op not in _DROPPED:
            _expression, complete, lo, hi = out.item(op, av, out.flags, 0)
            if lo or not complete:
                break
            skipped += hi
        items.pop(0)
    expression, _complete, low, high = out.sequence(items, out.flags, 0)
    if low < SHORTEST or not expression:
        return None
    return Superset(expression, skipped + high)


class _Emit:
    def __init__(self, flags: int) -> None:
        self.flags = flags

    def sequence(self, items: list, flags: int, before: int) -> tuple[str, bool, int, int]:
        """(expression, complete, shortest, longest) of a sequence, cut at its first unbounded
        part (`before`: the shortest the head is before the sequence)."""
        parts: list[str] = []
        low = high = 0
        for at, (op, av) in enumerate(items):
            if op in _DROPPED:
                continue
            if op in _CUT:
                return "".join(parts), False, low, high
            spread = self.spread(op, av, items[at + 1 :], flags, before + low)
            if spread is not None:
                expression, lo, hi = spread
                return "".join(parts) + expression, False, low + lo, high + hi
            expression, complete, lo, hi = self.item(op, av, flags, before + low)
            parts.append(expression)
            low, high = low + lo, high + hi
            if not complete:
                return "".join(parts), False, low, high
        return "".join(parts), True, low, high

    def spread(self, op: object, av: object, rest: list, flags: int, before: int) -> tuple[str, int, int] | None:
        """A repeat without a bound of a part of bounded width (a run of backslashes, spaces, word characters), with
        what follows it: up to `SPREAD` times and the rest, or more and cut there (a match
        repeating it more than that has that head). None for any other part, and where nothing
        of the head comes before it (cut there: the head would be everywhere). A head shorter
        than `SHORTEST` before it is spread (`pw` then `[ \t]*=`): what follows makes it long
        enough, and `superset` still drops a head whose shortest match is too short."""
        if op not in _REPEATS or before < 1:
            return None
        low, high, body = av  # type: ignore[misc]
        if low == 0:  # an optional part that is cut (`(?:\s+is)?`): its head, or what follows
            part, complete, blo, bhi = self.sequence(list(body), flags, before)
            if not complete and blo >= 1:
                after, _complete, rlo, rhi = self.sequence(rest, flags, before)
                return f"(?:{part}|{after})", min(blo, rlo), max(bhi, rhi)
        if high != _MAXREPEAT and high <= LONGEST or low > SPREAD:
            return None
        part, complete, blo, bhi = self.sequence(list(body), flags, before)
        if not complete or blo < 1:
            return None
        after, _complete, rlo, rhi = self.sequence(rest, flags, before + low * blo)
        expression = f"(?:(?:{part}){{{low},{SPREAD}}}{after}|(?:{part}){{{SPREAD + 1}}})"
        return expression, min(low * blo + rlo, (SPREAD + 1) * blo), max(SPREAD * bhi + rhi, (SPREAD + 1) * bhi)

    def item(self, op: object, av: object, flags: int, before: int) -> tuple[str, bool, int, int]:
        if op in _ATOMS:
            return _byte_class(self.members(op, av, flags)), True, 1, 1
        if op in _GROUPS:
            if op == _c.SUBPATTERN:
                _group, add, remove, body = av  # type: ignore[misc]
                flags = (flags | add) & ~remove
            else:
                body = av
            expression, complete, lo, hi = self.sequence(list(body), flags, before)
            return f"(?:{expression})", complete, lo, hi
        if op == _c.BRANCH:
            _, branches = av  # type: ignore[misc]
            done = [self.sequence(list(b), flags, before) for b in branches]
            expression = "(?:" + "|".join(d[0] for d in done) + ")"
            return expression, all(d[1] for d in done), min(d[2] for d in done), max(d[3] for d in done)
        if op in _REPEATS:
            low, high, body = av  # type: ignore[misc]
            expression, complete, lo, hi = self.sequence(list(body), flags, before)
            if not complete:  # the body is cut: its head once, if it must occur
                return (expression, False, lo, hi) if low >= 1 else ("", False, 0, 0)
            if high == _MAXREPEAT or high > LONGEST:
                if low == 0:
                    return "", False, 0, 0
                return f"(?:{expression}){{{low}}}", False, lo * low, hi * low
            return f"(?:{expression}){{{low},{high}}}", True, lo * low, hi * high
        return "", False, 0, 0  # anything else: cut here

    def members(self, op: object, av: object, flags: int) -> set[int]:
        """The bytes a one-character part of the pattern matches (`?` for any non-ASCII)."""
        folded = bool(flags & _c.SRE_FLAG_IGNORECASE)
        if op == _c.ANY:
            out = set(range(128)) if flags & _c.SRE_FLAG_DOTALL else set(range(128)) - {10}
            return out | {WILD}
        if op == _c.LITERAL:
            return _literal(av, folded)  # type: ignore[arg-type]
        if op == _c.NOT_LITERAL:
            return (set(range(128)) - _literal(av, folded)) | {WILD} | _FOLDED  # type: ignore[arg-type]
        negate = False
        out: set[int] = set()
        wide = False  # could match a character outside ASCII
        for kind, value in av:  # type: ignore[union-attr]
            if kind == _c.NEGATE:
                negate = True
            elif kind == _c.LITERAL:
                out |= _literal(value, folded)
                wide = wide or value > 127
            elif kind == _c.RANGE:
                lo, hi = value
                for code in range(lo, min(hi, 127) + 1):
                    out |= _literal(code, folded)
                wide = wide or hi > 127
            elif kind == _c.CATEGORY:
                test = _CATEGORIES[value]
                out |= {i for i, ch in enumerate(_ASCII) if test.match(ch)}
                wide = True
            else:  # pragma: no cover - no other kind in a class
                return set(range(128)) | {WILD}
        if negate:  # `[^k]` takes the Kelvin sign, scanned as `k`
            return (set(range(128)) - out) | {WILD} | _FOLDED
        return out | ({WILD} if wide else set())


def _literal(code: int, folded: bool) -> set[int]:
    if code > 127:  # under the flag, a character outside ASCII may match an ASCII letter
        return {WILD} | ({ord(c) for c in _ASCII if c.isalpha()} if folded else set())
    if not folded or not chr(code).isalpha():
        return {code}
    return {ord(chr(code).lower()), ord(chr(code).upper())}


def _byte_class(members: set[int]) -> str:
    if len(members) == 1:
        return f"\\x{next(iter(members)):02x}"
    ranges: list[str] = []
    codes = sorted(members)
    start = prev = codes[0]
    for code in [*codes[1:], None]:
        if code is not None and code == prev + 1:
            prev = code
            continue
        ranges.append(f"\\x{start:02x}" if start == prev else f"\\x{start:02x}-\\x{prev:02x}")
        if code is not None:
            start = prev = code
    return "[" + "".join(ranges) + "]"
