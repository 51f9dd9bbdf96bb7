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


def _token_rule(
    kind: str, pattern: str, anchor: str, *, samples: tuple[str, ...] = (), not_samples: tuple[str, ...] = ()
) -> Rule:
    return Rule(kind, Pattern(pattern), (anchor,), exact=True, samples=samples, not_samples=not_samples)


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
        samples=("$ kubeadm token create --ttl 2h\na82kbf.hkpblzpw9soe9fdh\n",),
        not_samples=("$ kubeadm token create --ttl 2h\na82kbf.\n",),
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
        samples=(
            "$ k0s token create --role=worker --expiry=1h\nlr5C90s8pxXNdT7L5aUjO0tpEtIV24lKCJ9wz/3sO7OaB8LdZhmI2d0MnJ/pshjc1bCK+CAVKLJ12dkUkb3UqBuANubeEV9lcmVApt47a+VKLsTHkQpgVXCEn74TQZAicnjI7lMMkTZEqTCKNWPgFkBsTcalDqCdaLAkJxYB5MIB9FhuuCxz==\n",
        ),
        not_samples=("$ k0s token create --role=worker --expiry=1h\n${TOKEN}\n",),
    ),
    _token_rule(
        "openshift-token",
        r"sha256~[A-Za-z0-9_-]{43}",
        "sha256~",
        samples=("Using token sha256~_fFVqL91QU9sxIMPZb1_ss-I9USeUe64GnCvDwJmnh3 for the cluster",),
        not_samples=("oc whoami -t prints a sha256~ token for the current user",),
    ),
    Rule(
        "secret",
        Pattern(r"(?<![A-Za-z0-9+/])(?P<v>(?:eyJ|ewog)[A-Za-z0-9+/]{40,}={0,2})(?![A-Za-z0-9+/=])"),
        ("eyJ", "ewog"),
        exact=True,
        group="v",
        accept=_base64_credentials,
        samples=(
            "data:\n  .dockerconfigjson: eyJhdXRocyI6IHsicmVnaXN0cnkuZXhhbXBsZS5jb20iOiB7ImF1dGgiOiAiWkdWd2JHOTVPbVZ3UmpWQlozWmhPU0ZQYVU5dmVRPT0ifX19\ntype: kubernetes.io/dockerconfigjson",
        ),
        not_samples=("eyJuYW1lIjoiYWxpY2UiLCJyb2xlIjoiYWRtaW4iLCJ0ZWFtIjoiY29yZSJ9",),
    ),
    # a join command whose address's path holds the token (`microk8s join 10.0.0.1:25000/<token>/…`)
    Rule(
        "token",
        Pattern(r"(?i)join\s+[\w.-]+:\d+/(?P<v>[A-Za-z0-9_-]{16,})"),
        ("join",),
        group="v",
        accept=_has_digit,
        samples=("Join node with: microk8s join 10.1.2.3:25000/f5259d7a64fb61927b7ad587133d85d6/ab221bc4d393",),
        not_samples=("Join node with: microk8s join 10.1.2.3:25000/f5259d7a64/ab221bc4d393",),
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
        samples=(
            "AccessorID:       35ca20da-1410-4521-a383-28413d6d0490\nSecretID:         d25358c0-5c99-4d40-a2ad-0a4e0b0f35d8\nDescription:      deploy",
        ),
        not_samples=(
            "AccessorID:       35ca20da-1410-4521-a383-28413d6d0490\nSecretID:         ${TOKEN}\nDescription:      deploy",
        ),
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
        samples=('curl -s -b "PHPSESSID=befqnnnt667mm7qvlfn8skkfmo; lang=de" https://shop.example.net/cart',),
        not_samples=('curl -s -b "lang=de; theme=dark" https://shop.example.net/cart',),
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
        samples=(
            "# Netscape HTTP Cookie File\n#HttpOnly_.example.net\tTRUE\t/\tTRUE\t1799999999\t_app_session\tbsg5hwoZHoxQlF0E01BsOAJiK_LR4rCoDWKz4mB9NVFZ",
        ),
        not_samples=(
            "# Netscape HTTP Cookie File\n#HttpOnly_.example.net\tTRUE\t/\tTRUE\t1799999999\t_app_session\tbsg5hwoZHoxQlF",
        ),
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
        samples=('resp = requests.get(url, cookies={"sessionid": "sBgXzqwwlcGy1YyddDpP6dw59yY95yC1"})',),
        not_samples=('session_id = "test-session-123"',),
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
        samples=('{"name": "sessionid", "value": "orm7FVX9bExAcEi8QTwmSFYxKIZ39nay", "domain": ".example.org"}',),
        not_samples=('{"name": "theme", "value": "dark-high-contrast", "domain": ".example.org"}',),
    ),
    # --- one-time-password seeds ---
    Rule(
        "otp-seed",
        Pattern(r"(?i)otpauth(?:-migration)?://[^\s\"'<>\x00]*?[?&](?:secret|data)=(?P<v>[A-Za-z0-9%+/=_-]{8,})"),
        ("otp",),
        group="v",
        samples=(
            "otpauth-migration://offline?data=fMX8IIgRNidwynoUMnt9V4Mn4VxCwtf7cw2JiNEhZ3Hz0stcIvh7hwj%2FRslXx5wD16lFO9UdJHLauo2z",
        ),
        not_samples=("otpauth-migration://offline?data=${TOKEN}",),
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
        samples=("ykman oath accounts add github:ops W7GEODAOALJVYBIYN4DPTFIOQNRQOLNO",),
        not_samples=("ykman oath accounts add github:ops W7GEODAOAL",),
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
        samples=("Can't scan the code? Enter this setup key instead: nxxl 2psp 5o7j 74zo",),
        not_samples=("Can't scan the code? Enter this setup key instead: nxxl 2",),
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
        samples=("admin:\n  user: root\n  mfa_seed: ZPLGYCHIY4HRBBGU22TBR57Q3WNVBBVD",),
        not_samples=("admin:\n  user: root\n  mfa_seed: ZPLGYCHIY4",),
    ),
    # --- wallets ---
    Rule(
        "wallet-private-key",
        Pattern(
            r"(?i:account|wallet|private)(?:(?!0x)[^\n\x00]){0,60}?(?<![0-9A-Za-z])(?P<v>0x[0-9a-fA-F]{64})(?![0-9A-Za-z])"
        ),
        ("account", "wallet", "private"),
        group="v",
        samples=(
            'const signer = new ethers.Wallet("0x704f700607bdac9ba61201ef2aa76f897f8e42cd750b0dfba05420fefcc09d12", provider);',
        ),
        not_samples=('const signer = new ethers.Wallet("0x704f700607bdac9ba612", provider);',),
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
        samples=(
            "bitcoin-cli -regtest importprivkey Kw8rEJTRLjcjHxLcQMNq5pegzw2cyPqzueHyKyvCef3MVdHJTZ5q label false",
        ),
        not_samples=("bitcoin-cli -regtest importprivkey ${TOKEN} label false",),
    ),
    Rule(
        "mnemonic",
        Pattern(
            r"(?i:mnemonic|phrase|seed|wallet)[^\x00]{0,60}?(?:(?<![a-z])|(?<=\\n))(?P<v>(?:[a-z]{3,8}[ \t]+){11,24}[a-z]{3,8})(?![a-z])"
        ),
        ("mnemonic", "phrase", "seed", "wallet"),
        group="v",
        accept=_mnemonic,
        samples=('SEED_PHRASE="eager pistol vacant silver cabin saddle machine velvet walnut zoo cabin walnut"',),
        not_samples=('SEED_PHRASE="eager pistol vacant silver"',),
    ),
    Rule(
        "wallet-private-key",
        Pattern(
            r"(?i:solana|secret_?key|private_?key)[^\[\x00]{0,200}(?P<v>\[\s*(?:\d{1,3}\s*,\s*){31,63}\d{1,3}\s*\])"
        ),
        ("solana", "secret", "private"),
        group="v",
        samples=(
            "const payer = Keypair.fromSecretKey(Uint8Array.from([131,88,45,84,114,39,175,136,83,50,148,56,27,157,26,106,155,200,40,118,28,91,130,237,64,90,208,170,186,108,30,99,112,139,193,148,66,175,112,56,161,128,113,39,208,205,18,86,211,95,196,45,65,119,56,134,80,236,116,117,173,118,94,51]));",
        ),
        not_samples=(
            "const payer = Keypair.fromSecretKey(Uint8Array.from([131,88,45,84,114,39,175,136,83,50,148,56,27,157,26,106,155,200,40,118,28,91));",
        ),
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
        samples=(
            "https://storage.googleapis.com/acme/a.bin?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=8a67639f74080f56c5aa328f676226e236a23e238e3b1c77fc4c011f1bd38f1f",
        ),
        not_samples=("https://cdn.example.com/app.js?key=analytics_bundle",),
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
        samples=('{"fields": {"key": "up/a.bin", "x-amz-signature": "XCa4HyMTTGOdswSc2vFFVMVFoLgxUCit1IPHIdUF6dgC"}}',),
        not_samples=('{"fields": {"key": "up/a.bin", "x-amz-signature": "XCa4HyMTTGOdsw"}}',),
    ),
    # --- webhooks and bots ---
    Rule(
        "webhook",
        Pattern(r"(?i)[\s\S]{0,4}?/(?:hooks?|webhooks?)/(?P<v>(?:[A-Za-z0-9_-]{8,}/)*[A-Za-z0-9_-]{20,})"),
        ("hook",),
        back=4,
        group="v",
        accept=lambda v: sum(c.isdigit() for c in v) >= 3,
        samples=("POST https://n8n.example.org/webhook/d358e482-4df1-4f89-a412-c8d06ed0d739",),
        not_samples=("POST https://n8n.example.org/webhook/d358e482-4df",),
    ),
    Rule(
        "token",
        Pattern(r"(?i)/(?:keys?|tokens?|secrets?)/(?P<v>[A-Za-z0-9_-]{20,})(?=[/?#\s\"'<>\\\x00]|$)"),
        ("key", "token", "secret"),
        back=1,
        group="v",
        accept=lambda v: sum(c.isdigit() for c in v) >= 3 and _looks_random(v),
        samples=("curl -X POST https://maker.example.com/trigger/deploy/with/key/l62dlZ_mfw9_FU6Ra1tRLo9",),
        not_samples=("curl -X POST https://maker.example.com/trigger/deploy/with/key/l62dlZ_",),
    ),
    Rule(
        "token",
        Pattern(
            r"(?i:api|client|bot|handler|auth|sdk|otp)\((?:[^()\n\x00]{0,80},)?\s*\\*[\"'](?P<v>[A-Za-z0-9_\-+/=.]{24,})\\*[\"']"
        ),
        ("api", "otp", "auth", "client(", "handler("),
        group="v",
        accept=lambda v: _UUID.fullmatch(v) is None and _looks_random(v),
        samples=('totp = pyotp.TOTP("MI4F6RUHRNUHHUN74MZZ6T6ET5MIOFKR")\nprint(totp.now())',),
        not_samples=('totp = pyotp.TOTP("MI4F6RUHRN")\nprint(totp.now())',),
    ),
    # --- keys by their encoding ---
    Rule(
        "private-key",
        Pattern(r"(?P<v>LS0tLS1CRUdJTi[A-Za-z0-9+/=]{20,}(?:(?:\\+[rn]|\s)+[A-Za-z0-9+/=]{16,})*)"),
        ("LS0tLS1CRUdJTi",),
        exact=True,
        group="v",
        accept=_private_pem,
        samples=(
            "type: kubernetes.io/tls\ndata:\n  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCndrMFlsbUJOcy96RjVlcm1xNnNvQWxQaGp4bkF2TFBMa1k4dVd0YXJPRmVGVGkwN05JMWJCYjdSNkJJQllCYUsKLS0tLS1FTkQgUFJJVkFURSBLRVktLS0tLQo=",
        ),
        not_samples=(
            "  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURCVENDQWUyZ0F3SUJBZ0lJZDRxNlNyR3dNMnd3RFFZSktvWklodmNOQVFFTEJRQXcK",
        ),
    ),
    Rule(
        "private-key",
        Pattern(r"ED25519-V3:(?P<v>[A-Za-z0-9+/=]{40,})"),
        ("ED25519-V3:",),
        exact=True,
        group="v",
        samples=(
            "HiddenServicePrivateKey ED25519-V3:ASyq8tQxaKkRtn6EIsOFHRivOT+LDOoxabDPR6fFksr9KlkVIxZZ+3G+vrRbqdzxoyF3d2rNKa8R/zIjULgtl5==",
        ),
        not_samples=("ADD_ONION ED25519-V3:$ONION_KEY Port=80,127.0.0.1:8080",),
    ),
    Rule(
        "private-key",
        Pattern(r"(?i)(?:private|shared)[\w-]*\\*[\"']?\s*[:=]\s*\\*[\"']?(?P<v>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])"),
        ("private", "shared"),
        group="v",
        samples=('  preshared_key = "RGOBgyf7J0XgJSFUz+7BIO/CYgLIRExH/P5Fp5n1sk+="',),
        not_samples=('  preshared_key = "${TOKEN}"',),
    ),
    Rule(
        "secret",
        Pattern(r"(?i)(?:unseal|recovery)[ _-]?key[ _-]?#?\d{1,2}\s*[:=]\s*(?P<v>[A-Za-z0-9+/=_-]{16,})"),
        ("unseal", "recovery"),
        group="v",
        accept=_has_digit,
        samples=(
            "Recovery Key 1: Th3qRkhZdvWCp7Pij22uEjFdUbt5mvbTT+y8Nx8kzEI2\nRecovery Key 2: l1Ymgd5aknhyWEFGKRPKmGFYxZtmW7cCXJFYuIW6/bhJ\n\nInitial Root Token: none",
        ),
        not_samples=("vault operator init prints Unseal Key 1: followed by the key",),
    ),
)
