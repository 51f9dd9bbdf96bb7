"""Probes for whole classes of secrets, written from the classes, not from the rules: every
config syntax with a secret's name, credential files (`.pgpass`, `.netrc`, `.git-credentials`,
`auth.json`, `.npmrc`, `.pypirc`, docker's `config.json`), keys with a vendor prefix the rules
never name, every line of a key file's body, URL passwords (percent-encoded too), credentials
on a command line, headers, JWTs and crypto keys. Values are random from their own seed; the
names, prefixes and programs are chosen apart from the rule table. Plus 64 benign texts of the
kinds a generic rule could take for a secret (ids, digests, placeholders, references).

Run as a script for the figures: `python -m tests.support.generic_secrets`.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from urllib.parse import quote

from tests.support.heldout_secrets import PLACEMENTS
from tests.support.secret_probes import Probe, family_figures, family_report

L, U, D = string.ascii_lowercase, string.ascii_uppercase, string.digits
AN = L + U + D
B64 = AN + "+/"
HEX = "0123456789abcdef"
B32 = U + "234567"


def generic(seed: int = 5309) -> list[Probe]:
    rng = random.Random(seed)

    def r(alphabet: str, n: int) -> str:
        classes = [part for part in (L, U, D) if set(part) & set(alphabet)]
        while True:
            value = "".join(rng.choice(alphabet) for _ in range(n))
            if len(classes) < 2 or all(any(c in part for c in value) for part in classes):
                return value

    def pw() -> str:
        return r(AN, 10) + rng.choice("!#%^*_.") + r(AN, 4)

    out: list[Probe] = []

    def add(kind: str, family: str, line: str, *secrets: str) -> None:
        out.append(Probe(kind, family, line, secrets))

    # --- assignments in every config syntax, under any name holding a secret's word ---
    f = "config"
    for kind, template in (
        ("ini-pass", "[database]\nhost = db.internal\nuser = app\npass = {}\n"),
        ("ini-pwd", "[mssql]\nServer=db1\npwd={}"),
        ("toml-db-password", '[db]\ndb_password = "{}"\nport = 5432'),
        ("toml-signing-key", "[jwt]\nsigning_key = '{}'"),
        ("yaml-client-secret", "oauth:\n  client_id: web-app\n  client_secret: {}\n"),
        ("yaml-quoted-passwd", 'smtp:\n  passwd: "{}"'),
        ("yaml-auth-token", "registry:\n  authToken: {}"),
        ("env-credential", "SERVICE_CREDENTIAL={}"),
        ("env-lower-secret", "webhook_secret={}"),
        ("env-export-access-key", "export STORAGE_ACCESS_KEY={}"),
        ("properties-password", "spring.datasource.url=jdbc:mysql://db/app\nspring.datasource.password={}"),
        ("properties-colon", "mail.smtp.password: {}"),
        ("xml-password-element", "<connection>\n  <user>app</user>\n  <password>{}</password>\n</connection>"),
        ("xml-add-key-value", '<add key="PaymentApiKey" value="{}" />'),
        ("xml-attribute", '<datasource user="app" password="{}" url="jdbc:h2:mem"/>'),
        ("json-client-secret", '{{"clientId": "abc", "clientSecret": "{}"}}'),
        ("json-private-key-id", '{{"type": "service_account", "private_key": "{}"}}'),
        ("hcl-api-key", 'provider "acme" {{\n  api_key = "{}"\n}}'),
        ("dotted-auth", "app.auth.secret = {}"),
        ("conn-string-password", "Server=db;Database=app;User Id=sa;Password={};"),
        ("php-define", "define('DB_PASSWORD', '{}');"),
        ("python-kwarg", "conn = connect(host='db', user='app', passwd='{}')"),
        ("go-struct", 'cfg := Config{{User: "app", Password: "{}"}}'),
        ("ruby-hash", "config.access_key = '{}'"),
        ("shell-pass-var", 'DB_PASS="{}"'),
        ("yaml-pw", "smtp:\n  pw: {}"),
        ("rails-secret-key-base", "production:\n  secret_key_base: {}"),
        ("env-app-key", "app_key={}"),
        ("camel-hmac-key", "const hmacKey = '{}';"),
        ("env-passcode", "VOICEMAIL_PASSCODE={}"),
        ("spring-xml-property", '<property name="password" value="{}"/>'),
        ("xml-entry-key", '<entry key="db.password">{}</entry>'),
        ("compose-env-list", "    environment:\n      - POSTGRES_PASSWORD={}"),
        ("jdbc-dsn-params", 'psql "host=db user=app password={} dbname=app"'),
    ):
        v = pw()
        add(f"config-{kind}", f, template.format(v), v)

    # --- credential files ---
    f = "credential-file"
    v = pw()
    add("pgpass", f, f"db.internal:5432:app:app_user:{v}", v)
    v = pw()
    add("pgpass-wildcard", f, f"# ~/.pgpass\n*:*:*:postgres:{v}", v)
    v = pw()
    add("pgpass-other-port", f, f"10.0.0.7:6543:*:replicator:{v}", v)
    v = r(AN, 36)
    add("npm-config-set", f, f"npm config set //npm.example.com/:_authToken {v}", v)
    v = pw()
    add("netrc-multiline", f, f"machine api.example.com\n  login deploy\n  password {v}", v)
    v = pw()
    add("netrc-one-line", f, f"machine files.example.org login ci password {v}", v)
    v = pw()
    add("netrc-default", f, f"default login anonymous password {v}", v)
    v = r(AN, 36)
    add("git-credentials", f, f"https://alice:{v}@github.com", v)
    v = pw()
    add(
        "composer-auth-json",
        f,
        json.dumps({"http-basic": {"repo.example.com": {"username": "ci", "password": v}}}, indent=2),
        v,
    )
    v = r(AN, 40)
    add("composer-github-oauth", f, json.dumps({"github-oauth": {"github.com": v}}), v)
    v = r(AN + "-_", 36)
    add("npmrc-auth-token", f, f"//npm.example.com/:_authToken={v}", v)
    v = base64.b64encode(f"ci:{pw()}".encode()).decode()
    add("npmrc-auth", f, f"registry=https://npm.example.com/\n_auth={v}\nalways-auth=true", v)
    v = pw()
    add("pypirc", f, f"[pypi]\nusername = __token__\npassword = {v}", v)
    v = base64.b64encode(f"robot:{pw()}".encode()).decode()
    add("docker-config-auth", f, json.dumps({"auths": {"registry.example.com": {"auth": v}}}), v)
    v = r(AN + "/+", 40)
    add("aws-credentials-file", f, f"[default]\naws_access_key_id = AKIA{r(U + D, 16)}\naws_secret_access_key = {v}", v)
    v = r(AN, 32)
    add("s3cfg", f, f"[default]\naccess_key = {r(U + D, 20)}\nsecret_key = {v}", v)
    v = pw()
    add("my-cnf", f, f"[client]\nuser=root\npassword={v}", v)
    v = r(AN, 40)
    add("gh-hosts-yml", f, f"github.com:\n    user: alice\n    oauth_token: {v}\n    git_protocol: https", v)
    v = r(AN, 44)
    add("kubeconfig-token", f, f"users:\n- name: admin\n  user:\n    token: {v}", v)

    # --- keys with a vendor prefix no rule names ---
    f = "unknown-prefix"
    for prefix, alphabet, n in (
        ("cfut_", AN, 40),
        ("zk_live_", AN, 32),
        ("acme_sk_", AN, 28),
        ("vlt-", AN, 36),
        ("ory_pat_", AN, 32),
        ("tok_prod_", AN, 24),
        ("qdr_", L + D, 40),
        ("mxk-", AN, 48),
        ("PLNK-", U + D, 32),
        ("wrk_", AN + "_", 30),
        ("lk_test_", AN, 26),
        ("secretkey_", AN, 32),
        ("sgp_", HEX, 40),
        ("nvapi-", AN + "-_", 64),
        ("fw_", AN, 24),
    ):
        v = prefix + r(alphabet, n)
        placement = ("client = Acme('{}')", "ACME={}", "curl -H 'X-Token: {}' https://api.acme.io", "{}")[len(out) % 4]
        add(f"prefix-{prefix.strip('_-').lower()}", f, placement.format(v), v)

    # --- every line of a key file's body ---
    f = "key-body"
    for kind, header in (
        ("rsa-pem", "RSA PRIVATE KEY"),
        ("ec-pem", "EC PRIVATE KEY"),
        ("pkcs8", "PRIVATE KEY"),
        ("encrypted-pkcs8", "ENCRYPTED PRIVATE KEY"),
        ("openssh", "OPENSSH PRIVATE KEY"),
        ("dsa", "DSA PRIVATE KEY"),
    ):
        body = [r(B64, 64) for _ in range(5)] + [r(B64, 20) + "=="]
        text = f"-----BEGIN {header}-----\n" + "\n".join(body) + f"\n-----END {header}-----"
        add(f"pem-{kind}", f, text, *body)
    body = [r(B64, 64) for _ in range(3)]
    add(
        "pem-proc-type",
        f,
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,"
        + r(HEX.upper(), 32)
        + "\n\n"
        + "\n".join(body)
        + "\n-----END RSA PRIVATE KEY-----",
        *body,
    )
    body = [r(B64, 64) for _ in range(4)]
    add(
        "pgp-secret-key",
        f,
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(body) + "\n=Ab1c\n-----END PGP PRIVATE KEY BLOCK-----",
        *body,
    )
    body = [r(B64, 64) for _ in range(3)]
    add(
        "pem-in-json-string",
        f,
        json.dumps({"key": "-----BEGIN PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END PRIVATE KEY-----\n"}),
        *body,
    )
    body = [r(B64, 64) for _ in range(3)]
    add(
        "putty-private-lines",
        f,
        "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: k\nPublic-Lines: 1\n"
        + r(B64, 40)
        + "\nPrivate-Lines: 3\n"
        + "\n".join(body)
        + "\nPrivate-MAC: "
        + r(HEX, 40),
        *body,
    )

    # --- URL passwords ---
    f = "url-userinfo"
    for kind, scheme, password, host in (
        ("percent-encoded", "postgresql", quote(f"p@ss:{r(AN, 8)}/#", safe=""), "db.example.com:5432/app"),
        ("sftp", "sftp", pw(), "files.example.com/upload"),
        ("jdbc", "jdbc:mysql", pw(), "db:3306/app"),
        ("ipv6-host", "redis", pw(), "[::1]:6379"),
        ("no-user", "rediss", pw(), "cache.example.com:6380"),
        ("https-encoded-space", "https", quote(f"my pass {r(AN, 8)}", safe=""), "repo.example.com/x.git"),
        ("amqps", "amqps", pw(), "mq.example.com/vhost"),
        ("mongodb-multi-host", "mongodb", pw(), "h1:27017,h2:27017/app?replicaSet=rs0"),
    ):
        user = "" if kind == "no-user" else "svc"
        add(f"url-{kind}", f, f"DATABASE_URL={scheme}://{user}:{password}@{host}", password)

    # --- credentials on a command line ---
    f = "command-line"
    for kind, template in (
        ("mysql-attached-p", "mysql -uroot -p{} -h db app"),
        ("psql-env-prefix", "PGPASSWORD={} psql -h db -U app"),
        ("env-prefix-token", "GITHUB_TOKEN={} gh release create v1"),
        ("env-prefix-api-key", "OPENAI_API_KEY={} python run.py"),
        ("password-equals", "./manage --password={} --user admin"),
        ("password-space", "vault login -method=userpass username=ops password={}"),
        ("token-option", "terraform login --token {}"),
        ("api-key-option", "acme-cli deploy --api-key {}"),
        ("client-secret-option", "az ad sp create --client-secret {}"),
        ("redis-a", "redis-cli -h 10.0.0.5 -p 6379 -a {} info"),
        ("smb-user-percent", "smbclient //nas/backup -U backup%{}"),
        ("openssl-passin", "openssl rsa -in k.pem -passin pass:{} -out plain.pem"),
        ("docker-login-p", "docker login -u ci -p {} registry.example.com"),
        ("podman-login", "podman login --username ci --password {} quay.io"),
        ("curl-user", "curl -u admin:{} https://api.example.com/v1"),
        ("wget-password", "wget --user=ci --password={} https://files.example.com/a.tgz"),
        ("git-clone-url", "git clone https://ci:{}@git.example.com/acme/app.git"),
        ("sshpass", "sshpass -p {} ssh root@10.0.0.9"),
        ("htpasswd", "htpasswd -bc .htpasswd admin {}"),
        ("keytool-keypass", "keytool -genkey -alias a -keystore k.jks -keypass {} -storepass {}"),
        ("mariadb-attached-p", "mariadb-dump -uroot -p{} shop > shop.sql"),
        ("rar-attached-p", "rar a -hp{} -p{} backup.rar data/"),
        ("unzip-P", "unzip -P {} release.zip"),
        ("sqsh-U-P", "sqsh -S db01 -U sa -P {} -D master"),
        ("httpie-auth", "http -a admin:{} POST https://api.example.com/items"),
        ("sqlplus-user-slash", "sqlplus scott/{}@//db.example.com:1521/orcl"),
        ("net-use-user", "net use Z: \\\\fs01\\share /user:CORP\\svc {}"),
        ("gh-secret-body", "gh secret set DEPLOY_KEY --body {}"),
        ("echo-password-stdin", "echo '{}' | docker login -u ci --password-stdin ghcr.io"),
    ):
        v = pw()
        add(f"cli-{kind}", f, template.format(v, v), v)

    # --- headers, JWTs, high-entropy values after secret-ish words, crypto keys ---
    f = "header-token"
    v = r(AN + "-._~", 40)
    add("authorization-bearer", f, f"Authorization: Bearer {v}", v)
    v = base64.b64encode(f"admin:{pw()}".encode()).decode()
    add("authorization-basic", f, f"curl -H 'Authorization: Basic {v}' https://x.example.com", v)
    v = r(AN, 32)
    add("cookie-session", f, f"Cookie: sessionid={v}; csrftoken={r(AN, 32)}", v)
    v = r(AN, 40)
    add("set-cookie", f, f"Set-Cookie: __Host-session={v}; Path=/; Secure; HttpOnly", v)
    v = r(AN, 26)
    add("private-token-header", f, f"curl --header 'PRIVATE-TOKEN: {v}' https://gitlab.example.com/api/v4/projects", v)
    v = r(AN, 32)
    add("x-auth-token", f, f"X-Auth-Token: {v}", v)
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    payload = base64.urlsafe_b64encode(json.dumps({"sub": r(D, 8), "exp": 1999999999}).encode()).decode().rstrip("=")
    v = f"{header}.{payload}.{r(AN + '-_', 43)}"
    add("jwt-bare", f, f"token is {v}", v)
    v = r(B32, 32)
    add("totp-uri", f, f"otpauth://totp/Acme:alice?secret={v}&issuer=Acme", v)
    v = r(B32, 16)
    add("totp-seed", f, f"2FA seed: {v}", v)
    v = "nsec1" + r("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)
    add("nostr-nsec", f, f"my nostr key {v}", v)
    v = "xprv9s21ZrQH143K" + r(AN, 95)
    add("bip32-xprv", f, f"wallet master {v}", v)
    v = "0x" + r(HEX, 64)
    add("eth-private-key", f, f"PRIVATE_KEY={v}", v)
    v = r(HEX, 64)
    add("hex-secret-after-word", f, f"session secret: {v}", v)
    v = r(AN, 40)
    add("api-key-prose", f, f"use api key {v} for staging", v)
    v = "AGE-SECRET-KEY-1" + r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
    add("age-key", f, v, v)
    v = r(AN, 43) + "="
    add("fernet-key", f, f"FERNET_KEY={v}", v)
    return out


# Benign texts a generic rule could take for a secret: none of them may change.
BENIGN: tuple[str, ...] = (
    "id: 3f2504e0-4f89-41d3-9a0c-0305e82c3301",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "git checkout -b fix/9fceb02d0ae598e95dc970b74767f19372d61af8",
    '"integrity": "sha512-Q3z1ZrXn0pL9gE2uXbX0mDf1y+Yy4m8s9Wn7nE2qFfJk3cQm1rZp0l5XkV2aS8tJ6bN4cD7eF9gH1iJ2kL3mN4o=="',
    "python@sha256:5e1f8c7c44a1e0b2e7f4a4f8a3b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9",
    "docker pull ghcr.io/acme/app@sha256:0b6c5f3a9d8e7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b",
    "password: <your-password>",
    "DB_PASSWORD=${DB_PASSWORD}",
    "db_password = changeme",
    'api_key = ""',
    "token: null",
    "password = getpass.getpass()",
    "secret = os.environ['APP_SECRET']",
    "client_secret: ${{ secrets.CLIENT_SECRET }}",
    "PGPASSWORD=$PGPASSWORD psql -h db",
    "if passed == total: print('all tests pass')",
    "bypass_cache = True",
    "tokenizer = AutoTokenizer.from_pretrained('gpt2')",
    "max_tokens = 4096",
    "auth: true",
    "authorization: required",
    "pass: true",
    "secretName: tls-cert",
    "msg_01XFDUDYJgAACzvnptvVoYEL",
    '{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9Z", "name": "Bash"}',
    "request id: req_011CVhrQ8bHxD5KkZsE2nH9p",
    "chatcmpl-8a2Zb7Xq1Pq9Rk3Lm5Nc0Vd6We4Tf",
    "Stripe customer cus_NffrFeUfNV2Hib, charge ch_3MmlLrLkdIwHu7ix0snN0B15",
    "aws ec2 describe-instances --instance-ids i-0abcd1234efgh5678 sg-0123456789abcdef0",
    "ami-0c55b159cbfafe1f0 in vpc-0a1b2c3d4e5f67890, subnet-0bb1c79de3EXAMPLE",
    "test_parses_the_config_file_and_returns_the_default_values_v2",
    "feature/ABC-1234-add-login-rate-limiting-2026",
    '<div class="col-md-6 col-lg-4 d-flex justify-content-between">',
    "src/components/__tests__/UserProfileCard.test.tsx",
    "/_next/static/chunks/pages/_app-8f2a3b4c5d6e7f80.js",
    "dist/assets/index-BkW3xQ9z.js",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit",
    "arn:aws:iam::123456789012:role/deploy-role",
    "the password field must be at least 12 characters",
    "Use `--password-stdin` to read the password from stdin",
    "docker login --password-stdin < token.txt",
    "mysql -u root -p",
    "psql postgresql://app@db:5432/app",
    "git clone https://github.com/acme/app.git",
    "machine api.example.com login deploy",
    "localhost:5432:*:postgres",
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host",
    "-----BEGIN CERTIFICATE-----",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE",
    "Authorization: Bearer $TOKEN",
    "Authorization: Bearer <token>",
    "Cookie: theme=dark; lang=en",
    "curl -H 'Content-Type: application/json' https://api.example.com",
    "export PATH=$HOME/.local/bin:$PATH",
    "Cookie: _ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000",
    "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
    "The key_id column references key_versions(id).",
    "secret_scanning_alerts_enabled = false",
    "pw = getpass()",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt",
    "auth = HTTPBasicAuth(user, pw)",
    "kubectl get secret app-tls -o yaml",
)


def figures(redact: Callable[[str], str]) -> tuple[dict[str, tuple[int, int]], list[str], list[str]]:
    """Per family (found whole, probes), over every placement; the kinds missed; the benign
    texts altered."""
    return family_figures(redact, generic(), PLACEMENTS, BENIGN)


def report(redact: Callable[[str], str]) -> list[str]:
    title = f"generic probes: {len(generic())} formats x {len(PLACEMENTS)} placements"
    return family_report(title, figures(redact), len(BENIGN))


if __name__ == "__main__":
    from session_kit.redaction.engine import redact_text

    print("\n".join(report(redact_text)))
