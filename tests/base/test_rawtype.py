"""An entry's top-level type read from raw bytes: exact when it answers, on every dialect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_kit.base.rawtype import top_level_type
from tests.support.benchmarks import load_generator

REAL = Path(__file__).parent.parent / "fixtures" / "real"


def _lines(root: Path):
    for path in sorted(root.rglob("*.jsonl")):
        with open(path, "rb") as f:
            yield from f


def test_real_client_lines_are_classified_exactly_and_mostly_without_parsing():
    answered = total = 0
    for line in _lines(REAL):
        truth = json.loads(line)["type"].encode()
        found = top_level_type(line)
        total += 1
        if found is not None:
            answered += 1
            assert found == truth, line[:200]
    assert answered >= 0.95 * total


def test_generated_lines_are_classified_exactly(tmp_path: Path):
    generate = load_generator()
    generate.generate(tmp_path / "root", sessions=5, big_mb=0.5, seed=3, workers=1)
    answered = total = 0
    for line in _lines(tmp_path / "root"):
        truth = json.loads(line)["type"].encode()
        found = top_level_type(line)
        total += 1
        if found is not None:
            answered += 1
            assert found == truth
    assert answered >= 0.99 * total


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"type":"attachment","x":1}\n', b"attachment"),
        # the real client: a nested attachment type first, the entry's own type after it
        (
            b'{"parentUuid":null,"attachment":{"type":"skill_listing","content":"x"},"type":"attachment","uuid":"u"}',
            b"attachment",
        ),
        # an assistant line: the message's type first, the entry's last
        (
            b'{"parentUuid":"p","message":{"type":"message","content":[{"type":"text","text":"hi"}]},"type":"assistant","uuid":"u"}',
            b"assistant",
        ),
        # a type-looking string inside a string value is escaped, so it is never a key
        (b'{"parentUuid":"p","text":"{\\"type\\":\\"attachment\\"}","type":"user"}', b"user"),
        # a bracket inside a string before the key
        (b'{"a":"{[{","type":"mode"}', b"mode"),
    ],
)
def test_exact_answers(line: bytes, expected: bytes):
    assert top_level_type(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        b'{"a":{"type":"attachment"},"b":{"type":"attachment"}}',  # no top-level type at all
        b'{"parentUuid":"p","attachment":{"type":"skill_listing"',  # half-written
        b'{"type":"we\\"ird"}',  # an escaped value
        b"",
        b"not json",
    ],
)
def test_unsure_lines_get_no_answer(line: bytes):
    assert top_level_type(line) is None


_keys = st.sampled_from(["type", "message", "attachment", "data", "content", "x"])
_type_values = st.sampled_from(
    ["user", "assistant", "attachment", "api-request", "mode", "text", "tool_use", "odd}{", 'q"uote']
)
_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20), _type_values)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_keys, _values, max_size=6), st.booleans())
def test_any_object_answer_is_its_own_type_or_none(obj: dict, spaced: bool):
    separators = (", ", ": ") if spaced else (",", ":")
    line = json.dumps(obj, separators=separators, ensure_ascii=False).encode() + b"\n"
    found = top_level_type(line)
    if found is not None:
        assert found.decode() == obj.get("type")
