"""What stands in a secret's place without being one: the one check every rule's find passes.

Owns: `stands_in(secret, text, start)`, true when what a rule found at `start` of `text` is a
variable reference (`$VAR`, `${VAR}`, `${VAR:-default}`, `$(cmd)`, `%VAR%`, `{{ .Values.x }}`,
`${{ secrets.X }}`, `<your-key>`), or sits inside one; filler (`sk_test_xxxxxxxx`,
`AKIAXXXXXXXXXXXXXXXX`, `sk_live_****`, `sk-...`, one character repeated); or a word written in
docs and examples in a secret's place (`changeme`, `REPLACE_ME`, `TODO`, `your-api-key-here`,
`redacted`, `***`). `.env.example` files, compose files' variable references, templates and
prompts hold these: redacting them hides what a reader needs and protects nothing. Does not
decide what a secret is (the rules of `redaction.rules.formats` and the modules after it do); the
redactor asks this of each match, so it costs nothing on text without a find.
"""

from __future__ import annotations

import re

# A reference to a value kept elsewhere, as the whole of what was found.
_REFERENCE = re.compile(
    r"\$\{\{.*\}\}|\$\{[^{}]*\}|\$\([^()]*\)|\$[A-Za-z_]\w*|%[A-Za-z_]\w*%|\{\{.*\}\}|<[^<>]+>|\[[A-Za-z _-]*\]",
    re.DOTALL,
)
# Where an opened reference is still open before the find (`${DB_PASSWORD:-postgres}`,
# `{{ .Values.token }}`): the find is inside it.
_OPENED = re.compile(r"(?:\$\{|\{\{)[^{}\n]*\Z")
# Runs that fill a secret's place: x or X, stars, dots, an ellipsis, bullets, one character six times.
_FILLER = re.compile(r"[xX]{4,}|\*{3,}|\.{3,}|…+|•+|(.)\1{5,}")
# Words that say "put yours here" (the whole value, or a telling part of it): checked only on a
# value that does not look like a real one (`_REAL`: `MyDogRex2019!` holds "my" and is a password).
_WORDS = re.compile(
    r"(?:change|replace|insert|enter|fill|put|set|add|paste)[-_ ]?(?:me|it|this|here|with|in|yours?)(?![a-z])"
    r"|(?:^|[-_ .])(?:your|my)[-_ .]?[a-z]"
    r"|[-_ ]here$"
    r"|^(?:todo|tbd|fixme|redacted|removed|hidden|omitted|placeholder|dummy|changeme|example|none|null|nil"
    r"|secret|password|passwd|token|api[-_]?key|n/?a|-+|\?+)$",
    re.IGNORECASE,
)
# A known prefix and only filler after it (`sk_test_...`, `ghp_XXXX`, `xoxb-xxxx-xxxx`).
_PREFIX_FILLER = re.compile(
    r"[A-Za-z0-9]{1,10}(?:[-_.][A-Za-z0-9]{1,10}){0,2}[-_.]?(?:(?:[xX]{3,}|\*{3,}|\.{3,}|…)[-_.]?)+"
)
_QUOTES = "\"'` \t"
# A real value: a digit with both cases, or a digit and a symbol other than a separator.
_REAL = re.compile(r"(?=.*\d)(?:(?=.*[a-z])(?=.*[A-Z])|(?=.*[^\w\s.-]))")

