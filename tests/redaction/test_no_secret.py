"""What names something and is no secret: ids, test fixtures' values, placeholders, cache keys,
code. Each text here was redacted (in part) before; the redactor leaves every one as written."""

from __future__ import annotations

import pytest

from session_kit.redaction.engine import find_secrets, redact

BENIGN = [
    '{"type": "tool_use", "id": "tooluse_Ab3dEf5gH7jK9mN1pQ3sT5vX", "name": "Bash"}',
    "tool_use_id: tooluse_kQ2wXpLm9ZrT4vBn8CyD1eFg",
    "server tool result cse_01AbCdEf23GhIjKl45MnOpQr ready",
    '        session_id = "test-session-123"',
    "        browser.selected_session_id = 'test-session-456'",
    'settings = Settings(SLACK_BOT_TOKEN="xoxb-token", SLACK_APP_TOKEN="xapp-token")',
    "Cache restored from GitHub Actions cache with key: setup-uv-1-x86_64-unknown-linux-gnu-0.7.13-f6c65b29c82e49811",
    "  params: { _csrf_token: csrfToken },",
    "We do a two-pass approach: first pass: collect ids, second pass: resolve",
    "    (or -part{N}.xml for multi-chunk sessions).",
    "python -c 'import sys' && uv run -python3 x.py",
    'Get-ChildItem -Recurse | Select-String -Pattern "TODO"',
    '<div data-phx-main="" data-phx-session="SFMyNTY.g2gDaAJhBnQAAAAIdwJpZG0AAAAUcGh4LUdKTlN6dU9XcmV2RlN3WUc" data-phx-static="x">',
    'node_ids: List of GraphQL node IDs (e.g., "WFR_kwLOPxC3hc8AAAAEnZK8rQ")',
    "pull request node id PR_kwDOAbCdEf5aBcDeFg",
    "token = TokenList()",
    "password = input('Password: ')",
    "if not password:\n    raise ValueError('no password')",
    "user.password = hash_password(raw)",
    "Open the forgot-password page and follow the link.",
    "const stripe = Stripe('pk_live_51HxYzAbCdEfGhIjKlMnOpQrStUvWxYz0123456789');",
    "SecretId: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
    "a = -pi*10**40",
    '  secret_key_base: "test-only-secret-base-minimum-64-bytes-long-enough-for-phoenix",',
    "All CI checks now pass: ruff check, ruff format, ty check",
    "data = base64 GypCmk16eL5tHX/EAABEAABEAABEAABEAABEAABEAABEAABEAABEAABEIiNBAJWcHAhJi36NNplKq9x0TtYbWmVuZ8rLkP2sQdF/ynb7+gRT",
]


@pytest.mark.parametrize("text", BENIGN)
def test_the_redactor_leaves_what_is_no_secret_as_written(text: str) -> None:
    assert find_secrets(text) == []
    assert redact(text) == text


@pytest.mark.parametrize(
    "text, secret",
    [
        ("DB_PASSWORD=MyDogRex2019!", "MyDogRex2019!"),
        ('password = "Changeme2024!Prod"', "Changeme2024!Prod"),
        ("mysql -u root -pS3cr3tPassw0rd! db", "S3cr3tPassw0rd!"),
        ("tool --db-password Xq9vLm2Rt7Kp", "Xq9vLm2Rt7Kp"),
    ],
)
def test_a_placeholder_word_inside_a_real_value_does_not_save_it(text: str, secret: str) -> None:
    assert secret not in redact(text)
