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


def _unquoted_value(value: str) -> bool:
    return _is_value(value.strip("'\""))


def _random_or_quoted(value: str) -> bool:
    bare = value.strip("'\"")
    return _is_value(bare) and (bare != value or _looks_random(bare))


def _arg(
    kind: str,
    command: str,
    anchor: str,
    *,
    back: int = 0,
    samples: tuple[str, ...] = (),
    not_samples: tuple[str, ...] = (),
) -> Rule:
    """A credential as an argument: `command` is the pattern up to the value (`_ARG` follows)."""
    return Rule(
        kind,
        Pattern(command + _ARG),
        (anchor,),
        back=back,
        group="v",
        accept=_unquoted_value,
        samples=samples,
        not_samples=not_samples,
    )


def _after_program(
    program: str,
    flag: str,
    *,
    anchor: str | None = None,
    attached: bool = False,
    samples: tuple[str, ...] = (),
    not_samples: tuple[str, ...] = (),
) -> Rule:
    """`program … flag VALUE` on one line (`attached`: `-pVALUE` as well)."""
    space = r"\s*" if attached else r"\s+"
    pattern = rf"\b{program}\b[^\n\x00]*?\s{flag}{space}"
    return _arg("password", pattern, anchor or program.split("\\")[0], samples=samples, not_samples=not_samples)


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


def _option(
    kind: str,
    name: str,
    anchors: tuple[str, ...],
    accept: Callable[[str], bool],
    *,
    samples: tuple[str, ...] = (),
    not_samples: tuple[str, ...] = (),
) -> Rule:
    return Rule(
        kind,
        Pattern(name + r"(?:\s+|=)" + _ARG),
        anchors,
        group="v",
        accept=accept,
        samples=samples,
        not_samples=not_samples,
    )


