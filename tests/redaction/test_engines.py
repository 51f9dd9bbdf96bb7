"""The compiled pass (hyperscan) and `re` alone give the same redaction: on the rules' own
probes, on long code, and on every string of the real corpus; the compiled database is kept
in the user cache and rebuilt when the cache is corrupt."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from session_kit.redaction import compiled, engine
from session_kit.redaction.superset import FOLDS, as_bytes, superset
from session_kit.redaction.table import RULES

# Under CI the compiled pass must be tested, never skipped: hyperscan is a dependency.
hyperscan = __import__("hyperscan") if os.environ.get("CI") == "true" else pytest.importorskip("hyperscan")


@pytest.fixture(autouse=True)
def compiled_pass_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare the two engines, whichever the run uses for the others."""
    monkeypatch.delenv(compiled.ENGINE_ENV, raising=False)
    monkeypatch.setattr(compiled, "_LOADED", {})


def both(text: str) -> tuple[str, str]:
    """`text` redacted by the compiled pass and by `re` alone."""
    fast = engine.Redactor()
    fast._compiled = compiled.load(RULES)
    assert fast._compiled, "the compiled pass loads here"
    slow = engine.Redactor()
    slow._compiled = False
    fast.remember = slow.remember = False  # each engine redacts the text itself
    return fast(text), slow(text)


def test_the_characters_re_folds_to_an_ascii_letter_are_the_ones_scanned_as_letters():
    import re

    letters = re.compile("(?i)[a-z]")
    found = {chr(c) for c in range(128, sys.maxunicode + 1) if letters.fullmatch(chr(c))}
    assert found == set(FOLDS)


def test_a_text_is_scanned_one_byte_per_character():
    text = "K→ſ\udcff password=x İ"
    assert len(as_bytes(text)) == len(text)


def test_most_rules_have_a_head_the_pass_scans_for():
    heads = [superset(rule.pattern.pattern) for rule in RULES]
    assert sum(h is not None for h in heads) >= 0.9 * len(RULES)


PROBES = [
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7BENCHMK\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY1\n",
    "GITHUB_TOKEN=ghp_BenchZk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS",
    "DATABASE_URL=postgres://app:hunter2-Tr0ub4dor@db.internal:5432/orders",
    "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl' x",
    "password = input('Password: ')\ntoken = TokenList()\n",
    'KEY="K\u212aS3cr3tValueWithKelvin99"  STRIPE_KEY=sk_live_51H8xYzABCDEFghijklmnop',
    "mysql -u root -pS3cretPassw0rd -h db\nsshpass -p 'hunter2!x' ssh host",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq0n0t4r34lk3y\nAAAA\n-----END RSA PRIVATE KEY-----\n",
]


@pytest.mark.parametrize("text", PROBES)
def test_the_engines_agree_on_probes(text: str):
    fast, slow = both(text)
    assert fast == slow
    padded = "x = 1\n" * 1000 + text + "\ny = 2" * 1000  # a long text: windows, then a rescan
    fast, slow = both(padded)
    assert fast == slow


def test_the_engines_agree_on_long_code():
    import glob

    base = os.path.dirname(os.__file__)
    texts = []
    for path in sorted(glob.glob(base + "/*.py"))[:120]:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            texts.append(f.read())
    changed = 0
    for text in texts:
        fast, slow = both(text)
        assert fast == slow
        changed += fast != text
    joined = "\x00".join(texts)
    fast, slow = both(joined)
    assert fast == slow


def test_the_database_is_cached_0600_and_a_corrupt_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("SESSION_KIT_REDACT_CACHE", str(tmp_path))
    monkeypatch.setattr(compiled, "_LOADED", {})
    first = compiled.load(RULES)
    assert first is not None
    [path] = list(tmp_path.glob("redaction-*.db"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_bytes(b'{"widths": {}}\nnot a database')
    monkeypatch.setattr(compiled, "_LOADED", {})
    again = compiled.load(RULES)
    assert again is not None and again.widths == first.widths
    fast, slow = both("token: ghp_BenchZk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS")
    assert fast == slow and "[REDACTED" in fast


def test_re_alone_when_asked(monkeypatch):
    monkeypatch.setenv(compiled.ENGINE_ENV, "re")
    assert compiled.load(RULES) is None


def test_each_distinct_text_is_redacted_once_and_counted_each_time(monkeypatch):
    from session_kit.redaction import memo

    monkeypatch.setattr(memo, "DONE", {})
    monkeypatch.setattr(engine, "DONE", memo.DONE)
    text = "export GITHUB_TOKEN=ghp_BenchZk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS"
    redactor = engine.Redactor()
    calls = []
    real = redactor._text
    monkeypatch.setattr(redactor, "_text", lambda t: calls.append(t) or real(t))
    first, second = redactor(text), redactor(text)
    assert first == second != text and calls == [text]
    assert sum(redactor.counts.values()) == 2
    plain = ["def f(token):\n    return token\n", "x = 1\n" * 3]
    assert redactor.many(plain + plain) == plain + plain


def test_the_guard_redacts_a_glob_of_many_names_in_one_pass():
    from session_kit.hooks.guard import _redacted

    names = [f"/src/pkg_{i}/module_{i}.py" for i in range(3000)]
    names[1234] = "/src/.env GITHUB_TOKEN=ghp_BenchZk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS"
    redactor = engine.Redactor()
    redactor.remember = False
    calls = []
    real = redactor.__call__
    out = _redacted({"filenames": names, "numFiles": 3000}, _Counting(redactor, calls))
    assert out["filenames"][:1234] == names[:1234] and "[REDACTED:" in out["filenames"][1234]
    assert len(calls) == 1 and real is not None


class _Counting:
    def __init__(self, redactor, calls):
        self.redactor, self.calls = redactor, calls

    def __call__(self, text):
        self.calls.append(1)
        return self.redactor(text)

    def many(self, texts):
        self.calls.append(len(texts))
        return self.redactor.many(texts)
