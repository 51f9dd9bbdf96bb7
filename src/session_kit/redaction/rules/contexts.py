"""The shapes of secrets found by where they stand (`CONTEXT_RULES`).

This module's rules are for secrets whose own shape says little and whose place says all:
- CI runners and cluster joins: a registration or join token given to `--token`,
  `--registration-token`, `-secret` (GitLab, GitHub Actions, Azure Pipelines, Jenkins,
  Buildkite, kubeadm, Docker swarm);
- credentials as a command's arguments: `--password X`, `-storepass X`, `pass:X` (openssl),
  and per program its short flag (`redis-cli -a`, `sqlcmd -P`, `ldapsearch -w`, `mongosh -p`,
  `zip -P`, `7z -p`, `mosquitto_pub -P`, `smbclient -U user%pass`, `lftp -u user,pass`,
  `xfreerdp /p:`, `rabbitmqctl add_user U P`, `mysqladmin password P`, `az login -p`,
  `user:pass | chpasswd`);
- key files other than PEM: PuTTY's private lines and MAC, SSH2 (SECSH) keys, a private key's
  base64 body without its header (found by the DER or OpenSSH prefix every such body starts
  with), JWK private members, .NET's `<RSAKeyValue>` private elements, minisign secret keys,
  age secret keys and plugin identities;
- chat-bot tokens in code: a Discord bot token as a quoted string, Meta (WhatsApp, Facebook)
  access tokens, a literal given to a call named for a secret (`SignatureVerifier('…')`).
- secrets nested in config: the first values of a block named for secrets or tokens
  (`tokens { agent = "…" }`, `secret:\n  value: …`, `variable "db_password" { default = … }`),
  a name/value pair whose name is a secret's (Kubernetes `env`, ECS, Hadoop's XML,
  `ParameterKey=…Password,ParameterValue=…`), an `[api]` section's `key=`;
- credentials in code and servers' configs: a scheme and a token, or a user and a password, as
  two literals (`AuthenticationHeaderValue("Bearer", "…")`, `auth=("admin", "…")`), a build
  script's `storePassword '…'`, a config file's `requirepass …` line, a header a server sets
  (`proxy_set_header Authorization "Basic …"`, `RequestHeader set X-Api-Key …`);
- more command lines: `-u user … -p password`, `htpasswd -b`, `net user NAME PASSWORD`,
  `wpa_passphrase`, `snmpwalk -c/-A/-X`, `nmcli … password`, an `expect` script's `send`, a
  `PASS` in an FTP session's log.
The shapes follow what public scanners' rule sets describe (gitleaks, trufflehog); the rules
and their probes are the kit's own. Does not apply them (that is `redaction.engine`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from session_kit.redaction.rules.access import _SECRET_NAME, _random_value
from session_kit.redaction.rules.formats import _NOT_A_VALUE, Pattern, Rule, _has_digit, _is_value, _looks_random

# A value on a command line: quoted (the quotes go with it), or a word that is not a variable,
# a placeholder or another option.
_ARG = r"(?P<v>'[^'\n\x00]+'|\"[^\"\n\x00]+\"|[^\s'\"$<{\[@\x00-][^\s\x00]*)"
# Where a line may break inside a key file's body: a newline (also JSON-escaped), and a Markdown
# quote's `>` or indentation after it.
_BREAK = r"(?:(?:\\+[rn]|\s)+(?:>[ \t]?)?)"
_B64_LINES = r"[A-Za-z0-9+/=]{8,}(?:" + _BREAK + r"[A-Za-z0-9+/=]{16,})*"


def _unquoted_value(value: str) -> bool:
    return _is_value(value.strip("'\""))


def _random_or_quoted(value: str) -> bool:
    bare = value.strip("'\"")
    return _is_value(bare) and (bare != value or _looks_random(bare))


def _arg(kind: str, command: str, anchor: str, *, back: int = 0) -> Rule:
    """A credential as an argument: `command` is the pattern up to the value (`_ARG` follows)."""
    return Rule(kind, Pattern(command + _ARG), (anchor,), back=back, group="v", accept=_unquoted_value)


def _after_program(program: str, flag: str, *, anchor: str | None = None, attached: bool = False) -> Rule:
    """`program … flag VALUE` on one line (`attached`: `-pVALUE` as well)."""
    space = r"\s*" if attached else r"\s+"
    return _arg("password", rf"\b{program}\b[^\n\x00]*?\s{flag}{space}", anchor or program.split("\\")[0])


# Options whose value is a secret (`--password X`, `-storepass X`, `--registration-token X`…),
# matched from the name's anchor on (a dash, or `store`/`key`, just before it): no scan back.
# The dash starts an option (`-pass`, `--password`), not a compound word (`two-pass`,
# `forgot-password page`).
_OPTION_DASH = r"(?:(?<![\w-]-)(?<=-)|(?<=--))"
_PASSWORD_OPTION = r"(?:" + _OPTION_DASH + r"|(?<=store)|(?<=key))pass(?:word|wd|phrase)?"
# a compound option's last word (`--db-password X`): its value must look random, as prose's
# "forgot-password page" does not
_COMPOUND_PASSWORD_OPTION = r"(?<=[A-Za-z0-9]-)pass(?:word|wd|phrase)?"
_TOKEN_OPTION = r"(?:(?<=-)(?:token|secret|key)|(?<=-api)key)"


def _name_value_line(value: str) -> bool:
    """The value of a `name value` line: quoted, any value; bare, a random one."""
    bare = value.strip("\\'\"")
    if bare != value:
        return _is_value(bare)
    return _looks_random(value) and _has_digit(value)


def _option(kind: str, name: str, anchors: tuple[str, ...], accept: Callable[[str], bool]) -> Rule:
    return Rule(kind, Pattern(name + r"(?:\s+|=)" + _ARG), anchors, group="v", accept=accept)


# The first characters of a private key's base64 body (DER or OpenSSH), found without its
# header: after `MII` (RSA in PKCS#1 and PKCS#8, encrypted PKCS#8) and OpenSSH's magic.
_BODY_STARTS = (
    "MII[A-Za-z0-9+/]{3}IBAAKC",  # PKCS#1 RSA: version 0, then the modulus
    "MII[A-Za-z0-9+/]{3}IBADANBgkqhkiG9w0BAQEFAAS",  # PKCS#8 RSA
    "MII[A-Za-z0-9+/]{5}BgkqhkiG9w0BBQ0w",  # encrypted PKCS#8 (PBES2)
    "b3BlbnNzaC1rZXktdjE",  # openssh-key-v1
    "MII[A-Za-z0-9+/]{5}IBAzCC",  # PKCS#12 (a .p12/.pfx file): version 3
    "MHcCAQEEI",  # EC P-256, SEC 1
    "MIGkAgEBBD",  # EC P-384, SEC 1
    "MC4CAQAwBQYDK2Vw",  # Ed25519, PKCS#8
)

_JWK_MEMBERS = ("d", "p", "q", "dp", "dq", "qi")
_XML_MEMBERS = ("D", "P", "Q", "DP", "DQ", "InverseQ")

CONTEXT_RULES: tuple[Rule, ...] = (
    # --- key files other than PEM ---
    Rule(
        "private-key",
        Pattern(r"Private-Lines:\s*\d+" + _BREAK + r"(?P<v>" + _B64_LINES + ")"),
        ("Private-",),  # one scan for both of PuTTY's rules
        exact=True,
        group="v",
    ),
    Rule("private-key", Pattern(r"Private-MAC:\s*(?P<v>[0-9a-fA-F]{32,})"), ("Private-",), exact=True, group="v"),
    Rule(
        "private-key",
        Pattern(
            r"---- BEGIN SSH2 (?:ENCRYPTED )?PRIVATE KEY ----"
            + r"(?:"
            + _BREAK
            + r"[A-Za-z][A-Za-z-]*: (?:[^\n\\\x00]|\\\")*)*"
            + _BREAK
            + r"(?P<v>"
            + _B64_LINES
            + ")"
        ),
        ("---- BEGIN SSH2",),
        exact=True,
        group="v",
    ),
    Rule(
        "private-key",
        Pattern(
            r"(?:(?<![A-Za-z0-9+/])|(?<=\\[nr]))(?P<v>(?:"
            + "|".join(_BODY_STARTS)
            + r")[A-Za-z0-9+/=]{8,}(?:"
            + _BREAK
            + r"[A-Za-z0-9+/=]{16,})*)"
        ),
        ("MII", "b3BlbnNzaC1rZXktdjE", "MHcCAQEEI", "MIGkAgEBBD", "MC4CAQAwBQYDK2Vw"),
        exact=True,
        group="v",
    ),
    Rule(
        "private-key",
        # found at `"d`: every private JWK has `d`, the private members follow it (p, q, dp…)
        Pattern(
            r"\"d\\*\"\s*:\s*\\*\"(?P<v>[A-Za-z0-9_-]{20,}(?:\\*\"\s*,\s*\\*\"(?:"
            + "|".join(_JWK_MEMBERS)
            + r")\\*\"\s*:\s*\\*\"[A-Za-z0-9_-]+)*)\\*\""
        ),
        ('"d',),
        exact=True,
        group="v",
    ),
    Rule(
        "private-key",
        # found at `<P>`, the first private member .NET writes; the others after it go with it
        Pattern(
            r"<P>(?P<v>[A-Za-z0-9+/=]{20,}</P>(?:\s*<(?P<t>" + "|".join(_XML_MEMBERS) + r")>[A-Za-z0-9+/=]+</(?P=t)>)*)"
        ),
        ("<P>",),
        exact=True,
        group="v",
    ),
    Rule(
        "private-key",
        Pattern(r"untrusted comment: [^\n\x00]*secret key" + _BREAK + r"(?P<v>[A-Za-z0-9+/=]{40,})"),
        ("untrusted comment:",),
        exact=True,
        group="v",
    ),
    # an XML element named for a secret: `<password>…</password>`, `<apiKey>…</apiKey>`
    Rule(
        "secret",
        Pattern(
            r"(?i)(?:password|passwd|secret|token|key)>"
            + _NOT_A_VALUE
            + r"(?P<v>[^<>\s\x00]{4,})</[a-z_:-]*(?:password|passwd|secret|token|key)>"
        ),
        ("pass", "secret", "token", "key"),  # scanned for the assignments anyway
        group="v",
        accept=_is_value,
    ),
    Rule(
        "age-secret-key",
        Pattern(r"AGE-(?:SECRET-KEY|PLUGIN-[A-Z0-9]+)-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{30,}"),
        ("AGE-",),
        exact=True,
    ),
    # --- credentials as a command's arguments (CI runners' and cluster joins' tokens too) ---
    # Found at names scanned for the assignments anyway where they can be: each scan of the
    # text for one more anchor costs about 1% of redacting.
    # a password may be a word; a token or a secret looks random (`--token flag's` is prose)
    _option("password", _PASSWORD_OPTION, ("pass",), _unquoted_value),
    _option("password", _COMPOUND_PASSWORD_OPTION, ("pass",), _random_or_quoted),
    _option("token", _TOKEN_OPTION, ("secret", "token", "key"), lambda v: _looks_random(v.strip("'\""))),
    _arg("password", r"(?<![\w-])pass:", "pass:"),
    _after_program("redis-cli", r"(?:-a|--pass)"),
    _after_program("sqlcmd", "-P", attached=True),
    Rule("password", Pattern(r"ssh-keygen\b[^\n\x00]*?\s-[NP]\s+" + _ARG), ("key",), back=4, group="v"),
    _after_program(r"ldap[a-z]+", "-w", anchor="ldap"),
    _after_program(r"mongo[a-z]*", "-p", anchor="mongo"),
    _after_program("zip", "-P"),
    _after_program("unzip", "-P"),
    _after_program(r"mysqladmin", "password", anchor="mysql"),
    # rarer programs, one rule (a rule costs about as much as a scan of the text)
    Rule(
        "password",
        Pattern(
            r"(?:7za?\b[^\n\x00]*?\s-p|lftp\b[^\n\x00]*?\s-u\s+[^\s,]+,|mosquitto_[a-z]+\b[^\n\x00]*?\s-P\s+"
            r"|rabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+|smbclient\b[^\n\x00]*?\s-U\s+[^\s%]+%"
            r"|xfreerdp\b[^\n\x00]*?\s/p:|openssl\b[^\n\x00]*?\s-k\s+|ncftp[a-z]*\b[^\n\x00]*?\s-p\s+)" + _ARG
        ),
        ("7z", "lftp", "mosquitto_", "rabbitmqctl", "smbclient", "xfreerdp", "openssl", "ncftp"),
        group="v",
        accept=_unquoted_value,
    ),
    Rule(
        "password",
        Pattern(r"[\s\S]{0,100}?\becho\s+['\"]?[^\s:'\"]+:(?P<v>[^\s'\"\x00]+)['\"]?\s*\|\s*(?:sudo\s+)?chpasswd"),
        ("chpasswd",),
        back=100,
        group="v",
    ),
    # --- chat-bot tokens in code ---
    Rule(
        "discord-bot-token",
        Pattern(
            r"(?:run|login)\(\s*\\*[\"'](?P<v>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40})\\*[\"']"
        ),
        ("run(", "login"),
        group="v",
    ),
    Rule("meta-access-token", Pattern(r"(?<![A-Za-z0-9+/])EAA[B-Z][A-Za-z0-9]{80,}"), ("EAA",), exact=True),
    # a literal given to a call named for a secret: `SignatureVerifier('…')`, `get_token("…")`
    Rule(
        "secret",
        Pattern(
            r"(?i)(?:secret|token|key|verifier)\(\s*\\*[\"']"
            r"(?P<v>[A-Za-z0-9_\-+/=.:]{16,})\\*[\"']"
        ),
        ("secret", "token", "key", "verifier"),
        group="v",
        accept=lambda v: "://" not in v and _looks_random(v),
    ),
    # --- secrets nested in config ---
    # a block named for secrets: its first value (`tokens {\n agent = "…"`, `secret:\n  value: …`)
    Rule(
        "secret",
        Pattern(
            r"(?i)(?:secrets?|tokens?|passwords?|credentials?|keys)\\*[\"']?\s*(?:(?:=\s*)?\{|:[ \t]*(?:\\*[rn]|\n))"
            r"(?:(?:\s|\\+[rnt]|>)*[A-Za-z_][\w.-]*[ \t]*[:=][^\n\x00\\]*?(?=\n|\\[rn])){0,2}?"
            r"(?:\s|\\+[rnt]|>)*[A-Za-z_][\w.-]*\\*[\"']?[ \t]*[:=][ \t]*\\*[\"']?"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\"'\\,;{}\x00]{8,})"
        ),
        ("secret", "token", "pass", "credential", "key"),
        group="v",
        accept=lambda v: _has_digit(v) and _random_value(v),
    ),
    # a name/value pair whose name is a secret's: Kubernetes' `- name: X_SECRET\n  value: …`,
    # ECS' and GitHub's `{"name": "…_TOKEN", "value": "…"}`, Hadoop's `<name>…</name><value>…`,
    # CloudFormation's `ParameterKey=DbPassword,ParameterValue=…`
    Rule(
        "secret",
        Pattern(
            r"(?i)(?:name|key)\\*[\"']?(?:\s*[:=]\s*|>)\\*[\"']?"
            + _SECRET_NAME
            + r"\\*[\"']?(?:</name>)?(?:[\s,>]|\\+[rnt])*(?:<|\\*[\"'])?(?:parameter)?value\\*[\"']?(?:\s*[:=]\s*|>)\\*[\"']?"
            + _NOT_A_VALUE
            + r"(?P<v>[^\s\"'\\,<}\x00]{6,})"
        ),
        ("name", "key"),
        group="v",
        accept=_unquoted_value,
    ),
    # an INI section for an API (`[api]`) whose `key=` or `token=` holds it (zuliprc, .pypirc-like)
    Rule(
        "api-key",
        Pattern(
            r"(?i)\[(?:api|auth|credentials?|secrets?)\][^\[\x00]{0,300}?(?:\n|\\n)[ \t>]*(?:key|token|secret)[ \t]*[=:][ \t]*(?P<v>[^\s\x00]{12,})"
        ),
        ("api", "auth", "credential", "secret"),
        back=1,
        group="v",
        accept=_random_value,
    ),
    # --- credentials in code, on command lines and in servers' configs ---
    # a scheme and a credential as two literals (`AuthenticationHeaderValue("Bearer", "…")`), a
    # user and a password as two (`auth=("admin", "…")`, `SetBasicAuth("svc", "…")`)
    Rule(
        "token",
        Pattern(
            r"(?i)(?<=[\"'])(?:bearer|basic|token)\\*[\"'][ \t]*,[ \t]*\\*[\"'](?P<v>[A-Za-z0-9._~+/=-]{12,})\\*[\"']"
        ),
        ("bearer", "basic", "token"),
        group="v",
        accept=_looks_random,
    ),
    Rule(
        "password",
        Pattern(
            r"(?i)(?:basic_?auth|auth)\s*(?:=\s*\(?|\()\s*\\*[\"'][^\"'\n\x00\\]{1,64}\\*[\"']\s*,\s*\\*[\"']"
            + _NOT_A_VALUE
            + r"(?P<v>[^\"'\n\x00\\]{4,})\\*[\"']"
        ),
        ("auth",),
        group="v",
        accept=_is_value,
    ),
    # a line that is a name and its value: a build script's `storePassword '…'` (Gradle, Groovy and
    # Ruby DSLs), a config file's `requirepass …` (redis.conf, `rpcpassword …`); unquoted, the
    # value must look random
    Rule(
        "password",
        Pattern(
            r"[\s\S]{0,48}?(?:^|(?<=\n)|(?<=\\n))[ \t>]*[A-Za-z_]*(?i:pass|password|passwd|secret|token|auth)[ \t]+"
            + _NOT_A_VALUE
            + r"(?P<v>\\*'[^'\n\x00\\]{4,}\\*'|\\*\"[^\"\n\x00\\]{4,}\\*\"|[^\s\"'\x00\\]{6,})[ \t]*(?=$|[\r\n\x00]|\\[rn])"
        ),
        ("pass", "secret", "token", "auth"),
        back=48,
        group="v",
        accept=_name_value_line,
    ),
    # --- credentials on command lines ---
    Rule(
        "password",
        Pattern(
            r"(?<![A-Za-z0-9_])-(?:u|user(?:name)?)[ \t=]+[^\s\x00]+[ \t]+(?:[^\n\x00]*?[ \t])?-p[ \t]+"
            + _NOT_A_VALUE
            + r"(?P<v>'[^'\n\x00]+'|\"[^\"\n\x00]+\"|[^\s'\"\x00-][^\s\x00]*)"
        ),
        ("-u",),
        exact=True,
        group="v",
        accept=lambda v: _unquoted_value(v) and not re.fullmatch(r"[\d:.]+(?:/\w+)?", v),
    ),
    Rule(
        "password",
        Pattern(
            r"htpasswd\b[^\n\x00]*?[ \t]-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*(?:[ \t]+[^\s<>|;&\x00-][^\s\x00]*){1,2}"
            r"[ \t]+(?P<v>[^\s<>|;&\x00\\\"][^\s\x00\\\"]*)(?=[ \t]*(?:$|[\r\n<>|;&\x00\\\"]))"
        ),
        ("pass",),
        back=2,  # `ht` before it
        group="v",
    ),
    Rule(
        "password",
        Pattern(
            r"(?i)[\s\S]{0,4}?(?:\bnet\s+user\s+[^\s/\x00]+|\bnet\s+use\s+(?:[A-Za-z*]:?\s+)?\\{2,}[^\s\x00]+|wpa_passphrase\s+[^\s\x00]+)\s+(?P<v>[^\s/*\x00][^\s\x00]*)"
        ),
        ("net ", "pass"),
        back=4,
        group="v",
        accept=_unquoted_value,
    ),
    Rule(
        "password",
        Pattern(
            r"(?:snmp[a-z]*\b[^\n\x00]*?\s-[cAX]|nmcli\b[^\n\x00]*?\spassword"
            r"|PASS(?:(?<=--> PASS)|(?<=>>> PASS)|(?=[ \t]+oauth:)))[ \t]+"
            + _NOT_A_VALUE
            # SNMPv3's privacy passphrase (`-X`) goes with its auth passphrase: a later rule could not
            # start inside this match
            + r"(?P<v>[^\s\"'\x00][^\s\x00]*(?:[^\n\x00]*?\s-X[ \t]+[^\s\x00]+)?)"
        ),
        ("snmp", "nmcli", "PASS"),
        exact=True,
        group="v",
        accept=lambda v: _unquoted_value(v) and v.strip("'\"").lower() not in ("public", "private"),
    ),
    # an `expect` script's answer to a password prompt: `expect "Password:"` then `send "…\r"`
    Rule(
        "password",
        Pattern(
            r"(?i)expect\s+[^\n\x00]*pass[^\n\x00]*(?:\n|\\n)[\s>]*send\s+(?:--\s+)?\\*[\"'{]"
            + _NOT_A_VALUE
            + r"(?P<v>[^\"'}\n\x00\\]+)"
        ),
        ("expect",),
        group="v",
        accept=_is_value,
    ),
    Rule(
        "basic-auth",
        Pattern(r"(?i)authorization\\*[\"']?\s+\\*[\"']?(?:basic|bearer|token)\s+(?P<v>[A-Za-z0-9._~+/=-]{12,})"),
        ("authorization",),
        group="v",
    ),
    Rule(
        "token",
        Pattern(
            r"(?i)[\s\S]{0,10}?(?:proxy_set_header|add_header|requestheader\s+set|set-header|header_up|more_set_headers)\s+\\*[\"']?"
            r"[\w-]*(?:auth|key|token|secret)[\w-]*:?\s+\\*[\"']?(?:(?:basic|bearer|token)\s+)?(?P<v>[A-Za-z0-9._~+/=-]{12,})"
        ),
        ("header",),
        back=10,
        group="v",
        accept=_is_value,
    ),
)
