"""Secrets found in transcript text, replaced by a marker that names what was removed.

Owns: the list of secret shapes (cloud and API keys, tokens in well-known formats, JWTs,
bearer and basic credentials, PEM private keys, URL passwords, and `password=`/`API_KEY=`-
style assignments) and replacing each with `[REDACTED:<kind>]`, counting per kind. Around an
assignment the name is kept (`password=[REDACTED:password]`), so the reader still sees what
was there. Pure functions on strings; does not know about XML or files.

Speed: most text holds no secret, and a regex scan of every character is slow in Python.
Every rule starts at (or a fixed distance before) one of its anchors, short strings found with
`str.find` (fast) and shared between rules; the pattern is only tried (`match`) there. Several
texts are redacted in one pass, joined with NUL, which no pattern crosses (and which XML
forbids, so the writer has replaced it before).
Ordinary text (uuids, git SHAs, paths, `max_tokens=…`, `tokenizer = …`) is left alone: the
rules want a known prefix, or a secret-like name directly before `=`/`:`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


SEPARATOR = "\x00"  # no match ever spans it: texts joined with it are redacted as one


@dataclass(frozen=True, slots=True)
class Rule:
    kind: str
    pattern: re.Pattern[str]
    # Where a match may start: `back` characters before an occurrence of one of the anchors.
    # Anchors are searched in the lower-cased text, or as written when `exact`.
    anchors: tuple[str, ...]
    back: int = 0
    exact: bool = False
    # The group holding the secret (0: the whole match); text around it is kept.
    group: int | str = 0
    # Decides the marker's kind from the match, when it depends on the name (password vs token).
    kind_of: Callable[[re.Match[str]], str] | None = None
    # Extra check on the secret, for shapes that ordinary words could take.
    accept: Callable[[str], bool] | None = None


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _assignment_kind(match: re.Match[str]) -> str:
    name = match.group("name").lower()
    if name.startswith("passw"):
        return "password"
    if name == "token":
        return "token"
    if name == "key":
        before = match.string[max(0, match.start() - 8) : match.start()].lower()
        return "secret" if "secret" in before else "private-key" if "private" in before else "api-key"
    return "secret"


# A value that is a reference, a placeholder or already redacted is not a secret.
_NOT_A_VALUE = r"(?![$<{*\[%])"
# `key` counts as a secret's name only after one of these (api_key, ACCESS-KEY, secretKey…).
_KEY_AFTER = "|".join(f"(?<={word}{sep})" for word in ("api", "access", "private", "secret") for sep in ("", "_", "-"))
# The name's anchors: the name starts where its anchor does.
_NAME_ANCHORS = ("passw", "secret", "token", "key")
_NAMES = r"(?P<name>passw(?:or)?d|secret|token|(?:" + _KEY_AFTER + r")key)"

RULES: tuple[Rule, ...] = (
    Rule(
        "private-key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"
            r"(?:[^\x00]*?-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)"
        ),
        ("-----BEGIN",),
        exact=True,
    ),
    Rule("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), ("IA",), back=2, exact=True),
    Rule(
        "aws-secret-key",
        re.compile(r"(?i)aws_secret_access_key[\"']?\s*[:=]\s*[\"']?(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"),
        ("secret",),
        back=4,
        group="v",
    ),
    Rule("anthropic-api-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{16,}"), ("sk-",), exact=True),
    Rule(
        "openai-api-key",
        re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        ("sk-",),
        exact=True,
        accept=_has_digit,
    ),
    Rule(
        "github-token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"),
        ("gh", "github_pat_"),
        exact=True,
    ),
    Rule("slack-token", re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), ("xox",), exact=True),
    Rule(
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+"),
        ("://",),
        back=5,
        exact=True,
    ),
    Rule("google-api-key", re.compile(r"AIza[0-9A-Za-z_-]{35}"), ("AIza",), exact=True),
    Rule(
        "jwt",
        re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}"),
        ("eyJ",),
        exact=True,
    ),
    Rule(
        "bearer-token",
        re.compile(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"),
        ("bearer",),
        group="v",
        accept=_has_digit,
    ),
    Rule(
        "basic-auth",
        re.compile(r"(?i)\bauthorization[\"']?\s*[:=]\s*[\"']?basic\s+(?P<v>[A-Za-z0-9+/]{8,}=*)"),
        ("authorization",),
        group="v",
    ),
    Rule(
        "url-password",
        re.compile(r"://[^\s/:@\"'<>\[\]\x00]+:(?P<v>[^\s/@\"'<>\[\]\x00]+)@"),
        ("://",),
        exact=True,
        group="v",
    ),
    # name = "value" / name: 'value' / "name": "value" (any case; the name ends the key)
    Rule(
        "secret",
        re.compile(
            r"(?i)"
            + _NAMES
            + r"[\"']?\s*(?:=(?!=)|:)\s*(?P<q>[\"'])"
            + _NOT_A_VALUE
            + r"(?P<v>[^\"'\n\x00]{1,500}?)(?P=q)"
        ),
        _NAME_ANCHORS,
        group="v",
        kind_of=_assignment_kind,
    ),
    # NAME=value in upper case, as in environment files and shell exports
    Rule(
        "secret",
        re.compile(
            r"(?<![a-z])(?P<name>PASSWORD|PASSWD|SECRET|TOKEN|(?:(?<=API)|(?<=API_)|(?<=ACCESS_)|(?<=PRIVATE_)"
            r"|(?<=SECRET_))KEY)(?:\s*=\s*|: ?)"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\"',;&(){}\[\]\x00]{4,})(?=[\s\"',;&)}\]\x00]|$)"
        ),
        _NAME_ANCHORS,
        group="v",
        kind_of=_assignment_kind,
    ),
    # password=value unquoted, any case (command lines, URLs' query strings, YAML)
    Rule(
        "password",
        re.compile(
            r"(?i)(?P<name>password|passwd)(?:\s*=(?!=)\s*|: ?)" + _NOT_A_VALUE + r"(?P<v>[^\s\"',;&<\x00]{3,})"
        ),
        ("passw",),
        group="v",
    ),
)


class Redactor:
    """Applies the rules to text, counting what it removed per kind."""

    def __init__(self, rules: tuple[Rule, ...] = RULES) -> None:
        self.rules = rules
        self.counts: Counter[str] = Counter()

    def many(self, texts: list[str]) -> list[str]:
        """Each text redacted; one pass over them all (the texts must not contain NUL)."""
        if len(texts) == 1:
            return [self(texts[0])]
        return self(SEPARATOR.join(texts)).split(SEPARATOR)

    def __call__(self, text: str) -> str:
        if len(text) < 8:
            return text
        low = _lower(text)
        found: dict[tuple[str, bool], list[int]] = {}
        for rule in self.rules:
            starts: list[int] = []
            for anchor in rule.anchors:
                key = (anchor, rule.exact)
                positions = found.get(key)
                if positions is None:
                    positions = found[key] = _positions(text if rule.exact else low, anchor)
                starts.extend(positions)
            if not starts:
                continue
            if len(rule.anchors) > 1:
                starts.sort()
            redacted = self._apply(rule, text, starts)
            if redacted is not None:
                text = redacted
                low = _lower(text)
                found.clear()
        return text

    def _apply(self, rule: Rule, text: str, starts: list[int]) -> str | None:
        pieces: list[str] = []
        done = 0  # text before this index is in `pieces`
        for position in starts:
            start = position - rule.back
            if start < done:
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
        if not pieces:
            return None
        pieces.append(text[done:])
        return "".join(pieces)

    def _replacement(self, rule: Rule, match: re.Match[str]) -> str | None:
        """What replaces the match, or None when it is not a secret after all."""
        secret = match.group(rule.group)
        if rule.accept is not None and not rule.accept(secret):
            return None
        kind = rule.kind_of(match) if rule.kind_of else rule.kind
        self.counts[kind] += 1
        if rule.group == 0:
            return marker(kind)
        start, end = match.span(rule.group)
        whole = match.group(0)
        offset = match.start()
        return whole[: start - offset] + marker(kind) + whole[end - offset :]


def _lower(text: str) -> str:
    """`text` lower-cased, index for index (a few characters lower-case to two)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _positions(text: str, anchor: str) -> list[int]:
    found = []
    i = text.find(anchor)
    while i >= 0:
        found.append(i)
        i = text.find(anchor, i + 1)
    return found


def is_secret_name(name: str) -> bool:
    """A parameter or field name whose value is a secret as a whole (`password`, `api_key`…)."""
    low = name.lower().replace("-", "_")
    return low in _SECRET_FIELDS or low.endswith(("password", "passwd", "_secret", "_token", "api_key", "apikey"))


_SECRET_FIELDS = frozenset(
    {"password", "passwd", "secret", "token", "api_key", "apikey", "access_token", "private_key"}
)


def redact(text: str) -> str:
    """`text` with every secret the rules know replaced by its marker."""
    return Redactor()(text)
