"""The held-out probes (holdout/probes.jsonl, written by someone who never read the rules; the
format in holdout/README.md): recall per family, and the benign texts left as written.

A `bash-output` probe is redacted with its command as context (`redaction.printed`), as every
path that has the command does. The test holds the floor reached (recall over the whole set,
benign texts altered) and prints recall per family; the issue's target is 97% and at most 2."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from session_kit.redaction.printed import redact_output

PROBES = Path(__file__).parent / "holdout" / "probes.jsonl"


def measure() -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Per secret family (found, probes), and the ids of the benign probes altered."""
    families: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    altered = []
    for line in PROBES.read_text("utf-8").splitlines():
        probe = json.loads(line)
        out = redact_output(probe["text"], probe.get("command"))
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


# The floor this set reached (issue 38: 88.6% and 7 of 183 benign texts altered before its rules
# work, 96.3% and 0 after): a change that finds less, or alters a benign text, fails here.
RECALL_FLOOR = 1043
BENIGN_ALTERED_CEILING = 0


def test_recall_and_benign_texts_stay_at_the_floor_reached(capsys: pytest.CaptureFixture[str]) -> None:
    families, altered = measure()
    found = sum(f for f, _ in families.values())
    total = sum(t for _, t in families.values())
    with capsys.disabled():
        print(f"\nheld-out recall {found}/{total} = {found / total:.1%}; benign altered {len(altered)}")
        for family, (f, t) in sorted(families.items(), key=lambda item: item[1][0] / item[1][1]):
            if f < t:
                print(f"  {family:28} {f}/{t}")
    assert found >= RECALL_FLOOR, f"recall {found}/{total} fell below {RECALL_FLOOR}"
    assert len(altered) <= BENIGN_ALTERED_CEILING, altered
