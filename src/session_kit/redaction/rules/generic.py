"""Secrets found by class, not by format: the last rules of the redactor's one table.

Owns: `GENERIC_RULES`, rules that catch whole classes of secrets whatever their vendor or file:
- a key with a vendor prefix no rule names (`<vendor>_<random>`, `<vendor>_live_<random>`,
  `<VENDOR>-<random>`): the prefix is a short word, the rest is random by its mix of digits and
  letters of both cases (ids of API objects, `msg_…`, `toolu_…`, `cus_…`, and hashes'
  `sha512-…` are not keys);
- an assignment in any config syntax (INI, TOML, YAML, .env, Java properties, XML attributes,
  JSON, HCL, code) to a name that ends in a secret's word (`pass`, `pwd`, `passwd`,
  `password`, `secret`, `token`, `credential`, `auth`, `api_key`, `signing_key`…), `<add
  key="…Password" value="…"/>` and PHP's `define('DB_PASSWORD', '…')`;
- credential files: `.pgpass` lines, `.netrc` entries (also `default`), Composer's
  `github-oauth`/`gitlab-token` maps;
- `Cookie:` headers with a random value, a random value right after a secret's word in prose
  (`api key …`, `2FA seed: …`), Nostr `nsec1…` and BIP-32 extended private keys.
The specific rules run first (their markers name the kind); these only see what they left.
Does not apply them (that is `redact`).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable

from session_kit.redaction.rules.formats import _NOT_A_VALUE, Pattern, Rule, _has_digit, _is_value, _looks_random

# --- a key with a vendor prefix no rule names ---

# First words of ids (API objects, messages, tool calls, requests, cloud resources) and of
# digests: ids are not secrets, and a digest is public.
_ID_PREFIXES = frozenset(
    """msg toolu tooluse srvtoolu cse req chatcmpl call file batch run thread asst cus ch pi pm py src sub in
    ii il evt prod price acct txn ord cs seti si po tr resp item fc ws conv sess session user
    usr org proj job step wf task agent compact uuid id ulid sha sha1 sha224 sha256 sha384
    sha512 md5 blake2b blake3 git commit rev build test img vol snap ami vpc subnet sg eni igw
    rtb acl eipalloc nat lt vpce tgw pcx dopt cmpl embd ft ftjob modr vs dpl prj team env tmp temp cache hash etag""".split()  # noqa: SIM905
)
_PREFIXED = (
    r"[\s\S]{0,30}?(?<![A-Za-z0-9_.+/-])(?P<v>(?:[a-z]{2,12}|[A-Z]{2,12})[0-9]?[_-][A-Za-z0-9][A-Za-z0-9_-]{19,})"
    r"(?![A-Za-z0-9+/=_-])(?!\.[A-Za-z0-9])"
)
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _class(c: str) -> int:
    return 0 if c.isdigit() else 1 if c.islower() else 2 if c.isupper() else 3


def _changes(value: str) -> float:
    """How often the class (digit, lower, upper) changes between neighbouring characters:
    about 0.3 to 0.6 in random keys, under 0.2 in words, names and camel case."""
    pairs = [(a, b) for a, b in zip(value, value[1:]) if a.isalnum() and b.isalnum()]
    return sum(_class(a) != _class(b) for a, b in pairs) / len(pairs) if pairs else 0.0


def _random_tail(token: str) -> bool:
    """What follows a short prefix is random: digits and letters changing class often, not
    hex (a digest), not words or a name; and the prefix is not one of an id's."""
    prefix, tail = re.split(r"[_-]", token, maxsplit=1)
    if prefix.rstrip("0123456789").lower() in _ID_PREFIXES:
        return False
    tail = tail.replace("_", "").replace("-", "")
    if len(tail) < 20 or not _has_digit(tail) or tail.isdigit():
        return False
    if _UUID.search(token):
        return False
    if all(c in "0123456789abcdef" for c in tail.lower()):
        # hex after `-` is a digest's (`sha512-…`, `build-…`); after `_`, 32 digits or more, a key's
        return token[len(prefix)] == "_" and len(tail) >= 32 and _entropy(tail) >= 3.3
    return _changes(tail) >= 0.25 and _entropy(tail) >= 3.5


