"""Secrets found in transcript text, replaced by a marker that names what was removed.

Owns: replacing each secret the rules of `redaction.rules.formats` find with `[REDACTED:<kind>]`,
counting per kind; `redact_text` (= `redact`) is the one function for a string, and
`find_secrets` says where (kind and span) the same rules find what it removes. Around an
assignment the name is kept (`password=[REDACTED:password]`), so the reader still sees what
was there. Also the kit's one policy for showing transcript text: `shown` / `shown_value`
redact unless the caller is inside `showing_secrets()` (the commands' `--no-redact`); every
view (the CLI's text and JSON, the slash commands, what is restored into a session) shows
text through them, before any cut; a cut of a long text redacts its head first
(`head_to_redact`: the part kept plus the reach of a secret). Pure functions on strings and JSON-like values; does not
know about XML, files or click.

Speed: most text holds no secret, and a regex scan of every character is slow in Python.
Every rule starts at (or a fixed distance before) one of its anchors, short strings found with
`str.find` (fast) and shared between rules; the pattern is only tried (`match`) there. Each
anchor is searched for once per text (a short text is first asked whether it holds it at
all, and only the rules with an anchor present are visited, `_plan`): where a rule replaced
something, the positions found before are moved past its markers (`_moved`), not searched
again. A long text is first cut into its distinct words (`base.words`), and searched only for
the anchors whose own words are among them: most of the table's anchors are in no given text,
and a search for each costs a pass over it. A few rules whose anchor would be a frequent character are found by one scan of a
pattern that starts with a rare one (`Rule.scan`). Several
texts are redacted in one pass, joined with NUL, which no pattern crosses (and which XML
forbids, so the writer has replaced it before).
Ordinary text (uuids, git SHAs, paths, `max_tokens=…`, `tokenizer = …`) is left alone: the
rules want a known prefix, a context (a header, a URL, a command's option), or a secret-like
name directly before `=`/`:` (see `redaction.rules.formats`).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections import Counter, namedtuple
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from session_kit.base.words import distinct_words, runs, words_table
from session_kit.redaction.memo import DONE, REMEMBERED, remember
from session_kit.redaction.positions import lowered as _lower
from session_kit.redaction.positions import moved as _moved
from session_kit.redaction.positions import positions as _positions
from session_kit.redaction.rules.formats import Rule
from session_kit.redaction.table import RULES
from session_kit.redaction.values import collect, fill
from session_kit.redaction.values import is_secret_name as is_secret_name  # its importers read it here

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `typing` costs the secret guard's hook
    from collections.abc import Callable
    from typing import Any


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


SEPARATOR = "\x00"  # no match ever spans it: texts joined with it are redacted as one

# How far a secret the rules find may reach (a PEM private key's body is the longest). A text
# cut to N characters is redacted over its first N + REACH (`head_to_redact`) before the cut,
# so a secret that straddles the cut is found whole and none of its head is left.
REACH = 4096


def head_to_redact(text: str, limit: int) -> str:
    """What of `text` to redact before cutting it to its first `limit` characters."""
    return text[: limit + REACH]


# A rule table's anchors, each once: the rules that want each, as indexes. A named tuple (the
# guard's hook loads this module; `dataclasses` would cost it its budget):
# exact, folded: (key, anchor) searched in the text as written / in the lower-cased text;
# keys: per rule, its anchors' keys; wanting: per key, the rules that want it;
# scans: the rules found by a scan.
# table, runs, every_run: how a text becomes its words, each key's anchor's runs, all runs once
# (`base.words`: a long text is searched only for the anchors whose runs its words hold).
_Plan = namedtuple("_Plan", ("exact", "folded", "keys", "wanting", "scans", "table", "runs", "every_run"))


_PLANS: dict[int, tuple[tuple[Rule, ...], _Plan]] = {}
_SMALL = 1 << 16  # a text shorter than this is tested for each anchor (`in`) before it is searched
_WORDS = 1 << 12  # a text this long is first cut into its distinct words (`base.words`)


def _plan(rules: tuple[Rule, ...]) -> _Plan:
    known = _PLANS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    ids: dict[tuple[str, bool], int] = {}
    keys = tuple(tuple(ids.setdefault((anchor, rule.exact), len(ids)) for anchor in rule.anchors) for rule in rules)
    wanting: list[list[int]] = [[] for _ in ids]
    for index, rule_keys in enumerate(keys):
        for key in rule_keys:
            wanting[key].append(index)
    table = words_table(tuple(anchor for anchor, _ in ids))
    key_runs = tuple(runs(anchor, table) for anchor, _ in ids)
    plan = _Plan(
        exact=tuple((key, anchor) for (anchor, exact), key in ids.items() if exact),
        folded=tuple((key, anchor) for (anchor, exact), key in ids.items() if not exact),
        keys=keys,
        wanting=tuple(tuple(found) for found in wanting),
        scans=frozenset(index for index, rule in enumerate(rules) if rule.scan is not None),
        table=table,
        runs=key_runs,
        every_run=frozenset(run for found in key_runs for run in found),
    )
    _PLANS[id(rules)] = (rules, plan)
    return plan


class Redactor:
    """Applies the rules to text, counting what it removed per kind."""

    def __init__(self, rules: tuple[Rule, ...] = RULES) -> None:
        self.rules = rules
        self.counts: Counter[str] = Counter()
        self._plan = _plan(rules)
        self._compiled: Any = None  # the compiled pass once loaded (False: none, `re` alone)

    def many(self, texts: list[str]) -> list[str]:
        """Each text redacted; one pass over those not redacted before in this process (the
        texts must not contain NUL)."""
        if len(texts) == 1:
            return [self(texts[0])]
        if not self._remembers():
            return self(SEPARATOR.join(texts)).split(SEPARATOR)
        done = [DONE.get(text) for text in texts]
        todo = list(dict.fromkeys(text for text, known in zip(texts, done) if known is None))
        before = sum(self.counts.values())
        fresh = dict(zip(todo, self(SEPARATOR.join(todo)).split(SEPARATOR))) if todo else {}
        if sum(self.counts.values()) == before:  # nothing found: each is remembered as it is
            for text, redacted in fresh.items():
                remember(text, redacted, ())
        out = []
        for text, known in zip(texts, done):
            if known is None:
                out.append(fresh[text])
                continue
            out.append(known[0])
            self.counts.update(known[1])
        return out

    remember = True  # each distinct text once per process (`redaction.memo`)

    def _remembers(self) -> bool:
        return self.remember and type(self) is Redactor and self.rules is RULES

    def __call__(self, text: str) -> str:
        if len(text) < 8:
            return text
        if self._remembers() and len(text) <= REMEMBERED:
            known = DONE.get(text)
            if known is not None:
                DONE[text] = DONE.pop(text)  # the most recently used last
                self.counts.update(known[1])
                return known[0]
            before = Counter(self.counts)
            redacted = self._text(text)
            remember(text, redacted, tuple((self.counts - before).elements()))
            return redacted
        return self._text(text)

    def _text(self, text: str) -> str:
        numbered = None
        if "→" in text:  # the numbered texts' module loads only for one (most commands see none)
            from session_kit.redaction.numbered import strip as strip_numbers

            numbered = strip_numbers(text)
        if numbered is not None:  # a file read with the Read tool: matched without its numbers
            return self._numbered(text, *numbered)
        return self._redact(text)

    def _numbered(self, text: str, stripped: str, numbers: Callable[[], list[tuple[int, int]]]) -> str:
        finder = _Finder(self.rules)
        finder._compiled = self._compiled
        finder._redact(stripped)
        self._compiled = finder._compiled
        if not finder.found:
            return text
        from session_kit.redaction.numbered import original_span as numbered_span
        from session_kit.redaction.numbered import replace as numbered_replace

        cuts = numbers()
        spans = []
        for found in sorted(finder.found, key=lambda f: (f.start, f.end)):
            start, end = numbered_span(cuts, found.start, found.end)
            spans.append((start, end, marker(found.kind)))
            self.counts[found.kind] += 1
            self._noted(Found(found.kind, start, end))
        return numbered_replace(text, spans)

    def _noted(self, found: Found) -> None:
        """A secret found in a numbered text, at its span there (a `_Finder` keeps it)."""

    def _redact(self, text: str) -> str:
        compiled = self._compiled
        if compiled is None and (len(text) >= _WORDS or _ENGINE_FORCED):  # a long text pays its load
            compiled = self._compiled = _load_pass(self.rules)
        if compiled:
            from session_kit.redaction.passes import redact_compiled

            return redact_compiled(self, text, compiled)
        plan = self._plan
        low = _lower(text)
        # Each anchor is searched for once, in the text as given; the rules tried are those
        # with an anchor found (or a scan), in the table's order.
        found: dict[int, list[int]] = {}
        exact, folded = plan.exact, plan.folded
        if len(text) >= _WORDS:  # only the anchors whose runs are among the text's words
            words = distinct_words(low.encode("utf-8", "surrogatepass"), plan.table)
            there = {run for run in plan.every_run if run in words}
            exact = [(key, anchor) for key, anchor in exact if there.issuperset(plan.runs[key])]
            folded = [(key, anchor) for key, anchor in folded if there.issuperset(plan.runs[key])]
        if len(text) < _SMALL:  # most texts are short: `in` is cheaper than a search
            present = [key for key, anchor in exact if anchor in text]
            present += [key for key, anchor in folded if anchor in low]
        else:
            found = {key: [] for key in range(len(plan.runs))}  # an anchor not among the words: nowhere
            for key, anchor in exact:
                found[key] = _positions(text, anchor)
            for key, anchor in folded:
                found[key] = _positions(low, anchor)
            present = [key for key, positions in found.items() if positions]
        todo = set(plan.scans)
        for key in present:
            todo.update(plan.wanting[key])
        if not todo:
            return text
        original = text
        seen: dict[int, int] = {}  # key -> how many rounds of replacements its positions follow
        rounds: list[list[tuple[int, int, int]]] = []  # each redacting rule's (start, end, delta)
        for index in sorted(todo):
            rule = self.rules[index]
            starts = rule.scan.starts(text) if rule.scan is not None else []
            for key, anchor in zip(plan.keys[index], rule.anchors):
                positions = found.get(key)
                if positions is None:  # found in the text as given, then moved past the markers
                    positions = found[key] = _positions(original if rule.exact else low, anchor)
                at = seen.get(key, 0)
                if at != len(rounds):
                    for edits in rounds[at:]:
                        positions = _moved(positions, edits)
                    found[key] = positions
                    seen[key] = len(rounds)
                starts.extend(positions)
            if not starts:
                continue
            if len(rule.anchors) > 1:
                starts.sort()
            edits: list[tuple[int, int, int]] = []
            redacted = self._apply(rule, text, starts, edits)
            if redacted is not None:
                text = redacted
                rounds.append(edits)
        return text

    def _apply(
        self,
        rule: Rule,
        text: str,
        starts: list[int],
        edits: list[tuple[int, int, int]],
        ends: list[int] | None = None,
        width: int = 0,
    ) -> str | None:
        """`text` with the rule's matches at `starts` replaced (None: nothing was), noting each
        replaced span and how much it grew in `edits`. With `ends` (the compiled pass: where a
        head of the rule's pattern ends, `width` its longest), only a start with one of them
        within `width` after it is tried: the pattern matches nowhere else."""
        pieces: list[str] = []
        done = 0  # text before this index is in `pieces`
        last = len(ends) if ends is not None else 0
        for start in self._candidates(rule, text, starts):
            if start < done:
                if not rule.back or start + rule.back <= done:
                    continue
                start = done  # a match just ended within `back` of this anchor: try from its end
            if ends is not None:
                at = bisect_left(ends, start)
                if at == last or ends[at] > start + width:
                    continue
            match = rule.pattern.match(text, start)
            if match is None:
                continue
            replacement = self._replacement(rule, match)
            if replacement is None:
                continue
            pieces.append(text[done:start])
            pieces.append(replacement)
            done = match.end()
            edits.append((start, done, len(replacement) - (done - start)))
        if not pieces:
            return None
        pieces.append(text[done:])
        return "".join(pieces)

    @staticmethod
    def _candidates(rule: Rule, text: str, starts: list[int]) -> list[int]:
        """Where the rule's pattern is tried, in order."""
        prefixes = rule.prefixes
        if prefixes is None:
            back = rule.back
            return [p - back if p >= back else 0 for p in starts] if back else starts
        # A family: most separators have no vendor's prefix before them (filtered in one
        # comprehension); where one does, the match starts at the prefix.
        tails = [(p, prefixes[text[p - 2 : p]]) for p in starts if text[p - 2 : p] in prefixes]
        return [p - len(pre) for p, found in tails for pre in found if text.startswith(pre, p - len(pre))]

    def _replacement(self, rule: Rule, match: re.Match[str]) -> str | None:
        """What replaces the match, or None when it is not a secret after all."""
        secret = match.group(rule.group)
        if rule.accept is not None and not rule.accept(secret):
            return None
        # here: the stand-ins' dozen patterns are compiled on a text's first find, not at start-up
        from session_kit.redaction.filters import marked_inside, stands_in

        if stands_in(secret, match.string, match.start(rule.group)):
            return None
        kind = rule.kind_of(match) if rule.kind_of else rule.kind
        count = 1
        if rule.inner is not None:  # each secret inside the group marked, the text between kept
            secret, count = marked_inside(rule.inner, secret, marker(kind))
        self.counts[kind] += count
        if rule.inner is None:
            secret = marker(kind)
        elif not count:
            return None
        if rule.group == 0:
            return secret
        start, end = match.span(rule.group)
        whole = match.group(0)
        offset = match.start()
        return whole[: start - offset] + secret + whole[end - offset :]


# `SESSION_KIT_REDACT_ENGINE`: `re` (the rules through `re` alone), `hyperscan` (the compiled
# pass for every text, however short: the tests), else the compiled pass for long texts.
_ENGINE_FORCED = os.environ.get("SESSION_KIT_REDACT_ENGINE", "").strip().lower() == "hyperscan"


def _load_pass(rules: tuple[Rule, ...]) -> Any:
    """The compiled pass for `rules` (`redaction.compiled`), or False: `re` alone."""
    from session_kit.redaction.compiled import load

    return load(rules) or False


# A secret the rules found: its kind (the marker's) and where it is in the text searched. A named
# tuple for the reason `redaction.rules.formats.Rule` is one (the secret guard's budget).
Found = namedtuple("Found", ("kind", "start", "end"))


def find_secrets(text: str) -> list[Found]:
    """Every secret `redact` would replace in `text`, with its kind and its span in `text`, in
    order; the rules and their order are `redact`'s own (a `Redactor` that also notes what it
    replaced), so what is found is exactly what `redact` removes."""
    finder = _Finder()
    finder(text)
    return sorted(finder.found, key=lambda f: (f.start, f.end))


class _Finder(Redactor):
    """A `Redactor` that notes each replacement's span, mapped back to the text it was given
    (each rule runs on the text the rules before it redacted, whose markers shift positions)."""

    def __init__(self, rules: tuple[Rule, ...] = RULES) -> None:
        super().__init__(rules)
        self.found: list[Found] = []
        # the markers in the current text: (start, end there, start, end in the original)
        self._edits: list[tuple[int, int, int, int]] = []
        self._pending: list[tuple[int, int, str]] = []

    def _noted(self, found: Found) -> None:
        self.found.append(found)

    def _replacement(self, rule: Rule, match: re.Match[str]) -> str | None:
        replaced = super()._replacement(rule, match)
        if replaced is not None:
            start, end = match.span(rule.group)
            self._pending.append((start, end, rule.kind_of(match) if rule.kind_of else rule.kind))
        return replaced

    def _apply(
        self,
        rule: Rule,
        text: str,
        starts: list[int],
        edits: list[tuple[int, int, int]],
        ends: list[int] | None = None,
        width: int = 0,
    ) -> str | None:
        self._pending = []
        redacted = super()._apply(rule, text, starts, edits, ends, width)
        if redacted is not None:
            self._note(self._pending)
        return redacted

    def _original(self, at: int, *, end: bool) -> int:
        shift = 0
        for start, stop, first, last in self._edits:
            if at < start or (end and at == start):
                break
            if at < stop or (end and at == stop):
                return first if not end else last
            shift = last - stop
        return at + shift

    def _note(self, spans: list[tuple[int, int, str]]) -> None:
        edits: list[tuple[int, int, int, int]] = []
        old = iter(self._edits)
        waiting = next(old, None)
        moved = 0  # how far this rule's markers moved what follows them
        for start, end, kind in spans:
            first, last = self._original(start, end=False), self._original(end, end=True)
            while waiting is not None and waiting[0] < start:
                if waiting[1] <= start:  # a marker before this one: moved by those before it
                    edits.append((waiting[0] + moved, waiting[1] + moved, waiting[2], waiting[3]))
                waiting = next(old, None)
            while waiting is not None and waiting[1] <= end:  # inside this match: taken in
                waiting = next(old, None)
            size = len(marker(kind))
            edits.append((start + moved, start + moved + size, first, last))
            moved += size - (end - start)
            self.found.append(Found(kind, first, last))
        while waiting is not None:
            edits.append((waiting[0] + moved, waiting[1] + moved, waiting[2], waiting[3]))
            waiting = next(old, None)
        self._edits = edits


def redact(text: str) -> str:
    """`text` with every secret the rules know replaced by its marker."""
    return Redactor()(text)


redact_text = redact  # the name other parts of the kit (and programs) call


# --- the policy: what the kit shows is redacted unless a command was told otherwise ---------

_SHOWING_SECRETS: ContextVar[bool] = ContextVar("session_kit_showing_secrets", default=False)


def redaction_enabled() -> bool:
    return not _SHOWING_SECRETS.get()


@contextmanager
def showing_secrets(enabled: bool = True) -> Iterator[None]:
    """Within this block `shown` and `shown_value` leave secrets in (`--no-redact`)."""
    token = _SHOWING_SECRETS.set(enabled)
    try:
        yield
    finally:
        _SHOWING_SECRETS.reset(token)


def shown(text: str) -> str:
    """Transcript text as the kit shows it: redacted, unless within `showing_secrets()`.

    Every view calls this (or `shown_value`) before it cuts or prints, so a cut never leaves
    the head of a secret behind."""
    return text if _SHOWING_SECRETS.get() else Redactor()(text)


def shown_many(texts: list[str]) -> list[str]:
    """Each text as shown (see `shown`), redacted in one pass."""
    if _SHOWING_SECRETS.get():
        return texts
    return redact_many(texts)


def redact_many(texts: list[str]) -> list[str]:
    """Each text redacted, whatever `showing_secrets` says (for what is stored, not shown), in
    one pass where they hold no NUL (the separator the batch uses)."""
    redactor = Redactor()
    out = list(texts)
    batch = [i for i, text in enumerate(texts) if SEPARATOR not in text]
    for i, text in zip(batch, redactor.many([texts[i] for i in batch]) if batch else []):
        out[i] = text
    for i, text in enumerate(texts):
        if SEPARATOR in text:
            out[i] = redactor(text)
    return out


def shown_value(value: Any) -> Any:
    """A JSON-like value (dicts, lists, strings…) as the kit shows it: every string redacted,
    and a string under a secret's name (`"password": …`) replaced whole."""
    if _SHOWING_SECRETS.get():
        return value
    texts: list[str] = []
    skeleton = collect(value, texts)
    texts = shown_many(texts)
    return fill(skeleton, iter(texts))
