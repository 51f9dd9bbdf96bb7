"""What stands in a secret's place is left alone, and a real secret in the same place is not:
variable references, filler after a known prefix, placeholder words, password prompts with
nothing typed (`session_kit.redaction.filters`)."""

from __future__ import annotations

import pytest

from session_kit.redaction.engine import redact_text

REAL = "q7Zt2WmK9xPa4RcL8vNd"

# (text with a placeholder, the same text with a real secret in its place)
BOTH_WAYS = [
    ("OPENAI_API_KEY=<your-openai-api-key>", f"OPENAI_API_KEY=sk-proj-{REAL}{REAL}"),
    ("STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx", f"STRIPE_SECRET_KEY=sk_test_{REAL}"),
    ("STRIPE_SECRET_KEY=sk_test_...", f"STRIPE_SECRET_KEY=sk_test_{REAL}"),
    ("GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", f"GITHUB_TOKEN=ghp_{REAL}{REAL[:16]}"),
    ("AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX", "AWS_ACCESS_KEY_ID=AKIAQ7ZT2WMK9XPA4RCL"),
    ("STRIPE_KEY=sk_live_****************************", f"STRIPE_KEY=sk_live_{REAL}"),
    ("      GITHUB_TOKEN: ${GITHUB_TOKEN}", f"      GITHUB_TOKEN: ghp_{REAL}{REAL[:16]}"),
    ("  - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-postgres}", f"  - POSTGRES_PASSWORD={REAL}"),
    ("export API_TOKEN=$(cat /run/secrets/api_token)", f"export API_TOKEN={REAL}"),
    ("set DB_PASSWORD=%DB_PASSWORD%", f"set DB_PASSWORD={REAL}"),
    ("password: {{ .Values.postgresql.auth.password }}", f"password: {REAL}"),
    ("      POSTGRES_PASSWORD: changeme", f"      POSTGRES_PASSWORD: {REAL}"),
    ("DATABASE_PASSWORD=REPLACE_ME", f"DATABASE_PASSWORD={REAL}"),
    ("password = TODO", f"password = {REAL}"),
    ("SECRET_KEY = 'replace-me-with-a-real-secret'", f"SECRET_KEY = '{REAL}'"),
    ("api_key: '***'", f"api_key: '{REAL}'"),
    ("token: <REDACTED>", f"token: {REAL}"),
    ("DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME", f"DATABASE_URL=postgres://app:{REAL}@db:5432/app"),
    ('sshpass -p "$SSH_PASS" ssh deploy@host', f"sshpass -p '{REAL}' ssh deploy@host"),
    (
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        f"https://hooks.slack.com/services/T04QK7ZLM/B06RJ2N8XPC/{REAL}",
    ),
    ("APP_KEY=\nAPP_DEBUG=true", f"APP_KEY=base64:{REAL}{REAL}=\nAPP_DEBUG=true"),
]


@pytest.mark.parametrize(("placeholder", "real"), BOTH_WAYS, ids=[b[0][:40] for b in BOTH_WAYS])
def test_a_placeholder_is_left_alone_and_a_real_secret_in_its_place_is_removed(placeholder: str, real: str):
    assert redact_text(placeholder) == placeholder
    assert REAL[:8] not in redact_text(real)


@pytest.mark.parametrize(
    "prompt",
    [
        "[sudo] password for jane: \nSorry, try again.",
        "[sudo] password for jane:\n total 0",
        "$ mysql -u root -p\nEnter password: \nWelcome to the MySQL monitor.",
        "Enter password:\nmysql> show databases;",
        "Password:\n$ ls -la",
        "Password for 'https://jane@github.com': \nremote: Invalid username or password.",
    ],
)
def test_a_password_prompt_with_nothing_typed_is_left_alone(prompt: str):
    assert redact_text(prompt) == prompt


@pytest.mark.parametrize(
    "text",
    [
        '{"key": "123e4567-e89b-12d3-a456-426614174000"}',
        "request_key: 123e4567-e89b-12d3-a456-426614174000",
        "object key = photos/IMG_20240101_123456.jpg",
        "i18n key: dashboard.widgets.revenue_chart_title_v2",
        "PublicKey = 3AXEcRpVmQ0x8n5kYtE1hG7uJb2LdWq9sZfC4oNy6Ik=",
        "public_key: 3AXEcRpVmQ0x8n5kYtE1hG7uJb2LdWq9sZfC4oNy6Ik=",
        "Enter passphrase for key '/home/jane/.ssh/id_ed25519': ",
    ],
)
def test_an_id_a_path_or_a_public_key_under_a_key_like_name_is_left_alone(text: str):
    assert redact_text(text) == text
