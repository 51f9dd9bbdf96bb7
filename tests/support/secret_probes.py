"""A generated set of secret probes and benign look-alikes, for measuring the redactor.

Each probe class follows one vendor's documented format (prefix, alphabet, length), the way
secret scanners (gitleaks' rules, detect-secrets' plugins) describe them; values are random
from a fixed seed, so the set is the same on every run and no real secret is in it. Each
probe is put in every placement the kit meets (a Bash command, tool output, user text, JSON
with escaped quotes, an unknown entry's body, at a truncation boundary, inside XML or
markdown…). A probe is *fully removed* when no 8-character piece of its secret survives.

Run as a script for the figures: `python -m tests.support.secret_probes`.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
HEX = "0123456789abcdef"
ALNUM = LOWER + UPPER + DIGITS
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE32 = UPPER + "234567"


@dataclass(frozen=True, slots=True)
class Probe:
    kind: str  # the format, as a scanner would name it
    family: str
    line: str  # how the secret is usually written
    secrets: tuple[str, ...]  # the parts that must not survive


@dataclass(frozen=True, slots=True)
class Placement:
    name: str
    wrap: Callable[[str], str]


def _r(rng: random.Random, alphabet: str, n: int) -> str:
    # A digit and a letter in every value, as real keys of these lengths have.
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if (
            n < 8
            or set(alphabet) <= set(DIGITS + HEX)
            or (any(c.isdigit() for c in value) and any(c.isalpha() for c in value))
        ):
            return value


def probes(seed: int = 10) -> list[Probe]:
    rng = random.Random(seed)

    def r(alphabet: str, n: int) -> str:
        return _r(rng, alphabet, n)

    found: list[Probe] = []

    def token(kind: str, family: str, value: str, line: str = "{s}") -> None:
        found.append(Probe(kind, family, line.format(s=value), (value,)))

    def secret(kind: str, family: str, line: str, *values: str) -> None:
        found.append(Probe(kind, family, line.format(*values), tuple(values)))

    # --- cloud ---
    token("aws-access-key-id", "cloud", "AKIA" + r(BASE32, 16), "aws_access_key_id = {s}")
    token("aws-temporary-access-key-id", "cloud", "ASIA" + r(BASE32, 16), "AccessKeyId: {s}")
    secret("aws-secret-access-key", "cloud", "aws_secret_access_key = {}", r(B64, 40))
    secret("aws-secret-env", "cloud", "export AWS_SECRET_ACCESS_KEY={}", r(B64, 40))
    secret("aws-secret-json", "cloud", '{{"SecretAccessKey": "{}"}}', r(B64, 40))
    secret("aws-session-token", "cloud", "AWS_SESSION_TOKEN=IQoJb3JpZ2luX2Vj{}", r(B64, 180))
    token("gcp-api-key", "cloud", "AIza" + r(URLSAFE, 35), "key={s}")
    token("gcp-oauth-client-secret", "cloud", "GOCSPX-" + r(URLSAFE, 28), "client_secret: {s}")
    token("google-oauth-access-token", "cloud", "ya29." + r(URLSAFE, 120), "access token {s}")
    token("google-oauth-refresh-token", "cloud", "1//0" + r(URLSAFE, 90), "refresh: {s}")
    secret(
        "gcp-service-account-key",
        "cloud",
        '"private_key": "-----BEGIN PRIVATE KEY-----\\n{}\\n{}\\n-----END PRIVATE KEY-----\\n"',
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + r(B64, 32),
        r(B64, 64),
    )
    secret(
        "azure-storage-connection-string",
        "cloud",
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={}==;EndpointSuffix=core.windows.net",
        r(B64, 86),
    )
    secret(
        "azure-sas-token",
        "cloud",
        "https://acme.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01&sig={}%3D",
        r(ALNUM + "%", 43),
    )
    secret(
        "azure-service-bus-key",
        "cloud",
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey={}=",
        r(B64, 43),
    )
    token("azure-ad-client-secret", "cloud", r(ALNUM, 3) + "8Q~" + r(ALNUM + "_~.-", 34), "AZURE_CLIENT_SECRET={s}")
    token("digitalocean-pat", "cloud", "dop_v1_" + r(HEX, 64))
    token("digitalocean-oauth", "cloud", "doo_v1_" + r(HEX, 64))
    token("alibaba-access-key-id", "cloud", "LTAI" + r(ALNUM, 20), "AccessKeyId={s}")
    secret("alibaba-secret", "cloud", "alibaba_secret_key = {}", r(ALNUM, 30))
    token("databricks-token", "cloud", "dapi" + r(HEX, 32), "DATABRICKS_TOKEN {s}")
    token("doppler-token", "cloud", "dp.pt." + r(ALNUM, 43))
    token("fly-io-token", "cloud", "fo1_" + r(URLSAFE, 43))
    token("vault-service-token", "cloud", "hvs." + r(URLSAFE, 90), "VAULT_TOKEN={s}")
    token("vault-batch-token", "cloud", "hvb." + r(URLSAFE, 120))
    token("terraform-cloud-token", "cloud", r(ALNUM, 14) + ".atlasv1." + r(URLSAFE, 67))
    token("pulumi-token", "cloud", "pul-" + r(HEX, 40))
    token("supabase-token", "cloud", "sbp_" + r(HEX, 40))
    token(
        "heroku-api-key",
        "cloud",
        r(HEX, 8) + "-" + r(HEX, 4) + "-" + r(HEX, 4) + "-" + r(HEX, 4) + "-" + r(HEX, 12),
        "HEROKU_API_KEY={s}",
    )
    secret("cloudflare-api-token", "cloud", "CLOUDFLARE_API_TOKEN={}", r(URLSAFE, 40))
    token(
        "scaleway-secret-key",
        "cloud",
        r(HEX, 8) + "-" + r(HEX, 4) + "-" + r(HEX, 4) + "-" + r(HEX, 4) + "-" + r(HEX, 12),
        "SCW_SECRET_KEY={s}",
    )
    # --- VCS and CI ---
    for prefix in ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"):
        token(f"github-{prefix[:3]}", "vcs", prefix + r(ALNUM, 36))
    token("github-fine-grained-pat", "vcs", "github_pat_" + r(ALNUM, 22) + "_" + r(ALNUM, 59))
    token("gitlab-pat", "vcs", "glpat-" + r(URLSAFE, 20))
    token("gitlab-pipeline-trigger", "vcs", "glptt-" + r(HEX, 40))
    token("gitlab-runner-token", "vcs", "glrt-" + r(URLSAFE, 20))
    token("gitlab-deploy-token", "vcs", "gldt-" + r(URLSAFE, 20))
    token(
        "gitlab-header",
        "vcs",
        r(URLSAFE, 20),
        'curl --header "PRIVATE-TOKEN: {s}" https://gitlab.example.com/api/v4/projects',
    )
    token("bitbucket-app-password", "vcs", "ATBB" + r(ALNUM, 32), "BITBUCKET_APP_PASSWORD {s}")
    token("atlassian-api-token", "vcs", "ATATT3xFfGF0" + r(URLSAFE, 180))
    token("circleci-personal-token", "ci", "CCIPAT_" + r(ALNUM, 22) + "_" + r(HEX, 40))
    secret("circleci-env-token", "ci", "CIRCLE_TOKEN={}", r(HEX, 40))
    token("buildkite-token", "ci", "bkua_" + r(HEX, 40))
    secret("travis-token", "ci", "travis_api_token: {}", r(ALNUM, 22))
    secret("jenkins-api-token", "ci", "curl -u admin:{} https://ci.example.com/job/x/build", "11" + r(HEX, 32))
    token("git-credential-url", "vcs", r(ALNUM, 24), "git clone https://oauth2:{s}@gitlab.example.com/acme/app.git")
    # --- package registries ---
    token("npm-token", "registry", "npm_" + r(ALNUM, 36))
    token(
        "npmrc-auth-token",
        "registry",
        r(HEX, 8) + "-" + r(HEX, 4) + "-" + r(HEX, 4) + "-" + r(HEX, 4) + "-" + r(HEX, 12),
        "//registry.npmjs.org/:_authToken={s}",
    )
    secret("npmrc-auth", "registry", "_auth={}", base64.b64encode(("ci:" + r(ALNUM, 16)).encode()).decode())
    token("pypi-token", "registry", "pypi-AgEIcHlwaS5vcmc" + r(URLSAFE, 70))
    secret("pypirc-password", "registry", "[pypi]\nusername = __token__\npassword = {}", r(ALNUM, 24))
    token("rubygems-key", "registry", "rubygems_" + r(HEX, 48))
    token("nuget-key", "registry", "oy2" + r(LOWER + DIGITS, 43))
    token("docker-hub-pat", "registry", "dckr_pat_" + r(URLSAFE, 27))
    secret("docker-login", "registry", "docker login -u ci -p {} registry.example.com", r(ALNUM, 20))
    token("artifactory-api-key", "registry", "AKCp8" + r(ALNUM, 68))
    token("postman-api-key", "registry", "PMAK-" + r(HEX, 24) + "-" + r(HEX, 34))
    secret(
        "composer-auth",
        "registry",
        '{{"http-basic": {{"repo.example.com": {{"username": "ci", "password": "{}"}}}}}}',
        r(ALNUM, 20),
    )
    # --- payment and commerce ---
    token("stripe-secret-live", "payment", "sk_live_" + r(ALNUM, 24))
    token("stripe-secret-test", "payment", "sk_test_" + r(ALNUM, 24))
    token("stripe-restricted", "payment", "rk_live_" + r(ALNUM, 24))
    token("stripe-webhook-secret", "payment", "whsec_" + r(ALNUM, 32))
    token("square-access-token", "payment", "EAAA" + r(URLSAFE, 60))
    token("square-oauth-secret", "payment", "sq0csp-" + r(URLSAFE, 43))
    token("braintree-token", "payment", "access_token$production$" + r(LOWER + DIGITS, 16) + "$" + r(HEX, 32))
    token("flutterwave-secret", "payment", "FLWSECK_TEST-" + r(HEX, 32) + "-X")
    token("shopify-access-token", "payment", "shpat_" + r(HEX, 32))
    token("shopify-shared-secret", "payment", "shpss_" + r(HEX, 32))
    token("paypal-client-secret", "payment", r(URLSAFE, 80), "PAYPAL_CLIENT_SECRET={s}")
    # --- chat and messaging ---
    token("slack-bot-token", "chat", "xoxb-" + r(DIGITS, 12) + "-" + r(DIGITS, 13) + "-" + r(ALNUM, 24))
    token(
        "slack-user-token",
        "chat",
        "xoxp-" + r(DIGITS, 12) + "-" + r(DIGITS, 12) + "-" + r(DIGITS, 13) + "-" + r(HEX, 32),
    )
    token("slack-app-token", "chat", "xapp-1-A" + r(UPPER + DIGITS, 10) + "-" + r(DIGITS, 13) + "-" + r(HEX, 64))
    secret(
        "slack-webhook",
        "chat",
        "https://hooks.slack.com/services/T{}/B{}/{}",
        r(UPPER + DIGITS, 10),
        r(UPPER + DIGITS, 10),
        r(ALNUM, 24),
    )
    token(
        "discord-bot-token",
        "chat",
        "M" + r(ALNUM, 25) + "." + r(URLSAFE, 6) + "." + r(URLSAFE, 38),
        "Authorization: Bot {s}",
    )
    secret("discord-webhook", "chat", "https://discord.com/api/webhooks/{}/{}", r(DIGITS, 18), r(URLSAFE, 68))
    secret("telegram-bot-token", "chat", "https://api.telegram.org/bot{}:AA{}/getMe", r(DIGITS, 10), r(URLSAFE, 33))
    token("twilio-api-key", "chat", "SK" + r(HEX, 32), "TWILIO_API_KEY={s}")
    secret("twilio-auth-token", "chat", "TWILIO_AUTH_TOKEN={}", r(HEX, 32))
    token("sendgrid-api-key", "chat", "SG." + r(URLSAFE, 22) + "." + r(URLSAFE, 43))
    token("mailgun-api-key", "chat", "key-" + r(HEX, 32), "api:{s}")
    token("mailchimp-api-key", "chat", r(HEX, 32) + "-us12", "MAILCHIMP_KEY {s}")
    secret(
        "teams-webhook",
        "chat",
        "https://acme.webhook.office.com/webhookb2/{}@{}/IncomingWebhook/{}/{}",
        r(HEX, 8),
        r(HEX, 8),
        r(HEX, 32),
        r(HEX, 8),
    )
    # --- AI providers ---
    token("anthropic-api-key", "ai", "sk-ant-api03-" + r(URLSAFE, 93) + "AA")
    token("anthropic-admin-key", "ai", "sk-ant-admin01-" + r(URLSAFE, 93) + "AA")
    token("openai-project-key", "ai", "sk-proj-" + r(URLSAFE, 156))
    token("openai-legacy-key", "ai", "sk-" + r(ALNUM, 20) + "T3BlbkFJ" + r(ALNUM, 20))
    token("huggingface-token", "ai", "hf_" + r(ALNUM, 34))
    token("replicate-token", "ai", "r8_" + r(ALNUM, 37))
    token("groq-key", "ai", "gsk_" + r(ALNUM, 52))
    token("perplexity-key", "ai", "pplx-" + r(ALNUM, 48))
    secret("cohere-key", "ai", "COHERE_API_KEY={}", r(ALNUM, 40))
    secret("mistral-key", "ai", 'mistral = Mistral(api_key="{}")', r(ALNUM, 32))
    # --- SaaS and observability ---
    token("notion-token", "saas", "ntn_" + r(ALNUM, 46))
    token("linear-api-key", "saas", "lin_api_" + r(ALNUM, 40))
    token("airtable-pat", "saas", "pat" + r(ALNUM, 14) + "." + r(HEX, 64))
    secret("datadog-api-key", "saas", "DD_API_KEY={}", r(HEX, 32))
    token("newrelic-user-key", "saas", "NRAK-" + r(UPPER + DIGITS, 27))
    token("sentry-dsn", "saas", r(HEX, 32), "SENTRY_DSN=https://{s}@o4504.ingest.sentry.io/4505")
    token("sentry-auth-token", "saas", "sntrys_" + r(URLSAFE, 120))
    token("grafana-service-account", "saas", "glsa_" + r(ALNUM, 32) + "_" + r(HEX, 8))
    token("grafana-cloud-token", "saas", "glc_" + r(URLSAFE + "=", 60))
    secret("okta-token", "saas", "Authorization: SSWS 00{}", r(URLSAFE, 40))
    # --- tokens and keys by shape ---
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    claims = base64.urlsafe_b64encode(json.dumps({"sub": r(DIGITS, 10), "name": "ann"}).encode()).decode().rstrip("=")
    secret("jwt", "shape", "cookie: session={}.{}.{}", header, claims, r(URLSAFE, 43))

    def pem(label: str, body_lines: int = 3) -> tuple[str, tuple[str, ...]]:
        body = tuple(r(B64, 64) for _ in range(body_lines))
        text = f"-----BEGIN {label}-----\n" + "\n".join(body) + f"\n-----END {label}-----"
        return text, body

    for kind, label in (
        ("pem-rsa-private-key", "RSA PRIVATE KEY"),
        ("pem-ec-private-key", "EC PRIVATE KEY"),
        ("pem-pkcs8-private-key", "PRIVATE KEY"),
        ("pem-encrypted-private-key", "ENCRYPTED PRIVATE KEY"),
        ("openssh-private-key", "OPENSSH PRIVATE KEY"),
        ("pgp-private-key", "PGP PRIVATE KEY BLOCK"),
    ):
        text, body = pem(label)
        found.append(Probe(kind, "shape", text, body))
    # --- connection strings and command lines ---
    secret("postgres-url", "connection", "DATABASE_URL=postgres://app:{}@db.internal:5432/app", r(ALNUM, 16))
    secret("postgres-url-special", "connection", "psql 'postgresql://admin:{}!x@10.0.0.5/prod'", r(ALNUM, 14))
    secret("mysql-url", "connection", "mysql://root:{}@localhost:3306/shop", r(ALNUM, 12))
    secret(
        "mongodb-srv-url",
        "connection",
        "mongodb+srv://svc:{}@cluster0.ab1cd.mongodb.net/db?retryWrites=true",
        r(ALNUM, 16),
    )
    secret("redis-url", "connection", "REDIS_URL=redis://:{}@cache.internal:6379/0", r(ALNUM, 20))
    secret("amqp-url", "connection", "amqp://guest:{}@mq.internal:5672/vhost", r(ALNUM, 14))
    secret("jdbc-url", "connection", "jdbc:sqlserver://db:1433;databaseName=app;user=sa;password={};", r(ALNUM, 14))
    secret("adonet", "connection", "Server=tcp:db,1433;Database=app;User Id=sa;Password={};Encrypt=True", r(ALNUM, 14))
    secret("curl-basic", "command", "curl -u deploy:{} https://api.example.com/v1/deploy", r(ALNUM, 14))
    secret("curl-user-long", "command", "curl --user 'ann:{}' https://api.example.com", r(ALNUM, 14))
    secret("mysql-p-quoted", "command", "mysql -h db -u root -p'{}' shop", r(ALNUM, 12) + "#!")
    secret("mysql-p-joined", "command", "mysqldump -uroot -p{} shop > dump.sql", r(ALNUM, 12))
    secret("sshpass", "command", "sshpass -p '{}' ssh deploy@10.0.0.7", r(ALNUM, 12))
    secret("sshpass-bare", "command", "sshpass -p {} scp f host:", r(ALNUM, 12))
    secret("x-api-key-header", "command", "curl -H 'X-API-Key: {}' https://api.example.com", r(ALNUM, 32))
    secret("api-key-header", "command", "api-key: {}", r(HEX, 32))
    secret("bearer-header", "command", 'curl -H "Authorization: Bearer {}" https://x', r(URLSAFE, 40))
    secret(
        "basic-header",
        "command",
        "Authorization: Basic {}",
        base64.b64encode(("ann:" + r(ALNUM, 12)).encode()).decode(),
    )
    secret("token-header", "command", "Authorization: token {}", r(HEX, 40))
    secret("pgpassword-env", "command", "PGPASSWORD={} psql -h db", r(ALNUM, 16))
    secret("netrc", "command", "machine api.example.com login ann password {}", r(ALNUM, 16))
    secret("htpasswd", "command", "htpasswd -b .htpasswd admin {}", r(ALNUM, 14))
    secret(
        "git-config-token",
        "command",
        'git config --global url."https://{}@github.com/".insteadOf "https://github.com/"',
        r(ALNUM, 40),
    )
    # --- assignments by name ---
    secret("password-yaml", "assignment", "database:\n  password: {}", r(ALNUM, 14))
    secret("password-json-escaped", "assignment", '{{\\"user\\": \\"ann\\", \\"password\\": \\"{}\\"}}', r(ALNUM, 14))
    secret("client-secret-json", "assignment", '{{"client_id": "app", "client_secret": "{}"}}', r(URLSAFE, 32))
    secret("api-key-python", "assignment", "API_KEY = '{}'", r(ALNUM, 32))
    secret("secret-key-django", "assignment", "SECRET_KEY = '{}'", r(ALNUM + "!@#%^&*(-_=+)", 50))
    secret("auth-token-env", "assignment", "AUTH_TOKEN={}", r(ALNUM, 32))
    secret("private-token-toml", "assignment", 'private_token = "{}"', r(ALNUM, 24))
    secret("encryption-key-env", "assignment", "ENCRYPTION_KEY={}", r(B64, 44))
    return found


CUT_INTO = 12  # at the truncation boundary, the cut falls this many characters into the secret


def at_cut(probe: Probe, limit: int) -> str:
    """The probe's line after filler, so that a cut after `limit - 1` characters (the kit's
    `…` takes the last) falls CUT_INTO characters into its first secret."""
    before = probe.line.index(probe.secrets[0]) + CUT_INTO
    return "echo " + "x" * max(0, limit - 1 - before - 5) + " " + probe.line


PLACEMENTS: tuple[Placement, ...] = (
    Placement("user text", lambda s: f"Here is what I have:\n{s}\nplease check it"),
    Placement("bash command", lambda s: f"cd /srv/app && {s} && echo done"),
    Placement("tool output", lambda s: f"Exit code 1\n$ ./deploy.sh\n{s}\nerror: connection refused"),
    Placement("json-escaped tool input", lambda s: json.dumps({"command": s})),
    Placement("doubly escaped json", lambda s: json.dumps(json.dumps({"content": s}))),
    Placement("unknown entry body", lambda s: json.dumps({"type": "x-telemetry", "body": {"env": s}})),
    Placement("truncation boundary", lambda s: s),  # see `at_cut`
    Placement("xml element", lambda s: f"<output>\n{s}\n</output>"),
    Placement("xml attribute", lambda s: f'<tool name="Bash" input="{s}"/>'),
    Placement("markdown fence", lambda s: f"```sh\n{s}\n```"),
    Placement("markdown inline", lambda s: f"Set `{s}` in the file."),
    Placement("markdown table", lambda s: f"| name | value |\n|---|---|\n| cred | {s} |"),
    Placement("double quoted", lambda s: f'value "{s}" was set'),
    Placement("single quoted", lambda s: f"value '{s}' was set"),
    Placement("parentheses", lambda s: f"(see {s})"),
    Placement("start of text", lambda s: s),
    Placement("end of text", lambda s: f"the value is {s}"),
    Placement("tabs and crlf", lambda s: f"a\t{s}\r\nb"),
    Placement("log line", lambda s: f"2026-11-22T10:00:00Z [INFO] config loaded: {s}"),
    Placement("env file", lambda s: f"# production\n{s}\nLOG_LEVEL=info"),
    Placement("yaml list", lambda s: "steps:\n  - run: " + s.replace("\n", "\n    ")),
    Placement("tool error", lambda s: f"<tool_use_error>{s}</tool_use_error>"),
    Placement("html comment", lambda s: f"<!-- {s} -->"),
    Placement("thinking", lambda s: f"The user pasted {s}; I must not repeat it."),
    Placement("agent prompt", lambda s: f"Investigate why the deploy fails. Context: {s}. Report back."),
)

# Benign text that looks a little like secrets: none of it may change.
BENIGN: tuple[str, ...] = (
    "password: string",
    "  password: { type: string, minLength: 8 }",
    'password = os.environ["DB_PASSWORD"]',
    "password = getpass.getpass()",
    "token = request.headers.get('Authorization')",
    "api_key = settings.API_KEY",
    "MAX_TOKEN=4096",
    "MAX_TOKENS=8192 MIN_TOKEN_LENGTH=3",
    "max_tokens=1024, tokenizer = AutoTokenizer.from_pretrained(name)",
    'if line.startswith("-----BEGIN RSA PRIVATE KEY-----"):',
    'PEM_HEADER = "-----BEGIN OPENSSH PRIVATE KEY-----"',
    "assert key.startswith('-----BEGIN PRIVATE KEY-----')",
    "session 266f5872-b716-4df1-b42b-7ca857a257ae resumed",
    "request id 9b2e4f1c-3d5a-4e6b-8c7d-0a1b2c3d4e5f",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)",
    "git log --oneline: 1a2b3c4 fix the parser",
    "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "md5 d41d8cd98f00b204e9800998ecf8427e  empty.txt",
    "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "The quick brown fox jumps over the lazy dog; tokens are counted per message.",
    "Use a bearer token in the Authorization header (see docs).",
    "Bearer tokens go in the Authorization header",
    "/home/user/.ssh/id_rsa.pub /usr/lib/python3.11/site-packages/tokenizers/__init__.py",
    "src/session_kit/redact.py:42: def is_secret_name(name: str) -> bool:",
    "if password == expected: return",
    "password_hash = bcrypt(pw)",
    "def get_api_key(self): return os.environ['API_KEY']",
    "API_KEY=$API_KEY ./deploy.sh && PASSWORD=${PASSWORD} make",
    "export GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    "token: ${{ secrets.NPM_TOKEN }}",
    "the task-runner-configuration-and-rollout-plan is ready",
    "https://example.com:8443/path?x=1 and http://localhost:8000/",
    "git@github.com:acme/app.git and ssh://git@github.com/acme/app.git",
    "Asia/Tokyo timezone; key: value; secret sauce",
    "docker run -u 1000:1000 -p 8080:80 nginx",
    "git push -u origin main",
    "mysql -u root -p shop  # asks for the password",
    "ssh -p 2222 deploy@host",
    "curl -u $USER:$PASS https://x",
    "Content-Type: application/json; Accept: */*",
    "x-request-id: 42",
    "sk-learn is a common misspelling of scikit-learn",
    "The function returns a KeyError when the key is missing.",
    "class TokenBucket: capacity = 100; refill_rate = 10",
    "passwordless login via WebAuthn",
    "secret_santa_assignments.csv",
    "ACCESS_KEY_ID_LENGTH = 20",
    "ghost_user_count = 12",
    "skip_tokens = ['<s>', '</s>']",
    '"password": null, "token": "", "secret": "<redacted>"',
    "PASSWORD_MIN_LENGTH=12",
    "AKIA is the prefix of AWS access key ids",
    "npm install --save-dev @types/node",
    "pip install pypi-simple==1.2.0",
    "A JWT has three parts: header.payload.signature",
    "Base64 of 'hello' is aGVsbG8=",
    "font-family: -apple-system, BlinkMacSystemFont; color: #1a2b3c",
    "v1.2.3-rc.4+build.567",
    "- session-token: Deploy component emitter `deploy_budget()` provider",
    "query tokenizer transform wheel render token: artifact widget",
    "the api-key: see the settings page; X-API-Key: <your key>",
    "docker login -u ci --password-stdin < token.txt",
)

WINDOW = 8  # a piece of a secret this long surviving counts as a leak


MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def leaked(secret: str, output: str, context: str = "") -> bool:
    """Whether a piece of `secret` survives in `output` (markers aside; pieces that the
    surrounding `context` holds anyway, like `production` around a Braintree token, aside)."""
    output = MARKER.sub("", output)
    if len(secret) <= WINDOW:
        return secret in output
    pieces = (secret[i : i + WINDOW] for i in range(len(secret) - WINDOW + 1))
    return any(piece in output and piece not in context for piece in pieces)


@dataclass(frozen=True, slots=True)
class Figures:
    probes: int
    recall: dict[str, float]  # placement -> share of probes fully removed
    missed: dict[str, list[str]]  # placement -> kinds not fully removed
    benign: int
    altered: list[str]

    def lines(self) -> list[str]:
        out = [f"secret probes: {self.probes} formats x {len(self.recall)} placements"]
        for name, share in self.recall.items():
            missed = ", ".join(self.missed[name][:6])
            out.append(f"  {name:<24} {share:7.1%}" + (f"  missed: {missed}" if missed else ""))
        total = sum(self.recall.values()) / len(self.recall)
        out.append(f"  {'all placements':<24} {total:7.1%}  (lowest {min(self.recall.values()):.1%})")
        out.append(f"benign texts altered: {len(self.altered)} of {self.benign}")
        out.extend(f"  {text!r}" for text in self.altered)
        return out


def measure(show: Callable[[str], str], truncate: Callable[[str], str], *, limit: int) -> Figures:
    """`show` is the kit's redaction of a text; `truncate` the kit's cut to `limit` characters
    (as the kit shows text: redacted)."""
    found = probes()
    recall: dict[str, float] = {}
    missed: dict[str, list[str]] = {}
    for placement in PLACEMENTS:
        cut = placement.name == "truncation boundary"
        misses = []
        for probe in found:
            out = truncate(at_cut(probe, limit)) if cut else show(placement.wrap(probe.line))
            context = "" if cut else placement.wrap("")
            if any(leaked(s, out, context) for s in probe.secrets):
                misses.append(probe.kind)
        recall[placement.name] = 1 - len(misses) / len(found)
        missed[placement.name] = misses
    altered = [text for text in BENIGN if show(text) != text]
    return Figures(len(found), recall, missed, len(BENIGN), altered)


if __name__ == "__main__":
    from session_kit.redaction.engine import redact_text
    from session_kit.transcript.tools import SUMMARY_LIMIT, one_line

    for line in measure(redact_text, one_line, limit=SUMMARY_LIMIT).lines():
        print(line)


def family_figures(
    redact: Callable[[str], str],
    probes: list[Probe],
    placements: tuple[tuple[str, Callable[[str], str]], ...],
    benign: tuple[str, ...],
) -> tuple[dict[str, tuple[int, int]], list[str], list[str]]:
    """Recall per family of a probe set (found whole, probes), over every placement; the
    kinds missed; the benign texts altered."""
    per_family: dict[str, tuple[int, int]] = {}
    missed: list[str] = []
    for probe in probes:
        for name, wrap in placements:
            out = redact(wrap(probe.line))
            hit = not any(leaked(s, out, wrap("")) for s in probe.secrets)
            found, total = per_family.get(probe.family, (0, 0))
            per_family[probe.family] = (found + hit, total + 1)
            if not hit:
                missed.append(f"{probe.kind} ({name})")
    altered = [text for text in benign if redact(text) != text]
    return per_family, missed, altered


def family_report(
    title: str, figures: tuple[dict[str, tuple[int, int]], list[str], list[str]], benign: int
) -> list[str]:
    """`family_figures` as lines, for a probe set's `python -m` run."""
    per_family, missed, altered = figures
    found = sum(f for f, _ in per_family.values())
    total = sum(t for _, t in per_family.values())
    lines = [title]
    lines += [f"  {family:<20} {f / t:7.1%}  ({f}/{t})" for family, (f, t) in per_family.items()]
    lines.append(f"  {'all':<20} {found / total:7.1%}  ({found}/{total})")
    lines.append(f"benign texts altered: {len(altered)} of {benign}")
    lines += [f"  {text!r}" for text in altered]
    lines += [f"  missed: {kind}" for kind in missed]
    return lines
