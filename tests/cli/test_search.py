"""`session-kit search`, in process: hits in sessions and agent logs, both engines, the hand-off to
`claude --resume`, and sessions the client deleted."""

from __future__ import annotations

from tests.support.cli import invoke, invoke_json
from tests.support.sessions import Built, delete_as_the_client_does


def test_search_finds_text_in_agent_logs(built):
    doc = invoke_json("search", "SENTINEL_failure", "--all")
    assert [(h["session_id"], h["agent_id"]) for h in doc["hits"]] == [(built.current.session_id, built.worker_agent)]


def test_search_tool_filter_looks_only_at_that_tools_fields(built):
    assert invoke_json("search", "parser", "--all", "--tool", "Bash")["hits"][0]["agent_id"] == built.legacy_agent


def test_search_without_a_hit_says_so_and_exits_0(built):
    none = invoke("search", "zzzz-not-there", "--all")
    assert none.exit_code == 0 and "No match" in none.stdout


def test_search_for_nothing_is_a_usage_error(built):
    result = invoke("search", "  ", "--all")
    assert result.exit_code == 2 and result.stderr == "session-kit: empty query\n"


def test_search_hands_off_to_resume_and_filters(built: Built):
    sid = built.current.session_id
    doc = invoke_json("search", "SENTINEL_failure", "--all")
    [hit] = doc["hits"]
    assert doc["mode"] == "index" and hit["resume"] == f"cd /work/proj && claude --resume {sid}"
    text = invoke("search", "SENTINEL_failure", "--all").stdout
    assert f"resume: cd /work/proj && claude --resume {sid}" in text
    assert invoke_json("search", "SENTINEL", "--all", "--errors")["total"] == 1
    assert invoke_json("search", "build", "--all", "--errors")["total"] == 0
    assert invoke_json("search", "SENTINEL", "--all", "--agent", "general")["total"] == 0
    assert invoke_json("search", "SENTINEL", "--all", "--agent", "general-purpose")["total"] == 1
    assert invoke_json("search", "SENTINEL", "--all", "--agent", built.worker_agent[:6])["total"] == 1
    assert invoke_json("search", "SENTINEL", "--all", "--since", "2099-01-01")["total"] == 0
    assert invoke_json("search", "SENTINEL", "--all", "--until", "2099-01-01")["total"] == 1
    bad = invoke("search", "x", "--all", "--since", "yesterday")
    assert bad.exit_code == 2 and "not a date" in bad.stderr


def test_search_scan_keeps_the_exact_substring_search(built: Built):
    doc = invoke_json("search", "ENTINEL_FAIL", "--all", "--scan")
    assert "mode" not in doc and len(doc["hits"]) == 1
    assert invoke_json("search", "ENTINEL_FAIL", "--all")["total"] == 0  # the index holds words
    assert invoke("search", "x", "--all", "--scan", "--errors").exit_code == 2


def test_search_finds_a_session_the_client_deleted_and_offers_no_restore_the_archive_cannot_do(built: Built):
    sid = built.current.session_id
    invoke("search", "anything", "--all")  # indexed while it was there, never archived
    delete_as_the_client_does(built.root, sid)
    [hit] = invoke_json("search", "Please build", "--all")["hits"]
    assert hit["archived"] and hit["resume"] is None  # `restore` would exit 3: nothing to put back
    assert invoke("restore", sid).exit_code == 3
    assert "resume: not possible" in invoke("search", "Please build", "--all").stdout


def test_search_finds_an_archived_session_deleted_before_it_was_ever_indexed(built: Built):
    sid = built.current.session_id
    invoke("archive")
    delete_as_the_client_does(built.root, sid)
    doc = invoke_json("search", "SENTINEL_failure", "--all")
    [hit] = doc["hits"]
    assert (hit["session_id"], hit["agent_id"]) == (sid, built.worker_agent)
    assert hit["archived"] and hit["resume"].startswith(f"session-kit restore {sid} && cd /work/proj && ")
    assert invoke_json("search", "SENTINEL_failure", "--all")["updated_files"] == 0  # once is enough
