"""The shapes of secrets the redactor knows: what a rule is, and the rules by format.

Owns: `Rule` (a rule as data: its pattern, anchors, checks and its own samples) and the
helpers every family's rules share; `PEM_RULES` (PEM/OpenSSH/PGP private keys) and `RULES`:
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
_PARAMETER = re.compile(r"[a-z_]+=")
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


PEM_RULES: tuple[Rule, ...] = (
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
        samples=(
            '"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCvu9UYpXFzj+gG+klFwv5Zy2D30yDU9qz\\ngxykYaDPO+w8FWZ7n1lFhniIFJRKVrSqjb5pZcur0E87ivkRIth4fge40NULr7QT\\n-----END PRIVATE KEY-----\\n"',
        ),
        not_samples=('if line.startswith("-----BEGIN RSA PRIVATE KEY-----"):',),
    ),
)

# After the PEM rule, `vendors.VENDOR_RULES`, then these.
RULES: tuple[Rule, ...] = (
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
        # a Digest header's first parameter's name (`username=`) is no credential
        accept=lambda v: _is_value(v) and _PARAMETER.fullmatch(v) is None,
        samples=('curl -H "Authorization: Bearer 8f2d1c0b9a7e6d5c4b3a2f1e0d9c8b7a" https://api',),
        not_samples=("authorization: required", 'Authorization: Digest username="bob", realm="api", response="$R"'),
    ),
    Rule(
        "bearer-token",
        Pattern(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"),
        ("bearer",),
        group="v",
        accept=_has_digit,
        samples=('RequestHeader set Authorization "Bearer ZMfjE5x24YxALyyrwYSvpTl5C2t48i9rGRcpoGvc"',),
        not_samples=('RequestHeader set Authorization "Bearer ${TOKEN}"',),
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
        samples=('{"service": "geo", "apiKey": "axdf79eAOwK0Jpvra0NSxajuKViuz0ZP7urc"}',),
        not_samples=('{"service": "geo", "apiKey": "${TOKEN}"}',),
    ),
    # Azure connection strings, found at their `key` (scanned anyway for the assignments)
    Rule(
        "azure-key",
        Pattern(r"(?i)AccountKey=(?P<v>[A-Za-z0-9+/=%]{16,})"),
        ("key",),
        back=7,
        group="v",
        samples=(
            "AccountEndpoint=https://acme.documents.azure.com:443/;AccountKey=q1fgkrhwXXx47A152Y29jW9zj2ImJdA87LWurMTbfG5oNd/u0STeMB/GMbtSvm2f93F2OBSofL8g50lE9RfG+n==;",
        ),
        not_samples=("AccountEndpoint=https://acme.documents.azure.com:443/;AccountKey=${TOKEN};",),
    ),
    Rule(
        "azure-key",
        Pattern(r"(?i)SharedAccessKey=(?P<v>[A-Za-z0-9+/=%]{16,})"),
        ("key",),
        back=12,
        group="v",
        samples=(
            "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=30cdvJZy9WERCUebsbqAIFj+0h5VaBwASdLt+Xlq8jM=",
        ),
        not_samples=("Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${TOKEN}",),
    ),
    Rule(
        "azure-sas",
        Pattern(r"[?&;]sig=(?P<v>[A-Za-z0-9%+/=]{16,})"),
        ("sig=",),
        back=1,
        group="v",
        samples=("?sv=2021-06-08&se=2026&sr=c&sp=rl&sig=vg92pGX5KC0EfGNsvAtgSuk+QALEeoBG6%2FSyherNXXQ%3D",),
        not_samples=("?sv=2021-06-08&se=2026&sr=c&sp=rl&sig=${TOKEN}",),
    ),
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
        samples=("DATABASE_URL=postgres://app:hunter2-Tr0ub4dor@db.internal:5432/orders",),
        not_samples=("session-kit: cannot reach the team database postgresql://kit:***@127.0.0.1",),
    ),
    # a key or token as the URL's user (a Sentry DSN, `https://<token>@github.com/`)
    Rule(
        "url-token",
        Pattern(r"://(?P<v>[A-Za-z0-9_-]{20,})@"),
        ("://",),
        exact=True,
        group="v",
        accept=_has_digit,
        samples=("SENTRY_DSN=https://294b8ad3ccb63c75cfefefbe95c8a472@o4504.ingest.sentry.io/4505",),
        not_samples=("SENTRY_DSN=https://294b8ad3cc@o4504.ingest.sentry.io/4505",),
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
        samples=('curl -s --user "ci-bot:MDXVprE.FHNPpOQUFxx" https://repo.example.com/upload',),
        not_samples=("curl -u admin:$CI_PASSWORD https://ci.example.com/job/x/build",),
    ),
    Rule(
        "password",
        Pattern(
            r"mysql(?:dump|admin|sh)?\b[^\n\x00]*?\s-p(?P<v>'[^'\n\x00]+'|\"[^\"\n\x00]+\"|[^\s'\"$\x00-][^\s'\"\x00]*)"
        ),
        ("mysql",),
        group="v",
        samples=("mysql -u root -pS3cretPassw0rd -h db\nsshpass -p 'hunter2!x' ssh host",),
        not_samples=("mysql -uroot -p${DB_PASSWORD} -h 127.0.0.1 shop < dump.sql",),
    ),
    Rule(
        "password",
        Pattern(r"sshpass\s+-p\s*(?P<v>'[^'\n\x00]*'|\"[^\"\n\x00]*\"|[^\s'\"$\x00][^\s\x00]*)"),
        ("pass",),
        back=3,
        group="v",
        samples=("sshpass -p 'hunter2!x' ssh deploy@host",),
        not_samples=('sshpass -p "$SSH_PASS" ssh deploy@host',),
    ),
    Rule(
        "password",
        Pattern(
            r"\blogin\b[^\n\x00]*?\s(?:-p|--password)(?:\s+|=)(?P<v>'[^'\n\x00]*'|\"[^\"\n\x00]*\"|[^\s'\"$\x00][^\s\x00]*)"
        ),
        ("login",),
        group="v",
        samples=("az login --service-principal -u http://app -p TMS2Y5-1adJCi --tenant acme",),
        not_samples=("az login --service-principal -u http://app -p ${DB_PASSWORD} --tenant acme",),
    ),
    Rule(
        "password",
        Pattern(r"\bmachine\s+[^\s\x00]+\s+login\s+[^\s\x00]+\s+password\s+(?P<v>[^\s\x00]+)"),
        ("machine",),
        group="v",
        samples=("machine git.example.com\n  login deploy\n  password inUwjhFc1580BwyOqtOL\n",),
        not_samples=("machine git.example.com\n  login deploy\n  password ${DB_PASSWORD}\n",),
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
        samples=('<datasource user="app" password="6bZALOMKih_Pjo7" url="jdbc:h2:mem"/>',),
        not_samples=('settings = Settings(SLACK_BOT_TOKEN="xoxb-token", SLACK_APP_TOKEN="xapp-token")',),
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
        samples=("services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: Pu3gN75mVHjB0hbn\n",),
        not_samples=("SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx",),
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
        samples=("spring:\n  datasource:\n    username: app\n    password: o40o3ki1vdp2iFcI\n",),
        not_samples=("password: string  # the type, no value\napi docs: https://example.com/api\n",),
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
        samples=("[oauth]\nclient_id = web\nclient_secret = gT2PrwEEy36cMEoQT0cTiVOhBwiAHy\n",),
        not_samples=("- session-token: Deploy component emitter `deploy_budget()` provider",),
    ),
)
