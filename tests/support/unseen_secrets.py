"""Secrets in the families an outside probe set found weakest, written in formats and contexts
the other probe sets never hold (kubectl output, key files, VPN and wifi configs, one-time
password seeds, cloud credentials in SDK code, webhooks, HTTP dumps and server configs, URLs
with reserved characters, command arguments), and 64 benign texts in the shapes that set
found altered: placeholder `.env.example` files, variable references in compose files and
templates, password prompts with nothing typed, and placeholder words.

Run as a script for the figures per family: `python -m tests.support.unseen_secrets`.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable

from tests.support.heldout_secrets import PLACEMENTS
from tests.support.secret_probes import Probe, family_figures, family_report

L, U, D = string.ascii_lowercase, string.ascii_uppercase, string.digits
AN = L + U + D
HEXL = "0123456789abcdef"
B64 = AN + "+/"
B64URL = AN + "-_"
B32 = U + "234567"


def unseen(seed: int = 2026) -> list[Probe]:
    rng = random.Random(seed)

    def r(alphabet: str, n: int) -> str:
        classes = [part for part in (L, U, D) if set(part) & set(alphabet)]
        while True:
            value = "".join(rng.choice(alphabet) for _ in range(n))
            if n < 10 or len(classes) < 2 or sum(any(c in part for c in value) for part in classes) >= 2:
                return value

    def b64(raw: str) -> str:
        return base64.b64encode(raw.encode()).decode()

    def key44() -> str:
        return r(B64, 43) + "="

    out: list[Probe] = []

    def add(kind: str, family: str, line: str, *secrets: str) -> None:
        out.append(Probe(kind, family, line, secrets))

    # --- Kubernetes Secrets ---
    f = "kubernetes"
    pw, tok = b64(r(AN, 18)), b64(r(AN, 32))
    add(
        "secret-manifest-data",
        f,
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n"
        f"  username: {b64('app')}\n  password: {pw}\n  api-token: {tok}\n",
        pw,
        tok,
    )
    v = r(AN + "!#%", 20)
    add("secret-string-data", f, f"kind: Secret\nstringData:\n  DB_PASS: {v}\n  REDIS_URL: redis-master:6379\n", v)
    pw, tok = b64(r(AN, 24)), b64(r(HEXL, 40))
    add(
        "kubectl-get-secret-json",
        f,
        "$ kubectl get secret app-env -o json\n{\n"
        f'    "apiVersion": "v1",\n    "data": {{\n        "SMTP_PASS": "{pw}",\n        "STRIPE_KEY": "{tok}"\n'
        '    },\n    "kind": "Secret",\n    "type": "Opaque"\n}',
        pw,
        tok,
    )
    v = r(AN, 22)
    add("kubectl-create-from-literal", f, f"kubectl create secret generic db --from-literal=password={v} -n prod", v)
    v = b64(json.dumps({"auths": {"ghcr.io": {"auth": b64("bot:" + r(AN, 36))}}}))
    add("dockerconfigjson", f, f"type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {v}\n", v)
    v = b64(r(B64, 300))
    add("kubeconfig-client-key-data", f, f"users:\n- name: admin\n  user:\n    client-key-data: {v}\n", v)
    tok = b64(r(AN, 40))
    add(
        "kubectl-get-secret-yaml",
        f,
        f"$ kubectl get secret gh -o yaml\napiVersion: v1\ndata:\n  token: {tok}\nkind: Secret\nmetadata:\n  name: gh\n",
        tok,
    )
    v = r(L + D, 6) + "." + r(L + D, 16)
    add("kubeadm-bootstrap-token", f, f"data:\n  token-id: abcdef\n  token-secret: {b64(v)}\n", b64(v))

    # --- encryption and signing keys ---
    f = "encryption-keys"
    v = r(B64URL, 43) + "="
    add("fernet-env", f, f"FERNET_KEY={v}", v)
    v = r(B64URL, 43) + "="
    add("fernet-code", f, f"from cryptography.fernet import Fernet\nf = Fernet(b'{v}')\n", v)
    v = "django-insecure-" + r(L + D + "!@#$%^&*(-_=+)", 50)
    add("django-insecure", f, f"# SECURITY WARNING: keep it secret\nSECRET_KEY = '{v}'\n", v)
    v = r(L + D + "!@#%^&*(-_=+)", 50)
    add("django-secret-key", f, f'SECRET_KEY = "{v}"', v)
    v = r(HEXL, 128)
    add("rails-secret-key-base", f, f"production:\n  secret_key_base: {v}\n", v)
    v = r(HEXL, 32)
    add("rails-master-key", f, f"$ cat config/master.key\n{v}\n$ ls config", v)
    v = "base64:" + r(B64, 43) + "="
    add("laravel-app-key", f, f"APP_ENV=production\nAPP_KEY={v}\nAPP_DEBUG=false", v[7:])
    v = "AGE-SECRET-KEY-1" + r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
    add("age-key-file", f, f"# created: 2026-01-01T00:00:00Z\n# public key: age1abc\n{v}\n", v)
    v = r(HEXL, 64)
    add("aes-key-hex-env", f, f"export DATA_ENCRYPTION_KEY={v}", v)
    v = key44()
    add("hmac-key-yaml", f, f"webhooks:\n  hmac_key: {v}\n", v)
    v = r(HEXL, 64)
    add("aes-key-python", f, f'aes_key = bytes.fromhex("{v}")', v)
    v = r(AN, 32)
    add("signing-key-go", f, f'var signingKey = []byte("{v}")', v)
    v = key44()
    add("master-key-json", f, f'{{"encryptionKey": "{v}", "algorithm": "AES-256-GCM"}}', v)

    # --- VPN and network ---
    f = "vpn"
    a, b = key44(), key44()
    add(
        "wireguard-conf",
        f,
        f"[Interface]\nAddress = 10.0.0.2/32\nPrivateKey = {a}\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {key44()}\n"
        f"PresharedKey = {b}\nEndpoint = vpn.example.com:51820\nAllowedIPs = 0.0.0.0/0\n",
        a,
        b,
    )
    a = key44()
    add("wireguard-showconf", f, f"$ sudo wg showconf wg0\n[Interface]\nListenPort = 51820\nPrivateKey={a}\n", a)
    a = key44()
    add("wireguard-set", f, f"wg set wg0 private-key <(echo {a}) peer {key44()} allowed-ips 10.0.0.0/24", a)
    body = "\n".join(r(HEXL, 32) for _ in range(16))
    add(
        "openvpn-static-key",
        f,
        "<tls-auth>\n#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n"
        f"{body}\n-----END OpenVPN Static key V1-----\n</tls-auth>\nkey-direction 1",
        *body.split("\n"),
    )
    v = r(AN, 24)
    add("ipsec-secrets", f, f'# /etc/ipsec.secrets\n203.0.113.5 198.51.100.7 : PSK "{v}"\n', v)
    v = r(AN, 20)
    add("strongswan-swanctl", f, f"secrets {{\n  ike-1 {{\n    id = vpn.example.com\n    secret = {v}\n  }}\n}}", v)
    v = r(AN + "-", 16)
    add("wpa-supplicant", f, f'network={{\n    ssid="HomeNet"\n    psk="{v}"\n    key_mgmt=WPA-PSK\n}}', v)
    v = r(HEXL, 64)
    add("wpa-supplicant-hex", f, f'network={{\n\tssid="Office"\n\tpsk={v}\n}}', v)
    v = r(AN, 14)
    add("nmcli-connect", f, f"nmcli device wifi connect CafeGuest password {v} ifname wlan0", v)
    v = r(AN, 14)
    add("nmcli-modify", f, f'nmcli con modify office wifi-sec.psk "{v}"', v)
    v = r(AN, 18)
    add("hostapd", f, f"interface=wlan0\nssid=ap\nwpa=2\nwpa_passphrase={v}\n", v)

    # --- one-time password seeds ---
    f = "totp"
    v = r(B32, 32)
    add("otpauth-uri", f, f"otpauth://totp/Acme:jane%40acme.io?secret={v}&issuer=Acme&digits=6", v)
    v = r(B32, 16)
    add("totp-env", f, f"TOTP_SECRET={v}", v)
    v = r(B32, 32)
    add("totp-json", f, f'{{"user": "ops", "mfa_seed": "{v}"}}', v)
    v = r(B32, 32)
    add("pyotp-code", f, f'totp = pyotp.TOTP("{v}")\nprint(totp.now())', v)
    v = r(B32, 32)
    spaced = " ".join(v[i : i + 4] for i in range(0, 32, 4))
    add("authenticator-setup-key", f, f"Can't scan? Enter this setup key: {spaced}", *spaced.split(" "))
    v = r(B32, 26)
    add("otp-secret-yaml", f, f"two_factor:\n  otp_secret: {v}\n", v)
    codes = [f"{r(L + D, 5)}-{r(L + D, 5)}" for _ in range(4)]
    add("recovery-codes", f, "Your two-factor recovery codes:\n" + "\n".join(codes), *codes)
    v = r(B32, 32)
    add("oathtool", f, f"oathtool --totp -b {v}", v)

    # --- Azure ---
    f = "azure"
    v = r(B64, 86) + "=="
    add(
        "storage-connection-string",
        f,
        f"AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmedata;AccountKey={v};EndpointSuffix=core.windows.net",
        v,
    )
    v = r(B64, 43).replace("+", "%2B").replace("/", "%2F") + "%3D"
    add(
        "sas-url",
        f,
        f"https://acmedata.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&spr=https&sig={v}",
        v,
    )
    v = r(AN, 3) + "8Q~" + r(AN + "._~-", 34)
    add("client-secret-env", f, f"AZURE_CLIENT_ID=0f1e2d3c-aaaa-bbbb-cccc-1234567890ab\nAZURE_CLIENT_SECRET={v}", v)
    v = r(AN, 3) + "8Q~" + r(AN + "._~-", 34)
    add(
        "create-for-rbac",
        f,
        '$ az ad sp create-for-rbac --name ci\n{\n  "appId": "5c3b2a1f-0000-4000-8000-123456789abc",\n'
        f'  "displayName": "ci",\n  "password": "{v}",\n  "tenant": "72f988bf-86f1-41af-91ab-2d7cd011db47"\n}}',
        v,
    )
    v = r(B64, 86) + "=="
    add("cosmos", f, f"AccountEndpoint=https://acme.documents.azure.com:443/;AccountKey={v};", v)
    v = r(B64, 43) + "="
    add(
        "service-bus",
        f,
        f"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={v}",
        v,
    )
    v = r(B64, 86) + "=="
    add(
        "storage-keys-list",
        f,
        f'$ az storage account keys list -n acmedata\n[\n  {{\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "{v}"\n  }}\n]',
        v,
    )
    v = r(AN, 3) + "8Q~" + r(AN + "._~-", 34)
    add("terraform-client-secret", f, f'provider "azurerm" {{\n  features {{}}\n  client_secret = "{v}"\n}}', v)
    v = r(B64, 86) + "=="
    add("cosmos-primary-key-csharp", f, f'var client = new CosmosClient(endpoint, "{v}");', v)

    # --- AWS ---
    f = "aws"
    kid, sec = "AKIA" + r(U + D, 16), r(AN + "+/", 40)
    add(
        "credentials-file",
        f,
        f"[default]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}\nregion = eu-west-1\n",
        kid,
        sec,
    )
    sec, st = r(AN + "+/", 40), "IQoJb3JpZ2luX2VjE" + r(B64, 300)
    add("env-session", f, f"export AWS_SECRET_ACCESS_KEY={sec}\nexport AWS_SESSION_TOKEN={st}", sec, st)
    sec, st = r(AN + "+/", 40), "FwoGZXIvYXdzE" + r(B64, 280)
    add(
        "sts-assume-role-json",
        f,
        '{\n    "Credentials": {\n        "AccessKeyId": "ASIA' + r(U + D, 16) + '",\n'
        f'        "SecretAccessKey": "{sec}",\n        "SessionToken": "{st}",\n'
        '        "Expiration": "2026-11-26T13:00:00+00:00"\n    }\n}',
        sec,
        st,
    )
    sec = r(AN + "+/", 40)
    add(
        "boto3",
        f,
        f"s3 = boto3.client('s3', aws_access_key_id='AKIA{r(U + D, 16)}', aws_secret_access_key='{sec}')",
        sec,
    )
    sec = r(AN + "+/", 40)
    add(
        "terraform-provider",
        f,
        f'provider "aws" {{\n  region     = "us-east-1"\n  access_key = "AKIA{r(U + D, 16)}"\n  secret_key = "{sec}"\n}}',
        sec,
    )
    sec = r(AN + "+/", 40)
    add(
        "aws-configure-prompt",
        f,
        f"AWS Access Key ID [None]: AKIA{r(U + D, 16)}\nAWS Secret Access Key [None]: {sec}",
        sec,
    )
    sec = r(AN + "+/", 40)
    add("java-basic-credentials", f, f'new BasicAWSCredentials("AKIA{r(U + D, 16)}", "{sec}")', sec)
    sec = r(AN + "+/", 40)
    add(
        "js-sdk-config",
        f,
        f'new S3Client({{ credentials: {{ accessKeyId: "AKIA{r(U + D, 16)}", secretAccessKey: "{sec}" }} }})',
        sec,
    )
    sec, st = r(AN + "+/", 40), "IQoJb3JpZ2luX2VjE" + r(B64, 200)
    add(
        "get-session-token-text",
        f,
        f"$ aws sts get-session-token --output text\nCREDENTIALS\tASIA{r(U + D, 16)}\t2026-11-27T00:00:00Z\t{sec}\t{st}",
        sec,
        st,
    )

    # --- webhooks ---
    f = "webhooks"
    v = f"T{r(U + D, 8)}/B{r(U + D, 10)}/{r(AN, 24)}"
    add("slack", f, f'curl -X POST -d \'{{"text":"hi"}}\' https://hooks.slack.com/services/{v}', v.split("/")[-1])
    v = r(B64URL, 68)
    add("discord", f, f'WEBHOOK = "https://discord.com/api/webhooks/{r(D, 18)}/{v}"', v)
    v = r(HEXL, 32)
    add(
        "teams",
        f,
        "teams_url: https://acme.webhook.office.com/webhookb2/3f2a1b4c-0000-4000-8000-123456789abc@"
        f"72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/{v}/9a8b7c6d-0000-4000-8000-abcdefabcdef",
        v,
    )
    v = r(L + D, 26)
    add("mattermost", f, f"MATTERMOST_HOOK=https://chat.example.org/hooks/{v}", v)
    v = r(AN, 32)
    add("generic-query-token", f, f"POST https://ci.example.com/generic-webhook-trigger/invoke?token={v} HTTP/1.1", v)
    v = r(B64URL, 43)
    add(
        "google-chat",
        f,
        f"https://chat.googleapis.com/v1/spaces/AAAA{r(AN, 7)}/messages?key=AIzaSy{r(B64URL, 33)}&token={v}%3D",
        v,
    )
    v = r(AN, 24)
    add("slack-workflow", f, f"https://hooks.slack.com/triggers/T{r(U + D, 8)}/{r(D, 13)}/{v}", v)
    v = r(HEXL, 40)
    add("generic-path-secret", f, f"webhook_url = 'https://hooks.example.io/v1/hooks/{v}'", v)

    # --- HTTP authentication ---
    f = "http-auth"
    v = b64("deploy:" + r(AN, 16))
    add(
        "curl-v-basic",
        f,
        f"> GET /api/v1/status HTTP/1.1\n> Host: api.example.com\n> Authorization: Basic {v}\n> User-Agent: curl/8.5.0\n",
        v,
    )
    v = r(AN, 40)
    add(
        "http-dump-bearer",
        f,
        f"GET /v2/items HTTP/1.1\r\nHost: api.acme.io\r\nAuthorization: Bearer {v}\r\nAccept: */*\r\n",
        v,
    )
    v = r(HEXL, 32)
    add(
        "digest",
        f,
        'Authorization: Digest username="bob", realm="api", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", '
        f'uri="/dir/index.html", response="{v}", qop=auth',
        v,
    )
    v = b64("svc:" + r(AN, 20))
    add("nginx-proxy-header", f, f'location /api/ {{\n    proxy_set_header Authorization "Basic {v}";\n}}', v)
    v = r(HEXL, 32)
    add("apache-request-header", f, f'RequestHeader set X-Api-Key "{v}"', v)
    v = r(AN, 20)
    add("netrc-multiline", f, f"machine git.example.com\n  login deploy\n  password {v}\n", v)
    v = r(AN, 12) + "@!" + r(AN, 4)
    enc = v.replace("@", "%40").replace("!", "%21")
    add("proxy-url", f, f"export https_proxy=http://jane:{enc}@proxy.corp.local:3128", enc)
    v = r(HEXL, 40)
    add("requests-token-header", f, f'requests.get(url, headers={{"Authorization": "Token {v}"}})', v)
    v = r(AN, 16)
    add("wget-password", f, f"wget --http-user=ci --http-password={v} https://files.example.com/a.tgz", v)
    v = r(HEXL, 48)
    add("x-auth-token-dump", f, f"< HTTP/1.1 200 OK\n> X-Auth-Token: {v}\n", v)

    # --- generic secret assignments ---
    f = "generic-assignments"
    v = r(AN, 32)
    add("session-secret-env", f, f"SESSION_SECRET={v}", v)
    v = r(HEXL, 40)
    add("signing-secret-yaml", f, f"slack:\n  signing_secret: {v}\n", v)
    v = r(AN, 36)
    add("apikey-json", f, f'{{"service": "geo", "apiKey": "{v}"}}', v)
    v = r(AN + "-_", 40)
    add("toml-secret", f, f'[auth]\nissuer = "acme"\nsecret = "{v}"\n', v)
    v = r(AN, 30)
    add("ini-client-secret", f, f"[oauth]\nclient_id = web\nclient_secret = {v}\n", v)
    v = r(AN, 32)
    add("go-const", f, f'const apiToken = "{v}"', v)
    v = r(AN, 32)
    add("js-const", f, f"const API_KEY = '{v}';", v)
    v = r(AN, 32)
    add("csharp-const", f, f'private const string ApiSecret = "{v}";', v)
    v = r(AN + "!@#$%^&*()-_", 64)
    add("php-define", f, f"define('AUTH_SALT', '{v}');", v)
    v = r(AN, 40)
    add("java-properties", f, f"app.jwt.secret={v}", v)
    v = r(AN, 32)
    add("xml-appsettings", f, f'<add key="ApiKey" value="{v}" />', v)
    v = r(AN, 32)
    add("rust-let", f, f'let access_token = "{v}";', v)

    # --- database URLs ---
    f = "database-urls"
    v = r(AN, 8) + "@#/" + r(AN, 6)
    add("postgres-raw-reserved", f, f"DATABASE_URL=postgres://app:{v}@db.internal:5432/app", v)
    v = r(AN, 8) + "%40%23%2F" + r(AN, 6)
    add("postgres-encoded", f, f"postgresql://app:{v}@db/app?sslmode=require", v)
    v = r(AN, 18)
    add("jdbc-mysql", f, f"spring.datasource.url=jdbc:mysql://db:3306/app?user=app&password={v}&useSSL=true", v)
    v = r(AN, 18)
    add("jdbc-sqlserver", f, f"jdbc:sqlserver://db:1433;databaseName=app;user=sa;password={v};encrypt=true", v)
    v = r(AN, 18)
    add(
        "mongodb-srv",
        f,
        f'client = MongoClient("mongodb+srv://admin:{v}@cluster0.ab1cd.mongodb.net/?retryWrites=true")',
        v,
    )
    v = r(AN, 24)
    add("redis-password-only", f, f"REDIS_URL=redis://:{v}@redis:6379/0", v)
    v = r(AN, 20)
    add("ado-net", f, f'"Default": "Server=tcp:sql.acme.net,1433;Database=app;User ID=sa;Password={v};"', v)
    v = r(AN, 8) + "!$&" + r(AN, 6)
    add("amqp", f, f"amqp://svc:{v}@rabbit:5672/%2F", v)
    v = r(AN, 16)
    add("sqlalchemy", f, f'engine = create_engine("mysql+pymysql://root:{v}@localhost/shop")', v)
    v = r(AN, 6) + ":" + r(AN, 8)
    add("postgres-colon-password", f, f"postgres://u:{v}@h/d", v)

    # --- command-line passwords ---
    f = "command-line"
    v = r(AN, 14)
    add("mysql-p", f, f"mysql -uroot -p{v} -h 127.0.0.1 shop < dump.sql", v)
    v = r(AN, 14)
    add("sshpass", f, f"sshpass -p '{v}' ssh -o StrictHostKeyChecking=no deploy@10.0.0.5", v)
    v = r(AN, 14)
    add("pgpassword", f, f"PGPASSWORD={v} pg_dump -h db -U app app > app.sql", v)
    v = r(AN, 14)
    add("mongodump", f, f"mongodump --host db --username admin --password {v} --out /backup", v)
    v = r(AN, 14)
    add("redis-cli-a", f, f"redis-cli -h cache -a {v} INFO", v)
    v = r(AN, 14)
    add("htpasswd-b", f, f"htpasswd -b -c /etc/nginx/.htpasswd admin {v}", v)
    v = r(AN, 14)
    add("smbclient", f, f"smbclient //fs01/share -U jane%{v}", v)
    v = r(AN, 14)
    add("openssl-pass", f, f"openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:{v}", v)
    v = r(AN, 14)
    add("keytool", f, f"keytool -importcert -keystore app.jks -storepass {v} -file ca.crt", v)
    v = r(AN, 14)
    add("sqlcmd", f, f"sqlcmd -S db -U sa -P {v} -Q 'SELECT 1'", v)
    v = r(AN, 14)
    add("ldapsearch", f, f'ldapsearch -x -H ldap://dc -D "cn=admin,dc=acme" -w {v} -b dc=acme', v)
    v = r(AN, 14)
    add("rabbitmqctl", f, f"rabbitmqctl add_user svc {v}", v)
    v = r(AN, 14)
    add("zip-P", f, f"zip -r -P {v} backup.zip data/", v)
    v = r(AN, 14)
    add("net-use", f, f"net use Z: \\\\fs01\\share {v} /user:ACME\\jane", v)

    # --- passwords in config files ---
    f = "config-passwords"
    v = r(AN, 16)
    add("spring-yaml", f, f"spring:\n  datasource:\n    username: app\n    password: {v}\n", v)
    v = r(AN, 16)
    add("my-cnf", f, f"[client]\nuser=root\npassword={v}\n", v)
    v = r(AN, 16)
    add(
        "maven-settings",
        f,
        f"<server>\n  <id>nexus</id>\n  <username>ci</username>\n  <password>{v}</password>\n</server>",
        v,
    )
    v = r(AN, 16)
    add("json-db-pass", f, f'{{"db_host": "db", "db_pass": "{v}"}}', v)
    v = r(AN, 16)
    add("mail-properties", f, f"mail.smtp.password={v}", v)
    v = r(AN, 16)
    add("codeigniter", f, f"$db['default']['password'] = '{v}';", v)
    v = r(AN, 16)
    add("ansible-become", f, f"all:\n  vars:\n    ansible_become_pass: {v}\n", v)
    v = r(AN, 16)
    add("pgpass", f, f"$ cat ~/.pgpass\ndb.internal:5432:app:app:{v}", v)
    v = r(AN, 16)
    add("compose-real-password", f, f"services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: {v}\n", v)
    v = r(AN, 16)
    add("wp-config", f, f"define( 'DB_PASSWORD', '{v}' );", v)
    v = r(AN, 16)
    add("pwd-connection", f, f"Driver={{ODBC Driver 18}};Server=db;Uid=sa;Pwd={v};", v)

    # --- GCP ---
    f = "gcp"
    kid = r(HEXL, 40)
    body = "\\n".join(r(B64, 64) for _ in range(6))
    add(
        "service-account-json",
        f,
        '{\n  "type": "service_account",\n  "project_id": "acme-prod",\n'
        f'  "private_key_id": "{kid}",\n'
        f'  "private_key": "-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n",\n'
        '  "client_email": "ci@acme-prod.iam.gserviceaccount.com"\n}',
        kid,
        *body.split("\\n"),
    )
    v = "AIza" + r(B64URL, 35)
    add(
        "firebase-config",
        f,
        f'const firebaseConfig = {{\n  apiKey: "{v}",\n  authDomain: "acme.firebaseapp.com",\n}};',
        v,
    )
    v = "AIza" + r(B64URL, 35)
    add("maps-url", f, f"https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key={v}", v)
    v = "GOCSPX-" + r(B64URL, 28)
    add(
        "oauth-client-secret",
        f,
        f'{{"web": {{"client_id": "1234-abc.apps.googleusercontent.com", "client_secret": "{v}"}}}}',
        v,
    )
    v = "ya29.a0" + r(B64URL, 150)
    add("access-token-output", f, f"$ gcloud auth print-access-token\n{v}\n", v)
    v = "1//0" + r(B64URL, 100)
    add("refresh-token", f, f'"refresh_token": "{v}"', v)
    kid = r(HEXL, 40)
    add("private-key-id-alone", f, f"private_key_id: {kid}", kid)

    # --- payments and messaging ---
    f = "payments-messaging"
    v = "sk_live_" + r(AN, 99)
    add("stripe-live", f, f"Stripe::api_key = '{v}'", v)
    v = "whsec_" + r(AN, 32)
    add("stripe-webhook", f, f"STRIPE_WEBHOOK_SECRET={v}", v)
    v = r(HEXL, 32)
    add("twilio-auth-token", f, f"client = Client('AC{r(HEXL, 32)}', '{v}')", v)
    v = "SG." + r(B64URL, 22) + "." + r(B64URL, 43)
    add("sendgrid", f, f"sg = SendGridAPIClient('{v}')", v)
    v = r(HEXL, 32) + "-" + r(HEXL, 8) + "-" + r(HEXL, 8)
    add("mailgun", f, f"curl -s --user 'api:{v}' https://api.mailgun.net/v3/mg.acme.io/messages", v)
    v = "E" + r(B64URL, 79)
    add("paypal-secret", f, f"PAYPAL_CLIENT_SECRET={v}", v)
    v = f"{r(D, 10)}:AA{r(B64URL, 33)}"
    add("telegram-bot", f, f'bot = telebot.TeleBot("{v}")', v)
    v = "sq0csp-" + r(B64URL, 43)
    add("square-secret", f, f"square:\n  application_secret: {v}\n", v)
    v = r(AN, 16)
    add("vonage-secret", f, f"vonage = Vonage(key='{r(HEXL, 8)}', secret='{v}')", v)
    v = "xoxb-" + r(D, 12) + "-" + r(D, 13) + "-" + r(AN, 24)
    add("slack-bot-in-code", f, f'app = App(token="{v}")', v)

    # --- package registries ---
    f = "registries"
    v = "npm_" + r(AN, 36)
    add("npmrc", f, f"//registry.npmjs.org/:_authToken={v}", v)
    v = "pypi-AgEIcHlwaS5vcmc" + r(B64URL, 120)
    add("pypirc", f, f"[pypi]\nusername = __token__\npassword = {v}\n", v)
    v = b64("jane:" + "ghp_" + r(AN, 36))
    add("docker-config", f, f'{{\n  "auths": {{\n    "ghcr.io": {{\n      "auth": "{v}"\n    }}\n  }}\n}}', v)
    v = "oy2" + r(L + D, 43)
    add("nuget-push", f, f"dotnet nuget push pkg.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json", v)
    v = "rubygems_" + r(HEXL, 48)
    add("gem-credentials", f, f"---\n:rubygems_api_key: {v}\n", v[9:])
    v = "cio" + r(AN, 32)
    add("cargo-credentials", f, f'[registry]\ntoken = "{v}"\n', v)
    v = "ghp_" + r(AN, 36)
    add("composer-auth", f, f'{{"github-oauth": {{"github.com": "{v}"}}}}', v)
    v = b64("ci:" + r(AN, 20))
    add("npmrc-auth", f, f"registry=https://art.acme.io/api/npm/npm/\n_auth={v}\nalways-auth=true", v)
    v = "glpat-" + r(B64URL, 20)
    add(
        "pip-index-url",
        f,
        f"pip install --extra-index-url https://__token__:{v}@gitlab.com/api/v4/projects/1/packages/pypi/simple acme",
        v,
    )
    v = "AKCp" + r(AN, 69)
    add("jfrog-header", f, f"curl -H 'X-JFrog-Art-Api: {v}' https://art.acme.io/api/repositories", v)

    # --- more, one line each, in each family ---
    made: dict[str, int] = {}

    def more(family: str, line: str, *secrets: str) -> None:
        made[family] = made.get(family, 0) + 1
        add(f"{family}-{made[family]}", family, line, *secrets)

    v = b64(r(AN, 20))
    more("kubernetes", f'{{"kind":"Secret","data":{{"POSTGRES_PASSWORD":"{v}"}}}}', v)
    v = r(AN, 20)
    more("kubernetes", f"kubectl create secret generic api --from-literal=API_TOKEN={v}", v)
    v = b64(r(AN, 32))
    more("kubernetes", f"secret:\n  data:\n    secret-key: {v}", v)
    v = r(HEXL, 64)
    more("encryption-keys", f'ENCRYPTION_KEY: "{v}"', v)
    v = r(B64, 43) + "="
    more("encryption-keys", f'config.secret_key = "{v}"', v)
    v = r(HEXL, 64)
    more("encryption-keys", f'let key = hex::decode("{v}").unwrap();', v)
    v = r(B64, 43) + "="
    more("encryption-keys", f"SIGNING_KEY={v}", v)
    v = r(AN, 32)
    more("encryption-keys", f"app.config['SECRET_KEY'] = '{v}'", v)
    v = r(HEXL, 128)
    more("encryption-keys", f"RAILS_MASTER_KEY={r(HEXL, 32)}\nSECRET_KEY_BASE={v}", v)
    v = r(B64, 43) + "="
    more("vpn", f"PrivateKey={v}", v)
    v = r(B64, 43) + "="
    more("vpn", f'  preshared_key = "{v}"', v)
    v = r(AN, 12)
    more("vpn", f"wifi:\n  ssid: Office\n  password: {v}", v)
    v = r(AN, 16)
    more("vpn", f"conn home\n  authby=secret\n# ipsec.secrets: : PSK {v}", v)
    v = r(B64, 43) + "="
    more("vpn", f"$ wg genkey\n{v}", v)
    v = r(B32, 32)
    more("totp", f'"otpauth://totp/GitHub:jane?secret={v}&issuer=GitHub"', v)
    v = r(B32, 16)
    more("totp", f"MFA_SECRET: {v}", v)
    v = r(B32, 32)
    more("totp", f"const totp = authenticator.generate('{v}');", v)
    v = r(B32, 32)
    more("totp", f"2FA seed: {v}", v)
    v = r(B64, 86) + "=="
    more("azure", f"az storage blob upload --account-key {v} -f x", v)
    v = r(B64, 43) + "="
    more(
        "azure", f"Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={v};EntityPath=q", v
    )
    v = r(AN, 3) + "8Q~" + r(AN, 34)
    more("azure", f"az login --service-principal -u 1b2c -p {v} --tenant t", v)
    v = r(B64, 43).replace("/", "%2F") + "%3D"
    more("azure", f"?sv=2021-06-08&se=2026&sr=c&sp=rl&sig={v}", v)
    v = r(B64, 40)
    more("aws", f"aws configure set aws_secret_access_key {v}", v)
    v = r(B64, 40)
    more("aws", f"credentials:\n  accessKeyId: AKIA{r(U + D, 16)}\n  secretAccessKey: {v}", v)
    v = r(B64, 40)
    more("aws", f"AWS_SECRET_KEY={v}", v)
    v = r(B64, 40)
    more("aws", f"Aws::Credentials.new('AKIA{r(U + D, 16)}', '{v}')", v)
    v = r(AN, 24)
    more("webhooks", f"https://discordapp.com/api/webhooks/{r(D, 18)}/{v}{r(AN, 44)}", v)
    v = r(AN, 32)
    more("webhooks", f"WEBHOOK_URL=https://example.com/hook?secret={v}", v)
    v = r(AN, 32)
    more("http-auth", f"-H 'X-API-Key: {v}'", v)
    v = r(AN, 40)
    more("http-auth", f"Proxy-Authorization: Basic {b64('u:' + v)}", b64("u:" + v))
    v = r(AN, 40)
    more("http-auth", f"fetch(url, {{ headers: {{ Authorization: `Bearer {v}` }} }})", v)
    v = r(AN, 16)
    more("http-auth", f"http://admin:{v}@192.168.1.1/cgi-bin/", v)
    v = r(AN, 32)
    more("generic-assignments", f"export INTERNAL_SERVICE_TOKEN='{v}'", v)
    v = r(AN, 32)
    more("generic-assignments", f'  client_secret: "{v}"', v)
    v = r(AN, 32)
    more("generic-assignments", f"NEXTAUTH_SECRET={v}", v)
    v = r(AN, 32)
    more("generic-assignments", f"<secret>{v}</secret>", v)
    v = r(AN, 8) + "#?" + r(AN, 4)
    more("database-urls", f"mysql://root:{v}@localhost:3306/db", v)
    v = r(AN, 16)
    more("database-urls", f"Host=db;Username=app;Password={v};Database=x", v)
    v = r(AN, 16)
    more("database-urls", f"rediss://default:{v}@redis.example.com:6380", v)
    v = r(AN, 16)
    more("database-urls", f"jdbc:oracle:thin:scott/{v}@db:1521/ORCL", v)
    v = r(AN, 12)
    more("command-line", f"mysqldump -u root --password={v} db", v)
    v = r(AN, 12)
    more("command-line", f"docker run -e MYSQL_ROOT_PASSWORD={v} mysql:8", v)
    v = r(AN, 12)
    more("command-line", f"psql 'host=db user=app password={v}'", v)
    v = r(AN, 12)
    more("command-line", f"curl -u admin:{v} https://x", v)
    v = r(AN, 12)
    more("command-line", f"vault login -method=userpass username=jane password={v}", v)
    v = r(AN, 12)
    more("config-passwords", f'[database]\npassword = "{v}"', v)
    v = r(AN, 12)
    more("config-passwords", f'<property name="password" value="{v}"/>', v)
    v = r(AN, 12)
    more("config-passwords", f"DB_PASS: {v}", v)
    v = r(AN, 12)
    more("config-passwords", f"smtp_pass = {v}", v)
    v = r(HEXL, 40)
    more("gcp", f'\\"private_key_id\\": \\"{v}\\"', v)
    v = "AIza" + r(B64URL, 35)
    more("gcp", f'<meta-data android:name="com.google.android.geo.API_KEY" android:value="{v}"/>', v)
    v = "sk_live_" + r(AN, 24)
    more("payments-messaging", f'Stripe.apiKey = "{v}";', v)
    v = r(HEXL, 32)
    more("payments-messaging", f"TWILIO_AUTH_TOKEN={v}", v)
    v = "npm_" + r(AN, 36)
    more("registries", f"npm config set //registry.npmjs.org/:_authToken {v}", v)
    v = r(AN, 36)
    more("registries", f"poetry config pypi-token.pypi pypi-{v}", v)
    v = r(AN, 20)
    more("registries", f"docker login -u bot -p {v} registry.example.com", v)
    return out


# Texts that must not change: placeholders, references, prompts, look-alikes.
BENIGN: tuple[str, ...] = (
    "# .env.example\nOPENAI_API_KEY=<your-openai-api-key>\nSTRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\n",
    "ANTHROPIC_API_KEY=your-anthropic-api-key-here\nDATABASE_PASSWORD=REPLACE_ME\nJWT_SECRET=changeme\n",
    "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX\nAWS_SECRET_ACCESS_KEY=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n",
    "SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx",
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "STRIPE_KEY=sk_live_****************************",
    "SENTRY_DSN=https://<key>@o0.ingest.sentry.io/<project>",
    "services:\n  app:\n    environment:\n      GITHUB_TOKEN: ${GITHUB_TOKEN}\n      DB_PASSWORD: ${DB_PASSWORD}\n",
    "environment:\n  - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-postgres}\n  - API_KEY=${API_KEY:?set it}\n",
    "    environment:\n      POSTGRES_PASSWORD: changeme\n      MYSQL_ROOT_PASSWORD: example\n",
    "export API_TOKEN=$(cat /run/secrets/api_token)",
    "export DB_PASSWORD=$(vault kv get -field=password secret/db)",
    "set DB_PASSWORD=%DB_PASSWORD%\nset API_KEY=%API_KEY%",
    "password: {{ .Values.postgresql.auth.password }}",
    "api_key: {{ vault_api_key }}",
    'token: \'{{ lookup("env", "GH_TOKEN") }}\'',
    "client_secret: ${{ secrets.AZURE_CLIENT_SECRET }}",
    "[sudo] password for jane: \nSorry, try again.",
    "$ mysql -u root -p\nEnter password: \nWelcome to the MySQL monitor.",
    "Password for 'https://jane@github.com': \nremote: Invalid username or password.",
    "jane@host's password: \nPermission denied, please try again.",
    "$ psql -U app\nPassword for user app: \npsql: error: connection refused",
    "Enter passphrase for key '/home/jane/.ssh/id_ed25519': ",
    "password: ********",
    "api_key: '***'",
    "secret: [redacted]",
    "token: <REDACTED>",
    "password = TODO",
    "SECRET_KEY = 'replace-me-with-a-real-secret'",
    "APP_KEY=\nAPP_DEBUG=true",
    "PrivateKey = <server-private-key>\nPresharedKey = <preshared-key>",
    "otpauth://totp/Example:alice@example.com?secret=<base32-secret>&issuer=Example",
    "Authorization: Bearer $TOKEN",
    "Authorization: Bearer <token>",
    'curl -H "Authorization: Bearer ${API_TOKEN}" https://api.example.com',
    "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
    "redis://:${REDIS_PASSWORD}@redis:6379/0",
    "mysql -u root -p$MYSQL_ROOT_PASSWORD app",
    'sshpass -p "$SSH_PASS" ssh deploy@host',
    "PGPASSWORD=$PGPASSWORD psql -h db",
    "AccountKey=<storage-account-key>",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "aws_secret_access_key = YOUR_SECRET_ACCESS_KEY",
    '"SecretAccessKey": "<secret>"',
    "kubectl get secrets\nNAME            TYPE     DATA   AGE\ndb-credentials  Opaque   2      4d",
    "kubectl create secret generic db --from-literal=password=$DB_PASSWORD",
    "data:\n  password: <base64-encoded-password>\n",
    'FERNET_KEY=""  # generate with Fernet.generate_key()',
    "wpa_passphrase MyNetwork  # reads the passphrase from stdin",
    'psk="your-wifi-password"',
    "The TOTP secret is shown once as a QR code; store it in your authenticator.",
    "Use Authorization: Basic with your username and API token.",
    "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
    "if token is None: raise ValueError('missing token')",
    "MAX_TOKENS = 4096\nTOKEN_LIMIT = 8192",
    "secret_name: prod/db/credentials",
    "SECRET_KEY_FILE=/run/secrets/django_key",
    "password_file: /etc/app/db.pass",
    "The commit 3f786850e387550fdab836ed7e6dc881de23001b fixes the parser.",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "id: 123e4567-e89b-12d3-a456-426614174000",
    "Set `api_key` in config.toml; see docs/configuration.md.",
    "export OPENAI_API_KEY=sk-...",
    "STRIPE_SECRET_KEY=sk_test_...",
)


def figures(redact: Callable[[str], str]) -> tuple[dict[str, tuple[int, int]], list[str], list[str]]:
    return family_figures(redact, unseen(), PLACEMENTS, BENIGN)


def report(redact: Callable[[str], str]) -> list[str]:
    title = f"unseen-format probes: {len(unseen())} formats x {len(PLACEMENTS)} placements"
    return family_report(title, figures(redact), len(BENIGN))


if __name__ == "__main__":
    from session_kit.redaction.engine import redact_text

    print("\n".join(report(redact_text)))
