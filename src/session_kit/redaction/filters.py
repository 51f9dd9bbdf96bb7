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
# Words that say "put yours here" (the whole value, or a telling part of it).
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


def stands_in(secret: str, text: str, start: int) -> bool:
    """Whether `secret`, found at `start` of `text`, is a reference, filler or a placeholder word
    rather than a secret."""
    value = secret.strip(_QUOTES)
    if not value:
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
    return _WORDS.search(value) is not None
