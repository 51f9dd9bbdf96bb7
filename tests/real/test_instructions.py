"""The standing instructions the memory keeps on every real session, against the person's
lasting directions written by reading every request of the corpus (`instructions.json`): no
sentence the memory calls a standing instruction is anything else (a pasted log or document, a
question, a description, an opinion), and every lasting direction is there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.real.corpus import KitRun, Truth, params

TRUTH = json.loads((Path(__file__).resolve().parent / "instructions.json").read_text("utf-8"))


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def _kept(tmp: Path, truth: Truth) -> list[dict[str, Any]]:
    # a home of its own: the memory of a session id is kept, and fixtures repeat ids
    doc = KitRun(tmp / "home").json("memory", str(truth.path), "--claude-dir", str(truth.root), "--whole")
    return list(((doc.get("memory") or {}).get("requests") or {}).get("constraints") or [])


def _matches(kept: dict[str, Any], said: dict[str, Any]) -> bool:
    return kept["line"] == said["line"] and _flat(said["shows"]) in _flat(kept["text"])


@pytest.mark.parametrize("truth", params())
def test_every_standing_instruction_is_one(tmp_path: Path, truth: Truth) -> None:
    said = TRUTH["sessions"].get(truth.id, {"instructions": [], "either": []})
    allowed = said["instructions"] + said["either"]
    false = [
        f"line {k['line']}: {k['text'][:120]}"
        for k in _kept(tmp_path, truth)
        if not any(_matches(k, s) for s in allowed)
    ]
    assert not false


@pytest.mark.parametrize("truth", params(lambda t: bool(TRUTH["sessions"].get(t.id, {}).get("instructions"))))
def test_every_lasting_direction_is_kept(tmp_path: Path, truth: Truth) -> None:
    kept = _kept(tmp_path, truth)
    missed = [s["shows"] for s in TRUTH["sessions"][truth.id]["instructions"] if not any(_matches(k, s) for k in kept)]
    assert not missed


def test_the_truth_names_real_sessions() -> None:
    ids = {p.values[0].id for p in params()}
    assert set(TRUTH["sessions"]) <= ids
