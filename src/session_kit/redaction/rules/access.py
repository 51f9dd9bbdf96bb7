"""Secrets that grant access by being shown: the rules for what a session holds, signs or joins.

Owns: `ACCESS_RULES`, a part of the redactor's one table (`redaction.table.RULES` puts them
after the rules found by where they stand, before the generic ones), for these categories:
- cluster joins and bootstraps: a kubeadm-style bootstrap token (`abcdef.0123456789abcdef`)
  near `kubeadm`/`bootstrap`, a credential printed alone after the command that makes it
  (`token create`, `join-token`, `get-login-password`, `print-access-token`, `whoami -t`), a
  join address's token (`microk8s join host:port/<token>`), an ACL's `Secret ID`, OpenShift's
  `sha256~` tokens, base64 of a document holding a credential (`.dockerconfigjson`);
- session cookies: `curl -b/--cookie`, a cookie jar's lines, a session id under its name, a
  cookie export's `{"name": "…session…", "value": "…"}`;
- one-time-password seeds: `otpauth://…secret=` and `otpauth-migration://…data=`,
  `oathtool … SEED`, `ykman oath accounts add NAME SEED`, an authenticator's grouped setup key,
  a seed under its name;
- wallets: a private key (`0x` and 64 hex digits) or a WIF key next to a wallet's words, a
  BIP-39 mnemonic after a phrase's or a wallet's name, a key pair as a byte array;
- signed URLs: a query parameter named for a signature, a security token or a key
  (`X-Amz-Signature`, `Signature`, `q-signature`, `X-Amz-Security-Token`, `key=`), and a signed
  upload's form fields;
- webhooks and bots: a `/hook(s)/<random>` or `/webhook/<id>` path, a random literal given to a
  client's constructor (`LineBotApi('…')`, `WebhookHandler('…')`, `Client(sid, '…')`);
- keys by their encoding: a PEM private key in base64 (a Kubernetes secret's `tls.key`), Tor's
  `ED25519-V3:` keys, a WireGuard-shaped key under a private or shared name, numbered unseal
  or recovery keys (`Unseal Key 1: …`).
The rules and their probes (tests/support/access_secrets.py) are the kit's own. Does not apply
them (that is `redact`).
"""

from __future__ import annotations

import binascii
import re

from session_kit.redaction.rules.formats import _NOT_A_VALUE, Pattern, Rule, _has_digit, _is_value, _looks_random

# A secret's word in a name (`DB_PASSWORD`, `apiToken`, `JENKINS_SECRET`, `client-key`).
_SECRET_NAME = r"[A-Za-z0-9_.-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|private[_-]?key|credentials?)[A-Za-z0-9_.-]*"
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
_B58 = "1-9A-HJ-NP-Za-km-z"
# Words that BIP-39's list never holds and prose always does: two of them and it is prose.
_PROSE_WORDS = frozenset(
    """the and you your are was were that this with have from they them their there which what when will been
    than into for not but has had its who how these those would could should because where while each other""".split()  # noqa: SIM905
)


def _token_rule(kind: str, pattern: str, anchor: str) -> Rule:
    return Rule(kind, Pattern(pattern), (anchor,), exact=True)


def _quoted_value(value: str) -> bool:
    return _is_value(value.strip("'\""))


def _random_value(value: str) -> bool:
    value = value.strip("'\"")
    return len(value) >= 8 and _looks_random(value)


def _session_id(value: str) -> bool:
    """A session cookie's value: long, random (a digit in it), not a uuid (a transcript's
    `sessionId`) nor a type (`session: CDPSessionChannel`)."""
    value = value.strip("'\"")
    return len(value) >= 16 and _has_digit(value) and _UUID.fullmatch(value) is None and _looks_random(value)


def _cookies(value: str) -> bool:
    """A cookie string (`a=1; sid=…`) holding a value a session's cookie could be."""
    return any(
        len(v) >= 16 and _has_digit(v) and _UUID.fullmatch(v) is None for v in re.findall(r"=([^;\s,'\"]+)", value)
    )


def _mnemonic(value: str) -> bool:
    words = value.split()
    return len(words) in (12, 13, 15, 18, 21, 24, 25) and sum(w in _PROSE_WORDS for w in words) < 2


