"""Recall on secrets by class (`tests/support/generic_secrets.py`): any config syntax under a
secret's name, credential files, keys with a vendor prefix no rule names, every line of a key
file's body, URL passwords, command-line credentials, headers and crypto keys — each in
several placements — and 64 benign look-alikes (ids, digests, placeholders, references)."""

from __future__ import annotations

import pytest

from session_kit.redact import find_secrets, redact_many, redact_text
from tests.support.generic_secrets import BENIGN, figures, generic

FAMILIES = sorted({probe.family for probe in generic()})


@pytest.fixture(scope="module")
def measured():
    return figures(redact_text)


def test_the_generic_set_has_every_class_and_64_benign_texts():
    assert len(FAMILIES) == 7 and len(generic()) >= 100
    assert len(BENIGN) == 64


@pytest.mark.parametrize("family", FAMILIES)
def test_recall_on_secrets_by_class_is_at_least_97_percent_in_each_family(measured, family: str):
    per_family, missed, _ = measured
    found, total = per_family[family]
    assert found / total >= 0.97, [m for m in missed if any(p.kind in m for p in generic() if p.family == family)]


def test_at_most_two_of_64_benign_look_alikes_are_altered(measured):
    _, _, altered = measured
    assert len(altered) <= 2, altered


@pytest.mark.parametrize(
    "text",
    [
        "[database]\npass = Xk29fLq0pWz\n",
        "db.internal:5432:app:app_user:Xk29fLq0pWz",
        "> machine h.example.com\n>   login ci\n>   password Xk29fLq0pWz",
        "default login anonymous password Xk29fLq0pWz",
        "client = Acme('cfut_Qm3vX9kLp2Rt7YwZ4nB8cD1e')",
    ],
)
def test_the_formats_missed_before_are_found(text: str):
    out = redact_text(text)
    assert "Xk29fLq0pWz" not in out and "Qm3vX9kLp2Rt7YwZ4nB8cD1e" not in out, out


def test_ids_of_messages_tool_calls_and_api_objects_are_not_keys():
    texts = [
        "msg_01XFDUDYJgAACzvnptvVoYEL",
        "toolu_01A09q90qw90lq917835lq9Z",
        "ch_3MmlLrLkdIwHu7ix0snN0B15",
        "sha512-Q3z1ZrXn0pL9gE2uXbX0mDf1yYy4m8s9Wn7nE2qFfJk3cQm1rZp0l5X",
    ]
    assert redact_many(texts) == texts


def test_a_prefixed_key_is_found_where_find_secrets_says():
    text = "export ACME=zk_live_Qm3vX9kLp2Rt7YwZ4nB8cD1e now"
    [found] = find_secrets(text)
    assert text[found.start : found.end] == "zk_live_Qm3vX9kLp2Rt7YwZ4nB8cD1e"


def test_each_probe_is_found_in_a_batch_right_after_another_text():
    texts = [text for probe in generic() for text in ("x", f"see {probe.line}", probe.line)]
    out = redact_many(texts)
    missed = [probe.kind for i, probe in enumerate(generic()) if out[3 * i + 2] != redact_text(probe.line)]
    assert missed == []
