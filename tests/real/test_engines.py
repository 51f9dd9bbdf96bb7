"""The redactor's two engines on the real corpus: the compiled pass (hyperscan) and `re` alone
redact every string of every transcript line the same, string by string and in batches."""

from __future__ import annotations

import json
import os

import pytest

from session_kit.redaction import compiled, engine
from session_kit.redaction.table import RULES
from tests.real.corpus import corpus_dir

# Under CI the compiled pass must be compared, never skipped: hyperscan is a dependency.
if os.environ.get("CI") == "true":
    import hyperscan  # noqa: F401
else:
    pytest.importorskip("hyperscan")


def strings(value: object, out: list[str]) -> list[str]:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            strings(item, out)
    elif isinstance(value, list):
        for item in value:
            strings(item, out)
    return out


def test_both_engines_redact_every_corpus_string_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.ENGINE_ENV, raising=False)
    monkeypatch.setattr(compiled, "_LOADED", {})
    fast = engine.Redactor()
    fast._compiled = compiled.load(RULES)
    assert fast._compiled
    slow = engine.Redactor()
    slow._compiled = False
    fast.remember = slow.remember = False  # each engine redacts the text itself
    files = sorted(corpus_dir().rglob("*.jsonl"))
    assert files
    seen = 0
    for path in files:
        texts: list[str] = []
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                try:
                    strings(json.loads(line), texts)
                except ValueError:
                    continue
        texts = [t for t in texts if len(t) >= 8 and "\x00" not in t]
        assert [fast(t) for t in texts] == [slow(t) for t in texts], path
        assert fast.many(texts) == slow.many(texts), path
        seen += len(texts)
    assert fast.counts == slow.counts
    assert seen > 10_000
