"""The one rule for "the current session": the environment first, then the project's pointer
(or the nearest parent folder's), else none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from session_kit.state import current
from session_kit.state import root as layout
from session_kit.state.scratch import SessionScratch


@pytest.fixture
def root(isolated_home: Path) -> str:
    return os.environ["SESSION_KIT_HOME"]


def point(root: str, project: str, session_id: str) -> None:
    """What the SessionStart hook leaves: the project's `current-session-id`."""
    path = layout.pointer_path(root, current.project_key_for(project))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    Path(path).write_text(session_id + "\n")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"SESSION_CONTEXT": "session_id=abc"}, "abc"),
        ({"SESSION_CONTEXT": 'foo=1 session_id="abc-1"'}, "abc-1"),
        ({"SESSION_CONTEXT": "", "CLAUDE_CODE_SESSION_ID": "xyz"}, "xyz"),
        ({}, None),
    ],
)
def test_session_id_from_env_formats(env: dict[str, str], expected: str | None):
    assert current.session_id_from_env(env) == expected


def test_session_context_wins_over_claude_code_session_id():
    env = {"SESSION_CONTEXT": "session_id=ctx", "CLAUDE_CODE_SESSION_ID": "client"}
    assert current.session_id_from_env(env) == "ctx"


def test_pointer_is_found_from_a_subdirectory(root: str):
    SessionScratch.for_session("p-1", project_path="/work/proj", root=root).create().point_here()
    assert current.read_pointer(root, "/work/proj/src/deep") == "p-1"
    assert current.read_pointer(root, "/other") is None


def test_the_environment_comes_before_the_pointer(root: str):
    point(root, "/work/proj", "from-pointer")
    found = current.current_session_id(
        env={"CLAUDE_CODE_SESSION_ID": "from-env"}, state_root=root, project_path="/work/proj"
    )
    assert found == ("from-env", current.SOURCE_ENV)


def test_without_the_environment_the_projects_pointer_is_current(root: str):
    point(root, "/work/proj", "from-pointer")
    assert current.current_session_id(env={}, state_root=root, project_path="/work/proj") == (
        "from-pointer",
        current.SOURCE_POINTER,
    )


def test_the_nearest_parent_folders_pointer_wins(root: str):
    point(root, "/work", "outer")
    point(root, "/work/proj", "inner")
    assert current.current_session_id(env={}, state_root=root, project_path="/work/proj/src") == (
        "inner",
        current.SOURCE_POINTER,
    )
    assert current.current_session_id(env={}, state_root=root, project_path="/work/other") == (
        "outer",
        current.SOURCE_POINTER,
    )


def test_the_project_is_claude_project_dir_when_none_is_given(root: str):
    point(root, "/work/proj", "from-pointer")
    found = current.current_session_id(env={"CLAUDE_PROJECT_DIR": "/work/proj"}, state_root=root)
    assert found == ("from-pointer", current.SOURCE_POINTER)


def test_an_empty_pointer_is_no_pointer(root: str):
    point(root, "/work/proj", "")
    assert current.current_session_id(env={}, state_root=root, project_path="/work/proj") is None


def test_nothing_in_the_environment_and_no_pointer_is_none(root: str):
    assert current.current_session_id(env={}, state_root=root, project_path="/work/proj") is None


def test_without_a_state_root_only_the_environment_counts(root: str):
    point(root, "/work/proj", "from-pointer")
    assert current.current_session_id(env={}, project_path="/work/proj") is None


def test_every_current_session_is_the_environments_and_every_pointers(root: str):
    point(root, "/a", "one")
    point(root, "/b", "two")
    assert current.every_current_session_id(root, {"SESSION_CONTEXT": "session_id=three"}) == {"one", "two", "three"}


def test_a_fifo_in_the_pointers_place_is_no_pointer_and_never_waited_on(root: str):
    pointer = layout.pointer_path(root, current.project_key_for("/work/proj"))
    layout.ensure_dir(os.path.dirname(pointer))
    os.mkfifo(pointer)
    assert current.current_session_id(env={}, state_root=root, project_path="/work/proj") is None
    assert current.every_current_session_id(root, env={}) == set()
