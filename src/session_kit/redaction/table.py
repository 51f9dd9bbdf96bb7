"""The redactor's one table: every family's rules, in the order the engine applies them.

`keys.FIRST_RULES` (which must see text before the others replace part of it), then
`statements.EARLY_RULES` (values that run to the end of their line, before the assignments' rules
stop at a comma or a bracket), `formats.PEM_RULES` (PEM private keys), `vendors.VENDOR_RULES`
(tokens with a vendor's prefix, JWTs, webhooks), `formats.RULES` (headers, URLs, command lines,
assignments), then
`statements.STATEMENT_RULES` (SQL, a call's arguments, a command's output, Kubernetes Secrets,
word lists), then `keyfiles.KEY_FILE_RULES` (private keys in files other than PEM), then
`contexts.CONTEXT_RULES` (secrets by place), then `access.ACCESS_RULES` (what grants access by
being shown: session cookies, signed URLs, join tokens, one-time-password seeds, wallet keys,
webhooks), then `keys.KEY_RULES` (keys by name, wrapper or pair), then `generic.GENERIC_RULES`
(secrets by class: unknown prefixes, any config syntax, credential files, prose); and what
the secret guard's screen looks for to know the table can find nothing (`screen_needles`,
`screen_scans`). Does not apply them (`engine`).
"""

from __future__ import annotations

from session_kit.redaction.rules.access import ACCESS_RULES
from session_kit.redaction.rules.contexts import CONTEXT_RULES
from session_kit.redaction.rules.formats import PEM_RULES, Rule
from session_kit.redaction.rules.formats import RULES as FORMAT_RULES
from session_kit.redaction.rules.generic import GENERIC_RULES
from session_kit.redaction.rules.keyfiles import KEY_FILE_RULES
from session_kit.redaction.rules.keys import FIRST_RULES, KEY_RULES
from session_kit.redaction.rules.statements import EARLY_RULES, STATEMENT_RULES
from session_kit.redaction.rules.vendors import VENDOR_RULES

RULES: tuple[Rule, ...] = (
    FIRST_RULES
    + EARLY_RULES
    + PEM_RULES
    + VENDOR_RULES
    + FORMAT_RULES
    + STATEMENT_RULES
    + KEY_FILE_RULES
    + CONTEXT_RULES
    + ACCESS_RULES
    + KEY_RULES
    + GENERIC_RULES
)


def screen_needles(rules: tuple[Rule, ...] = RULES) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Strings at least one of which a text holds whenever a rule can match it: the ones to
    look for in the lower-cased text, and the ones to look for as written. A rule is tried
    only at its anchors, and a family of prefixed tokens only where one of its prefixes stands
    right before the anchor; a later rule sees an earlier rule's marker only after that one
    matched. So `redact` leaves a text holding none of them as it is. The secret guard's hook
    screens outputs with them without loading this module (`redaction.screen`)."""
    lower: set[str] = set()
    exact: set[str] = set()
    for rule in rules:
        words = (
            rule.anchors
            if rule.prefixes is None
            else tuple(p + a for a in rule.anchors for ps in rule.prefixes.values() for p in ps)
        )
        if rule.exact:
            exact.update(words)
        else:
            lower.update(w.lower() for w in words)
    lower = {n for n in lower if not any(o != n and o in n for o in lower)}
    exact = {n for n in exact if not any(o in n.lower() for o in lower) and not any(o != n and o in n for o in exact)}
    return tuple(sorted(lower)), tuple(sorted(exact))


def screen_scans(rules: tuple[Rule, ...] = RULES) -> tuple[str, ...]:
    """The patterns of the rules found by a scan instead of by anchors (`Rule.scan`): a text
    none of them matches gives those rules nothing; the screen looks for them too."""
    return tuple(sorted({rule.scan.pattern for rule in rules if rule.scan is not None}))
