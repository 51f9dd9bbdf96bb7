"""Keys found by their name, their wrapper or their pair: rules of the redactor's one table.

Owns: `FIRST_RULES`, run before the rest of the table, whose rules would replace a part of what
these look at (an AWS secret access key, found as the 40-character value near its key id in any
file, prompt, code or tabular output: the match starts after the key id, which a later rule
replaces; an HTTP Digest response, whose header the Authorization rule replaces in part), and
`KEY_RULES`:
- a random value under any name that ends in `key` or `psk` (`STRIPE_KEY`, `hmac_key`,
  `client-key-data`, Kubernetes `data:` entries, `private-key <(echo …)`), not a public key's
  or a cache's;
- a key literal handed to a constructor or decoder (`Fernet(b'…')`, `bytes.fromhex("…")`,
  `[]byte("…")`, `SecretKeySpec(…)`);
- one-time password seeds handed to an OTP library, keys printed by the command that made
  them (`wg genkey`, `openssl rand`);
- pre-shared keys (WireGuard, IPsec `: PSK "…"`, wpa_supplicant `psk=`, nmcli `wifi-sec.psk`),
  OpenVPN static key blocks, AWS session tokens by their prefix, a service account's
  `private_key_id`, `{"keyName": …, "value": "…"}` key listings, a printed key file (`cat config/master.key`), two-factor recovery codes.
Does not apply them (that is `redact`); placeholders in a key's place are left by the
redactor's one check (`redaction.filters`).
"""

from __future__ import annotations

import math
import re
from collections import Counter

from session_kit.redaction.rules.formats import Pattern, Rule

_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
# a digest's or a version's prefix, or a word of four lower-case letters between separators
_WORDY = re.compile(r"^(?:sha\d+|md5|v\d+)[-_:]|(?:^|[-_])[a-z]{4,}(?=[-_])")


def _random_key(value: str) -> bool:
    """A key's value: long, letters and digits, and as varied as random text."""
    value = value.strip("'\"")
    if len(value) < 16 or not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return False
    counts = Counter(value)
    entropy = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return entropy >= 3.3


def _random_key_value(value: str) -> bool:
    """`_random_key`, and not a uuid, nor a value made of words (`v1-deps-…`, `sha256-…`)."""
    value = value.strip("'\"")
    if _UUID.search(value) is not None or _WORDY.search(value) is not None:
        return False
    return _random_key(value)


def _mixed_key(value: str) -> bool:
    """An AWS secret's shape: both cases and a digit."""
    return _random_key(value) and any(c.isupper() for c in value) and any(c.islower() for c in value)


_KEY_VALUE = r"(?P<v>[A-Za-z0-9+/=_-]{16,})(?![A-Za-z0-9+/=_.~-])"

