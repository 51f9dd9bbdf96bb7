"""Units into documents under a budget: every part parses, every unit lands exactly once."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session_kit.errors import KitError
from session_kit.preprocess.chunking import PartWriter, part_name, stream_base
from session_kit.state.ids import is_plain_id
from session_kit.preprocess.xmlwriter import text_element

any_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=300)


def _writer(folder: Path, max_chars: int | None, base: str = "p-s1") -> PartWriter:
    return PartWriter(folder, base, root="session", attributes=lambda: {"id": "s1", "cwd": "/w <&> \"x\""}, max_chars=max_chars)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(any_text, min_size=1, max_size=25), budget=st.integers(min_value=50, max_value=3000))
def test_every_part_parses_and_the_parts_hold_every_unit_once_in_order(tmp_path: Path, texts: list[str], budget: int):
    # A fresh folder per example: hypothesis replays examples within one tmp_path.
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    writer = _writer(folder, budget)
    units = [text_element("user", {"line": i}, t) for i, t in enumerate(texts)]
    for unit in units:
        writer.add(unit)
    parts = writer.commit()
    assert [p.part for p in parts] == list(range(1, len(parts) + 1))
    seen = []
    for info in parts:
        content = info.path.read_bytes().decode("utf-8")  # no newline translation: \r\n stays
        assert info.chars == len(content)
        root = ET.fromstring(content.encode("utf-8"))
        assert root.tag == "session" and root.get("part") == str(info.part) and root.get("cwd") == '/w <&> "x"'
        lines = [int(child.get("line")) for child in root]
        assert lines and info.entries == len(lines)
        if len(lines) > 1:
            assert info.chars <= budget  # only a part of one oversized unit may exceed the budget
        seen += lines
    assert seen == list(range(len(texts)))
    assert sorted(p.name for p in folder.iterdir()) == sorted(part_name("p-s1", p.part) for p in parts)


def test_without_a_budget_there_is_one_part(tmp_path: Path):
    writer = _writer(tmp_path, None)
    for i in range(100):
        writer.add(f'<user line="{i}">{"x" * 100}</user>')
    assert [p.part for p in writer.commit()] == [1]


def test_nothing_shows_before_commit_and_discard_leaves_nothing(tmp_path: Path):
    writer = _writer(tmp_path, 200)
    for i in range(10):
        writer.add(f'<user line="{i}">{"x" * 100}</user>')
    assert not list(tmp_path.glob("*.xml"))
    writer.discard()
    assert not list(tmp_path.iterdir())


def test_parts_of_a_longer_earlier_run_are_removed(tmp_path: Path):
    first = _writer(tmp_path, 200)
    for i in range(10):
        first.add(f'<user line="{i}">{"x" * 100}</user>')
    assert len(first.commit()) == 10
    (tmp_path / "someone-elses.xml").write_text("<x/>")
    second = _writer(tmp_path, 200)
    second.add('<user line="1">short</user>')
    assert len(second.commit()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p-s1-part1.xml", "someone-elses.xml"]


def test_a_folder_that_cannot_be_written_is_a_user_error(tmp_path: Path):
    writer = _writer(tmp_path / "missing", 200)
    with pytest.raises(KitError, match="cannot write"):
        writer.add("<user/>")


def test_names():
    assert stream_base("session", "abc") == "session-abc"
    assert stream_base("pre", "abc", "a1") == "pre-abc-agent-a1"
    assert part_name("pre-abc", 3) == "pre-abc-part3.xml"
    assert is_plain_id("my.prefix_1") and not is_plain_id("../x") and not is_plain_id(".hidden")
    assert not is_plain_id("a/b") and not is_plain_id("")
