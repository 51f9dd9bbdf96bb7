"""Probes for secrets that grant access by being shown, by category, each in several formats
and placements: cluster join and bootstrap tokens, session cookies, one-time-password seeds,
wallet keys and mnemonics, signed URLs, secrets nested in config blocks and name/value pairs,
credentials as command arguments, webhooks and bot clients, Authorization headers set in
server configs, keys by their encoding. Values are random from their own seed; the formats are
written from what the tools print and read, not from the rule table. Plus 64 benign texts of
the kinds these rules could take for a secret (transaction hashes, addresses, certificates in
base64, ports after `-p`, Windows SIDs, hook paths, prose about seed phrases), none of which
may change.

Run as a script for the figures per family: `python -m tests.support.access_secrets`.
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
HEX = "0123456789abcdef"
B32 = U + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
# Words of BIP-39's English list (a mnemonic is 12 to 24 of them).
BIP39 = """acid bacon cabin dance eager fabric gadget habit jacket kangaroo label machine napkin oak paddle
    quality rabbit saddle table ugly vacant wagon yard zone zoo orbit pistol ribbon silver timber velvet walnut""".split()  # noqa: SIM905


def access(seed: int = 3131) -> list[Probe]:
    rng = random.Random(seed)

    def r(alphabet: str, n: int) -> str:
        classes = [part for part in (L, U, D) if set(part) & set(alphabet)]
        while True:
            value = "".join(rng.choice(alphabet) for _ in range(n))
            if len(classes) < 2 or sum(any(c in part for c in value) for part in classes) >= 2:
                return value

    def uuid() -> str:
        h = r(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def pw() -> str:
        return r(AN, 9) + rng.choice("!%^*_.+") + r(AN, 5)

    def words(n: int) -> str:
        return " ".join(rng.choice(BIP39) for _ in range(n))

    out: list[Probe] = []

    def add(kind: str, family: str, line: str, *secrets: str) -> None:
        out.append(Probe(kind, family, line, secrets))

    # --- cluster joins and bootstraps ---
    f = "cluster-join"
    tok = r(L + D, 6) + "." + r(L + D, 16)
    add("kubeadm-token-create", f, f"$ kubeadm token create --ttl 2h\n{tok}\n", tok)
    tok = r(L + D, 6) + "." + r(L + D, 16)
    add(
        "kubeadm-init-output",
        f,
        "Then you can join any number of worker nodes by running the following on each as root:\n\n"
        f"kubeadm join 172.16.0.10:6443 --token {tok} \\\n\t--discovery-token-ca-cert-hash sha256:{r(HEX, 64)}",
        tok,
    )
    tok = r(L + D, 6) + "." + r(L + D, 16)
    add(
        "kubeadm-token-table",
        f,
        "$ sudo kubeadm token list -o wide\n"
        f"TOKEN                     TTL   USAGES\n{tok}   1h    authentication,signing",
        tok,
    )
    v = uuid()
    add(
        "nomad-token-output",
        f,
        f"$ nomad acl token create -name=ci -policy=deploy\nAccessor ID  = {uuid()}\nSecret ID    = {v}\nName         = ci",
        v,
    )
    v = uuid()
    add("consul-token-read", f, f"AccessorID:       {uuid()}\nSecretID:         {v}\nDescription:      deploy", v)
    v = uuid()
    add(
        "vault-approle-secret-id",
        f,
        f"Key                   Value\n---                   -----\nsecret_id             {v}\nsecret_id_ttl         0s",
        v,
    )
    v = uuid()
    add("consul-hcl-tokens", f, f'acl = {{\n  enabled = true\n  tokens {{\n    initial_management = "{v}"\n  }}\n}}', v)
    v = r(HEX, 32)
    add("microk8s-join", f, f"Join node with: microk8s join 10.1.2.3:25000/{v}/{r(HEX, 12)}", v)
    v = "sha256~" + r(AN + "-_", 43)
    add("oc-whoami-token", f, f"$ oc whoami --show-token\n{v}", v)
    v = base64.b64encode(json.dumps({"payload": r(AN, 120), "datakey": r(AN, 60), "version": "2"}).encode()).decode()
    add("ecr-login-password", f, f"$ aws ecr get-login-password --region eu-west-1\n{v}", v)
    v = r(AN + "+/", 180) + "=="
    add("k0s-token-create", f, f"$ k0s token create --role=worker --expiry=1h\n{v}\n", v)

    # --- session cookies ---
    f = "session-cookie"
    v = r(AN, 40)
    add("curl-cookie-long", f, f"curl --cookie 'session={v}' https://app.example.net/api/me", v)
    v = r(L + D, 26)
    add("curl-b-phpsessid", f, f'curl -s -b "PHPSESSID={v}; lang=de" https://shop.example.net/cart', v)
    v = r(AN + "-_", 44)
    add(
        "cookie-jar",
        f,
        f"# Netscape HTTP Cookie File\n#HttpOnly_.example.net\tTRUE\t/\tTRUE\t1799999999\t_app_session\t{v}",
        v,
    )
    v = r("ABCDEF" + D, 32)
    add("jsessionid-log", f, f"2026-03-02 10:11:12 INFO  request GET /admin JSESSIONID={v} user=admin", v)
    v = r(AN, 32)
    add("requests-cookies", f, f'resp = requests.get(url, cookies={{"sessionid": "{v}"}})', v)
    v = r(AN, 32)
    add("httpie-cookie", f, f"http GET https://api.example.net/me Cookie:_shop_session={v}", v)
    v = r(AN, 40)
    add(
        "cookie-export-json",
        f,
        json.dumps([{"name": "__Secure-next-auth.session-token", "value": v, "domain": ".example.net", "path": "/"}]),
        v,
    )
    v = "s%3A" + r(AN + "-_", 32) + "." + r(AN, 20)
    add("express-sid-header", f, f"wget --header='Cookie: connect.sid={v}' https://api.example.net/me", v)

    # --- one-time-password seeds ---
    f = "otp-seed"
    v = r(B32, 32)
    add("otpauth-uri", f, f"otpauth://totp/Acme:ops%40acme.io?issuer=Acme&secret={v}&digits=6", v)
    v = r(B32, 32)
    add("oathtool-base32", f, f"$ oathtool --totp --base32 {v}\n492039", v)
    v = r(B32, 16)
    groups = " ".join(v.lower()[i : i + 4] for i in range(0, 16, 4))
    add("setup-key-groups", f, f"Can't scan the code? Enter this setup key instead: {groups}", *groups.split())
    v = r(B32, 32)
    add("pyotp-call", f, f'code = pyotp.TOTP("{v}").now()', v)
    v = r(B32, 32)
    add("mfa-seed-yaml", f, f"admin:\n  user: root\n  mfa_seed: {v}", v)
    v = r(B32, 32)
    add("ykman-add", f, f"ykman oath accounts add github:ops {v}", v)
    v = base64.b64encode(rng.randbytes(60)).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    add("otpauth-migration", f, f"otpauth-migration://offline?data={v}", v)
    v = r(B32, 32)
    add("totp-key-json", f, json.dumps({"issuer": "Acme", "type": "totp", "totp_key": v}), v)

    # --- wallets ---
    f = "wallet"
    v = "0x" + r(HEX, 64)
    add("hardhat-accounts", f, f'    goerli: {{\n      url: RPC,\n      accounts: ["{v}"]\n    }}', v)
    v = "0x" + r(HEX, 64)
    add("ethers-wallet", f, f'const signer = new ethers.Wallet("{v}", provider);', v)
    v = "0x" + r(HEX, 64)
    add("web3py-from-key", f, f'acct = Account.from_key("{v}")', v)
    v = rng.choice("KL") + r(B58, 51)
    add("wif-json", f, f'{{"address": "bc1q{r(L + D, 38)}", "wif": "{v}"}}', v)
    v = rng.choice("KL") + r(B58, 51)
    add("importprivkey", f, f"bitcoin-cli -regtest importprivkey {v} label false", v)
    v = words(12)
    add("mnemonic-env", f, f'SEED_PHRASE="{v}"', v)
    v = words(24)
    add("mnemonic-hardhat", f, f'accounts: {{ mnemonic: "{v}" }}', v)
    v = words(12)
    add("solana-keygen-output", f, f"Save this seed phrase to recover your new keypair:\n{v}", v)
    v = words(12)
    add("hdwallet-provider", f, f'const provider = new HDWalletProvider("{v}", process.env.RPC);', v)
    v = "[" + ",".join(str(rng.randrange(256)) for _ in range(64)) + "]"
    add("keypair-bytes", f, f"const payer = Keypair.fromSecretKey(Uint8Array.from({v}));", v)

    # --- signed URLs ---
    f = "signed-url"
    v, t = r(HEX, 64), r(AN + "/+", 120)
    add(
        "s3-presigned-session",
        f,
        "https://media.s3.eu-west-1.amazonaws.com/a.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z"
        f"&X-Amz-Expires=900&X-Amz-Security-Token={t}&X-Amz-SignedHeaders=host&X-Amz-Signature={v}",
        v,
        t,
    )
    v = r(HEX, 256)
    add(
        "gcs-signed",
        f,
        "https://storage.googleapis.com/exports/report.csv?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Expires=600"
        f"&X-Goog-SignedHeaders=host&X-Goog-Signature={v}",
        v,
    )
    v = r(AN + "~-_", 172)
    add(
        "cloudfront-signed",
        f,
        f"https://d111.cloudfront.net/v.m3u8?Expires=1799999999&Signature={v}&Key-Pair-Id=APKA2EXAMPLE",
        v,
    )
    v = r(HEX, 40)
    add(
        "cos-q-signature",
        f,
        f"https://b-125.cos.ap-beijing.myqcloud.com/a.zip?q-sign-algorithm=sha1&q-ak=AKIDx&q-signature={v}",
        v,
    )
    v = r(AN + "+/", 44)
    add("presigned-post-fields", f, json.dumps({"fields": {"key": "up/a.bin", "x-amz-signature": v}}), v)
    v = r(AN, 27) + "%3D"
    add(
        "oss-signed",
        f,
        f"https://bkt.oss-cn-hangzhou.aliyuncs.com/x.zip?OSSAccessKeyId=LTAI0000&Expires=1799999999&Signature={v}",
        v,
    )

    # --- secrets nested in config ---
    f = "nested-config"
    v = r(AN, 28)
    add(
        "k8s-env-pair",
        f,
        f"      env:\n        - name: REGISTRY_PASSWORD\n          value: {v}\n        - name: MODE\n          value: prod",
        v,
    )
    v = r(AN, 36)
    add(
        "ecs-environment",
        f,
        f'"environment": [{{"name": "STRIPE_API_KEY", "value": "{v}"}}, {{"name": "PORT", "value": "80"}}]',
        v,
    )
    auth = base64.b64encode(f"deploy:{pw()}".encode()).decode()
    v = base64.b64encode(json.dumps({"auths": {"registry.example.com": {"auth": auth}}}).encode()).decode()
    add("dockerconfigjson", f, f"data:\n  .dockerconfigjson: {v}\ntype: kubernetes.io/dockerconfigjson", v)
    v = r(AN, 24) + "7"
    add("redis-conf", f, f"# redis.conf\nbind 127.0.0.1\nrequirepass {v}\nmaxmemory 2gb", v)
    v = r(AN + "/+", 40)
    add("hadoop-xml", f, f"<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{v}</value>\n</property>", v)
    v = pw()
    add(
        "cfn-parameters",
        f,
        f"aws cloudformation deploy --parameter-overrides ParameterKey=DbPassword,ParameterValue={v}",
        v,
    )
    v = r(AN, 32)
    add("yaml-secret-block", f, f"webhook:\n  secret:\n    value: {v}\n    rotate: monthly", v)
    v = r(AN, 30)
    add("tfvars-map", f, f'secrets = {{\n  grafana = "{v}"\n}}', v)
    v = r(AN, 32)
    v = r(AN, 24) + "!"
    add("tf-variable-default", f, f'variable "db_password" {{\n  type    = string\n  default = "{v}"\n}}', v)
    v = r(AN, 32)
    add("ini-api-section", f, f"[api]\nsite=https://chat.example.org\nkey={v}\nemail=bot@example.org", v)

    # --- credentials as command arguments ---
    f = "command-args"
    v = pw()
    add("cqlsh", f, f"cqlsh -u cassandra -p {v} 10.0.0.5 9042", v)
    v = pw()
    add("rabbitmqadmin", f, f"rabbitmqadmin -u admin -p {v} list queues", v)
    v = pw()
    add("mongosh-username", f, f"mongosh --username root -p {v} --authenticationDatabase admin", v)
    v = pw()
    add("htpasswd-nb", f, f"htpasswd -nbB ops {v} >> users.htpasswd", v)
    v = pw()
    add("net-user", f, f"C:\\> net user svc_backup {v} /add /domain", v)
    v1, v2 = pw(), pw()
    add("snmpv3", f, f"snmpwalk -v3 -l authPriv -u monitor -a SHA -A {v1} -x AES -X {v2} 10.0.0.1", v1, v2)
    v = pw()
    add("nmcli-wifi", f, f"nmcli dev wifi connect Office-5G password {v}", v)
    v = pw()
    add("expect-send", f, f'spawn ssh admin@10.0.0.9\nexpect "password:"\nsend "{v}\\r"\ninteract', v)
    v = pw()
    add(
        "ftp-debug",
        f,
        f"ftp> user deploy\n---> USER deploy\n331 Password required\n---> PASS {v}\n230 Login successful.",
        v,
    )
    v = pw()
    v = pw()
    add("hdbsql", f, f"hdbsql -n localhost:30015 -u SYSTEM -p {v} -d SYSTEMDB", v)
    add("wpa-passphrase", f, f"wpa_passphrase Office-5G {v} > /etc/wpa_supplicant.conf", v)

    # --- webhooks and bot clients ---
    f = "webhook-bot"
    v = r(L + D, 26)
    add("chat-hooks-path", f, f'curl -X POST -d \'payload={{"text":"hi"}}\' https://chat.example.org/hooks/{v}', v)
    v1, v2 = r(AN, 17), r(AN, 48)
    add("rocket-hooks", f, f"url: https://rc.example.org/hooks/{v1}/{v2}", v2)
    v = uuid()
    add("n8n-webhook", f, f"POST https://n8n.example.org/webhook/{v}", v)
    v = r(AN + "_-", 22) + "9"
    add("ifttt-key-path", f, f"curl -X POST https://maker.example.com/trigger/deploy/with/key/{v}", v)
    v = r(AN + "/+", 120) + "="
    add("line-bot-api", f, f"api = LineBotApi('{v}')", v)
    v = r(HEX, 32)
    v = uuid()
    add("bot-hook-path", f, f"https://open.example.cn/open-apis/bot/v2/hook/{v}", v)
    v = uuid()
    add("webhook-key-query", f, f"curl 'https://qyapi.example.com/cgi-bin/webhook/send?key={v}' -d @msg.json", v)
    v = r(HEX, 32)
    add("twilio-client", f, f'client = Client(account_sid, "{v}")', v)

    # --- Authorization set in a server's config ---
    f = "auth-header"
    v = base64.b64encode(f"ops:{pw()}".encode()).decode()
    add("nginx-basic", f, f'    proxy_set_header Authorization "Basic {v}";', v)
    v = r(AN, 40)
    add("apache-bearer", f, f'RequestHeader set Authorization "Bearer {v}"', v)
    v = base64.b64encode(f"svc:{pw()}".encode()).decode()
    add("haproxy-basic", f, f'    http-request set-header Authorization "Basic {v}"', v)
    v = r(AN, 32)
    add("nginx-api-key-header", f, f'    proxy_set_header X-Api-Key "{v}";', v)
    v = r(AN, 40)
    add(
        "envoy-header",
        f,
        f'request_headers_to_add:\n  - header:\n      key: Authorization\n      value: "Bearer {v}"',
        v,
    )
    v = r(AN, 40)
    v = r(AN, 40)
    add(
        "dotnet-header-value",
        f,
        f'client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "{v}");',
        v,
    )
    v = pw()
    add("requests-auth-pair", f, f'r = requests.get(url, auth=("admin", "{v}"), timeout=10)', v)
    v = pw()
    add("go-basic-auth", f, f'req.SetBasicAuth("svc", "{v}")', v)
    v = r(AN, 40)
    add("postman-header", f, json.dumps({"header": [{"key": "Authorization", "value": f"Bearer {v}"}]}), v)

    # --- keys by their encoding ---
    f = "encoded-key"
    pem = (
        "-----BEGIN EC PRIVATE KEY-----\n"
        + r(AN + "/+", 64)
        + "\n"
        + r(AN + "/+", 56)
        + "\n-----END EC PRIVATE KEY-----\n"
    )
    v = base64.b64encode(pem.encode()).decode()
    add("kubeconfig-client-key", f, f"users:\n- name: admin\n  user:\n    client-key-data: {v}", v)
    pem = "-----BEGIN PRIVATE KEY-----\n" + r(AN + "/+", 64) + "\n-----END PRIVATE KEY-----\n"
    v = base64.b64encode(pem.encode()).decode()
    add("k8s-secret-tls-key", f, f"type: kubernetes.io/tls\ndata:\n  tls.key: {v}", v)
    v = "MHcCAQEEI" + r(AN + "/+", 55) + "\n" + r(AN + "/+", 64) + "\n" + r(AN + "/+", 40) + "=="
    add("ec-body-no-header", f, f"# key.b64 (the PEM's body only)\n{v}", *v.split("\n"))
    v = base64.b64encode(rng.randbytes(32)).decode()
    add(
        "wireguard-netplan",
        f,
        f"      keys:\n        public: {base64.b64encode(rng.randbytes(32)).decode()}\n        shared: {v}",
        v,
    )
    v = r(AN + "/+", 86)
    add("tor-onion-key", f, f"250-ServiceID=abc\n250-PrivateKey=ED25519-V3:{v}\n250 OK", v)
    v = pw()
    add(
        "gradle-signing",
        f,
        f"signingConfigs {{\n    release {{\n        storeFile file('release.jks')\n        storePassword '{v}'\n    }}\n}}",
        v,
    )
    v1, v2 = base64.b64encode(rng.randbytes(33)).decode(), base64.b64encode(rng.randbytes(33)).decode()
    add("recovery-keys", f, f"Recovery Key 1: {v1}\nRecovery Key 2: {v2}\n\nInitial Root Token: none", v1, v2)
    return out


# Texts these rules could take for a secret; none of them may change.
BENIGN: tuple[str, ...] = (
    "tx 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 mined in block 17034870",
    "Wallet 0x71C7656EC7ab88b098defB751B7401B5f6d8976F sent 0x8f1f3c1b0cbd2b1e7f6ad28d9e8f7d0c5b4a3e2f1d0c9b8a7f6e5d4c3b2a1f0e",
    "blockHash: 0x9b2f0c6a1d3e5f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a",
    "const provider = new ethers.JsonRpcProvider(process.env.RPC_URL);",
    "accounts: process.env.PRIVATE_KEY ? [process.env.PRIVATE_KEY] : []",
    "bitcoin-cli getnewaddress -> bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    "Write down the recovery phrase and keep it in a safe place; anyone with it can move your funds.",
    "A seed phrase is a list of twelve to twenty-four words that can restore a wallet.",
    "random_seed: 42",
    " PASS  src/components/App.test.js (2.1 s)",
    "secretName: tls-cert-2026",
    "      env:\n        - name: LOG_LEVEL\n          value: debug",
    "        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: db\n              key: password",
    '{"name": "API_TOKEN", "value": "${API_TOKEN}"}',
    "    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvakNDQWVhZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwK",
    "  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURCVENDQWUyZ0F3SUJBZ0lJZDRxNlNyR3dNMnd3RFFZSktvWklodmNOQVFFTEJRQXcK",
    "mkdir -p build/out/release",
    "ssh -l deploy -p 2222 bastion.example.org",
    "docker run -u 1000 -p 8080:80 nginx:1.27",
    "kubectl port-forward -n monitoring svc/grafana 3000:80",
    "git checkout -b feature/login-form",
    "curl -b cookies.txt -c cookies.txt https://example.org/login",
    'curl -b "lang=en" https://example.org/',
    ".example.org\tTRUE\t/\tFALSE\t0\tlang\ten",
    "SID : S-1-5-21-3623811015-3361044348-30300820-1013",
    '{"sessionId":"5e551011-0000-4000-8000-000000000031","type":"user"}',
    "iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
    "session_timeout = 3600",
    "https://github.com/acme/api/settings/hooks/412345678",
    "oc whoami\nsystem:admin",
    "src/hooks/useAuthToken.ts",
    "header_up Host {upstream_hostport}",
    "https://bucket.s3.amazonaws.com/public/logo.png",
    "https://bucket.s3.amazonaws.com/o?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-SignedHeaders=host&X-Amz-Signature=<signature>",
    "The Signature= parameter is computed over the canonical request.",
    "proxy_set_header Authorization $http_authorization;",
    'RequestHeader set Authorization "Bearer %{TOKEN}e"',
    "otpauth://totp/Example:alice@example.com?secret=<SECRET>&issuer=Example",
    'oathtool --totp -b "$TOTP_SEED"',
    "ls -la /etc/ssh/keys/host_ed25519_key.pub",
    "net user alice /domain",
    "snmpget -v2c -c public 10.0.0.1 sysUpTime.0",
    "wpa_passphrase MyNetwork < passphrase.txt",
    "htpasswd -c /etc/nginx/.htpasswd alice",
    "eyJuYW1lIjoiYWxpY2UiLCJyb2xlIjoiYWRtaW4iLCJ0ZWFtIjoiY29yZSJ9",
    "kubeadm reset -f && rm -rf /etc/cni/net.d",
    'kubeadm version: &version.Info{Major:"1", Minor:"29", GitVersion:"v1.29.2", GitCommit:"4b8e819355d791d96b7e9d9efe4cbafae2311c88"}',
    "Joined the meeting at 10:02; see notes.example.org/2026/03/02 for the agenda.",
    "result = os.path.join(base_dir, 'templates.html')",
    "Accessor ID  = 41dfc013-6068-4108-997b-666c6b45ee5a",
    "token auth enabled\nauth methods: token, userpass",
    'acl {\n  enabled = true\n  default_policy = "deny"\n}',
    "sha256:6b8e2c1f0a9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b",
    "4b8e819355d791d96b7e9d9efe4cbafae2311c88 Merge pull request #412 from acme/fix-login",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "integrity sha512-Lh2vrJeGzZnKXlC6vOzDyV/3PzM5wBgxoEj4ASVIN1sQo8yKH3Oq5uHoxqJrPvQp8vAMvNWnHtCKUMnaYf8zXw==",
    "Recovery Key 1 is printed once; store it offline.",
    'expect "Password:"\nsend "$env(PASSWORD)\\r"',
    "requirepass foobared",
    "const client = new Client({ intents: [GatewayIntentBits.Guilds] });",
    "api = LineBotApi(os.environ['LINE_CHANNEL_ACCESS_TOKEN'])",
    "handler = WebhookHandler(channel_secret)",
    "mongosh --username root --authenticationDatabase admin",
    'req.Header.Set("Authorization", "Bearer "+token)',
)


def figures(redact: Callable[[str], str]) -> tuple[dict[str, tuple[int, int]], list[str], list[str]]:
    """Per family (found whole, probes), over every placement; the kinds missed; the benign
    texts altered."""
    return family_figures(redact, access(), PLACEMENTS, BENIGN)


def report(redact: Callable[[str], str]) -> list[str]:
    title = f"access probes: {len(access())} formats x {len(PLACEMENTS)} placements"
    return family_report(title, figures(redact), len(BENIGN))


if __name__ == "__main__":
    from session_kit.redaction.engine import redact_text

    print("\n".join(report(redact_text)))
