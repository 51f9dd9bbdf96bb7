"""The shapes of secrets the redactor knows: one table of rules.

Owns: `Rule` and `RULES`, the list of secret shapes — tokens with a vendor's prefix (cloud,
VCS and CI, package registries, payment, chat, AI providers, observability: the formats that
gitleaks' rules and detect-secrets' plugins describe), JWTs, PEM/OpenSSH/PGP private keys,
credentials by context (Authorization and API-key headers, URL passwords, `curl -u`,
`mysql -p`, `sshpass -p`, `docker login -p`, `.netrc`, Azure `AccountKey=` and SAS `sig=`),
and assignments whose name says a secret follows (`password=`, `"api_key": "…"`, also with
JSON-escaped quotes). Does not apply them (that is `redact`).

What stays alone: a value that names a type (`password: string`), is code or a reference
(`os.environ["X"]`, `$TOKEN`, `${{ secrets.X }}`), a path or a count (`MAX_TOKEN=4096`); a
PEM header with no key after it (code that looks for one); uuids, git SHAs and hashes (no
rule wants a bare hex string).
"""

from __future__ import annotations

import re
from collections import namedtuple


class Pattern:
    """A regular expression compiled on its first use: a command pays at start-up only for
    the rules its text needs (compiling all of them costs more than most commands' work)."""

    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern)
        return compiled.match(text, pos)

    def starts(self, text: str) -> list[int]:
        """Where the pattern matches in `text` (for a rule found by a scan, not by anchors)."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern)
        return [found.start() for found in compiled.finditer(text)]


# One shape of secret. A named tuple, not a dataclass: the secret guard's hook loads this table
# and `dataclasses` alone would cost it more than its whole budget (it imports `inspect`).
# kind: the marker's kind. pattern: the `Pattern` tried.
# anchors, back: where a match may start, `back` characters before an occurrence of one of the
#   anchors; anchors are searched in the lower-cased text, or as written when `exact`.
# group: the group holding the secret (0: the whole match); text around it is kept.
# kind_of: decides the marker's kind from the match, when it depends on the name (password vs token).
# accept: an extra check on the secret, for shapes that ordinary words could take.
# prefixes: a family of prefixed tokens found through the separator after the prefix (the
#   anchor): the last two characters before the anchor -> the prefixes a match may start with.
# scan: found by a scan of the text with this pattern (one starting with a rare character set)
#   instead of by anchors; the rule's pattern is tried `back` characters before each start.
# inner: a regular expression (group `v`) for the secrets inside the secret group, each replaced
#   by its own marker, the text between them kept (a Kubernetes Secret's `data:` values, whose
#   names are no secret).
# samples, not_samples: texts the rule's family must redact / must leave as written, checked
#   through the whole redactor by tests/redaction/test_samples.py.
Rule = namedtuple(
    "Rule",
    (
        "kind",
        "pattern",
        "anchors",
        "back",
        "exact",
        "group",
        "kind_of",
        "accept",
        "prefixes",
        "scan",
        "inner",
        "samples",
        "not_samples",
    ),
    defaults=(0, False, 0, None, None, None, None, None, (), ()),
)


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


# A value that is a reference, a placeholder or already redacted is not a secret.
# nor a YAML tag that refers to the value elsewhere (`!vault |`, `!secret wifi`, `!Ref DbPass`)
_NOT_A_VALUE = r"(?![$<{*\[%])(?!!(?:vault|secret|env_var|ENV|Ref|Sub|GetAtt|ImportValue|include)\b)"
# `key` counts as a secret's name only after one of these (api_key, ACCESS-KEY, secretKey…).
_KEY_WORDS = ("api", "access", "private", "secret", "encryption", "signing", "master", "account", "auth")
_KEY_AFTER = "|".join(f"(?<={word}{sep})" for word in _KEY_WORDS for sep in ("", "_", "-"))
# The name's anchors: the name starts where its anchor does.
_NAME_ANCHORS = ("pass", "secret", "token", "key", "_auth")
_NAMES = r"(?P<name>passw(?:or)?d|passphrase|secret|token|_auth|(?:" + _KEY_AFTER + r")key)"
# Quotes as written, or escaped once or more (JSON inside a JSON string: `\"password\": \"…\"`).
_Q = r"\\*[\"']"

# Values that name a type, a placeholder or code, never a secret (`password: string`,
# `token = request.headers.get(…)`, `api_key = settings.API_KEY`, `SSH_KEY=~/.ssh/id`).
_TYPE_WORDS = frozenset(
    """string str text number int integer bool boolean null none nil undefined true false any
    required optional object array list dict bytes secret password token redacted hidden varchar
    char uuid env""".split()  # noqa: SIM905 (a list literal would take a line a word)
)
# Values written in docs and examples in a secret's place (`TOKEN="changeme"`,
# `SECRET=your-secret-here`): redacting them hides what a reader needs and protects nothing.
_PLACEHOLDER_WORDS = frozenset(
    ["changeme", "change-me", "change_me", "placeholder", "example", "dummy", "fake", "sample", "test", "foo", "bar"]
)
_PLACEHOLDER = re.compile(r"your[-_][\w-]*|<[^<>]*>|(?:x+|\*+|\.+)", re.IGNORECASE)
_CODE = re.compile(r"[\w.]*[(\[]|[~.]?/")
_PORT_PATH = re.compile(r"\d{1,5}(?:[/?#].*)?|\$\{?\w+\}?")  # `host:8080/a@b`, `:$PASS@`: no password
_MARKER = re.compile(r"\[REDACTED:[\w.-]+\]\**")  # a secret already replaced (and padded, by a scrub)
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _is_value(value: str) -> bool:
    """Not a type name, code, a path or a count: what an assignment's right side is when it
    holds no secret."""
    bare = value.strip("'\"")
    return not (
        bare.lower() in _TYPE_WORDS
        or bare.lower() in _PLACEHOLDER_WORDS
        or _PLACEHOLDER.fullmatch(bare) is not None
        or _CODE.match(bare) is not None
        or (_DOTTED.fullmatch(bare) is not None and not _has_digit(bare))
        or bare.isdigit()
        or len(set(bare)) < 3
    )


def _looks_random(value: str) -> bool:
    """A value as keys are: a digit in it, or upper case after the first letter and lower case
    (`Deploy` is a word, `kQ2wXpLm` is not); and not a type or code."""
    mixed = len(value) >= 8 and any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return (_has_digit(value) or mixed) and _is_value(value)


def _assignment_kind(match: re.Match[str]) -> str:
    name = match.group("name").lower()
    if name.startswith("passw") or name == "passphrase":
        return "password"
    if name == "token":
        return "token"
    if name == "key":
        before = match.string[max(0, match.start() - 8) : match.start()].lower()
        return "secret" if "secret" in before else "private-key" if "private" in before else "api-key"
    return "secret"


def _authorization_kind(match: re.Match[str]) -> str:
    scheme = (match.group("scheme") or "").lower()
    return {"bearer": "bearer-token", "basic": "basic-auth"}.get(scheme, "token")


def _token(kind: str, pattern: str, *anchors: str, back: int = 0, group: int | str = 0) -> Rule:
    """A token with a vendor's fixed prefix (or infix): found by its anchors as written."""
    return Rule(kind, Pattern(pattern), anchors, back=back, exact=True, group=group)