def _private_pem(value: str) -> bool:
    """Base64 whose text starts with a PEM private key's header (not a certificate's)."""
    head = value[:96]
    try:
        return b"PRIVATE KEY" in binascii.a2b_base64(head[: len(head) // 4 * 4])
    except (binascii.Error, ValueError):
        return False


def _seed(value: str) -> bool:
    """An authenticator's setup key in groups (`jbsw y3dp ehpk 3pxp`): a digit in it."""
    return any(c in "234567" for c in value)


# Commands that print a credential alone on the next line: a token made, a login password, an
# access token.
_PRINTS_CREDENTIAL = (
    r"token\s+(?:create|generate|new)|join-token|create\s+token|get-login-password|print-(?:access|identity)-token"
    r"|get-token|auth\s+token"
)


def _base64_credentials(value: str) -> bool:
    """Base64 of a document that holds a credential (`.dockerconfigjson`, a service account's
    key): its text names an auth, a password, a token, a secret or a private key."""
    try:
        text = binascii.a2b_base64(value[: 8192 // 4 * 4]).lower()
    except (binascii.Error, ValueError):
        return False
    return any(word in text for word in (b'"auth', b"password", b"token", b"secret", b"private_key"))


ACCESS_RULES: tuple[Rule, ...] = (
    # --- cluster joins and bootstraps ---
    Rule(
        "token",
        Pattern(
            r"(?i:kubeadm|bootstrap)[\s\S]{0,400}?(?:(?<![A-Za-z0-9.])|(?<=\\[nrt]))(?P<v>[a-z0-9]{6}\.[a-z0-9]{16})(?![A-Za-z0-9.])"
        ),
        ("kubeadm", "bootstrap"),
        group="v",
    ),
    # a token printed alone on a line after the command that makes it (`k0s token create`,
    # `kubeadm token create`, `docker swarm join-token -q worker`)
    Rule(
        "token",
        Pattern(
            r"[\s\S]{0,16}?(?i:" + _PRINTS_CREDENTIAL + r")\b[^\n\x00]*(?:\n|\\n)(?:>[ \t]?|[ \t])*"
            r"(?P<v>[A-Za-z0-9+/=._:-]{20,})(?=[ \t]*(?:\n|\\n|$|[\"'\x00]))"
        ),
        ("token", "pass"),
        back=16,
        group="v",
        accept=_looks_random,
    ),
    _token_rule("openshift-token", r"sha256~[A-Za-z0-9_-]{43}", "sha256~"),
    Rule(
        "secret",
        Pattern(r"(?<![A-Za-z0-9+/])(?P<v>(?:eyJ|ewog)[A-Za-z0-9+/]{40,}={0,2})(?![A-Za-z0-9+/=])"),
        ("eyJ", "ewog"),
        exact=True,
        group="v",
        accept=_base64_credentials,
    ),
    # a join command whose address's path holds the token (`microk8s join 10.0.0.1:25000/<token>/…`)
    Rule(
        "token",
        Pattern(r"(?i)join\s+[\w.-]+:\d+/(?P<v>[A-Za-z0-9_-]{16,})"),
        ("join",),
        group="v",
        accept=_has_digit,
    ),
    Rule(
        "secret",
        Pattern(
            r"(?i)secret[ _-]?id\\*[\"']?(?:\s*[:=]\s*|[ \t]+)\\*[\"']?"
            + _NOT_A_VALUE
            + r"(?P<v>[A-Za-z0-9._~+/=-]{8,})"
        ),
        ("secret",),
        group="v",
        accept=_random_value,
    ),
    # --- session cookies ---
    Rule(
        "cookie",
        Pattern(
            r"(?:(?<![\w-])-b|(?i:(?<=--)cookie))(?:\s+|=)(?P<v>'[^'\n\x00]*=[^'\n\x00]*'|\"[^\"\n\x00]*=[^\"\n\x00]*\"|[^\s'\"\x00]*=[^\s\x00]*)"
        ),
        ("-b", "cookie"),
        group="v",
        accept=_cookies,
    ),
    Rule(
        "cookie",
        # a Netscape cookie jar's line: domain, flag, path, secure, expiry, name, value
        Pattern(
            r"(?:TRUE|FALSE)(?:\t|\\t)[^\t\n\x00\\]*(?:\t|\\t)(?:TRUE|FALSE)(?:\t|\\t)\d+(?:\t|\\t)[^\t\n\x00\\]+(?:\t|\\t)"
            r"(?P<v>[^\t\n\x00\\]{8,})"
        ),
        ("TRUE", "FALSE"),
        exact=True,
        group="v",
        accept=_session_id,
    ),
    Rule(
        "cookie",
        Pattern(
            r"[\s\S]{0,24}?(?<![A-Za-z0-9_.-])(?i:[\w.-]*sess(?:ion)?(?:[_-]?id)?)\\*[\"']?\s*[:=]\s*\\*[\"']?"
            r"(?P<v>[A-Za-z0-9%._~+/=-]{16,})(?![A-Za-z0-9%._~+/=(\[-])"
        ),
        ("sess",),
        back=24,
        group="v",
        accept=_session_id,
    ),
    # a browser's or a test runner's cookie export (`{"name": "sessionid", "value": "…"}`)
    Rule(
        "cookie",
        Pattern(
            r"(?i)name\\*[\"']\s*:\s*\\*[\"'][\w.-]*(?:sess(?:ion)?(?:[_-]?id)?|sid|auth|token)[\w.-]*\\*[\"']\s*,\s*"
            r"\\*[\"']value\\*[\"']\s*:\s*\\*[\"'](?P<v>[^\"'\\\s\x00]{16,})"
        ),
        ("name",),
        group="v",
        accept=_session_id,
    ),
    # --- one-time-password seeds ---
    Rule(
        "otp-seed",
        Pattern(r"(?i)otpauth(?:-migration)?://[^\s\"'<>\x00]*?[?&](?:secret|data)=(?P<v>[A-Za-z0-9%+/=_-]{8,})"),
        ("otp",),
        group="v",
    ),
    Rule(
        "otp-seed",
        Pattern(
            r"(?:oathtool\b[^\n\x00|;&]*?|\boath\s+(?:accounts\s+)?add\b(?:\s+-\S+)*\s+[^\s\x00]+)\s"
            r"(?P<v>(?![-<>$])[A-Za-z0-9=]{16,})(?=\s|$|['\"\\\x00])"
        ),
        ("oath",),
        group="v",
        accept=lambda v: not v.isdigit(),
    ),
    Rule(
        "otp-seed",
        Pattern(
            r"(?i)(?:seed|secret|setup|otp|totp|2fa|mfa)[^\n\x00]{0,30}?[:=]?\s*"
            r"(?P<v>(?:[A-Za-z2-7]{4}[ -]){3,}[A-Za-z2-7]{4})(?![A-Za-z0-9])"
        ),
        ("seed", "secret", "setup", "otp"),
        group="v",
        accept=_seed,
    ),
    Rule(
        "otp-seed",
        Pattern(
            r"(?i)(?:seed|otp|mfa|2fa)(?:[_-]?(?:key|code|seed|secret))?\\*[\"']?[ \t]*[:=][ \t]*\\*[\"']?"
            + _NOT_A_VALUE
            + r"(?P<v>[A-Za-z0-9+/=]{16,})"
        ),
        ("seed", "otp"),
        group="v",
        accept=_random_value,
    ),
    # --- wallets ---
    Rule(
        "wallet-private-key",
        Pattern(
            r"(?i:account|wallet|private)(?:(?!0x)[^\n\x00]){0,60}?(?<![0-9A-Za-z])(?P<v>0x[0-9a-fA-F]{64})(?![0-9A-Za-z])"
        ),
        ("account", "wallet", "private"),
        group="v",
    ),
    Rule(
        "wallet-private-key",
        # WIF: base58, 51 characters from `5`, 52 from `K` or `L`
        Pattern(
            r"(?i:privkey|wif)[\s\S]{0,200}?(?<!["
            + _B58
            + r"])(?P<v>(?:5["
            + _B58
            + r"]{50}|[KL]["
            + _B58
            + r"]{51}))(?!["
            + _B58
            + r"])"
        ),
        ("privkey", "wif"),
        group="v",
    ),
    Rule(
        "mnemonic",
        Pattern(
            r"(?i:mnemonic|phrase|seed|wallet)[^\x00]{0,60}?(?:(?<![a-z])|(?<=\\n))(?P<v>(?:[a-z]{3,8}[ \t]+){11,24}[a-z]{3,8})(?![a-z])"
        ),
        ("mnemonic", "phrase", "seed", "wallet"),
        group="v",
        accept=_mnemonic,
    ),
    Rule(
        "wallet-private-key",
        Pattern(
            r"(?i:solana|secret_?key|private_?key)[^\[\x00]{0,200}(?P<v>\[\s*(?:\d{1,3}\s*,\s*){31,63}\d{1,3}\s*\])"
        ),
        ("solana", "secret", "private"),
        group="v",
    ),
    # --- signed URLs ---
    Rule(
        "url-signature",
        Pattern(
            r"(?i)[\s\S]{0,16}?(?<=[?&;])[\w-]{0,16}?(?:signature|security-token|key)=(?P<v>[^&\s\"'<>#\\\x00]{16,})"
        ),
        ("signature", "token", "key="),
        back=16,
        group="v",
        accept=_looks_random,
    ),
    # a signed upload's form fields (`"x-amz-signature": "…"`, `X-Goog-Signature: …`)
    Rule(
        "url-signature",
        Pattern(
            r"(?i)[\s\S]{0,15}?x-(?:amz|goog)-(?:signature|security-token)\\*[\"']?\s*[:=]\s*\\*[\"']?(?P<v>[A-Za-z0-9%+/=_-]{16,})"
        ),
        ("signature", "token"),
        back=15,
        group="v",
    ),
    # --- webhooks and bots ---
    Rule(
        "webhook",
        Pattern(r"(?i)[\s\S]{0,4}?/(?:hooks?|webhooks?)/(?P<v>(?:[A-Za-z0-9_-]{8,}/)*[A-Za-z0-9_-]{20,})"),
        ("hook",),
        back=4,
        group="v",
        accept=lambda v: sum(c.isdigit() for c in v) >= 3,
    ),
    Rule(
        "token",
        Pattern(r"(?i)/(?:keys?|tokens?|secrets?)/(?P<v>[A-Za-z0-9_-]{20,})(?=[/?#\s\"'<>\\\x00]|$)"),
        ("key", "token", "secret"),
        back=1,
        group="v",
        accept=lambda v: sum(c.isdigit() for c in v) >= 3 and _looks_random(v),
    ),
    Rule(
        "token",
        Pattern(
            r"(?i:api|client|bot|handler|auth|sdk|otp)\((?:[^()\n\x00]{0,80},)?\s*\\*[\"'](?P<v>[A-Za-z0-9_\-+/=.]{24,})\\*[\"']"
        ),
        ("api", "otp", "auth", "client(", "handler("),
        group="v",
        accept=lambda v: _UUID.fullmatch(v) is None and _looks_random(v),
    ),
    # --- keys by their encoding ---
    Rule(
        "private-key",
        Pattern(r"(?P<v>LS0tLS1CRUdJTi[A-Za-z0-9+/=]{20,}(?:(?:\\+[rn]|\s)+[A-Za-z0-9+/=]{16,})*)"),
        ("LS0tLS1CRUdJTi",),
        exact=True,
        group="v",
        accept=_private_pem,
    ),
    Rule(
        "private-key",
        Pattern(r"ED25519-V3:(?P<v>[A-Za-z0-9+/=]{40,})"),
        ("ED25519-V3:",),
        exact=True,
        group="v",
    ),
    Rule(
        "private-key",
        Pattern(r"(?i)(?:private|shared)[\w-]*\\*[\"']?\s*[:=]\s*\\*[\"']?(?P<v>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])"),
        ("private", "shared"),
        group="v",
    ),
    Rule(
        "secret",
        Pattern(r"(?i)(?:unseal|recovery)[ _-]?key[ _-]?#?\d{1,2}\s*[:=]\s*(?P<v>[A-Za-z0-9+/=_-]{16,})"),
        ("unseal", "recovery"),
        group="v",
        accept=_has_digit,
    ),
)