CONTEXT_RULES: tuple[Rule, ...] = (
    # --- credentials as a command's arguments (CI runners' and cluster joins' tokens too) ---
    # Found at names scanned for the assignments anyway where they can be: each scan of the
    # text for one more anchor costs about 1% of redacting.
    # a password may be a word; a token or a secret looks random (`--token flag's` is prose)
    _option(
        "password",
        _PASSWORD_OPTION,
        ("pass",),
        _unquoted_value,
        samples=("keytool -importcert -keystore app.jks -storepass EDnpQ5JyyhEG0D -file ca.crt",),
        not_samples=("keytool -importcert -keystore app.jks -storepass ${DB_PASSWORD} -file ca.crt",),
    ),
    _option(
        "password",
        _COMPOUND_PASSWORD_OPTION,
        ("pass",),
        _random_or_quoted,
        samples=("tool --db-password Xq9vLm2Rt7Kp",),
        not_samples=("We do a two-pass approach: first pass: collect ids, second pass: resolve",),
    ),
    _option(
        "token",
        _TOKEN_OPTION,
        ("secret", "token", "key"),
        lambda v: _looks_random(v.strip("'\"")),
        samples=("$ oc whoami --show-token\nsha256~2yqkeS3swgpkcvqP6mUiaTBqzOBjhp6-XHjeo5gSBHE",),
        not_samples=("openssl req -new -key key.pem -out req.csr -passin env:KEY_PASS",),
    ),
    _arg(
        "password",
        r"(?<![\w-])pass:",
        "pass:",
        samples=("openssl rsa -in k.pem -passin pass:veVbJ6HOBm%2QPl -out plain.pem",),
        not_samples=("openssl rsa -in k.pem -passin pass:${DB_PASSWORD} -out plain.pem",),
    ),
    _after_program(
        "redis-cli",
        r"(?:-a|--pass)",
        samples=("redis-cli -h 10.0.0.5 -p 6379 -a pRzkjGYt4L!OM9g info",),
        not_samples=("redis-cli -h 10.0.0.5 -p 6379 -a ${DB_PASSWORD} info",),
    ),
    _after_program(
        "sqlcmd",
        "-P",
        attached=True,
        samples=("sqlcmd -S db.example.com -U sa -P 'f8Ucxb-O0b0fm' -Q \"select 1\"",),
        not_samples=('sqlcmd -S db.example.com -U sa -P "$SQL_PASSWORD" -Q "select 1"',),
    ),
    Rule(
        "password",
        Pattern(r"ssh-keygen\b[^\n\x00]*?\s-[NP]\s+" + _ARG),
        ("key",),
        back=4,
        group="v",
        samples=("ssh-keygen -t ed25519 -N 'Qw8zLm20xPa' -f key",),
        not_samples=("ssh-keygen -t ed25519 -N '' -f key",),
    ),
    _after_program(
        r"ldap[a-z]+",
        "-w",
        anchor="ldap",
        samples=('ldapsearch -x -H ldap://dc -D "cn=admin,dc=acme" -w i3yuc53SaAiHU4 -b dc=acme',),
        not_samples=('ldapsearch -x -H ldap://dc -D "cn=admin,dc=acme" -w ${DB_PASSWORD} -b dc=acme',),
    ),
    _after_program(
        r"mongo[a-z]*",
        "-p",
        anchor="mongo",
        samples=("mongosh --username root -p pDgam14V7*76AvT --authenticationDatabase admin",),
        not_samples=("mongosh --username root -p ${DB_PASSWORD} --authenticationDatabase admin",),
    ),
    _after_program(
        "zip",
        "-P",
        samples=("zip -r -P WJihkXNANiG5yW backup.zip data/",),
        not_samples=("zip -r -P ${DB_PASSWORD} backup.zip data/",),
    ),
    _after_program(
        "unzip",
        "-P",
        samples=("unzip -P tbzEVxcw1L*k5Ex release.zip",),
        not_samples=("unzip -P ${DB_PASSWORD} release.zip",),
    ),
    _after_program(
        r"mysqladmin",
        "password",
        anchor="mysql",
        samples=("mysqladmin -u root password nLgewF-2Yac3n",),
        not_samples=("mysqladmin -u root password ${DB_PASSWORD}",),
    ),
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
        samples=("mosquitto_pub -h broker -u sensor -P W91Y2h-F5qQVB -t t -m 1",),
        not_samples=("mosquitto_pub -h broker -u sensor -P ${DB_PASSWORD} -t t -m 1",),
    ),
    Rule(
        "password",
        Pattern(r"[\s\S]{0,100}?\becho\s+['\"]?[^\s:'\"]+:(?P<v>[^\s'\"\x00]+)['\"]?\s*\|\s*(?:sudo\s+)?chpasswd"),
        ("chpasswd",),
        back=100,
        group="v",
        samples=("echo 'alice:w0Rp4W-yuBOuN' | sudo chpasswd",),
        not_samples=("echo 'alice:${DB_PASSWORD}' | sudo chpasswd",),
    ),
    # --- chat-bot tokens in code ---
    Rule(
        "discord-bot-token",
        Pattern(
            r"(?:run|login)\(\s*\\*[\"'](?P<v>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40})\\*[\"']"
        ),
        ("run(", "login"),
        group="v",
        samples=("client.run('NC5esLG2EhU7DJy1gABMnBtmWD.17C-bd.GiJcWdaYrlUxC6n4ca0uvSllL4RH3CrLVqFjFl')",),
        not_samples=("client.run('NC5esLG2EhU7DJy1gABMnBtm')",),
    ),
    Rule(
        "meta-access-token",
        Pattern(r"(?<![A-Za-z0-9+/])EAA[B-Z][A-Za-z0-9]{80,}"),
        ("EAA",),
        exact=True,
        samples=(
            "page_token = EAAGlfMBRh2uQRNraf8T7xcjdkYkBZ12HJqpOwRMx5w9oamt0IBhcnhDnunWK8BeFFuas3OH33PUhPFQfTrMDdV7m6oOWQXI1hx7",
        ),
        not_samples=("Graph API user tokens start with EAAG and run to about 200 characters.",),
    ),
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
        samples=("verifier = SignatureVerifier('9b396bb125e17a47af5f413840a71879')",),
        not_samples=("verifier = SignatureVerifier('9b396bb125')",),
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
        samples=('secrets = {\n  grafana = "VEoyAfOfyM5AvakcTRYrdmFrXwTcA0"\n}',),
        not_samples=('secrets = {\n  grafana = "VEoyAfOfyM"\n}',),
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
        samples=('<add key="ApiKey" value="KhClLzfFJgCx7LVRwVUH9Ad9CarsIgWV" />',),
        not_samples=('<add key="ApiKey" value="${TOKEN}" />',),
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
        samples=("[api]\nsite=https://chat.example.org\nkey=Zjzr9Dal6PUonakKXRBEJ6ZrpXLIDEd2\nemail=bot@example.org",),
        not_samples=("[api]\nsite=https://chat.example.org\nkey=Zjzr9Dal6P\nemail=bot@example.org",),
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
        samples=('session.auth = ("token", "HYDw8m7Xfezmcghb4hkGkSe6")',),
        not_samples=('session.auth = ("token", "${API_TOKEN}")',),
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
        samples=('r = requests.get(url, auth=("admin", "u9XC9FrlJ^o6RVX"), timeout=10)',),
        not_samples=('r = requests.get(url, auth=("admin", "${DB_PASSWORD}"), timeout=10)',),
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
        samples=("> machine h.example.com\n>   login ci\n>   password Xk29fLq0pWz",),
        not_samples=("requirepass foobared",),
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
        samples=("hdbsql -n localhost:30015 -u SYSTEM -p y51ODbtJx_KL5X5 -d SYSTEMDB",),
        not_samples=("docker run -u 1000 -p 8080:80 nginx:1.27",),
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
        samples=("htpasswd -b -c /etc/nginx/.htpasswd admin bfLP4oZ6ctbDOo",),
        not_samples=("htpasswd -b -c /etc/nginx/.htpasswd admin ${DB_PASSWORD}",),
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
        samples=("wpa_passphrase Office-5G y51ODbtJx_KL5X5 > /etc/wpa_supplicant.conf",),
        not_samples=("wpa_passphrase MyNetwork  # reads the passphrase from stdin",),
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
        samples=("nmcli device wifi connect CafeGuest password NOuB8ogrm0LR20 ifname wlan0",),
        not_samples=("snmpget -v2c -c public 10.0.0.1 sysUpTime.0",),
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
        samples=('spawn ssh admin@10.0.0.9\nexpect "password:"\nsend "HuOdHM3O7*pIJCw\\r"\ninteract',),
        not_samples=('spawn ssh admin@10.0.0.9\nexpect "password:"\nsend "${DB_PASSWORD}\\r"\ninteract',),
    ),
    Rule(
        "basic-auth",
        Pattern(r"(?i)authorization\\*[\"']?\s+\\*[\"']?(?:basic|bearer|token)\s+(?P<v>[A-Za-z0-9._~+/=-]{12,})"),
        ("authorization",),
        group="v",
        samples=('    proxy_set_header Authorization "Basic b3BzOlZ0dDZzYWg5aCUxTzVMag==";',),
        not_samples=('    proxy_set_header Authorization "Basic b3BzOlZ0d";',),
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
        samples=('    proxy_set_header X-Api-Key "Z1IGKDnKnBAllQ98ZbAvJnZyLZJB4Eo5";',),
        not_samples=('    proxy_set_header X-Api-Key "Z1IGKDnKnB";',),
    ),
)