# --- what names something and is no secret: ids, fixtures' values, cache keys, code ---------
# The ids a transcript and the APIs it talks to are full of (tool calls, messages, requests,
# server tool results), Stripe's publishable keys, GitHub's GraphQL node ids (`PR_kwDO…`).
_ID = re.compile(
    r"(?:toolu|tooluse|srvtoolu|cse|msg|msgbatch|req|call|chatcmpl|resp|run|thread|asst|batch|evt|file)[_-][A-Za-z0-9_-]+"
    r"|pk_(?:live|test)_[A-Za-z0-9]+"
    r"|[A-Z]{1,5}_(?:kw|kg|lA|lQ)[A-Za-z0-9_-]{8,}"
)
# A test fixture's value or a development default: lower-case words (and numbers) joined by
# `-`/`_`, saying so (`test-session-123`, `dev-only-secret-not-for-production-use`).
_FIXTURE = re.compile(
    r"(?:[a-z0-9]+[-_])*(?:test|testing|fake|mock|dummy|sample|example|demo|stub|dev-only|test-only|insecure)"
    r"(?:[-_][a-z0-9]+)*"
)
# A vendor's prefix and a word for what it stands for (`xoxb-token`, `xapp-token`, `sk-key`).
_PREFIX_WORD = re.compile(r"[a-z]{2,6}[-_](?:[a-z]+[-_])*(?:token|key|secret|password|value|here|test|example|fake)")
# A build's cache key names its platform (`setup-uv-1-x86_64-unknown-linux-gnu-0.7.13-f6c6…`,
# `Linux-pip-a593…`, `node-cache-Linux-x64-npm-cc84…`). The docs' keys say EXAMPLE
# (`AKIAIOSFODNN7EXAMPLE`, `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`).
_CACHE_KEY = re.compile(
    r"(?:[\w.-]*[-_.])?(?i:x86_64|aarch64|amd64|arm64|i686|x64|linux|darwin|win32|windows|macos)[-_.][\w.-]*"
)
# An identifier, unquoted: code, not a value (`csrfToken`, `TokenList()`, `input('…')`, `hash_password(raw)`).
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_SECRET_WORD = re.compile(r"(?i)pass|pwd|secret|token|key|csrf|auth|cred|hash")
_KEYWORDS = frozenset(
    "raise return if not and or is in None null nil true false True False await async lambda def new".split()  # noqa: SIM905
)


def names_no_secret(value: str, text: str, start: int, end: int) -> bool:
    """Whether `value` (found at `start`..`end` of `text`) is an id, a fixture's value, a cache
    key or code: ids are never secrets, and a code identifier or call is never a value."""
    if _ID.fullmatch(value) or _CACHE_KEY.fullmatch(value) or _FIXTURE.fullmatch(value) or "EXAMPLE" in value:
        return True
    if _PREFIX_WORD.fullmatch(value):
        return True
    arn = text.rfind("arn:aws", max(0, start - 120), start)
    if arn >= 0 and not any(c.isspace() for c in text[arn:start]):
        return True  # a part of an ARN (`…:secret:prod/db-AbCdEf`): it names a resource
    if "data-phx-" in text[max(0, start - 24) : start]:
        return True  # LiveView's page state (`data-phx-session`): signed, not a credential
    quoted = start > 0 and text[start - 1] in "\"'`"
    if not quoted and _IDENTIFIER.fullmatch(value):
        after = text[end : end + 1]
        if after == "(" or value in _KEYWORDS:
            return True  # a call, or a keyword: `input(`, `raise`, `if not password:`
        if _SECRET_WORD.search(value) and not any(c.isdigit() for c in value):
            return True  # a variable named for a secret: `csrfToken`, `token_list`
    return False


def stands_in(secret: str, text: str, start: int) -> bool:
    """Whether `secret`, found at `start` of `text`, is a reference, filler or a placeholder word
    rather than a secret, or names something that is no secret (`names_no_secret`)."""
    value = secret.strip(_QUOTES)
    if not value:
        return True
    lead = len(secret) - len(secret.lstrip(_QUOTES))
    if names_no_secret(value, text, start + lead, start + lead + len(value)):
        return True
    if _REFERENCE.fullmatch(value) is not None:
        return True
    line_start = text.rfind("\n", max(0, start - 200), start) + 1
    if _OPENED.search(text, max(line_start, start - 200), start) is not None:
        return True
    if _PREFIX_FILLER.fullmatch(value) is not None:
        return True
    filled = sum(len(run.group()) for run in _FILLER.finditer(value))
    if filled * 2 >= len(value):
        return True
    return _REAL.match(value) is None and _WORDS.search(value) is not None


def marked_inside(inner: str, secret: str, marker: str) -> tuple[str, int]:
    """`secret` with group `v` of each match of `inner` in it replaced by `marker` (a rule's
    `inner`: the secrets of a block whose names are kept), and how many were."""

    def mark(match: re.Match[str]) -> str:
        start, end = match.span("v")
        whole, offset = match.group(0), match.start()
        return whole[: start - offset] + marker + whole[end - offset :]

    return re.subn(inner, mark, secret)
