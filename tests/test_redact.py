"""Secrets in realistic (fake) shapes are redacted with their kind; ordinary text is not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_kit.redaction.engine import (
    SEPARATOR,
    Redactor,
    is_secret_name,
    redact,
    redact_text,
    showing_secrets,
    shown,
    shown_value,
)
from session_kit.transcript.tools import SUMMARY_LIMIT, one_line
from tests.support.secret_probes import PLACEMENTS, Figures, measure, probes

PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
    "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"
    "-----END RSA PRIVATE KEY-----"
)
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

CASES = [
    ("aws_access_key_id = AKIAIOSFODNN7Q7ZK2MX", "AKIAIOSFODNN7Q7ZK2MX", "aws-access-key"),
    (
        "aws_secret_access_key = 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",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYQ7ZK2MXKEY",
        "aws-secret-key",
    ),
    (
        "export ANTHROPIC_API_KEY=sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyAA",
        "sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyAA",
        "anthropic-api-key",
    ),
    (
        "client = OpenAI(api_key='sk-proj-4fT9kQ2wX7mN1pR8sV3yB6cH0jL5dG2e')",
        "sk-proj-4fT9kQ2wX7mN1pR8sV3yB6cH0jL5dG2e",
        "openai-api-key",
    ),
    (
        "git clone https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "github-token",
    ),
    (
        "GH_TOKEN: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF",
        "github-token",
    ),
    (
        "SLACK_BOT=xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "slack-token",
    ),
    (
        "url: https://hooks.slack.com/services/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",
        "T04QK7ZLM/B06RJ2N8XPC",
        "slack-webhook",
    ),
    ("key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&q=x", "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI", "google-api-key"),
    (f"cookie: session={JWT}", JWT, "jwt"),
    (
        'curl -H "Authorization: Bearer 8f2d1c0b9a7e6d5c4b3a2f1e0d9c8b7a" https://api',
        "8f2d1c0b9a7e6d5c4b3a2f1e0d9c8b7a",
        "bearer-token",
    ),
    ("Authorization: Basic dXNlcjpodW50ZXIy", "dXNlcjpodW50ZXIy", "basic-auth"),
    (
        f"cat id_rsa\n{PEM}\nthat was the key",
        "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
        "private-key",
    ),
    ("mysql --host db password=hunter22 --port 3306", "hunter22", "password"),
    ('{"user": "ann", "password": "c0rrect-h0rse"}', "c0rrect-h0rse", "password"),
    ("DB_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor", "password"),
    ("export API_KEY=abcd1234efgh5678", "abcd1234efgh5678", "api-key"),
    ("SECRET=s3cr3tvalue TOKEN=tok_9f8e7d6c", "s3cr3tvalue", "secret"),
    ("settings.client_secret = 'Zx8#kQ2@pL9'", "Zx8#kQ2@pL9", "secret"),
    ("DATABASE_URL=postgres://app:Sup3rS3cret@db.internal:5432/app", "Sup3rS3cret", "url-password"),
]


@pytest.mark.parametrize(("text", "secret", "kind"), CASES, ids=[c[2] + str(i) for i, c in enumerate(CASES)])
def test_secret_is_replaced_by_a_marker_naming_its_kind(text: str, secret: str, kind: str):
    redactor = Redactor()
    out = redactor(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out
    assert redactor.counts[kind] >= 1


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("password=hunter22", "password=[REDACTED:password]"),
        ('"api_key": "abc12345"', '"api_key": "[REDACTED:api-key]"'),
        ("TOKEN=tok_9f8e7d6c", "TOKEN=[REDACTED:token]"),
    ],
)
def test_names_around_an_assignment_are_kept(text: str, redacted: str):
    assert redact(text) == redacted


ORDINARY = [
    "session 266f5872-b716-4df1-b42b-7ca857a257ae resumed",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)",
    "/home/user/.ssh/id_rsa.pub /usr/lib/python3.11/site-packages/tokenizers/__init__.py",
    "max_tokens=1024, tokenizer = AutoTokenizer.from_pretrained(name)",
    "if password == expected: return",
    "password_hash = bcrypt(pw)",
    "MAX_TOKENS=4096 TOKEN_FILE=/run/token",
    "def get_api_key(self): return os.environ['API_KEY']",
    "API_KEY=$API_KEY ./deploy.sh && PASSWORD=${PASSWORD} make",
    "the task-runner-configuration-and-rollout-plan is ready",
    "Bearer tokens go in the Authorization header",
    "https://example.com:8443/path?x=1 and http://localhost:8000/",
    "Asia/Tokyo timezone; key: value; secret sauce",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_left_alone(text: str):
    redactor = Redactor()
    assert redactor(text) == text
    assert not redactor.counts


def test_many_texts_at_once_keep_their_boundaries():
    redactor = Redactor()
    texts = ["password=abc123", "nothing here", "TOKEN=abcdef12", "Bearer"]
    assert redactor.many(texts) == ["password=[REDACTED:password]", "nothing here", "TOKEN=[REDACTED:token]", "Bearer"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_characters=SEPARATOR), max_size=40), min_size=1, max_size=6))
def test_a_match_never_spans_two_texts(texts: list[str]):
    redactor = Redactor()
    together = redactor.many(list(texts))
    assert len(together) == len(texts)
    assert together == [Redactor()(t) for t in texts]  # each text redacted as if alone


def test_every_probe_is_redacted_in_a_batch_as_when_it_is_alone():
    """A batch joins its texts with NUL: a rule that looks behind a secret (`curl -u` at the
    start of a text) must take NUL as the start it is. Found leaking in `shown_many`."""
    lines = [probe.line for probe in probes()]
    alone = [Redactor()(line) for line in lines]
    for line, expected in zip(lines, alone):
        assert Redactor().many(["before", line, "after"]) == ["before", expected, "after"], line
    assert Redactor().many(["x", "-u admin:hunter2secret"])[1] == "-u admin:[REDACTED:password]"


@pytest.mark.parametrize("name", ["password", "api_key", "apiKey", "GITHUB_TOKEN", "client_secret", "db-password"])
def test_names_of_secrets_are_recognised(name: str):
    assert is_secret_name(name)


@pytest.mark.parametrize("name", ["command", "file_path", "max_tokens", "description", "key"])
def test_ordinary_names_are_not_secret_names(name: str):
    assert not is_secret_name(name)


# --- recall and false positives over a generated probe set (tests/support/secret_probes.py) ---

RECALL_TARGET = 0.97  # of the probes, fully removed, in every placement
BENIGN_ALTERED_AT_MOST = 1


@pytest.fixture(scope="module")
def figures() -> Figures:
    found = measure(redact_text, one_line, limit=SUMMARY_LIMIT)
    print("\n" + "\n".join(found.lines()))  # the figures, for `pytest -s` and the closing note
    return found


def test_the_probe_set_covers_every_family_with_over_a_hundred_formats():
    found = probes()
    assert len({p.kind for p in found}) == len(found) >= 107
    assert {p.family for p in found} >= {"cloud", "vcs", "ci", "payment", "chat", "registry", "ai", "shape"}
    assert len(PLACEMENTS) >= 25


@pytest.mark.parametrize("placement", [p.name for p in PLACEMENTS])
def test_secrets_are_fully_removed_in_every_placement(figures: Figures, placement: str):
    assert figures.recall[placement] >= RECALL_TARGET, figures.missed[placement]


def test_benign_look_alikes_are_left_alone(figures: Figures):
    assert len(figures.altered) <= BENIGN_ALTERED_AT_MOST, figures.altered


@pytest.mark.parametrize(
    ("text", "kept", "secret"),
    [
        (
            '{\\"user\\": \\"ann\\", \\"password\\": \\"c0rrect-h0rse\\"}',
            '\\"password\\": \\"[REDACTED:',
            "c0rrect-h0rse",
        ),
        ('{"type": "x-new", "body": "{\\"api_key\\": \\"abcd1234efgh5678\\"}"}', "api_key", "abcd1234efgh5678"),
    ],
)
def test_escaped_quotes_do_not_hide_an_assignment(text: str, kept: str, secret: str):
    out = redact_text(text)
    assert secret not in out
    assert kept in out


def test_a_cut_never_leaves_the_head_of_a_secret():
    key = "sk-ant-api03-" + "Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS" * 3
    text = "echo " + "x" * (SUMMARY_LIMIT - 20) + " " + key
    out = one_line(text)
    assert len(out) <= SUMMARY_LIMIT
    assert "sk-ant" not in out and "Xk3j9dQ2" not in out


def test_showing_secrets_turns_the_policy_off_for_its_block_only():
    text = "password=hunter22"
    assert shown(text) == "password=[REDACTED:password]"
    with showing_secrets():
        assert shown(text) == text
        assert shown_value({"a": [text]}) == {"a": [text]}
    assert shown(text) == "password=[REDACTED:password]"


def test_a_value_is_redacted_string_by_string_and_a_secrets_name_hides_its_value():
    value = {"cmd": "export TOKEN=tok_9f8e7d6c", "n": 3, "list": ["ok", None, "x\x00 password=abc123"], "api_key": "k1"}
    assert shown_value(value) == {
        "cmd": "export TOKEN=[REDACTED:token]",
        "n": 3,
        "list": ["ok", None, "x\x00 password=[REDACTED:password]"],
        "api_key": "[REDACTED:secret]",
    }


@pytest.mark.parametrize(
    "text",
    [
        'TOKEN="x"',
        'export API_TOKEN="changeme"',
        'password="placeholder"',
        "SECRET=your-secret-here",
        'api_key: "<your-api-key>"',
        "password=example",
        'TOKEN="dummy"',
        "password=********",
    ],
)
def test_placeholder_values_are_not_redacted(text: str):
    assert redact_text(text) == text


def test_a_url_whose_password_was_already_replaced_is_left_as_it_is():
    for text in (
        "git push https://oauth2:[REDACTED:gitlab-token]@gitlab.example.com/a/b.git",
        "git push https://oauth2:[REDACTED:gitlab-token]**********@gitlab.example.com/a/b.git",  # scrubbed
    ):
        assert redact_text(text) == text
