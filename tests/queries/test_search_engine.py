"""Which engine answers a search (the index or the exact scan), what only the index allows,
and what each engine looks at: decided in the core, the command line only asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.base.encoding import encode_project_dir
from session_kit.errors import EXIT_USAGE, KitError, NoSessionsHere
from session_kit.queries.search_engine import (
    INDEX,
    INDEX_ONLY,
    SCAN,
    index_project,
    scan_targets,
    search_engine,
)
from session_kit.redaction.engine import showing_secrets
from tests.support.sessions import make_session
from tests.support.transcripts import Transcript


def test_a_query_of_words_goes_to_the_index():
    assert search_engine("parser crash") == INDEX


def test_the_scan_answers_when_asked_for():
    assert search_engine("parser crash", scan=True) == SCAN


@pytest.mark.parametrize("query", ["->", "::", "!="])
def test_a_query_without_a_letter_or_digit_goes_to_the_scan_since_the_index_holds_words(query: str):
    assert search_engine(query) == SCAN


def test_showing_secrets_sends_the_search_to_the_scan_since_the_index_holds_redacted_text():
    with showing_secrets():
        assert search_engine("parser crash") == SCAN


@pytest.mark.parametrize(
    "index_filter", [{"errors_only": True}, {"since": "2026-01-01"}, {"until": "2026-01-01"}, {"agent": "Explore"}]
)
def test_the_index_filters_are_refused_when_the_scan_answers(index_filter: dict):
    with pytest.raises(KitError) as scanned:
        search_engine("parser", scan=True, **index_filter)
    with showing_secrets(), pytest.raises(KitError) as unredacted:
        search_engine("parser", **index_filter)
    assert scanned.value.message == unredacted.value.message == INDEX_ONLY
    assert scanned.value.exit_code == EXIT_USAGE


@pytest.mark.parametrize("index_filter", [{"errors_only": True}, {"since": "2026-01-01"}, {"agent": "Explore"}])
def test_the_index_filters_go_with_the_index(index_filter: dict):
    assert search_engine("parser", **index_filter) == INDEX


@pytest.mark.parametrize("query", ["", "   ", "\t\n"])
def test_an_empty_query_is_a_usage_error(query: str):
    with pytest.raises(KitError, match="^empty query$") as raised:
        search_engine(query, scan=True)
    assert raised.value.exit_code == EXIT_USAGE


def test_a_project_and_every_project_at_once_is_refused_before_the_query_is_looked_at():
    with pytest.raises(KitError, match="^--project and --all exclude each other$"):
        search_engine("  ", project_path=Path("/work/proj"), all_projects=True)


def test_the_index_keeps_to_the_project_of_the_folder(claude_root: Path):
    make_session(claude_root, "aaaa1111-0000-0000-0000-000000000000", cwd="/work/proj")
    assert index_project(claude_root, project_path="/work/proj") == encode_project_dir("/work/proj")


def test_the_index_searches_every_project_with_all(claude_root: Path):
    make_session(claude_root, "aaaa1111-0000-0000-0000-000000000000", cwd="/work/proj")
    assert index_project(claude_root, all_projects=True) is None


def test_a_folder_without_sessions_is_said_as_the_listing_says_it(claude_root: Path):
    make_session(claude_root, "aaaa1111-0000-0000-0000-000000000000", cwd="/work/proj")
    with pytest.raises(NoSessionsHere):
        index_project(claude_root, project_path="/work/elsewhere")


def test_the_index_scope_refuses_a_project_and_every_project(claude_root: Path):
    with pytest.raises(KitError, match="exclude each other"):
        index_project(claude_root, project_path="/work/proj", all_projects=True)


def test_the_scan_reads_each_session_then_its_agents_logs_then_the_logs_whose_session_is_gone(claude_root: Path):
    parent = make_session(claude_root, "aaaa1111-0000-0000-0000-000000000000", cwd="/work/proj")
    agent = Transcript(parent.session_id, agent_id="a1")
    agent.user("look")
    agent_log = agent.write_legacy_agent(claude_root, parent)
    gone = Transcript("bbbb2222-0000-0000-0000-000000000000", cwd="/work/proj", agent_id="o1")
    gone.user("orphaned")
    orphan_log = gone.write_legacy_agent(claude_root, parent)

    targets = scan_targets(claude_root, project_path="/work/proj")

    assert [(t.path, t.session_id, t.agent_id) for t in targets] == [
        (
            claude_root / "projects" / encode_project_dir("/work/proj") / f"{parent.session_id}.jsonl",
            parent.session_id,
            None,
        ),
        (agent_log, parent.session_id, "a1"),
        (orphan_log, gone.session_id, "o1"),
    ]
