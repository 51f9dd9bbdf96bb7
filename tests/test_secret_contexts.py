"""The rules found by a secret's place (`redaction.rules.contexts`): each finds its secret and keeps the
text around it; near misses stay as written."""

from __future__ import annotations

import pytest

from session_kit.redaction.engine import redact

CASES = [
    ("gpg --batch --passphrase Xk29vLq81mZp -d b.gpg", "Xk29vLq81mZp"),
    ("ssh-keygen -t ed25519 -N 'Qw8zLm20xPa' -f key", "'Qw8zLm20xPa'"),  # the quotes go with it
    ("openssl enc -aes-256-cbc -k Pz81kQm2Lx -in a", "Pz81kQm2Lx"),
    ("ncftp -u admin -p Nf7qLz92xa ftp.example.com", "Nf7qLz92xa"),
    ("<settings><apiKey>k8Qz2LmX91pA</apiKey></settings>", "k8Qz2LmX91pA"),
    ("keytool -list -keystore a.jks -storepass Ks9mQ2zL", "Ks9mQ2zL"),
    ("redis-cli -h cache -a R3dQz8mLx1 ping", "R3dQz8mLx1"),
    ("smbclient //fs/share -U alice%Sm8qL2zx9", "Sm8qL2zx9"),
    ("xfreerdp /v:host /u:admin /p:Rd9qLz2mX", "Rd9qLz2mX"),
    ("./config.sh --url https://github.com/a/b --token AB3CDEFGH2JKLMNOPQ7RSTUVWXY45", "AB3CDEFGH2JKLMNOPQ7RSTUVWXY45"),
    ("postgres://app:p@ss/w0rd#1@db.internal:5432/app", "p@ss/w0rd#1"),
    ("AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE6MU", "AGE-SECRET-KEY-1QPZRY9X8"),
]


@pytest.mark.parametrize(("text", "secret"), CASES)
def test_a_secret_in_its_place_is_redacted_and_its_place_kept(text: str, secret: str):
    out = redact(text)
    assert secret not in out and "[REDACTED:" in out
    assert out.split("[REDACTED:")[0] == text.split(secret)[0]


@pytest.mark.parametrize(
    "text",
    [
        "kubeadm join --help  # prints the --token flag's usage",
        "java -jar agent.jar -url https://ci/ -secret @secret-file",
        "https://example.com:8443/a@b.example.com/x",
        "openssl req -new -key key.pem -out req.csr",
        "<password></password> and <token>$TOKEN</token>",
        "ssh-keygen -t ed25519 -C deploy@ci -f ~/.ssh/id_ed25519",
        "TokenEndpoint('https://auth.example.com/oauth2/token')",
    ],
)
def test_near_misses_stay_as_written(text: str):
    assert redact(text) == text
