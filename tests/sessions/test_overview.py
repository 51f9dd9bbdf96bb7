"""A session's overview from the head and tail of its transcript, never the whole file."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.base.encoding import encode_project_dir
from session_kit.sessions.overview import SessionOverview, overview
from session_kit.sessions.store import list_all_sessions
from tests.support.transcripts import Transcript


@pytest.fixture
def noisy(claude_root: Path) -> tuple[SessionOverview, Path]:
    """Much noise before a slash command, an answer an hour later, noise last."""
    t = Transcript("ov1", cwd="/work/proj", branch="feature/x")
    for _ in range(50):
        t.noise("attachment", size=4000)
    t.user("<command-name>/release</command-name>\n<command-args>now</command-args>")
    t.say("ok")
    t.tick(3600)
    t.say("later")
    t.noise("last-prompt")
    path = t.write_session(claude_root)
    [ref] = list_all_sessions(claude_root)
    return overview(ref), path


def test_the_first_request_is_found_past_the_noise_and_shown_as_typed(noisy):
    ov, _ = noisy
    assert ov.first_prompt == "/release now"


def test_branch_and_cwd_come_from_the_head(noisy):
    ov, _ = noisy
    assert ov.branch == "feature/x" and ov.cwd == "/work/proj"


def test_the_duration_runs_from_the_first_to_the_last_conversation_line_not_the_noise(noisy):
    ov, _ = noisy
    assert ov.duration_s == 1 + 3600 + 1  # the request, its answer, the answer an hour later


def test_the_size_is_the_files(noisy):
    ov, path = noisy
    assert ov.ref.size == path.stat().st_size


def test_overview_of_a_file_being_written(claude_root: Path):
    t = Transcript("half", cwd="/work/proj")
    t.user("hello")
    t.write(
        claude_root / "projects" / encode_project_dir("/work/proj") / "half.jsonl", tail=b'{"type":"assistant","mess'
    )
    [ref] = list_all_sessions(claude_root)
    ov = overview(ref)
    assert ov.first_prompt == "hello" and ov.end is not None


def test_a_kit_command_is_never_the_first_prompt_a_listing_shows(claude_root: Path):
    t = Transcript("ov2", cwd="/work/proj")
    t.slash_command("/session-kit:session-info", "# This session\nsession-kit info output")
    t.say("Here is the card.")
    t.user("the person's own first request")
    t.write_session(claude_root)
    [ref] = list_all_sessions(claude_root)
    assert overview(ref).first_prompt == "the person's own first request"
