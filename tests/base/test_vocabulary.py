from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from session_kit.base import vocabulary
from session_kit.base.rawtype import top_level_type
from session_kit.conversation.noise import NoiseTally, conversation_lines
from session_kit.transcript import entries
from session_kit.transcript.entries import KIND_NOISE, KIND_UNKNOWN, Entry
from session_kit.transcript.reader import ReadStats
from tests.support.dialects import ATTACHMENT_KINDS_2_1_330, BOOKKEEPING_2_1_330, every_type_2_1_330
from tests.support.transcripts import Transcript

SRC = Path(vocabulary.__file__).resolve().parents[1]


def _line(entry: dict) -> bytes:
    return json.dumps(entry, separators=(",", ":")).encode() + b"\n"


def test_every_line_type_the_current_client_writes_has_a_class():
    written = {"user", "assistant", "system", "attachment", "progress", "permission-mode", *BOOKKEEPING_2_1_330}
    assert {t for t in written if vocabulary.entry_class(t) == vocabulary.UNKNOWN} == set()


def test_older_dialects_types_have_a_class():
    assert vocabulary.entry_class("summary") == vocabulary.TITLE
    assert vocabulary.entry_class("tool_result") == vocabulary.TOOL_RESULT  # the seed docs'


def test_hook_progress_and_mode_changes_have_their_own_classes():
    assert vocabulary.entry_class("progress") == vocabulary.HOOK_PROGRESS
    assert vocabulary.entry_class("permission-mode") == vocabulary.MODE
    assert vocabulary.entry_class("mode") == vocabulary.MODE
    assert vocabulary.entry_class("file-history-snapshot") == vocabulary.SNAPSHOT


def test_every_attachment_kind_the_current_client_writes_is_known():
    assert {k for k in ATTACHMENT_KINDS_2_1_330 if vocabulary.attachment_class(k) == vocabulary.UNKNOWN} == set()
    assert vocabulary.attachment_class("task_status") == vocabulary.ATTACHMENT_TASK


def test_a_type_nobody_knows_is_unknown_never_noise():
    assert vocabulary.entry_class("brand-new-entry") == vocabulary.UNKNOWN
    assert vocabulary.entry_class(None) == vocabulary.UNKNOWN
    assert Entry.from_raw(1, {"type": "brand-new-entry"}).kind == KIND_UNKNOWN


def test_hook_progress_and_mode_lines_are_bookkeeping_for_the_parsed_and_the_raw_reader():
    t = Transcript(version="2.1.330")
    t.user("hi")
    lines = [t.progress("PostToolUse", tool_use_id="toolu_1"), t.permission_mode()]
    for raw in lines:
        assert Entry.from_raw(1, raw).kind == KIND_NOISE
        assert top_level_type(_line(raw)) in vocabulary.NOISE_TYPE_BYTES


def test_the_raw_reader_drops_every_bookkeeping_line_of_a_current_session(tmp_path: Path):
    built = every_type_2_1_330(tmp_path)
    tally = NoiseTally()
    kept = [json.loads(raw) for _, raw in conversation_lines(built.path, ReadStats(), tally)]
    assert {e["type"] for e in kept} == {"user", "assistant", "system"}
    assert tally.entries == len(built.session.lines) - len(kept)


def test_entries_names_the_vocabularys_sets():
    assert entries.NOISE_TYPES is vocabulary.NOISE_TYPES
    assert entries.KNOWN_ENTRY_TYPES is vocabulary.KNOWN_ENTRY_TYPES


# --- the vocabulary is spelled in one module --------------------------------------------------


def _spelled_names() -> set[str]:
    """The entry type names no other module may spell: the hyphenated ones (no ordinary
    word), and any known type inside a `"type":"…"` needle."""
    return {t for t in vocabulary.KNOWN_ENTRY_TYPES if "-" in t}


def _offenders(path: Path, base: Path = SRC) -> list[str]:
    names = _spelled_names()
    needles = [f'"type":"{t}"' for t in vocabulary.KNOWN_ENTRY_TYPES]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, (str, bytes)):
            continue
        value = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
        if isinstance(node.value, str) and len(value) > 200:
            continue  # a docstring may name types
        if value.strip('"') in names or any(n in value for n in needles):
            found.append(f"{path.relative_to(base)}:{node.lineno}: {value!r}")
    return found


def test_entry_type_names_are_spelled_in_the_vocabulary_module_only():
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name != "vocabulary.py" or path.parent.name != "base":
            offenders += _offenders(path)
    assert offenders == []


@pytest.mark.parametrize("name", sorted(_spelled_names()))
def test_the_guard_would_see_a_spelled_name(tmp_path: Path, name: str):
    module = tmp_path / "probe.py"
    module.write_text(f"NOISE = frozenset({{{name!r}.encode()}})\nMARK = b'\"{name}\"'\n")
    assert len(_offenders(module, tmp_path)) == 2


def _type_lists(path: Path) -> list[str]:
    """Collection literals (sets, tuples, lists, dict keys) naming two entry types or more."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
            elements = node.elts
        elif isinstance(node, ast.Dict):
            elements = [k for k in node.keys if k is not None]
        else:
            continue
        names = [
            e.value.decode("latin-1") if isinstance(e.value, bytes) else e.value
            for e in elements
            if isinstance(e, ast.Constant) and isinstance(e.value, (str, bytes))
        ]
        named = [n for n in names if n in vocabulary.KNOWN_ENTRY_TYPES]
        if len(named) >= 2:
            found.append(f"{path.name}:{node.lineno}: {named}")
    return found


def test_no_other_module_lists_entry_types_of_its_own():
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name != "vocabulary.py" or path.parent.name != "base":
            offenders += _type_lists(path)
    assert offenders == []


def test_the_guard_would_see_a_list_of_entry_types(tmp_path: Path):
    module = tmp_path / "probe.py"
    module.write_text('SKIP = frozenset({b"summary", b"progress"})\nKINDS = {"system": 1, "attachment": 2}\n')
    assert len(_type_lists(module)) == 2
