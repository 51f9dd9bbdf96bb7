"""Which session a user means: an id, a unique prefix, a transcript path, or `current`."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.errors import Ambiguous, KitError, NotFound
from session_kit.sessions.resolve import resolve_session
from tests.support.sessions import make_session


@pytest.fixture
def three(claude_root: Path) -> Path:
    """Two sessions of /work/proj sharing a prefix (bbbb the newer), one of /other."""
    make_session(claude_root, "12345678-aaaa", mtime=1000)
    make_session(claude_root, "12345678-bbbb", mtime=2000)
    make_session(claude_root, "99999999-cccc", cwd="/other", mtime=500)
    return claude_root


def test_a_full_id_resolves(three: Path):
    assert resolve_session("12345678-aaaa", three).id == "12345678-aaaa"


def test_a_unique_prefix_resolves(three: Path):
    assert resolve_session("9999", three).id == "99999999-cccc"


def test_an_ambiguous_prefix_names_the_candidates(three: Path):
    with pytest.raises(Ambiguous) as exc:
        resolve_session("1234", three)
    assert exc.value.candidates == ["12345678-aaaa", "12345678-bbbb"] and exc.value.exit_code == 4


def test_an_unknown_id_is_not_found(three: Path):
    with pytest.raises(NotFound):
        resolve_session("ffff", three)


def test_a_transcript_path_resolves(three: Path):
    path = next(three.glob("projects/*/99999999-cccc.jsonl"))
    assert resolve_session(str(path), three).id == "99999999-cccc"


def test_a_path_like_id_that_is_no_transcript_is_refused(three: Path):
    with pytest.raises(KitError):
        resolve_session("../../etc/passwd-ish", three)


def test_current_is_first_the_session_context_variable(three: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SESSION_CONTEXT", "session_id=12345678-aaaa")
    assert resolve_session("current", three).id == "12345678-aaaa"


def test_current_is_then_claude_code_session_id(three: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CLAUDE_CODE_SESSION_ID", "99999999-cccc")
    assert resolve_session("current", three).id == "99999999-cccc"


def test_current_without_the_environment_is_the_newest_session_of_the_cwds_project(three: Path):
    assert resolve_session("current", three, cwd="/work/proj/src/deep").id == "12345678-bbbb"
