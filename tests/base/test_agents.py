"""The one status vocabulary of an agent and the one rule that decides it (`base.agents`)."""

from __future__ import annotations

import pytest

from session_kit.base.agents import (
    FAILED,
    FINISHED,
    RUNNING,
    STALLED,
    STATUSES,
    STOPPED,
    UNKNOWN,
    agent_status,
    client_word,
    is_api_error,
    is_compaction_agent,
    live_status,
    stopped_task,
)


@pytest.mark.parametrize(
    ("facts", "status"),
    [
        ({"spawned": True}, FINISHED),  # its call's result came back, not an error
        ({"spawned": True, "call_failed": True}, FAILED),
        ({"spawned": True, "ended_in_error": True}, FAILED),  # an "API Error: …" answer, result marked completed
        ({"spawned": True, "call_pending": True}, RUNNING),
        ({"spawned": True, "call_pending": True, "answered": True}, FINISHED),  # its thread gave its answer
        ({"spawned": True, "background": True}, RUNNING),
        ({"spawned": True, "background": True, "ending": FINISHED}, FINISHED),
        ({"spawned": True, "background": True, "ending": FAILED}, FAILED),
        ({"spawned": True, "background": True, "ending": STOPPED}, STOPPED),
        ({"spawned": True, "background": True, "meta_finished": True}, FINISHED),
        ({"spawned": True, "interrupted": True, "call_failed": True}, STOPPED),  # stopped on purpose wins
        ({"spawned": True, "background": True, "ending": FINISHED, "ended_in_error": True}, FAILED),
        ({"spawned": False}, UNKNOWN),  # a log no call started, nothing ended
        ({"spawned": False, "answered": True}, UNKNOWN),
        ({"spawned": False, "meta_finished": True}, FINISHED),
    ],
)
def test_one_rule_decides_how_an_agent_stands(facts: dict, status: str):
    assert agent_status(**facts) == status
    assert status in STATUSES


@pytest.mark.parametrize(
    ("word", "ours"),
    [
        ("completed", FINISHED),
        ("failed", FAILED),
        ("killed", STOPPED),
        ("stopped", STOPPED),
        ("in_progress", RUNNING),
        (" Running ", RUNNING),
        ("odd", None),
        (None, None),
    ],
)
def test_the_clients_words_read_as_ours(word, ours):
    assert client_word(word) == ours


def test_the_tools_that_stop_a_task_name_it():
    assert stopped_task("TaskStop", {"task_id": "a1b2"}) == "a1b2"
    assert stopped_task("KillShell", {"shell_id": "dce0af"}) == "dce0af"
    assert stopped_task("Bash", {"task_id": "a1b2"}) is None
    assert stopped_task("TaskStop", {"task_id": ""}) is None


def test_an_api_error_and_the_compaction_summariser_are_told_by_their_text_and_id():
    assert is_api_error("API Error: 404 model not found") and not is_api_error("The API is fine.")
    assert is_compaction_agent("acompact-e1f845") and not is_compaction_agent("a4fd35097a8ae6d70")


def test_the_live_view_calls_a_running_agent_silent_past_the_threshold_stalled():
    assert live_status(stopped=False, last_activity=100.0, now=650.0, stalled_after_s=600) == RUNNING
    assert live_status(stopped=False, last_activity=0.0, now=650.0, stalled_after_s=600) == STALLED
    assert live_status(stopped=True, last_activity=0.0, now=650.0, stalled_after_s=600) == FINISHED