_END = r"(?![A-Za-z0-9_-])"  # a token ends where its alphabet does


def _family(separator: str, *tokens: tuple[str, str | tuple[str, ...], str]) -> Rule:
    """Tokens whose prefix ends just before `separator`, as (kind, prefix or prefixes, pattern
    from the prefix on). Each text is scanned once for the separator, not once per vendor (a
    scan costs about as much as the rest of redacting), and a pattern is tried only where the
    characters before the separator are one of the prefixes. A pattern that several prefixes
    share is one alternative of the family's regex, tried once."""
    alternatives = "|".join(f"(?P<t{i}>{pattern})" for i, (_, _, pattern) in enumerate(tokens))
    kinds = {f"t{i}": kind for i, (kind, _, _) in enumerate(tokens)}
    by_tail: dict[str, list[str]] = {}
    for _, prefixes, _ in tokens:
        for prefix in (prefixes,) if isinstance(prefixes, str) else prefixes:
            if prefix not in by_tail.setdefault(prefix[-2:], []):
                by_tail[prefix[-2:]].append(prefix)
    return Rule(
        "token",
        Pattern(r"(?<![A-Za-z0-9])(?:" + alternatives + ")"),
        (separator,),
        exact=True,
        kind_of=lambda match: kinds[match.lastgroup or ""],
        prefixes={tail: tuple(found) for tail, found in by_tail.items()},
    )


