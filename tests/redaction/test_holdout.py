"""The held-out probes (holdout/probes.jsonl, written by someone who never read the rules; the
format in holdout/README.md): recall per family, and the benign texts left as written.

The targets (recall >= 97%, at most 2 benign texts altered) are not met yet: on this set the
redactor finds 88.6% (86.2% before issue 38) and alters 7 of 183 benign texts (27 before).
The test is a strict expected failure, so it fails the day the targets are met and the mark
must go; the figures print with `-rx`."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from session_kit.redaction.engine import redact

PROBES = Path(__file__).parent / "holdout" / "probes.jsonl"


def measure() -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Per secret family (found, probes), and the ids of the benign probes altered."""
    families: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    altered = []
    for line in PROBES.read_text("utf-8").splitlines():
        probe = json.loads(line)
        out = redact(probe["text"])
        if probe["kind"] == "secret":
            families[probe["family"]][0] += not any(secret in out for secret in probe["secrets"])
            families[probe["family"]][1] += 1
        elif out != probe["text"]:
            altered.append(probe["id"])
    return {family: (found, total) for family, (found, total) in families.items()}, altered


def test_the_probes_are_there_and_well_formed() -> None:
    families, _ = measure()
    assert len(families) >= 60
    assert sum(total for _, total in families.values()) >= 1000


@pytest.mark.xfail(strict=True, reason="recall 88.6% < 97% and 7 benign texts altered > 2 (issue 38)")
def test_recall_is_at_least_97_percent_and_at_most_2_benign_texts_altered() -> None:
    families, altered = measure()
    found = sum(f for f, _ in families.values())
    total = sum(t for _, t in families.values())
    weakest = sorted((f / t, family) for family, (f, t) in families.items() if f < t)
    report = f"recall {found}/{total}; benign altered {altered}; weakest {weakest[:12]}"
    assert found / total >= 0.97 and len(altered) <= 2, report