def _random_word(value: str) -> bool:
    """A value in prose that is random: digits and letters, changing class often (`kQ2w…`,
    base32 seeds), not a uuid, a git SHA, a version or words joined by hyphens."""
    value = value.rstrip(".")
    if len(value) < 16 or not _has_digit(value) or not any(c.isalpha() for c in value):
        return False
    if _UUID.fullmatch(value) or (len(value) <= 40 and all(c in "0123456789abcdef" for c in value.lower())):
        return False
    return _changes(value) >= 0.15 and _entropy(value) >= 3.3 and _is_value(value)


def _random_cookie(value: str) -> bool:
    """A session's cookie value, not an analytics id (`GA1.2.1234567890.1700000000`)."""
    return len(value) >= 16 and _has_digit(value) and any(c.isalpha() for c in value) and _changes(value) >= 0.25


# --- assignments whose name ends in a secret's word ---

# The name's last word: after a non-letter, a camel-case hump, or in an upper-case name.
_WORD_START = r"(?:(?<![A-Za-z])|(?<=\\[nrt])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z]))"
_PASSWORD_WORD = r"(?:pass(?:w(?:or)?d|phrase|code)?|pwd?)"
# `key` names a secret only after one of these (`app_key`, `hmacKey`, `SIGNING-KEY`); the match
# starts at the anchor, so they are looked behind for.
_KEY_WORDS = """api access private secret signing encryption master account client auth app hmac session
    license service admin root shared jwt crypt cipher""".split()  # noqa: SIM905
_KEY = "|".join(f"(?<={word}{sep})" for word in _KEY_WORDS for sep in ("", "_", "-", "."))
_OTHER_WORD = r"(?:secret|token|credentials?|auth|(?:" + _KEY + r")key)"
# a name's last word may carry a suffix that keeps it a secret (`secret_key_base`, `token_value`);
# the name may be a subscript's (`$db['default']['password'] = …`)
_ASSIGN = (
    r"(?:[_-](?i:base|value|b64|base64|raw|plain))?(?![A-Za-z0-9_])\\*[\"']?\]?[ \t]*(?:=>|:=|=(?!=)|:(?!:))[ \t]*"
)
# quoted: a reference or a marker is not a secret (a value may start with `*` or `%`: Django's keys do)
_QUOTED_START = r"(?![$<{\[%][\w{(\[])(?!!(?:vault|secret|env_var|ENV|Ref|Sub|GetAtt|ImportValue|include)\b)"
_QUOTED = r"\\*(?P<q>[\"'])" + _QUOTED_START + r"(?P<v>[^\"'\n\x00\\]{1,500}?)\\*(?P=q)"
# unquoted: not a call (`getpass()`) or a reference
_BARE = _NOT_A_VALUE + r"(?![\w.]*[(\[])(?P<v>[^\s\"',;&<>\\()\x00`]{3,})"


def _assignment(
    word: str,
    value: str,
    anchors: tuple[str, ...],
    accept: Callable[[str], bool],
    kind: str,
    *,
    samples: tuple[str, ...] = (),
    not_samples: tuple[str, ...] = (),
) -> Rule:
    pattern = (
        r"(?i:" + word + r")"
        if word in (_PASSWORD_WORD, _BARE_PASSWORD_WORD)
        else (r"(?:" + _WORD_START + r"(?i:secret|token|credentials?|auth)|(?i:(?:" + _KEY + r")key))")
    )
    return Rule(
        kind,
        Pattern((_WORD_START if word in (_PASSWORD_WORD, _BARE_PASSWORD_WORD) else "") + pattern + _ASSIGN + value),
        anchors,
        group="v",
        accept=accept,
        samples=samples,
        not_samples=not_samples,
    )


_PASSWORD_ANCHORS = ("pass", "pw")
# `pass: <a word>` is prose ("First pass: collect", "checks now pass: ruff"), not a setting
_BARE_PASSWORD_WORD = r"(?:pass(?:w(?:or)?d|phrase|code)|pwd?|pass(?!:[ \t]+[a-z]+\b))"


def _attached_password(value: str) -> bool:
    """A password attached to `-p` (`-pS3cret!`), not a port, a path, a file, a word with its
    version (`-python3`) or a template (`-part{N}.xml`)."""
    return (
        re.fullmatch(
            r"[\d:.]+(?:/\w+)?|[a-z]+\d*(?:\.\d+)*|[\w-]+\.[a-z]{1,4}|[a-z_.\d]+(?:[*+/%^-]+[a-z_.\d]+)+", value
        )
        is None
        and not any(c in value for c in "{}/")
        and _looks_random(value)
    )


_OTHER_ANCHORS = ("secret", "token", "credential", "auth", "key")