RULES: tuple[Rule, ...] = (
    Rule(
        "private-key",
        # A header with no key after it (code that looks for one) is not a secret.
        Pattern(
            r"-----BEGIN[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----(?:\\+[rn]|\s|>)*"
            r"(?:[A-Za-z][A-Za-z-]*: [^\n\\\x00]*(?:\\+[rn]|\s|>)+)*"
            # the body's lines: each long (a short word after it is prose, not the key), but
            # the last before the END line; a block with no END line ends with its body
            r"[A-Za-z0-9+/=]{40,}(?:(?:\\+[rn]|\s|>)+[A-Za-z0-9+/=]{16,})*"
            r"(?:(?:\\+[rn]|\s|>)+[A-Za-z0-9+/=]{1,15}(?=(?:\\+[rn]|\s|>)*-----END))?"
            r"(?:(?:\\+[rn]|\s|>)*-----END[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----)?"
        ),
        ("-----BEGIN",),
        exact=True,
    ),
    # --- tokens with a vendor's prefix (gitleaks' and detect-secrets' formats) ---
    # Most are found through the separator after their prefix (`_`, `-`, `.`): one scan of the
    # text per separator instead of one per vendor (see `_family`).
    _family(
        "_",
        ("stripe-key", "sk", r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("stripe-key", "rk", r"rk_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("stripe-webhook-secret", "whsec", r"whsec_[A-Za-z0-9+/=]{24,}"),
        ("github-token", ("ghp", "gho", "ghu", "ghs", "ghr"), r"gh[pousr]_[A-Za-z0-9]{30,}"),
        ("github-token", "github", r"github_pat_[A-Za-z0-9_]{22,}"),
        ("grafana-token", "glsa", r"glsa_[A-Za-z0-9_=+/-]{32,}"),
        ("grafana-token", "glc", r"glc_[A-Za-z0-9_=+/-]{32,}"),
        ("circleci-token", "CCIPAT", r"CCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}"),
        ("buildkite-token", "bkua", r"bkua_[a-f0-9]{40}"),
        ("npm-token", "npm", r"npm_[A-Za-z0-9]{36}" + _END),
        ("rubygems-key", "rubygems", r"rubygems_[a-f0-9]{48}"),
        ("docker-token", "dckr", r"dckr_pat_[A-Za-z0-9_-]{20,}"),
        ("digitalocean-token", ("dop", "doo", "dor"), r"do[por]_v1_[a-f0-9]{64}"),
        ("fly-token", "fo1", r"fo1_[A-Za-z0-9_-]{39,}"),
        ("supabase-token", "sbp", r"sbp_[a-f0-9]{40}"),
        ("braintree-token", "access", r"access_token\$production\$[0-9a-z]{16}\$[0-9a-f]{32}"),
        ("shopify-token", ("shpat", "shpss", "shpca", "shppa"), r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
        ("huggingface-token", "hf", r"hf_[A-Za-z0-9]{34,}"),
        ("replicate-token", "r8", r"r8_[A-Za-z0-9]{37}"),
        ("groq-key", "gsk", r"gsk_[A-Za-z0-9]{48,}"),
        ("notion-token", "ntn", r"ntn_[A-Za-z0-9]{40,}"),
        ("notion-token", "secret", r"secret_[A-Za-z0-9]{43}" + _END),
        ("linear-key", "lin", r"lin_api_[A-Za-z0-9]{40}"),
        ("sentry-token", ("sntrys", "sntryu"), r"sntry[su]_[A-Za-z0-9_=+/-]{40,}"),
        ("langsmith-key", "lsv2", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
        ("render-key", "rnd", r"rnd_[A-Za-z0-9]{24,}" + _END),
        ("planetscale-token", "pscale", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}"),
        ("pinecone-key", "pcsk", r"pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"),
        ("netlify-token", "nfp", r"nfp_[A-Za-z0-9]{36,}"),
        ("neon-key", "napi", r"napi_[a-z0-9]{64}"),
        ("figma-token", "figd", r"figd_[A-Za-z0-9_-]{38,}"),
        ("prefect-key", ("pnu", "pnb"), r"pn[ub]_[A-Za-z0-9]{36}"),
        ("deno-token", ("ddp", "ddw"), r"dd[pw]_[A-Za-z0-9]{36}"),
        ("supabase-key", "sb", r"sb_secret_[A-Za-z0-9_-]{20,}"),
        ("resend-key", "re", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{20,}"),
        ("onepassword-token", "ops", r"ops_eyJ[A-Za-z0-9+/=_-]{60,}"),
    ),
    _family(
        "-",
        ("anthropic-api-key", "sk", r"sk-ant-[A-Za-z0-9_-]{16,}"),
        # an OpenAI key holds a digit (words joined by hyphens do not)
        ("openai-api-key", "sk", r"sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z_-]{0,200}\d)[A-Za-z0-9_-]{20,}"),
        (
            "gitlab-token",
            tuple(
                "gl" + kind for kind in ("pat", "ptt", "rt", "dt", "ft", "cbt", "imt", "soat", "agent", "oas", "rtr")
            ),
            r"gl(?:pat|ptt|rt|dt|ft|cbt|imt|soat|agent|oas|rtr)-[A-Za-z0-9_-]{20,}",
        ),
        ("pypi-token", "pypi", r"pypi-AgE[A-Za-z0-9_-]{50,}"),
        ("postman-key", "PMAK", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
        ("pulumi-token", "pul", r"pul-[a-f0-9]{40}"),
        ("google-oauth-secret", "GOCSPX", r"GOCSPX-[A-Za-z0-9_-]{28}"),
        ("square-token", ("sq0atp", "sq0csp"), r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"),
        (
            "flutterwave-key",
            ("FLWSECK", "FLWSECK_TEST", "FLWPUBK", "FLWPUBK_TEST"),
            r"FLW(?:SEC|PUB)K(?:_TEST)?-[a-hA-H0-9]{32}-X",
        ),
        ("slack-token", tuple("xox" + c for c in "abposre"), r"xox[abposre]-[A-Za-z0-9-]{10,}"),
        ("slack-token", "xapp", r"xapp-\d-[A-Za-z0-9-]{20,}"),
        ("newrelic-key", ("NRAK", "NRJS", "NRII"), r"NR(?:AK|JS|II)-[A-Z0-9]{20,}"),
        ("perplexity-key", "pplx", r"pplx-[A-Za-z0-9]{40,}"),
        ("mailgun-key", "key", r"key-[a-f0-9]{32}" + _END),
        ("tailscale-key", "tskey", r"tskey-[a-z]+-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}"),
        ("firecrawl-key", "fc", r"fc-[a-f0-9]{32}" + _END),
        ("heroku-key", "HRKU", r"HRKU-[A-Za-z0-9_-]{20,}"),
        ("xai-key", "xai", r"xai-[A-Za-z0-9]{50,}"),
        ("cerebras-key", "csk", r"csk-[a-z0-9]{40,}"),
        ("tavily-key", "tvly", r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{30,}"),
        ("hubspot-token", "pat", r"pat-(?:na|eu|ap)\d-[a-f0-9]{8}-[a-f0-9-]{27}"),
    ),
    _family(
        ".",
        ("doppler-token", "dp", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
        ("vault-token", ("hvs", "hvb", "hvr"), r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
        ("google-oauth-token", "ya29", r"ya29\.[A-Za-z0-9_-]{30,}"),
        ("sendgrid-key", "SG", r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}"),
        ("mapbox-secret-token", "sk", r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"),
    ),
    _token("aws-access-key", r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA)[0-9A-Z]{16}(?![A-Za-z0-9])", "IA", back=2),
    Rule(
        "aws-secret-key",
        Pattern(
            r"(?i)aws_?secret_?access_?key(?:[_-]?[A-Za-z0-9]{1,12})?\\*[\"']?\s*[:=]\s*\\*[\"']?(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        ("secret",),
        back=4,
        group="v",
    ),
    _token("alibaba-access-key", r"LTAI[A-Za-z0-9]{12,20}" + _END, "LTAI"),
    _token("atlassian-token", r"(?:ATBB[A-Za-z0-9_=.-]{24,}|ATATT3[A-Za-z0-9_=-]{60,})", "AT"),
    _token("nuget-key", r"(?<![A-Za-z0-9])oy2[a-z0-9]{43}" + _END, "oy2"),
    _token("artifactory-key", r"(?<![A-Za-z0-9])AKCp[A-Za-z0-9]{60,}", "AKCp"),
    # found at its `api`, which the API-key headers need scanned anyway
    Rule("databricks-token", Pattern(r"(?<![A-Za-z0-9])dapi[a-f0-9]{32}(?:-\d)?"), ("api",), back=1),
    _token("terraform-token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}", ".atlasv1.", back=14),
    _token("google-api-key", r"AIza[0-9A-Za-z_-]{35}", "AIza"),
    _token("google-oauth-token", r"1//0[A-Za-z0-9_-]{40,}", "1//0"),
    _token("azure-client-secret", r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}", "Q~", back=4),
    _token("square-token", r"(?<![A-Za-z0-9])EAAA[A-Za-z0-9_-]{60,}", "EAAA"),
    _token(
        "slack-webhook", r"https://hooks\.slack\.com/(?:services|triggers|workflows)/[A-Za-z0-9/_-]+", "://", back=5
    ),
    _token(
        "discord-webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]+",
        "://",
        back=5,
    ),
    _token(
        "telegram-bot-token",
        r"[\s\S]{0,12}?(?<![0-9])(?P<v>[0-9]{6,12}:AA[A-Za-z0-9_-]{30,})",
        ":AA",
        back=12,
        group="v",
    ),
    _token("twilio-key", r"(?<![A-Za-z0-9])SK[0-9a-f]{32}" + _END, "SK"),
    _token("mailchimp-key", r"(?<![A-Za-z0-9])[a-f0-9]{32}-us\d{1,2}" + _END, "-u", back=32),
    _token(
        "teams-webhook",
        r"https://[A-Za-z0-9-]+\.webhook\.office\.com/webhookb2/(?P<v>[^\s\"'<>\\\x00]+)",
        "://",
        back=5,
        group="v",
    ),
    _token("airtable-token", r"(?<![A-Za-z0-9])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}", "pat"),
    _token(
        "jwt",
        r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}",
        "eyJ",
    ),
    # --- credentials by context: headers, URLs, command lines ---
    Rule(
        "token",
        Pattern(
            r"(?i)\bauthorization\\*[\"']?\s*[:=]\s*\\*[\"']?"
            r"(?:(?P<scheme>bearer|basic|token|bot|ssws|apikey|key|digest)\s+)?"
            r"(?P<v>[A-Za-z0-9._~+/=:-]{8,})"
        ),
        ("authorization",),
        group="v",
        kind_of=_authorization_kind,
        accept=_is_value,
    ),
    Rule(
        "bearer-token",
        Pattern(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"),
        ("bearer",),
        group="v",
        accept=_has_digit,
    ),
    Rule(
        "api-key",
        Pattern(
            r"(?i)(?<![A-Za-z0-9])(?:x-)?(?:api-?key|api-?token|auth-?token|access-?token|vault-token)"
            r"\\*[\"']?\s*:\s*\\*[\"']?(?P<v>[A-Za-z0-9._~+/=-]{12,})"
        ),
        ("api", "auth-token", "access-token", "vault-token"),
        group="v",
        accept=_is_value,
    ),
    # Azure connection strings, found at their `key` (scanned anyway for the assignments)
    Rule("azure-key", Pattern(r"(?i)AccountKey=(?P<v>[A-Za-z0-9+/=%]{16,})"), ("key",), back=7, group="v"),
    Rule("azure-key", Pattern(r"(?i)SharedAccessKey=(?P<v>[A-Za-z0-9+/=%]{16,})"), ("key",), back=12, group="v"),
    Rule("azure-sas", Pattern(r"[?&;]sig=(?P<v>[A-Za-z0-9%+/=]{16,})"), ("sig=",), back=1, group="v"),
    # the password runs to the last `@` before a host, so it may hold `@ / : # ? [ ] '`
    Rule(
        "url-password",
        Pattern(
            r"://[^\s/:@\"'<>\[\]\\\x00]*:(?P<v>[^\s\"<>\\\x00]+)@"
            r"(?=(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d+)?(?:,[A-Za-z0-9.-]+(?::\d+)?)*(?:[/?#\s\"'`<>\\\x00]|$))"
        ),
        ("://",),
        exact=True,
        group="v",
        accept=lambda v: _PORT_PATH.fullmatch(v) is None and _MARKER.fullmatch(v) is None,
    ),
    # a key or token as the URL's user (a Sentry DSN, `https://<token>@github.com/`)
    Rule(
        "url-token",
        Pattern(r"://(?P<v>[A-Za-z0-9_-]{20,})@"),
        ("://",),
        exact=True,
        group="v",
        accept=_has_digit,
    ),
    Rule(
        "password",
        # `--user` is found at its second dash; NUL is where a text of a batch starts
        Pattern(r"(?<![^\s\"'=\x00-])-u(?:ser)?(?:\s+|=)?[\"']?[^\s:\"'$\x00]*:(?P<v>[^\s\"'\x00]+)"),
        ("-u",),
        exact=True,
        group="v",
        # after `user:` a dotted value is a password, not code (`-u ci:MDXVprE.FHNPpOQUFxx`)
        accept=lambda v: _is_value(v) or _DOTTED.fullmatch(v) is not None,
    ),
    Rule(
        "password",
        Pattern(
            r"mysql(?:dump|admin|sh)?\b[^\n\x00]*?\s-p(?P<v>'[^'\n\x00]+'|\"[^\"\n\x00]+\"|[^\s'\"$\x00-][^\s'\"\x00]*)"
        ),
        ("mysql",),
        group="v",
    ),
    Rule(
        "password",
        Pattern(r"sshpass\s+-p\s*(?P<v>'[^'\n\x00]*'|\"[^\"\n\x00]*\"|[^\s'\"$\x00][^\s\x00]*)"),
        ("pass",),
        back=3,
        group="v",
    ),
    Rule(
        "password",
        Pattern(
            r"\blogin\b[^\n\x00]*?\s(?:-p|--password)(?:\s+|=)(?P<v>'[^'\n\x00]*'|\"[^\"\n\x00]*\"|[^\s'\"$\x00][^\s\x00]*)"
        ),
        ("login",),
        group="v",
    ),
    Rule(
        "password",
        Pattern(r"\bmachine\s+[^\s\x00]+\s+login\s+[^\s\x00]+\s+password\s+(?P<v>[^\s\x00]+)"),
        ("machine",),
        group="v",
    ),
    # --- assignments: the name says a secret follows ---
    # name = "value" / name: 'value' / "name": "value" (any case; the name ends the key)
    Rule(
        "secret",
        Pattern(
            r"(?i)"
            + _NAMES
            + r"\\*[\"']?\s*(?:=(?!=)|:)\s*\\*(?P<q>[\"'])"
            + _NOT_A_VALUE
            # a value never starts with an escaped line break: that quote closed the name
            + r"(?!\\[nrt])(?P<v>[^\"'\n\x00]{1,500}?)\\*(?P=q)"
        ),
        _NAME_ANCHORS,
        group="v",
        kind_of=_assignment_kind,
        accept=_is_value,
    ),
    # NAME=value in upper case, as in environment files and shell exports
    Rule(
        "secret",
        Pattern(
            r"(?<![a-z])(?P<name>PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIALS?|(?:"
            + "|".join(f"(?<={w.upper()}{sep})" for w in _KEY_WORDS for sep in ("", "_"))
            + r"|(?<=_))KEY)(?:[ \t]*=[ \t]*|: ?)"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\"',;&(){}\[\]\\\x00]{4,})(?=[\s\"',;&)}\]\\\x00]|$)"
        ),
        _NAME_ANCHORS,
        group="v",
        kind_of=_assignment_kind,
        accept=_is_value,
    ),
    # password=value unquoted, any case (command lines, URLs' query strings, YAML, .pypirc)
    Rule(
        "password",
        Pattern(
            r"(?i)(?P<name>passw(?:or)?d|passphrase)\\*[\"']?(?:[ \t]*=(?!=)[ \t]*|:[ \t]?)"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\"',;&<>\\()\x00]{3,})"
        ),
        ("pass",),
        group="v",
        kind_of=_assignment_kind,
        accept=_is_value,
    ),
    # token=value, api_key: value… unquoted, any case (.npmrc's `_authToken=`): the value must
    # look random (a digit, or mixed case), as `token: follower` in prose does not
    Rule(
        "secret",
        Pattern(
            r"(?i)"
            + _NAMES
            + r"\\*[\"']?(?:[ \t]*=(?!=)[ \t]*|:[ \t]?)"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\"',;&<>\\()\x00]{6,})"
        ),
        _NAME_ANCHORS,
        group="v",
        kind_of=_assignment_kind,
        accept=_looks_random,
    ),
)