FIRST_RULES: tuple[Rule, ...] = (
    Rule(
        "aws-secret-key",
        Pattern(
            # not past another key id: that one's secret follows it (`rotating AKIA… -> AKIA…`)
            r"(?<=AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])(?:(?!AKIA|ASIA)[\s\S]){0,160}?(?:(?<![A-Za-z0-9+/=])|(?<=\\[tn]))"
            r"(?P<v>[A-Za-z0-9+/]{40})(?![A-Za-z0-9+/=])"
        ),
        ("AKIA", "ASIA"),
        back=-4,  # the match starts after the prefix, so the key id's own rule still finds it
        exact=True,
        group="v",
        accept=_mixed_key,
        samples=(
            "2024-06-01 rotating AKIA2S3OZEMIOJTTEWMT -> AKIAEGRQYBFTGOUCFPLT\n"
            "2024-06-01 new secret stored: ztmXXhLCn4dKfwDvHoezpvfZiJ+gyrNHxbHLCciz",
        ),
        not_samples=(
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
    ),
    # an HTTP Digest response
    Rule(
        "digest-response",
        Pattern(r"(?i)digest[ \t]+[^\n\x00]{0,400}?(?<![a-z])response=\\*\"?(?P<v>[0-9a-f]{32,64})"),
        ("digest",),
        group="v",
        samples=(
            'Authorization: Digest username="bob", realm="api", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", uri="/dir/index.html", response="08274a4fa28f794bceecb6a16b2c30af", qop=auth',
        ),
        not_samples=('Authorization: Digest username="bob", realm="api", nonce="$NONCE", response="$RESPONSE"',),
    ),
)

KEY_RULES: tuple[Rule, ...] = (
    # a random value under a name ending in key / psk (not a public key's, a cache's, an id's)
    Rule(
        "key",
        Pattern(
            r"(?<![Pp]ublic)(?<![Pp]ublic[_.-])(?<![Pp]ub[_.-])(?<!PUBLIC_)(?<![Cc]ache[_.-])(?<![Pp]rimary)"
            r"(?<![Ff]oreign)(?<![Ss]ort)(?<![Pp]artition)(?<![Ii]dempotency[_-])(?<![Ll]icense[_-])"
            r"(?<![Oo]bject[_.-])(?<![Ss]3[_.-])(?<![Ii]18n[_.-])(?<![Rr]ow[_.-])(?<![Hh]ash[_.-])(?<![Ll]ookup[_.-])"
            r"(?<![Rr]egistry[_.-])(?<![Ii]ndex[_.-])(?<![Mm]ap[_.-])"
            # a name that qualifies the key (`STRIPE_KEY`, `hmacKey`, `client-key-data`), not `key` alone
            r"(?:(?<=[A-Za-z0-9][_.-])(?i:key|psk)|(?<=[a-z])Key|(?<=[A-Z])KEY|(?:(?<![A-Za-z0-9])|(?<=\\[nrt]))(?i:psk))(?:[-_.]?(?i:data|base|value|hex|b64|base64|bytes|material))?(?![A-Za-z0-9])"
            r"\\*[\"']?\]?(?:[ \t]*(?:=>|:=|=(?!=)|:(?!:))[ \t]*|[ \t]+<\([ \t]*echo[ \t]+)"
            r"(?:[A-Za-z_][\w.]*\([ \t]*|\[\]byte\([ \t]*)?b?\\*[\"']?" + _KEY_VALUE
        ),
        ("key", "psk"),
        group="v",
        accept=_random_key_value,
        samples=("webhooks:\n  hmac_key: EBw+Y8u3yVdkmoBYp6Sm1EPNamiRt60mny+RxplSEt4=\n",),
        not_samples=('  secret_key_base: "test-only-secret-base-minimum-64-bytes-long-enough-for-phoenix",',),
    ),
    # a key literal handed to a constructor or a decoder
    Rule(
        "key",
        Pattern(
            r"(?i:fernet|from_?hex|unhexlify|hex(?:::|\.)decode(?:string)?|b64decode|decodestring|\[\]byte|buffer\.from"
            r"|hmac\.new|secretkeyspec|aesgcm|chacha20poly1305)"
            r"\([ \t]*b?\\*[\"'](?P<v>[A-Za-z0-9+/=_-]{16,})\\*[\"']"
        ),
        (
            "fernet",
            "fromhex",
            "from_hex",
            "hex::decode",
            "hex.decode",
            "decodestring",
            "unhexlify",
            "b64decode",
            "[]byte",
            "buffer.from",
            "hmac.new",
            "secretkeyspec",
            "aesgcm",
            "chacha20",
        ),
        group="v",
        accept=_random_key,
        samples=(
            'let key = hex::decode("3b2c1a0a4969715c92ac374b2381870d37ffedd14cd46ea35622f85c181feb66").unwrap();',
        ),
        not_samples=('let key = hex::decode("${TOKEN}").unwrap();',),
    ),
    # a one-time password seed handed to an OTP library (`pyotp.TOTP("…")`, `authenticator.generate('…')`)
    Rule(
        "otp-seed",
        Pattern(r"(?i:totp|hotp|otp|authenticator)[\w.]*\([ \t]*\\*[\"'](?P<v>[A-Z2-7]{16,}=*)\\*[\"']"),
        ("otp", "authenticator"),
        group="v",
        accept=lambda v: any(c.isdigit() for c in v),
        samples=("const totp = authenticator.generate('Q45CDHXLIO6D7PG2YFZUYYRN5GWXT56G');",),
        not_samples=("const totp = authenticator.generate('Q45CDHXLIO');",),
    ),
    # a key printed by the command that made it (`wg genkey`, `openssl rand -base64 32`)
    Rule(
        "key",
        Pattern(
            r"(?i:wg[ \t]+gen(?:key|psk)|openssl[ \t]+rand|generate_key\(\)|token_(?:hex|urlsafe)\(\d*\))[^\n\x00]{0,80}"
            r"(?:\n|\\n)(?:>[ \t]?|[ \t])*(?P<v>[A-Za-z0-9+/=_-]{16,})(?=[ \t]*(?:\n|\\n|$|[\"'\x00]))"
        ),
        ("wg ", "openssl", "generate_key", "token_"),
        group="v",
        accept=_random_key,
        samples=("$ wg genkey\nlRRpcqqYjQc2SPdvp7ewiJIqET2DEgX/N33OUK4KwHV=",),
        not_samples=("$ wg genkey\nlRRpcqqYjQc2SP",),
    ),
    # pre-shared keys: IPsec `: PSK "…"`, wpa_supplicant `psk=`, nmcli `wifi-sec.psk …`
    Rule(
        "psk",
        Pattern(
            r"(?i)(?:(?<![a-z])|(?<=\\[nrt]))(?:psk|pre-?shared[-_ ]?key)\\*[\"']?(?:[ \t]*[=:][ \t]*|[ \t]+)"
            r"(?P<v>\\*\"[^\"\n\x00\\]{8,63}\\*\"|\\*'[^'\n\x00\\]{8,63}\\*'|[^\s\"'\x00\\]{8,64})"
        ),
        ("psk", "preshared", "pre-shared"),
        group="v",
        samples=("conn home\n  authby=secret\n# ipsec.secrets: : PSK hWE3tpxn9CSrx3V1",),
        not_samples=("PrivateKey = <server-private-key>\nPresharedKey = <preshared-key>",),
    ),
    # an OpenVPN static key block's body
    Rule(
        "private-key",
        Pattern(r"-----BEGIN OpenVPN Static key V\d-----(?P<v>[\s\S]{16,4000}?)-----END OpenVPN Static key V\d-----"),
        ("-----BEGIN OpenVPN",),
        exact=True,
        group="v",
        samples=(
            "-----BEGIN OpenVPN Static key V1-----\n083f1c42dca50d08a153b78e44976fb7\ne53b01b73ad750c5f8529392037cd8fd\n5d02e2a6a83c694df1c044734950d017\na07e2e5f80df246ef00edb19ecfcde1c\n9ef7b624f23ad9cf3ae1aad70eba3951\nb5506c40c60cf73158f168f053130c26\n4546b927ea455835d68eaedc83117ef7\n8780dd1fd150241b2ad98a873e957d43\n034bf114e284c01af5fdafda14e3d5e9\n39cad133b8b659b8ec54ddabd07e5637\ne63920f5399dcbae2b90b8bed6bb28c4\n2b4c3db7424f8d40cf88921374da3f8c\n17cc7f7b32116f5935093c191a5ce3ab\nb68adfab230a9c5a9b894ad5fae9d864\n39c9afb0fddf5c4d16966eb4f3b27a02\n6c51145ce89d02ec6658a90a1201f4c7\n-----END OpenVPN Static key V1-----",
        ),
        not_samples=("grep -c -- '-----BEGIN OpenVPN Static key V1-----' /etc/openvpn/ta.key",),
    ),
    # AWS session tokens by their prefix (base64 of their first bytes)
    Rule(
        "aws-session-token",
        Pattern(r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9+/=]{40,}"),
        ("IQoJb3JpZ2luX2Vj", "FwoGZXIvYXdz"),
        exact=True,
        samples=(
            "$ aws sts get-session-token --output text\nCREDENTIALS\tASIADJMMUG24Y82SXYVB\t2026-11-27T00:00:00Z\tFs7idfo5pQL0yTfNb0i6sSqHd11EbD/LHQBkbUky\tIQoJb3JpZ2luX2VjEKj+fFiB1sLDr+XdygT4YCy7VU/8atOtJlAtIBMg7yLqNmSI3x4wVTKeVD4A9HcarMeLKh/Jmlz+KiOdObp/jNm60QelHHMvRTs0Hp1B7hF3MsP4xSL/hu3QMFqHQmVU+XhJWGw+5SpSj8I8w86SCst1SoDSdN8vC6EyVSDNBpqTQfwqq//45WRZVVL6vuT36rk4/ciqV",
        ),
        not_samples=("A session token starts with IQoJb3JpZ2luX2Vj (base64 of its origin)",),
    ),
    # a service account's private key id
    Rule(
        "private-key",
        Pattern(r"(?i)private_key_id\\*[\"']?[ \t]*[:=][ \t]*\\*[\"']?(?P<v>[0-9a-f]{40})(?![0-9a-f])"),
        ("private_key_id",),
        group="v",
        samples=('\\"private_key_id\\": \\"1537c1e9157802ef1cc1a34a5bc5d568761ff7d4\\"',),
        not_samples=('\\"private_key_id\\": \\"1537c1e915780\\"',),
    ),
    # a key listing: `{"keyName": "key1", …, "value": "…"}` (az storage account keys list)
    Rule(
        "key",
        Pattern(
            r"(?i)key_?name\\*[\"']?[ \t]*[:=][ \t]*\\*[\"'][^\"'\n\x00\\]*\\*[\"'][^{}\x00]{0,160}?"
            r"value\\*[\"']?[ \t]*[:=][ \t]*\\*[\"'](?P<v>[A-Za-z0-9+/=_-]{20,})"
        ),
        ("keyname", "key_name"),
        group="v",
        accept=_random_key,
        samples=(
            '$ az storage account keys list -n acmedata\n[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "3wjcHohEPxK95UzeeTfx+6V5N9kejbmfrzreAh3VI//kqE/2u+weISFziZomHNzy4YcelukxgWX2osbPQDtqQc=="\n  }\n]',
        ),
        not_samples=(
            '$ az storage account keys list -n acmedata\n[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "${TOKEN}"\n  }\n]',
        ),
    ),
    # a key or secret file printed: `cat config/master.key` and the line after it
    Rule(
        "key",
        Pattern(
            r"(?i)cat[ \t]+[^\s|;&<>\x00]*(?:\.key|secret[^\s|;&<>\x00]*|\.pass|token[^\s|;&<>\x00]*)[ \t]*"
            r"(?:\n|\\n)(?:>[ \t]?|[ \t])*(?P<v>[A-Za-z0-9+/=._:-]{16,})(?=[ \t]*(?:\n|\\n|$|[\"'\x00]))"
        ),
        ("cat ",),
        group="v",
        accept=_random_key,
        samples=("$ cat config/master.key\n625ec33dc0761858b285163e1be16f19\n$ ls config",),
        not_samples=("$ cat config/master.key\n625ec33dc0\n$ ls config",),
    ),
    # two-factor recovery (backup) codes, one a line after their heading
    Rule(
        "recovery-codes",
        Pattern(
            r"(?i)(?:recovery|backup)[ _-]codes?\b[^\n\x00\\]{0,40}(?:\n|\\n)"
            r"(?P<v>(?:(?:>[ \t]?|[ \t])*[a-z0-9]{4,6}[- ]?[a-z0-9]{4,6}[ \t]*(?:\n|\\n|$))*"
            r"(?:>[ \t]?|[ \t])*[a-z0-9]{4,6}[- ]?[a-z0-9]{4,6})"
        ),
        ("recovery", "backup"),
        group="v",
        accept=lambda v: any(c.isdigit() for c in v),
        samples=("Your two-factor recovery codes:\n4edxj-8zwt1\nbuwf6-odbc2\netyux-v2lkn\nr787o-dkjzv",),
        not_samples=("Your two-factor recovery codes:\n${TOKEN}",),
    ),
)
