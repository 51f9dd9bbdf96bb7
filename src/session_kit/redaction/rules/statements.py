"""Secrets found by the statement they stand in: SQL, a call's arguments, a command's output, a
word list, a value that runs to the end of its line.

Owns: `EARLY_RULES` (run first: a value holding `& ; , ( ) < > \\ ' " [` runs to the end of its
line or of its string, where the assignments' rules would stop at the first of them and leave
the tail) and `STATEMENT_RULES`:
- SQL: `WITH PASSWORD '…'`, `LOGIN PASSWORD '…'`, `IDENTIFIED BY '…'`, `SET PASSWORD … = '…'`;
- a password passed to a call whose name says login, auth, bind or connect (`login("admin",
  "…")`, `mysqli_connect("h", "root", "…")`, `new PDO($dsn, 'root', '…')`);
- a value printed by a command that prints secrets (`kubectl get secret … | base64 -d`,
  `argocd admin initial-password`, `aws ecr get-login-password`, `op read`, `vault kv get`,
  `bitcoin-cli dumpprivkey`, `printenv DB_PASSWORD`): the command is the output's context, given
  by `redaction.printed.redact_output` to every path that redacts a command's output;
- a Kubernetes Secret's `data:` values, whatever their names (YAML and JSON), each replaced
  and its name kept;
- a BIP-39 mnemonic as a numbered list or a list of words, checked against the BIP-39 English
  word list (`bip39-english.txt`, the standard list) and its checksum.
Each rule carries samples it must redact and texts it must leave (tests/redaction/test_samples.py).
Does not apply them (that is `redaction.engine`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from session_kit.redaction.rules.formats import _NOT_A_VALUE, Pattern, Rule, _has_digit, _is_value, _looks_random

_ODD = frozenset("&;,()<>\\'\"[]{}")
# code, not a value: a call or a subscript (`hash_password(raw)`, `argv[1];`)
_CODE_VALUE = re.compile(r"[\w.$]*(?:\(.*\)|\[.*\])[;,]?")


def _odd_value(value: str) -> bool:
    """A value holding a character the assignments' rules stop at, that is no code: letters and
    a digit (`cb(Ifzzf(B6oR)i`, `mA,EmK"2z'NGh\\fBkz8Hz`)."""
    bare = value.rstrip(";,")
    return (
        len(bare) >= 6
        and any(c in _ODD for c in bare)
        and _has_digit(bare)
        and sum(c.isalpha() for c in bare) >= 2
        and _CODE_VALUE.fullmatch(bare) is None
        and not bare.startswith(("(", "[", "{", "<", "'", '"', "`"))
    )


def _quoted_value(value: str) -> bool:
    return _is_value(value.strip("'\""))


def _password_like(value: str) -> bool:
    """A password in prose or a command's output: a digit and letters, not code or a path."""
    bare = value.rstrip(".,;:!?")
    return (
        len(bare) >= 8
        and _has_digit(bare)
        and sum(c.isalpha() for c in bare) >= 3
        and not bare.isdigit()
        and "/" not in bare[:2]
        and _CODE_VALUE.fullmatch(bare) is None
        and (_looks_random(bare) or any(c in _ODD or c in "!@#$%^*~+=" for c in bare))
        and not re.fullmatch(
            r"v?\d+(?:\.\d+)+[\w.-]*|\d{4}-\d\d-\d\d\S*|[\w.-]+\.(?:txt|json|ya?ml|log|py|sh|conf)", bare
        )
    )


_SECRET_WORD = r"(?i:pass(?:w(?:or)?d|phrase)?|pwd|secret|token|credentials?)(?:[_.-]?(?i:value|key))?"
_EOL = r"(?=[ \t]*(?:\r?\n|$|\x00))"

