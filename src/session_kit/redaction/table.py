"""The redactor's one table: every family's rules, in the order the engine applies them.

`keys.FIRST_RULES` (which must see text before the others replace part of it), then
`formats.RULES` (tokens with a vendor's prefix, PEM keys, headers, URLs, assignments), then
`contexts.CONTEXT_RULES` (secrets by place), then `access.ACCESS_RULES` (what grants access by
being shown: session cookies, signed URLs, join tokens, one-time-password seeds, wallet keys,
webhooks), then `keys.KEY_RULES` (keys by name, wrapper or pair), then `generic.GENERIC_RULES`
(secrets by class: unknown prefixes, any config syntax, credential files, prose). Does not
apply them (`engine`).
"""

from __future__ import annotations

from session_kit.redaction.rules.access import ACCESS_RULES
from session_kit.redaction.rules.contexts import CONTEXT_RULES
from session_kit.redaction.rules.formats import RULES as FORMAT_RULES
from session_kit.redaction.rules.formats import Rule
from session_kit.redaction.rules.generic import GENERIC_RULES
from session_kit.redaction.rules.keys import FIRST_RULES, KEY_RULES

RULES: tuple[Rule, ...] = FIRST_RULES + FORMAT_RULES + CONTEXT_RULES + ACCESS_RULES + KEY_RULES + GENERIC_RULES