# A `.pgpass` line: host:port:database:user:password (the port a number or `*`).
_PGPASS = (
    r"[\s\S]{0,120}?(?:(?<=[\s\"'>\x00])|(?<=\\n)|^)(?!\d+:)[A-Za-z0-9.*_\[\]-]+:(?:\d{1,5}|\*):"
    r"[^:\s\"'\\\x00]+:[^:\s\"'\\\x00]+:(?P<v>[^\s\"'\\\x00]+)"
)
_GAP = r"(?:\s|\\[nrt]|>)+"  # between a .netrc entry's words: spaces, (escaped) newlines, quotes

GENERIC_RULES: tuple[Rule, ...] = (
    Rule(
        "api-key",
        Pattern(_PREFIXED),
        (),
        back=30,
        group="v",
        accept=_random_tail,
        scan=Pattern(r"[_-][A-Za-z0-9]{10}[A-Za-z0-9_-]{10}"),
        samples=("poetry config pypi-token.pypi pypi-WZvxoCdCtoYhP31DQblrYA7aRSRdl8LWzcet",),
        not_samples=("Stripe customer cus_NffrFeUfNV2Hib, charge ch_3MmlLrLkdIwHu7ix0snN0B15",),
    ),
    _assignment(
        _PASSWORD_WORD,
        _QUOTED,
        _PASSWORD_ANCHORS,
        _is_value,
        "password",
        samples=("$db['default']['password'] = '4raFzdt9d0dHEMoo';",),
        not_samples=('{"http-basic": {"repo.example.com": {"username": "ci", "password": "%env(COMPOSER_PASS)%"}}}',),
    ),
    _assignment(
        _BARE_PASSWORD_WORD,
        _BARE,
        _PASSWORD_ANCHORS,
        _is_value,
        "password",
        samples=("[database]\nhost = db.internal\nuser = app\npass = qwrEArPs0R%R2Qa\n",),
        not_samples=("password: string  # the type, no value\napi docs: https://example.com/api\n",),
    ),
    _assignment(
        _OTHER_WORD,
        _QUOTED,
        _OTHER_ANCHORS,
        _looks_random,
        "secret",
        samples=('SECRET_KEY = "*!d*crtlir8-wi3kl-d)l(j0&%58bto6x8f3(+0juj_6c4adgw"',),
        not_samples=('settings = Settings(SLACK_BOT_TOKEN="xoxb-token", SLACK_APP_TOKEN="xapp-token")',),
    ),
    _assignment(
        _OTHER_WORD,
        _BARE,
        _OTHER_ANCHORS,
        _looks_random,
        "secret",
        samples=("production:\n  secret_key_base: ZT3nnRb7y3%nTI9",),
        not_samples=("- session-token: Deploy component emitter `deploy_budget()` provider",),
    ),
    Rule(
        "secret",
        Pattern(
            r"(?i)(?:key|name)=\\*[\"'][^\"'\\\x00]*(?:pass|pwd|secret|token|key|credential|auth)[^\"'\\\x00]*\\*[\"']"
            r"(?:\s+value=\\*[\"']|\s*>)" + _NOT_A_VALUE + r"(?P<v>[^\"'<\\\s\x00]{3,})(?=\\*[\"']|</)"
        ),
        ("key=", "name="),
        group="v",
        accept=_is_value,
        samples=('<entry key="db.password">Fm4WiC62Lj_z02G</entry>',),
        not_samples=('<entry key="db.password">${TOKEN}</entry>',),
    ),
    Rule(
        "password",
        Pattern(
            r"(?i)define\(\s*\\*[\"'][A-Z0-9_]*(?:PASS|PWD|SECRET|TOKEN|KEY|AUTH)[A-Z0-9_]*\\*[\"']\s*,\s*"
            r"\\*[\"']" + _NOT_A_VALUE + r"(?P<v>[^\"'\\\x00]{3,})\\*[\"']"
        ),
        ("define(",),
        group="v",
        accept=_is_value,
        samples=("define('AUTH_SALT', 'e8qVboljc1El4DwnA-MHvD8RIdYp9j)2m4chL4LSOgXif&k^l&!rssZTNzHiE-B3');",),
        not_samples=("define('AUTH_SALT', '${DB_PASSWORD}');",),
    ),
    Rule(
        "password",
        Pattern(
            r"(?i)config\s+set\s+(?:-\S+\s+)*[^\s\x00]*(?:_auth|authtoken|password|passwd|token|secret)\s+"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\"'\\\x00]{3,})"
        ),
        ("config",),
        group="v",
        accept=_is_value,
        samples=("npm config set //npm.example.com/:_authToken JsoXU70om1Hk21b7nJCMyrZIKm3qFyXjQlx2",),
        not_samples=("npm config set //npm.example.com/:_authToken ${DB_PASSWORD}",),
    ),
    Rule(
        "password",
        Pattern(_PGPASS),
        (),
        back=120,
        group="v",
        accept=lambda v: not v.startswith("/"),
        scan=Pattern(r":(?:\d{1,5}|\*):[^:\s\"'\\\x00]+:[^:\s\"'\\\x00]+:[^\s\"'\\\x00]"),
        samples=("db.internal:5432:app:app_user:Y7CXs8a1cy#nF66",),
        not_samples=("db.internal:5432:app:app_user:${DB_PASSWORD}",),
    ),
    Rule(
        "password",
        Pattern(
            r"(?:machine"
            + _GAP
            + r"[^\s\x00\\]+|default)(?:"
            + _GAP
            + r"(?:login|account|port)"
            + _GAP
            + r"[^\s\x00\\]+)*"
            + _GAP
            + r"password"
            + _GAP
            + r"(?P<v>[^\s\x00\\\"']+)"
        ),
        ("machine", "default"),
        exact=True,
        group="v",
        samples=("default login anonymous password Kc6DIjxmj8%3G7k",),
        not_samples=("default login anonymous password ${DB_PASSWORD}",),
    ),
    Rule(
        "token",
        Pattern(
            r"(?:github-oauth|gitlab-oauth|gitlab-token)\\*\"\s*:\s*\{\s*\\*\"[^\"\\]+\\*\"\s*:\s*\\*\"(?P<v>[^\"\\]{8,})"
        ),
        ("github-oauth", "gitlab-oauth", "gitlab-token"),
        exact=True,
        group="v",
        samples=('{"github-oauth": {"github.com": "ghp_pz3xwWQn3164hJ3wKMfYyxOHTA6hgYH1fxTZ"}}',),
        not_samples=('{"github-oauth": {"github.com": "${TOKEN}"}}',),
    ),
    Rule(
        "cookie",
        Pattern(r"(?i)cookie\\*[\"']?\s*:\s*(?P<v>[^\r\n\x00\\\"']{8,})"),
        ("cookie",),
        group="v",
        accept=lambda v: any(_random_cookie(m) for m in re.findall(r"=([^;\s,]+)", v)),
        samples=(
            "wget --header='Cookie: connect.sid=s%3A89xzXetDnJ2R3EBLaXQ3d-0wvSMkcFpf.FnLrx14tuSFGo6TmEVyc' https://api.example.net/me",
        ),
        not_samples=("Cookie: _ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000",),
    ),
    Rule(
        "secret",
        Pattern(
            r"(?i)(?:seed|secret|token|(?<!public )(?<!public[_-])(?<!public)key|password|passphrase)(?:\s+is)?\s*[:=]?\s+"
            r"(?P<v>[A-Za-z0-9+/_=.~-]{16,})(?![A-Za-z0-9+/=_~-])"
        ),
        ("seed", "secret", "token", "key", "pass"),
        group="v",
        accept=_random_word,
        samples=("use api key Zo7wPrnr225YXZnGlr77TIeKMgf7DmWozHPMUSKk for staging",),
        not_samples=("i18n key: dashboard.widgets.revenue_chart_title_v2",),
    ),
    # `user:password` after `-a`/`--auth` (HTTPie), `user/password@db` (Oracle's tools), Windows'
    # `/user:NAME PASSWORD`, `gh secret set NAME --body VALUE`
    Rule(
        "password",
        Pattern(r"(?<![\w-])(?:-a|--auth)(?:\s+|=)[\"']?[^\s:\"'$\x00]+:(?P<v>[^\s\"'\x00]+)"),
        ("-a",),
        exact=True,
        group="v",
        accept=lambda v: not v.isdigit() and _is_value(v),
        samples=("http -a admin:7M5oQe7Zkk!Q9p6 POST https://api.example.com/items",),
        not_samples=("http -a admin:$API_PASSWORD POST https://api.example.com/items",),
    ),
    Rule(
        "password",
        Pattern(
            r"(?:(?:sqlplus|rman|expdp|impdp|sqlldr)\b[^\n\x00]*?\s[\"']?|jdbc:oracle:(?:thin|oci8?):)[A-Za-z0-9_$#]+/(?P<v>[^\s/@\"'\x00]+)(?=@|[\s\"']|$)"
        ),
        ("sqlplus", "rman", "expdp", "impdp", "sqlldr", "jdbc:oracle"),
        group="v",
        accept=_is_value,
        samples=("sqlplus scott/EiTmtp6Z6d*2XjX@//db.example.com:1521/orcl",),
        not_samples=("sqlplus scott/$ORACLE_PW@//db.example.com:1521/orcl",),
    ),
    Rule(
        "password",
        Pattern(r"(?i)(?<!\S)/user:[^\s\x00]+\s+(?P<v>[^\s/*\"'$\x00][^\s\"'\x00]*)"),
        ("/user:",),
        group="v",
        accept=_is_value,
        samples=("net use Z: \\\\fs01\\share /user:CORP\\svc edNxsgXuZ0_rd9V",),
        not_samples=("net use Z: \\\\fs01\\share /user:CORP\\svc *",),
    ),
    Rule(
        "secret",
        Pattern(
            r"(?i)secret\s+set\s+[^\s\x00]+\s+(?:[^\n\x00]*?\s)?(?:--body|-b)[\s=]+"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\x00]+)"
        ),
        ("secret",),
        group="v",
        accept=lambda v: _is_value(v.strip("'\"")),
        samples=("gh secret set DEPLOY_KEY --body geUCaS26JS*8Mne",),
        not_samples=("gh secret set DEPLOY_KEY --body ${TOKEN}",),
    ),
    # a password attached to `-p` (`mariadb -pX`, `rar a -pX`, `-hpX`): not a port, a mapping or a word
    Rule(
        "password",
        Pattern(r"(?<!\S)-h?p(?P<v>[^\s'\"$<{\[\x00-][^\s'\"\x00]{5,})"),
        ("-p", "-hp"),
        exact=True,
        group="v",
        accept=_attached_password,
        samples=("rar a -hprz3QX339Uk.1fvV -prz3QX339Uk.1fvV backup.rar data/",),
        not_samples=("openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:",),
    ),
    # `-U user … -P password` (the SQL Server and Sybase tools)
    Rule(
        "password",
        Pattern(r"(?<![\w-])-U\s*[^\s\x00]+\s+(?:[^\n\x00]*?\s)?-P\s*" + _NOT_A_VALUE + r"(?P<v>[^\s'\"\x00]+)"),
        ("-U",),
        exact=True,
        group="v",
        accept=lambda v: _is_value(v) and re.fullmatch(r"[a-z_]+=\S*", v) is None,  # psql -P pager=off
        samples=("sqsh -S db01 -U sa -P tE2EgvvOMF!oW0p -D master",),
        not_samples=("sqsh -S db01 -U sa -P ${DB_PASSWORD} -D master",),
    ),
    # a secret piped to a program that reads it from stdin
    Rule(
        "password",
        Pattern(
            r"[\s\S]{0,160}?\b(?:echo|printf)\s+(?:-n\s+)?['\"]?"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s'\"|\x00]{4,})['\"]?\s*\|\s*[^\n|\x00]*?(?:--password-stdin|--with-token|--stdin)"
        ),
        ("-stdin", "--with-token"),
        back=160,
        group="v",
        accept=_is_value,
        samples=("echo 'hM8NmkaFdI*0WgX' | docker login -u ci --password-stdin ghcr.io",),
        not_samples=("echo '${DB_PASSWORD}' | docker login -u ci --password-stdin ghcr.io",),
    ),
    Rule(
        "nostr-secret-key",
        Pattern(r"nsec1[02-9ac-hj-np-z]{58}"),
        ("nsec1",),
        exact=True,
        samples=("NOSTR_PRIVATE=nsec1r9samevw0vcw67g4jd3zqff4e8749upqersayj7mj6j462xudpe4dnxzjw",),
        not_samples=("Never paste an nsec1 key anywhere; share the npub1 one.",),
    ),
    Rule(
        "extended-private-key",
        Pattern(r"(?<![A-Za-z0-9])[xyztuv]prv[A-Za-z0-9]{100,}"),
        ("prv",),
        back=1,
        exact=True,
        samples=(
            "wallet master xprv9s21ZrQH143KZBEr2AjdGZtqfbMMdeotxxeH5h1WT017VthkDPAK6u8EhUxr0Y1ApxfoddfcbYOr555BEya32aPzOzn4T2Rf56sUzL8emQH",
        ),
        not_samples=("wallet master xprv9s21ZrQH143KZBEr2AjdGZtqfbMMdeotx",),
    ),
)
