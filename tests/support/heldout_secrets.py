"""A held-out set of secret probes: formats and placements the redactor's own test fixtures
(`secret_probes`, `tests/test_redact.py`) never hold, generated apart from them (another
generator, another seed), to measure recall on what the rules were not written against.

Families (as categories, each with several formats): CI runner registration and join
tokens, bodies of less common private-key files, URL credentials whose password holds
reserved characters, credentials given as positional command arguments, newer prefixed
platform API keys, chat-bot tokens inside code, age-style secret keys. Plus 64 benign texts
that look a little like secrets, none of which may change.

Run as a script for the figures per family: `python -m tests.support.heldout_secrets`.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable

from tests.support.secret_probes import Probe, family_figures, family_report

L, U, D = string.ascii_lowercase, string.ascii_uppercase, string.digits
AN = L + U + D
HEXL = "0123456789abcdef"
B64 = AN + "+/"
B64URL = AN + "-_"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
B32L = L + "234567"


def heldout(seed: int = 2611) -> list[Probe]:
    rng = random.Random(seed)

    def r(alphabet: str, n: int) -> str:
        """Random, with a letter and a digit (or two cases) where the alphabet has them, as
        real keys of these lengths do."""
        classes = [part for part in (L, U, D) if set(part) & set(alphabet)]
        while True:
            value = "".join(rng.choice(alphabet) for _ in range(n))
            if n < 10 or len(classes) < 2 or sum(any(c in part for c in value) for part in classes) >= 2:
                return value

    out: list[Probe] = []

    def add(kind: str, family: str, line: str, *secrets: str) -> None:
        out.append(Probe(kind, family, line, secrets))

    def b64_lines(n: int, width: int = 64) -> list[str]:
        return [r(B64, width) for _ in range(n)]

    # --- CI runner registration and join tokens ---
    f = "ci-runner"
    v = "GR1348941" + r(AN + "_-", 20)
    add(
        "gitlab-runner-registration",
        f,
        f"gitlab-runner register --non-interactive --url https://gl.example.com/ --registration-token {v} --executor docker",
        v,
    )
    v = "A" + r(U + D, 28)
    add("github-actions-runner", f, f"./config.sh --url https://github.com/acme/app --token {v} --labels linux", v)
    v = r(B32L, 52)
    add(
        "azure-pipelines-agent",
        f,
        f"./config.sh --unattended --url https://dev.azure.com/acme --auth pat --token {v} --pool default",
        v,
    )
    v = r(HEXL, 64)
    add(
        "jenkins-inbound-agent",
        f,
        f"java -jar agent.jar -url https://ci.example.com/ -secret {v} -name build-01 -workDir /srv/jenkins",
        v,
    )
    v = r(L + D, 50)
    add("buildkite-agent-token", f, f"buildkite-agent start --token {v} --tags queue=default", v)
    v = r(L + D, 6) + "." + r(L + D, 16)
    add(
        "kubeadm-bootstrap-token",
        f,
        f"kubeadm join 10.0.0.1:6443 --token {v} --discovery-token-ca-cert-hash sha256:{r(HEXL, 64)}",
        v,
    )
    v = "SWMTKN-1-" + r(L + D, 50) + "-" + r(L + D, 25)
    add("docker-swarm-join", f, f"docker swarm join --token {v} 10.0.0.1:2377", v)
    v = "K10" + r(HEXL, 64) + "::server:" + r(HEXL, 32)
    add("k3s-node-token", f, f"curl -sfL https://get.k3s.io | K3S_URL=https://10.0.0.1:6443 K3S_TOKEN={v} sh -", v)
    v = r(AN, 40)
    add("circleci-runner-token", f, f"circleci-launch-agent --token {v} --runner-name r1", v)

    # --- bodies of less common private-key files ---
    f = "private-key-body"
    private = r(B64, 44)
    mac = r(HEXL, 64)
    add(
        "putty-ppk-v3",
        f,
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n"
        f"{r(B64, 64)}\n{r(B64, 20)}\nPrivate-Lines: 1\n{private}\nPrivate-MAC: {mac}",
        private,
        mac,
    )
    body = b64_lines(4)
    add(
        "putty-ppk-v2-encrypted",
        f,
        "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: aes256-cbc\nComment: rsa-key-20260101\nPublic-Lines: 1\n"
        f"{r(B64, 64)}\nPrivate-Lines: 4\n" + "\n".join(body) + f"\nPrivate-MAC: {r(HEXL, 40)}",
        *body,
    )
    body = b64_lines(3, 70)
    add(
        "ssh2-secsh-private-key",
        f,
        '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20260101"\n'
        + "\n".join(body)
        + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        *body,
    )
    body = ["MIIEpAIBAAKCAQEA" + r(B64, 48), *b64_lines(3)]
    add("pkcs1-body-without-header", f, "$ sed -n '2,5p' id_rsa\n" + "\n".join(body), *body)
    body = ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + r(B64, 32), *b64_lines(2)]
    add("pkcs8-body-without-header", f, "key body:\n" + "\n".join(body), *body)
    body = ["b3BlbnNzaC1rZXktdjEAAAAA" + r(B64, 46), *b64_lines(2, 70)]
    add("openssh-body-without-header", f, "\n".join(body), *body)
    body = ["MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI" + r(B64, 16), *b64_lines(2)]
    add("encrypted-pkcs8-body", f, "head -3 of key.p8 (header dropped):\n" + "\n".join(body), *body)
    d, p, q = r(B64URL, 86), r(B64URL, 43), r(B64URL, 43)
    jwk = {"kty": "RSA", "n": r(B64URL, 86), "e": "AQAB", "d": d, "p": p, "q": q, "kid": "k1"}
    add("jwk-private-rsa", f, json.dumps(jwk), d, p, q)
    d = r(B64URL, 43)
    add("jwk-private-okp", f, json.dumps({"kty": "OKP", "crv": "Ed25519", "x": r(B64URL, 43), "d": d}), d)
    dd, pp = r(B64, 88), r(B64, 44)
    add(
        "xml-rsa-key-value",
        f,
        f"<RSAKeyValue><Modulus>{r(B64, 88)}</Modulus><Exponent>AQAB</Exponent><P>{pp}</P><D>{dd}</D></RSAKeyValue>",
        dd,
        pp,
    )
    v = "RWRTY0Iy" + r(B64, 150)
    add("minisign-secret-key", f, f"untrusted comment: minisign encrypted secret key\n{v}", v)
    body = b64_lines(3)
    add(
        "pgp-private-key-with-headers",
        f,
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\nComment: backup\n\n"
        + "\n".join(body)
        + f"\n={r(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----",
        *body,
    )

    # --- URL credentials whose password holds reserved characters ---
    f = "url-reserved"
    for kind, scheme, password, rest in (
        ("slash-and-hash", "postgres", f"p@ss/w{r(AN, 6)}#1", "db.internal:5432/app"),
        ("at-sign", "redis", f"S3c@{r(AN, 8)}!x", "cache.internal:6379/0"),
        ("colon-and-slash", "amqp", f"gu/est:{r(AN, 8)}", "rabbit:5672/"),
        ("brackets", "https", f"[Pa5]{r(AN, 8)}", "git.example.com/acme/app.git"),
        ("dollar-and-colon", "mongodb+srv", f"pa$$:{r(AN, 8)}", "cluster0.ab1cd.mongodb.net/?retryWrites=true"),
        ("question-and-bang", "smtp", f"Qx9?{r(AN, 8)}!z", "smtp.example.com:587"),
    ):
        user = "" if scheme == "redis" else "app"
        add(f"url-password-{kind}", f, f'psql "{scheme}://{user}:{password}@{rest}"', password)

    # --- credentials given as positional command arguments ---
    f = "positional"
    for kind, template in (
        ("mysql-long-option-space", "mysql -h db -u root --password {} shop"),
        ("redis-cli-a", "redis-cli -h cache -a {} ping"),
        ("sqlcmd-P", "sqlcmd -S db.example.com -U sa -P '{}' -Q \"select 1\""),
        ("ldapsearch-w", "ldapsearch -x -D cn=admin,dc=example,dc=org -w {} -b dc=example,dc=org"),
        ("mongosh-p", "mongosh mongodb://db:27017 -u admin -p {} --authenticationDatabase admin"),
        ("smbclient-percent", "smbclient //fs/share -U alice%{}"),
        ("xfreerdp-p", "xfreerdp /v:host /u:admin /p:{}"),
        ("openssl-passout", "openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:{}"),
        ("keytool-storepass", "keytool -list -keystore app.jks -storepass {}"),
        ("zip-P", "zip -P {} backup.zip db.sql"),
        ("7z-p", "7z a -p{} backup.7z data/"),
        ("lftp-u", "lftp -u deploy,{} sftp://files.example.com"),
        ("mosquitto-P", "mosquitto_pub -h broker -u sensor -P {} -t t -m 1"),
        ("rabbitmqctl-add-user", "rabbitmqctl add_user admin {}"),
        ("mysqladmin-password", "mysqladmin -u root password {}"),
        ("helm-password", "helm repo add acme https://charts.example.com --username ci --password {}"),
        ("az-login-p", "az login --service-principal -u http://app -p {} --tenant acme"),
        ("chpasswd", "echo 'alice:{}' | sudo chpasswd"),
    ):
        value = r(AN, 6) + "-" + r(AN, 6)
        add(f"positional-{kind}", f, template.format(value), value)

    # --- newer prefixed platform API keys ---
    f = "prefixed-key"
    for kind, value in (
        ("xai", "xai-" + r(AN, 80)),
        ("cerebras", "csk-" + r(L + D, 48)),
        ("langsmith", "lsv2_pt_" + r(HEXL, 32) + "_" + r(HEXL, 10)),
        ("pinecone", "pcsk_" + r(AN, 6) + "_" + r(AN, 60)),
        ("netlify", "nfp_" + r(AN, 36) + r(HEXL, 4)),
        ("render", "rnd_" + r(AN, 28)),
        ("supabase-secret", "sb_secret_" + r(AN + "_-", 31)),
        ("resend", "re_" + r(AN, 8) + "_" + r(AN, 24)),
        ("planetscale", "pscale_tkn_" + r(AN, 43)),
        ("neon", "napi_" + r(L + D, 64)),
        ("figma", "figd_" + r(B64URL, 40)),
        ("tailscale", "tskey-auth-" + r(AN, 17) + "CNTRL-" + r(AN, 33)),
        ("prefect", "pnu_" + r(AN, 36)),
        ("deno-deploy", "ddp_" + r(AN, 36)),
        ("firecrawl", "fc-" + r(HEXL, 32)),
        ("tavily", "tvly-dev-" + r(AN, 32)),
        ("onepassword-service", "ops_eyJ" + r(AN, 120)),
        ("heroku", "HRKU-AA" + r(AN + "_-", 58)),
        ("mapbox-secret", "sk.eyJ1Ijoi" + r(AN, 30) + "." + r(AN + "_-", 22)),
        ("hubspot", "pat-na1-" + "-".join(r(HEXL, n) for n in (8, 4, 4, 4, 12))),
    ):
        placements = ("export {}={}", "client = Client(api_key='{}')", 'headers = {{"X-Key": "{}"}}')
        line = placements[len(out) % 3]
        text = (
            line.format(kind.upper().replace("-", "_") + "_KEY", value)
            if line.startswith("export")
            else line.format(value)
        )
        add(f"prefixed-{kind}", f, text, value)

    # --- chat-bot tokens inside code ---
    f = "chatbot-in-code"
    discord = lambda: r("MNO", 1) + r(AN, 25) + "." + r(AN + "_-", 6) + "." + r(AN + "_-", 38)  # noqa: E731
    v = discord()
    add("discord-bot-python", f, f"client.run('{v}')", v)
    v = discord()
    add("discord-bot-js", f, f'client.login("{v}");', v)
    v = r(D, 10) + ":AA" + r(AN + "_-", 33)
    add("telegram-bot-js", f, f'const bot = new Telegraf(process.env.BOT || "{v}")', v)
    v = r(D, 9) + ":AA" + r(AN + "_-", 33)
    add("telegram-bot-url", f, f"requests.get(f'https://api.telegram.org/bot{v}/getMe')", v)
    v = "xoxb-" + r(D, 12) + "-" + r(D, 13) + "-" + r(AN, 24)
    add("slack-bot-python", f, f"app = App(token=os.environ.get('SLACK_BOT_TOKEN', '{v}'))", v)
    v = "EAAG" + r(AN, 150)
    add("whatsapp-cloud-token", f, f"headers = {{'Authorization': f'Bearer {{TOKEN}}'}}  # TOKEN = '{v}'", v)
    v = "EAAJ" + r(AN, 120)
    add("facebook-page-token", f, f"graph = facebook.GraphAPI(access_token='{v}')", v)
    v = r(HEXL, 32)
    add("slack-signing-secret", f, f"verifier = SignatureVerifier('{v}')", v)

    # --- age-style secret keys ---
    f = "age-key"
    v = "AGE-SECRET-KEY-1" + r(BECH32, 58)
    add("age-key-file", f, f"# created: 2026-01-01T00:00:00Z\n# public key: age1{r(L + D, 58)}\n{v}", v)
    v = "AGE-SECRET-KEY-1" + r(BECH32, 58)
    add("age-key-env", f, f'SOPS_AGE_KEY="{v}" sops -d secrets.enc.yaml', v)
    v = "AGE-PLUGIN-YUBIKEY-1" + r(BECH32, 40)
    add("age-plugin-identity", f, f"echo {v} > identity.txt", v)
    return out


PLACEMENTS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("plain", lambda s: s),
    ("bash input json", lambda s: json.dumps({"command": s, "description": "run it"})),
    ("tool output", lambda s: f"+ set -x\n{s}\nexit status 0"),
    ("markdown quote", lambda s: "> " + s.replace("\n", "\n> ")),
    ("yaml block", lambda s: "script: |\n  " + s.replace("\n", "\n  ")),
)

# Benign texts written apart from the fixtures' look-alikes: none of them may change.
BENIGN: tuple[str, ...] = (
    "gitlab-runner register --help",
    "kubeadm join --help  # prints the --token flag's usage",
    "docker swarm join-token worker",
    "./config.sh --url https://github.com/acme/app --token $RUNNER_TOKEN",
    "java -jar agent.jar -url https://ci.example.com/ -secret @secret-file -name build-01",
    "PuTTY-User-Key-File-3: ssh-ed25519 (the header only)",
    "---- BEGIN SSH2 PUBLIC KEY ----",
    '{"kty": "RSA", "e": "AQAB", "kid": "2026-01", "use": "sig", "alg": "RS256"}',
    "<RSAKeyValue><Exponent>AQAB</Exponent></RSAKeyValue>",
    "untrusted comment: signature from minisign secret key",
    "postgres://localhost:5432/app",
    "https://example.com/path/to/page?user=alice&next=/home#section",
    "https://user@example.com/repo.git",
    "mailto:alice@example.com?subject=hi",
    "redis-cli -h cache ping",
    "ldapsearch -x -b dc=example,dc=org '(uid=alice)'",
    "smbclient -L //fs -N",
    "openssl req -new -key key.pem -out req.csr -passin env:KEY_PASS",
    "keytool -list -keystore app.jks",
    "zip -r backup.zip data/",
    "7z x archive.7z -o./out",
    "lftp -e 'mirror -R dist /www' sftp://files.example.com",
    "rabbitmqctl list_users",
    "mysqladmin -u root status",
    "helm repo add acme https://charts.example.com",
    "az login --use-device-code",
    "client.run(main())",
    "client.login(process.env.DISCORD_TOKEN)",
    "const bot = new Telegraf(process.env.BOT_TOKEN)",
    "app = App(token=os.environ['SLACK_BOT_TOKEN'])",
    "verifier = SignatureVerifier(os.environ['SLACK_SIGNING_SECRET'])",
    "# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    "age-keygen -o key.txt",
    "sops --age age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p -e f.yaml",
    "the xai-grok model and the csk-style naming are unrelated",
    "re_render_component_tree_when_props_change = True",
    "fc-layout-grid-container and fc-col-header-cell-cushion are FullCalendar classes",
    "tskey-auth keys expire after 90 days",
    "pnu_ is the prefix of a Prefect user key",
    "see lsv2_pt_... in the LangSmith settings page",
    "def test_parses_the_configuration_file_and_returns_defaults(): pass",
    "MAX_RETRIES_BEFORE_GIVING_UP_ON_THE_UPSTREAM_SERVICE = 5",
    "snake_case_identifiers_can_get_really_long_in_generated_code_1",
    "The build id is 20260101-1200-abcdef.",
    "node_modules/.pnpm/@babel+core@7.24.0/node_modules/@babel/core/lib/index.js",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-BoldOblique.ttf",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    'ETag: W/"0815-xACf7pGmkrrBN0gJmSyMCWKmHT1"',
    "Set-Cookie: theme=dark; Path=/; SameSite=Lax",
    "sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC",
    "magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a",
    "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
    "The Telegram bot API answers at api.telegram.org/bot<token>/getMe",
    "Discord tokens have three dot-separated parts.",
    "EAAG is how Meta's access tokens begin",
    "AGE-SECRET-KEY-1... is what age-keygen writes",
    "password reset links expire after 30 minutes",
    "curl -u alice https://api.example.com  # prompts for the password",
    "psql -h db -U app -W app",
    "sshpass -f ~/.ssh/pass ssh deploy@host",
    "--registration-token-file /etc/gitlab-runner/token",
    "xfreerdp /v:host /u:admin /cert:ignore",
    "mongosh mongodb://db:27017 --quiet",
    "ssh-keygen -t ed25519 -C deploy@ci -f ~/.ssh/id_ed25519",
)


def figures(redact: Callable[[str], str]) -> tuple[dict[str, tuple[int, int]], list[str], list[str]]:
    """Per family (found whole, probes), over every placement; the kinds missed; the benign
    texts altered."""
    return family_figures(redact, heldout(), PLACEMENTS, BENIGN)


def report(redact: Callable[[str], str]) -> list[str]:
    title = f"held-out probes: {len(heldout())} formats x {len(PLACEMENTS)} placements"
    return family_report(title, figures(redact), len(BENIGN))


if __name__ == "__main__":
    from session_kit.redaction.engine import redact_text

    print("\n".join(report(redact_text)))
