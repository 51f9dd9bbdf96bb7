"""The compiled pass: every rule's pattern in one hyperscan database, scanned once per text.

Owns: `load(rules)`, the compiled pass for a rule table (None where hyperscan cannot load, or
`SESSION_KIT_REDACT_ENGINE=re`), and `Pass.ends(text)`: for each rule, where in `text` a head
of its pattern (`redaction.superset`) ends. The engine tries a rule's pattern at a start only
where one of these ends is within the head's width after it (`Pass.near`), so `re` runs at
the few places a match is possible instead of at every anchor; what it finds is the same,
since a head ends after every start where the rule's pattern matches. A rule with no head
(`superset` gave None) is tried at every anchor, as by the `re` engine.

The database is compiled once per rule table and engine version and kept in the user cache
(`claude-session-kit/redaction-<hash>.db`, written atomically, 0600); a process only loads
it. A cache that does not load (corrupt, another hyperscan) is compiled again. Hyperscan is
imported only here, only when a text is redacted: the secret guard's screen passes most
outputs without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from bisect import bisect_left

from session_kit.base.fileio import atomic_write
from session_kit.redaction.superset import as_bytes

ENGINE_VERSION = "1"
ENGINE_ENV = "SESSION_KIT_REDACT_ENGINE"  # `re`: the rules through `re` alone (same results)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from session_kit.redaction.rules.formats import Rule


ANCHORS = 1 << 20  # the id of a rule without a head, plus this: one of its anchors is there


class Pass:
    """A loaded database: the rules it has a head for, and each head's width; a rule without
    a head is reported (at `ANCHORS` + its index) where one of its anchors may be."""

    def __init__(self, database: object, widths: dict[int, int]) -> None:
        self.database = database
        self.widths = widths  # rule index -> its head's longest width (absent: no head)

    def ends(self, text: str) -> dict[int, list[int]]:
        """For each rule with a head, the sorted ends of its head in `text` (a rule with a
        head found nowhere is absent)."""
        found: dict[int, list[int]] = {}

        def on_match(rule: int, _start: int, end: int, _flags: int, _context: object) -> None:
            ends = found.get(rule)
            if ends is None:
                found[rule] = [end]
            else:
                ends.append(end)

        self.database.scan(as_bytes(text), match_event_handler=on_match)  # type: ignore[attr-defined]
        return found

    def near(self, ends: list[int], start: int, width: int) -> bool:
        """Whether one of `ends` is in `[start, start + width]`."""
        at = bisect_left(ends, start)
        return at < len(ends) and ends[at] <= start + width


_LOADED: dict[int, tuple[tuple, Pass | None]] = {}


def load(rules: tuple[Rule, ...]) -> Pass | None:
    """The compiled pass for `rules`, or None: the `re` engine alone."""
    if os.environ.get(ENGINE_ENV, "").strip().lower() == "re":
        return None
    known = _LOADED.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    try:
        compiled = _load(rules)
    except Exception as error:  # hyperscan missing or refusing: the `re` engine, same results
        if not isinstance(error, ImportError):
            print(f"session-kit: the compiled redactor is off ({error}); using re", file=sys.stderr)
        compiled = None
    _LOADED[id(rules)] = (rules, compiled)
    return compiled


def _key(rules: tuple[Rule, ...], version: str) -> str:
    digest = hashlib.sha256(f"{ENGINE_VERSION}\0{version}\0{sys.version_info[:2]}".encode())
    for rule in rules:
        digest.update(rule.pattern.pattern.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()[:24]


def _hyperscan() -> Any:
    """The hyperscan module; where a hook runs without `site` (`python -I -S`), looked for in
    the interpreter's own site-packages too, where pip put it beside the kit's dependencies."""
    try:
        import hyperscan
    except ImportError:
        version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
        # without `site`, a virtual environment's prefix is the folder above its interpreter
        prefixes = (os.path.dirname(os.path.dirname(sys.executable)), sys.prefix)
        for folder in [
            p
            for prefix in prefixes
            for p in (
                os.path.join(prefix, "lib", version, "site-packages"),
                os.path.join(prefix, "Lib", "site-packages"),
            )
        ]:
            if os.path.isdir(os.path.join(folder, "hyperscan")) and folder not in sys.path:
                sys.path.append(folder)
                break
        else:
            raise
        import hyperscan
    return hyperscan


def _load(rules: tuple[Rule, ...]) -> Pass:
    hyperscan = _hyperscan()

    path = cache_path(_key(rules, hyperscan.__version__))
    try:
        with open(path, "rb") as f:
            head = f.readline()
            body = f.read()
        widths = {int(k): v for k, v in json.loads(head)["widths"].items()}
        database = hyperscan.loadb(body, hyperscan.HS_MODE_BLOCK)
        database.scratch = hyperscan.Scratch(database)  # a loaded database comes without one
        return Pass(database, widths)
    except Exception:  # absent, corrupt or from another hyperscan: compiled again
        pass
    database, widths = _compile(rules)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(path, json.dumps({"widths": widths}).encode() + b"\n" + hyperscan.dumpb(database), sync=False)
    except OSError:
        pass  # no cache: compiled again next time
    return Pass(database, widths)


def _compile(rules: tuple[Rule, ...]) -> tuple[object, dict[int, int]]:
    hyperscan = _hyperscan()

    from session_kit.redaction.superset import anchors_expression, superset

    heads = {index: superset(rule.pattern.pattern) for index, rule in enumerate(rules)}
    heads = {index: head for index, head in heads.items() if head is not None}
    while True:
        database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        ids = sorted(heads)
        bare = [i for i in range(len(rules)) if i not in heads and rules[i].anchors]
        expressions = [heads[i].expression for i in ids]
        expressions += [anchors_expression(rules[i].anchors, folded=not rules[i].exact) for i in bare]
        try:
            database.compile(
                expressions=[e.encode("ascii") for e in expressions],
                ids=ids + [ANCHORS + i for i in bare],
                elements=len(expressions),
                flags=[0] * len(ids) + [hyperscan.HS_FLAG_SINGLEMATCH] * len(bare),
            )
        except Exception as error:  # one expression refused: that rule goes without a head
            refused = _refused(hyperscan, heads)
            if not refused:
                raise error
            for index in refused:
                del heads[index]
            continue
        return database, {i: heads[i].width for i in ids}


def _refused(hyperscan: object, heads: dict) -> list[int]:
    refused = []
    for index, head in heads.items():
        try:
            hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK).compile(  # type: ignore[attr-defined]
                expressions=[head.expression.encode("ascii")], ids=[index], elements=1, flags=0
            )
        except Exception:
            refused.append(index)
    return refused


def cache_path(key: str) -> str:
    """Where the database for `key` is kept: the user cache, or `SESSION_KIT_REDACT_CACHE`."""
    folder = os.environ.get("SESSION_KIT_REDACT_CACHE")
    if not folder:
        from platformdirs import user_cache_dir

        folder = user_cache_dir("claude-session-kit", appauthor=False)
    return os.path.join(folder, f"redaction-{key}.db")