EARLY_RULES: tuple[Rule, ...] = (
    # `password = cb(Ifzzf(B6oR)i`: the value is the rest of its line
    Rule(
        "password",
        Pattern(_SECRET_WORD + r"[ \t]*[=:][ \t]*" + _NOT_A_VALUE + r"(?P<v>[^\s\x00`]+?)" + _EOL),
        ("pass", "pw", "secret", "token", "credential"),
        group="v",
        accept=_odd_value,
        samples=(
            "[database]\npassword = cb(Ifzzf(B6oR)i\nhost = db",
            "spring.datasource.password=mA,EmK\"2z'NGh\\fBkz8Hz\nserver.port=8080",
            "secret_value: 0O<A(UFkaYk>dnBUeflG>l",
        ),
        not_samples=(
            "password = hash_password(raw)",
            "token = argv[1];",
            "password: (see vault)",
            "PASSWORD=${DB_PASSWORD:-x1}",
        ),
    ),
    # `"DB_PASSWORD=2yP[,<i0niX9zU5n\\is"`: the value is the rest of its string
    Rule(
        "password",
        Pattern(_SECRET_WORD + r"=" + _NOT_A_VALUE + r"(?P<v>(?:[^\"\\\n\x00]|\\[^n\x00])+)(?=\")"),
        ("pass", "pw", "secret", "token", "credential"),
        group="v",
        accept=_odd_value,
        samples=('["DB_PASSWORD=2yP[,<i0niX9zU5n\\\\is", "PATH=/usr/bin"]',),
        not_samples=('["DB_PASSWORD=$(cat /run/pw)", "X=1"]',),
    ),
)

# --- SQL ---
_SQL_VALUE = r"(?P<v>'[^'\n\x00]{3,}'|\"[^\"\n\x00]{3,}\")"

# --- a password passed to a call named for a login ---
_CALLEE = r"(?i:log_?in|logon|sign_?in|auth\w*|\w*bind\w*|connect\w*|pdo|sequelize|password|credentials?)"
_LITERAL = r"\\*[\"'][^\"'\n\x00\\]{1,80}\\*[\"']"

# --- values a command prints ---
# Commands whose output is a secret: a decoded Secret, a secret store's value, a login password.
_PRINTER = (
    r"base64\s+(?:-d|--decode|-D)\b|base64decode|printenv\s+\w*(?i:pass|pwd|secret|token|key)\w*"
    r"|secrets?\s+(?:versions\s+access|get|show|read)\b|keyvault\s+secret\s+show|vault\s+(?:kv\s+get|read)\b"
    r"|\bop\s+read\b|\bpass\s+show\b|find-(?:generic|internet)-password\b|\bbw\s+get\s+password"
    r"|initial-password|initialAdminPassword|get-login-password|dumpprivkey|auth[: ]token|print-access-token"
    r"|\bcat\s+[^\s|;&\x00]*(?i:pass|pwd|_pw\b|pw\.txt|secret|token|cred)[^\s|;&\x00]*"
)
_STORE_ANSWER = r"(?i:get-parameters?\b[^\n\x00]*--with-decryption|get-secret-value|secret\s+show)"
# A command line that is context for its output (a rule below reads the output after it): the
# others' outputs are redacted alone (`redaction.printed`).
COMMAND_CONTEXT = _PRINTER + "|" + _STORE_ANSWER


@lru_cache(maxsize=1)
def bip39_words() -> dict[str, int]:
    """The BIP-39 English word list: each word and its index."""
    words = (Path(__file__).parent / "bip39-english.txt").read_text("ascii").split()
    return {word: index for index, word in enumerate(words)}


