"""One SESSION convention: `[SESSION]` (default `current`) or `--session`, never both."""

from __future__ import annotations

import pytest

from tests.support.cli import invoke, invoke_json

# Each command that takes a session, with what makes it print the session's id in JSON.
COMMANDS = [
    (["show"], "id"),
    (["events"], "session_id"),
    (["plan"], "session_id"),
    (["info"], "id"),
    (["debug-agent"], "session_id"),
    (["preprocess", "--no-filtering", "--max-tokens", "100000"], "session_id"),
]
IDS = [c[0][0] for c in COMMANDS]


@pytest.mark.parametrize(("args", "field"), COMMANDS, ids=IDS)
def test_the_session_is_the_first_argument(planned, args, field):
    assert invoke_json(args[0], planned.beta.session_id, *args[1:])[field] == planned.beta.session_id


@pytest.mark.parametrize(("args", "field"), COMMANDS, ids=IDS)
def test_the_session_option_is_the_same_as_the_argument(planned, args, field):
    assert invoke_json(*args, "--session", planned.beta.session_id)[field] == planned.beta.session_id


@pytest.mark.parametrize(("args", "field"), COMMANDS, ids=IDS)
def test_without_a_session_a_command_reads_the_current_one(planned, args, field):
    env = {"SESSION_CONTEXT": f"session_id={planned.beta.session_id}"}
    assert invoke_json(*args, env=env)[field] == planned.beta.session_id


@pytest.mark.parametrize(("args", "field"), COMMANDS, ids=IDS)
def test_a_session_given_both_ways_is_a_usage_error(planned, args, field):
    if args[0] == "debug-agent":  # there, a lone argument beside --session is the AGENT
        args = [*args, "aplan"]
    result = invoke(args[0], planned.alpha.session_id, *args[1:], "--session", planned.beta.session_id)
    assert result.exit_code == 2 and "not both" in result.stderr


def test_current_names_the_session_in_session_context(built):
    doc = invoke_json("show", "current", env={"SESSION_CONTEXT": f"session_id={built.legacy.session_id}"})
    assert doc["id"] == built.legacy.session_id


def test_an_empty_session_option_means_the_current_session(planned):
    doc = invoke_json("plan", "--session", "", env={"SESSION_CONTEXT": f"session_id={planned.beta.session_id}"})
    assert doc["session_id"] == planned.beta.session_id


def test_an_empty_session_argument_means_the_current_session(planned):
    info = invoke_json("info", "", env={"CLAUDE_CODE_SESSION_ID": planned.alpha.session_id})
    assert info["id"] == planned.alpha.session_id


def test_a_unique_prefix_names_the_session(planned):
    assert invoke_json("plan", planned.alpha.session_id[:4])["session_id"] == planned.alpha.session_id


def test_debug_agent_takes_the_session_then_the_agent(planned):
    doc = invoke_json("debug-agent", planned.alpha.session_id, "aplan")
    assert [a["agent_id"] for a in doc["agents"]] == [planned.plan_agent]


def test_debug_agent_with_the_session_option_takes_a_lone_argument_as_the_agent(planned):
    doc = invoke_json("debug-agent", "aplan", "--session", planned.alpha.session_id)
    assert doc["session_id"] == planned.alpha.session_id
    assert [a["agent_id"] for a in doc["agents"]] == [planned.plan_agent]


def test_debug_agent_takes_a_lone_argument_as_the_session(planned):
    doc = invoke_json("debug-agent", planned.alpha.session_id, "--all")
    assert doc["session_id"] == planned.alpha.session_id and doc["total"] == 4


def test_debug_agent_with_an_agent_of_the_current_session(planned):
    env = {"SESSION_CONTEXT": f"session_id={planned.alpha.session_id}"}
    doc = invoke_json("debug-agent", "current", "aplan", env=env)
    assert [a["agent_id"] for a in doc["agents"]] == [planned.plan_agent]


def test_the_slash_commands_forms_keep_working(planned):
    sid = planned.alpha.session_id
    assert invoke("debug-agent", "--session", sid).exit_code == 0
    assert invoke("debug-agent", "--all", "--session", sid).exit_code == 0
    assert invoke("plan", "--session", sid).exit_code == 0
    assert invoke("plan", "--all", "--session", sid).exit_code == 0
    assert invoke("info", sid).exit_code == 0
    assert invoke("preprocess", sid, "--max-tokens", "20000").exit_code == 0
