"""Every dialect's session, the real client's transcript and a session full of secrets give the
documents and the report pinned in `pinned/`, on the small-file path and on the big-file path
(the one a session of megabytes takes: a redaction worker beside the conversion), byte for byte.

The expected files were written by the code before the preprocess hot loop was made lean
(noise told by its type prefix, msgspec from the first line, redaction shared with a worker,
the forked line reader gone): they prove that change left the output as it was. After a change
of output made on purpose, rewrite them with `UPDATE_GOLDEN=1` and review the diff.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from session_kit.conversation import redacting
from session_kit.preprocess import PreprocessOptions, preprocess_session
from session_kit.sessions.store import SessionRef, session_ref_from_path
from tests.support import dialects, sessions, transcripts

GOLDEN = Path(__file__).parent / "pinned"
REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"

OPTIONS = {
    "files": {},
    "parts": {"max_tokens": 400},
    "nofilter": {"filtering": False, "thinking": True},
}


def _real(root: Path) -> Path:
    shutil.copytree(REAL / "projects", root / "projects", dirs_exist_ok=True)
    return next((root / "projects").glob("*/*.jsonl"))


def _leaky(root: Path) -> Path:
    built = sessions.build_leaky(root)
    return next(root.glob(f"projects/*/{built.session.session_id}.jsonl"))


def _built(root: Path) -> Path:
    built = sessions.build(root)
    return next(root.glob(f"projects/*/{built.current.session_id}.jsonl"))


def _planned(root: Path) -> Path:
    built = sessions.build_planned(root)
    return next(root.glob(f"projects/*/{built.alpha.session_id}.jsonl"))


VARYING = ("input_chars", "ratio", "conversion")
HOME_LENGTH = 200

CASES: dict[str, Callable[[Path], Path]] = {
    "real-2.1.328": _real,
    "inline-1.0": lambda root: dialects.inline_1_0(root).path,
    "legacy-2.0": lambda root: dialects.legacy_2_0(root).path,
    "subagents-2.1": lambda root: dialects.subagents_2_1(root).path,
    "every-type-2.1.330": lambda root: dialects.every_type_2_1_330(root).path,
    "built": _built,
    "planned": _planned,
    "leaky": _leaky,
}


@pytest.fixture
def fixed_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """The builders' uuids and tool ids from a counter, so that a session is the same each run."""
    counter = itertools.count(1)
    monkeypatch.setattr(transcripts, "_ids", itertools.count(1))
    monkeypatch.setattr(transcripts, "uuidlib", SimpleNamespace(uuid4=lambda: uuid.UUID(int=next(counter))))


def _documents(ref: SessionRef, out: Path) -> str:
    """Every document of every option set, and the reports, as one text to compare."""
    parts: list[str] = []
    for name, options in OPTIONS.items():
        result = preprocess_session(ref, PreprocessOptions(output_dir=out / name, **options))
        for doc in result.documents:
            assert doc.path is not None
            parts.append(f"=== {name} {doc.path.name}\n{doc.path.read_text(encoding='utf-8')}\n")
        report = result.as_dict()
        facts = {k: report[k] for k in ("status", "reason", "reduction", "redactions", "read")}
        # What it read depends on where the test's folder is (its path, in some transcripts).
        facts["reduction"] = {k: v for k, v in report["reduction"].items() if k not in VARYING}
        facts["agents"] = [{k: v for k, v in a.items() if k != "path"} for a in report["agents"]]
        facts["documents"] = [{k: v for k, v in d.items() if k != "path"} for d in report["documents"]]
        parts.append(f"=== {name} report\n{json.dumps(facts, indent=1, sort_keys=True)}\n")
    stream = io.StringIO()
    preprocess_session(ref, PreprocessOptions(to_stdout=True), stream=stream)
    parts.append(f"=== stdout\n{stream.getvalue()}\n")
    return "".join(parts)


@pytest.mark.parametrize("path", ["small-file", "big-file"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_preprocess_output_is_pinned_on_every_path(
    case: str, path: str, tmp_path: Path, fixed_ids: None, monkeypatch: pytest.MonkeyPatch
):
    # Some builders write the root's path into the transcript: it is made as long whatever the
    # test's folder is called, so that what each step removes is the same on every run.
    home = Path(str(tmp_path / "home").ljust(HOME_LENGTH, "h"))
    root = home / ".claude"
    (root / "projects").mkdir(parents=True)
    session = CASES[case](root)
    if path == "big-file":
        monkeypatch.setattr(redacting, "FORK_MIN_BYTES", 0)
    text = _documents(session_ref_from_path(session), tmp_path / "out").replace(str(home), "<home>")
    golden = GOLDEN / f"{case}.txt"
    if os.environ.get("UPDATE_GOLDEN") and path == "small-file":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8", newline="\n")
    assert text == golden.read_text(encoding="utf-8")