def is_mnemonic(words: list[str]) -> bool:
    """Whether `words` are a BIP-39 mnemonic: 12 to 24 words of the list, its checksum right."""
    import hashlib  # only for a list of words found: the commands that load the rules do not need it

    known = bip39_words()
    if len(words) not in (12, 15, 18, 21, 24) or any(w not in known for w in words):
        return False
    bits = "".join(format(known[w], "011b") for w in words)
    size = len(bits) * 32 // 33
    entropy = int(bits[:size], 2).to_bytes(size // 8, "big")
    digest = format(hashlib.sha256(entropy).digest()[0], "08b")
    return bits[size:] == digest[: len(bits) - size]


def _listed_mnemonic(value: str) -> bool:
    return is_mnemonic(re.findall(r"[a-z]+", re.sub(r"\d+[.)]", " ", value)))


STATEMENT_RULES: tuple[Rule, ...] = (
    # prose: "my password is f6P\v5Pj1S2P2)UBI1hn and …", "Your password `9\El[h&c…`"
    Rule(
        "password",
        Pattern(
            r"(?i:password|passphrase|passwd)(?:[ \t]+(?:is|was)|[ \t]*:|(?=[ \t]+`))[ \t]*:?[ \t]+"
            r"(?P<v>`[^`\n\x00]{6,}`|[^\s`'\"\x00]{8,}?)(?=[.,;:!?]*(?:\s|$|\x00))"
        ),
        ("pass",),
        group="v",
        accept=lambda v: _password_like(v.strip("`")),
        samples=(
            "my password is f6P\\v5Pj1S2P2)UBI1hn and login fails",
            "Your password `9\\El[h&c\\jg7;GSR6v6g` contains shell metacharacters",
        ),
        not_samples=(
            "the password is hashed with bcrypt2 before it is stored",
            "Reset your password at https://example.com/reset2 today.",
            "see `password_hash()` in auth.py",
            "wpa_passphrase Office-5G > /etc/wpa_supplicant.conf",
        ),
    ),
    Rule(
        "password",
        Pattern(
            r"(?i:(?<=with )|(?<=login )|(?<=encrypted )|(?<=unencrypted ))(?i:password)[ \t]+"
            + _NOT_A_VALUE
            + _SQL_VALUE
        ),
        ("pass",),
        group="v",
        accept=_quoted_value,
        samples=(
            "CREATE USER reporting WITH PASSWORD '2OiDmuVPWoRcDLwQXhR1j57Q';",
            "psql -c \"CREATE ROLE app LOGIN PASSWORD 'wlqUmb26j6ecqMPs6E';\"",
            "ALTER ROLE root WITH LOGIN ENCRYPTED PASSWORD 'zNmlEqRLZ2l2hX' VALID UNTIL '2025-01-01';",
        ),
        not_samples=("CREATE USER app WITH PASSWORD :'pw';", "ALTER USER x WITH PASSWORD NULL;"),
    ),
    Rule(
        "password",
        Pattern(
            r"(?i)identified[ \t]+(?:with[ \t]+\w+[ \t]+)?by[ \t]+(?:password[ \t]+)?"
            + _NOT_A_VALUE
            + r"(?P<v>'[^'\n\x00]{3,}'|\"[^\"\n\x00]{3,}\"|[^\s'\"`;,()\x00]{4,})"
        ),
        ("identified",),
        group="v",
        accept=_quoted_value,
        samples=(
            "CREATE USER 'etl_user'@'%' IDENTIFIED BY 'j3Rs0qnEBEJF9I-FhG';",
            'ALTER USER ROOT IDENTIFIED BY "U770MQ6zMo5Yq3.3Aqt";',
            'mysql -uroot -e "CREATE USER app IDENTIFIED BY xQSW1fVjUkU_aTQrezq;"',
        ),
        not_samples=("ALTER USER app IDENTIFIED BY %s", "CREATE USER app IDENTIFIED BY '<password>';"),
    ),
    Rule(
        "password",
        Pattern(
            r"(?i)password[ \t]+(?:for[ \t]+[^\s=\x00]+[ \t]*)?=[ \t]*(?:password[ \t]*\([ \t]*)?"
            + _NOT_A_VALUE
            + _SQL_VALUE
        ),
        ("pass",),
        group="v",
        accept=_quoted_value,
        samples=("SET PASSWORD FOR 'admin'@'localhost' = 'Mx.hw7VTPHgx_0R';",),
        not_samples=("SET PASSWORD FOR 'admin'@'localhost' = '';",),
    ),
    Rule(
        "password",
        Pattern(
            _CALLEE
            + r"\s*\(\s*(?:[^()\"'\n\x00,]{1,80},\s*){0,2}?(?:"
            + _LITERAL
            + r"\s*,\s*){1,2}?\\*[\"'](?=[^\"'\s\x00\\]*\d)(?P<v>[^\"'\s\x00\\]{4,})\\*[\"']"
        ),
        ("login", "logon", "signin", "sign_in", "auth", "bind", "connect", "pdo", "sequelize", "pass", "credential"),
        group="v",
        accept=_is_value,
        samples=(
            'client.login("admin", "8Wyq8hFLgQht8x")',
            'conn.simple_bind_s("cn=admin,dc=example,dc=org", "JE9kquFf9vjlE1MImo68")',
            "const s = new Sequelize('app', 'app_user', 'yNC8A5CpOLrIoOSP8', { host: 'db' });",
            'Connection c = DriverManager.getConnection(url, "sa", "fDrBgUK.aA9YJ1o-08_mzu");',
            "$pdo = new PDO($dsn, 'root', 'DeCg5YimwWN1eZfNL9k0vk0');",
            '$link = mysqli_connect("localhost", "root", "FnzxJ2-bGdXB5wRfgu", "wordpress");',
            'keyring.set_password("acme-cli", "jdoe", "81UCH1j5B2vrEkcwNiN")',
        ),
        not_samples=(
            'sock.bind("0.0.0.0", "8080")',
            'client.login("admin", password)',
            'connect("db.internal", "app")',
            't("login", "Sign in to continue 2 times")',
        ),
    ),
    # a value printed alone on the line after a command that prints secrets
    Rule(
        "secret",
        Pattern(
            r"(?:" + _PRINTER + r")[^\n\x00]*(?:\n|\\n)(?:>[ \t]?|[ \t])*"
            r"(?P<v>[^\s\x00]{8,200}?)(?=[ \t]*(?:\r?\n|\\n|$|\x00))"
        ),
        (
            "base64",
            "printenv",
            "secret",
            "vault",
            "op ",
            "pass",
            "bw ",
            "initial",
            "dumpprivkey",
            "auth",
            "print-access-token",
            "cat ",
            "keyvault",
            "find-",
            "get-login",
        ),
        group="v",
        accept=_password_like,
        samples=(
            "$ kubectl get secret grafana -o jsonpath='{.data.password}' | base64 -d\nP9_l.zJVqKpoS.HpodW",
            "$ argocd admin initial-password -n argocd\njw3CCds0XB3gO7GI\n\n This password must be changed.",
            "$ op read op://Engineering/prod-db/password\n5B-uzfN-M7M6XHD0rh.L\n",
            '$ printenv LDAP_PASSWORD\n0yPsz"\\Sq,4U"lYm\n',
            "$ bitcoin-cli dumpprivkey bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh\n"
            "L1aW4aubDFB7yfras2S1mN3bqg9nwySY8nkoLmJebSLD5BWv3ENZ\n",
        ),
        not_samples=(
            "$ echo aGVsbG8gd29ybGQ= | base64 -d\nhello world\n",
            "$ cat secrets.yaml\napiVersion: v1\n",
            "$ vault kv get secret/app\n====== Data ======\n",
        ),
    ),
    # a secret store's JSON answer (`aws ssm get-parameter --with-decryption`, `get-secret-value`)
    Rule(
        "secret",
        Pattern(
            _STORE_ANSWER + r"[^\n\x00]*(?:\n|\\n)"
            r"[\s\S]{0,600}?\\*\"(?:Value|SecretString|value)\\*\"\s*:\s*\\*\"(?P<v>[^\"\n\x00\\]{6,})\\*\""
        ),
        ("get-parameter", "get-secret-value", "secret"),
        group="v",
        accept=_is_value,
        samples=(
            "$ aws ssm get-parameter --name /prod/db/password --with-decryption\n"
            '{"Parameter": {"Name": "/prod/db/password", "Value": "65Kq5837sdbex7th81PxZ3UeAIl5JPC5"}}',
        ),
        not_samples=('$ aws ssm get-parameter --name /prod/region\n{"Parameter": {"Value": "eu-west-1"}}',),
    ),
    # a Kubernetes Secret's `data:` block: every value, whatever its name
    Rule(
        "secret",
        Pattern(
            r"[\s\S]{0,12}?kind:[ \t]*Secret\b[\s\S]{0,1500}?(?:^|(?<=\n))"
            r"(?P<v>data:[ \t]*\r?\n(?:[ \t]+[\w.-]+:[ \t]*[A-Za-z0-9+/=]*[ \t]*(?:\r?\n|$))+)"
        ),
        ("secret",),
        back=12,
        group="v",
        inner=r"(?m):[ \t]*(?P<v>[A-Za-z0-9+/]{4,}={0,2})[ \t]*$",
        samples=(
            "kind: Secret\nmetadata:\n  name: backend\ntype: Opaque\ndata:\n"
            "  app.conf: c2tfbGl2ZV9zRW9xNzczVnhTT3hTbFhiZlZCWW5kNGM=\n",
        ),
        not_samples=("kind: ConfigMap\ndata:\n  app.conf: c2tfbGl2ZV9zRW9xNzczVnhTT3hTbFhiZlZCWW5kNGM=\n",),
    ),
    Rule(
        "secret",
        Pattern(
            r"(?:^|(?<=\n))(?P<v>data:[ \t]*\r?\n(?:[ \t]+[\w.-]+:[ \t]*[A-Za-z0-9+/=]*[ \t]*(?:\r?\n|$))+)"
            r"(?=[\s\S]{0,1500}?kind:[ \t]*Secret\b)"
        ),
        ("data:",),
        group="v",
        inner=r"(?m):[ \t]*(?P<v>[A-Za-z0-9+/]{4,}={0,2})[ \t]*$",
        samples=(
            "apiVersion: v1\ndata:\n  one: NXljczR6WTZBcERPSUNUZnVReVU5TDk3WnVGRzE4WXBSS250TDdtWQ==\nkind: Secret\n",
        ),
        not_samples=(
            "apiVersion: v1\ndata:\n  one: NXljczR6WTZBcERPSUNUZnVReVU5TDk3WnVGRzE4WXBSS250TDdtWQ==\nkind: ConfigMap\n",
        ),
    ),
    # `kubectl get secret … -o json` (or `| jq .data`): the first object of the answer without one
    # inside it is the `data`
    Rule(
        "secret",
        Pattern(r"(?i:get[ \t]+secrets?)\b[^\n\x00]*(?:\n|\\n)[\s\S]{0,300}?(?P<v>\{[^{}\x00]{0,4000}\})"),
        ("secret",),
        back=4,
        group="v",
        inner=r"\\*\"\s*:\s*\\*\"(?P<v>[A-Za-z0-9+/]{8,}={0,2})\\*\"",
        samples=(
            "$ kubectl get secret integration -o json | jq .data\n"
            '{\n  "config": "TG0yMWdoZWJxc2dlTzROSzhsODVxRXFwWXlLekJENTJBNzRuMzd4UA=="\n}',
        ),
        not_samples=('$ kubectl get secrets\nNAME  TYPE  DATA\n{"note": "none"}',),
    ),
    # BIP-39 mnemonics: a numbered list (`1. blast` … `12. daring`, one a line or in a grid)
    Rule(
        "mnemonic",
        Pattern(r"(?<![\w.])(?P<v>1[.)][ \t]+[a-z]{3,8}(?:\s+\d{1,2}[.)][ \t]+[a-z]{3,8}){11,23})(?![\w])"),
        ("1. ", "1) "),
        exact=True,
        group="v",
        accept=_listed_mnemonic,
        samples=(
            "Your seed phrase:\n1. guitar\n2. rigid\n3. buddy\n4. borrow\n5. ridge\n6. tiger\n7. hidden\n"
            "8. sudden\n9. unique\n10. violin\n11. wise\n12. pelican\n\nStore it offline.",
        ),
        not_samples=(
            "Steps:\n1. build\n2. test\n3. lint\n4. pack\n5. sign\n6. push\n7. tag\n8. deploy\n9. check\n"
            "10. notify\n11. close\n12. archive",
        ),
    ),
    # a mnemonic as a line of words (or a comma-separated value) near a wallet's or a seed's name
    Rule(
        "mnemonic",
        Pattern(
            r"(?i:mnemonic|phrase|seed|wallet)[^\x00]{0,60}?(?:(?<![a-z])|(?<=\\n))"
            r"(?P<v>(?:[a-z]{3,8}(?:[ \t]+|,[ \t]*)){11,23}[a-z]{3,8})(?![a-z])"
        ),
        ("mnemonic", "phrase", "seed", "wallet"),
        group="v",
        accept=lambda v: is_mnemonic(re.findall(r"[a-z]+", v)),
        samples=(
            "$ cat ~/.lnd/seed.txt\ntaste pull empower method frown youth target possible nominee method inquiry surface",
            "WALLET_SEED=between,squirrel,struggle,gallery,milk,alert,bright,noble,nose,tube,cannon,inform",
        ),
        not_samples=("seed: the first run will plant the data and then check that all rows are there now ok",),
    ),
    # a Redis password on a command line or after a grep's line number (`--requirepass …`, `masterauth …`)
    Rule(
        "password",
        Pattern(r"(?i)(?<!\w)(?:requirepass|masterauth)[ \t=]+\\*[\"']?(?P<v>[^\s\"'\x00\\]{6,200})"),
        ("requirepass", "masterauth"),
        group="v",
        accept=_password_like,
        samples=("redis-server --appendonly yes --requirepass Qw7.Lp2Ns9Vx4Zr", "88:masterauth Hk3Pz9.Tq2Wm7Lx"),
        not_samples=("# requirepass foobared", "--requirepass $REDIS_PASSWORD"),
    ),
    # Go's MySQL DSN: `user:password@tcp(host:port)/db` (`@unix(`), with no scheme before it
    Rule(
        "url-password",
        Pattern(r"[\s\S]{0,140}?(?<![\w.%+-])[\w.-]{1,64}:(?P<v>[^\s:@/\"'`\x00\\]{4,128})@(?=(?:tcp|unix)\()"),
        ("tcp(", "unix("),
        back=140,
        group="v",
        accept=_password_like,
        samples=('dsn := "app:Vb7qLm2.xPz9Rk@tcp(db.internal:3306)/shop"',),
        not_samples=('dsn := "app:${DB_PASSWORD}@tcp(db:3306)/shop"', 'dsn := "root:password@tcp(localhost:3306)/x"'),
    ),
    # a Twilio account's auth token: 32 hex digits after its account SID (`AC…`), Twilio named before
    Rule(
        "twilio-token",
        Pattern(
            r"(?i:twilio)[^\x00]{0,80}?AC[0-9a-f]{32}[^\x00]{1,40}?(?<![0-9a-fA-F])(?P<v>[0-9a-f]{32})(?![0-9a-fA-F])"
        ),
        ("twilio",),
        group="v",
        samples=("Twilio.init('AC0f9e8d7c6b5a49382716a5b4c3d2e1f0', '9a8b7c6d5e4f30211a2b3c4d5e6f7081')",),
        not_samples=("twilio sid AC0f9e8d7c6b5a49382716a5b4c3d2e1f0 and no token yet",),
    ),
)
