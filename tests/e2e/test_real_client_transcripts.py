"""What the real client writes for the shared scenario (see scenario.py), checked without the kit."""

from __future__ import annotations

import json

from . import scenario as sc
from .scenario import ScenarioRun
from .transcript import read_entries, result_text, tool_results, tool_uses, user_text


def test_transcript_is_a_session_file_under_the_config_dirs_projects(scenario: ScenarioRun) -> None:
    transcript = scenario.transcript
    assert transcript.name == f"{scenario.session_id}.jsonl"
    assert transcript.parent.parent == scenario.home.projects
    assert [p.name for p in scenario.home.projects.iterdir()] == [transcript.parent.name]


def test_resume_and_compact_keep_the_session_id(scenario: ScenarioRun) -> None:
    assert scenario.compact.session_id == scenario.session_id
    assert scenario.follow_up.session_id == scenario.session_id
    ids = {e["sessionId"] for e in read_entries(scenario.transcript) if "sessionId" in e}
    assert ids == {scenario.session_id}


def test_every_line_is_a_json_object(scenario: ScenarioRun) -> None:
    for path in [scenario.transcript, *scenario.subagents_dir.glob("*.jsonl")]:
        assert read_entries(path), path


def test_bash_results_say_whether_the_command_failed(scenario: ScenarioRun) -> None:
    entries = read_entries(scenario.transcript)
    results = tool_results(entries)
    by_command = {b["input"]["command"]: b["id"] for _, b in tool_uses(entries, "Bash")}

    ok_entry, ok_block = results[by_command["echo scenario-hello"]]
    assert ok_block.get("is_error") is False
    assert ok_entry["toolUseResult"]["stdout"] == "scenario-hello"

    failed_entry, failed_block = results[by_command[sc.FAILING_COMMAND]]
    assert failed_block["is_error"] is True
    assert result_text(failed_block).startswith("Exit code 2")
    assert isinstance(failed_entry["toolUseResult"], str)  # errors are strings, not objects
    assert "Exit code 2" in failed_entry["toolUseResult"]


def test_write_read_edit_ran_on_the_project_file(scenario: ScenarioRun) -> None:
    entries = read_entries(scenario.transcript)
    results = tool_results(entries)
    names = [b["name"] for _, b in tool_uses(entries) if b["name"] in ("Write", "Read", "Edit")]
    assert names == ["Write", "Read", "Edit"]
    for _, block in tool_uses(entries):
        if block["name"] in ("Write", "Read", "Edit"):
            assert not results[block["id"]][1].get("is_error"), block
    assert (scenario.project / "notes.txt").read_text() == sc.NOTES_CONTENT.replace("beta", "gamma")


def test_each_subagent_has_a_log_and_a_meta_file_linked_to_its_agent_call(scenario: ScenarioRun) -> None:
    entries = read_entries(scenario.transcript)
    agent_calls = {b["id"]: b["input"] for _, b in tool_uses(entries, "Agent")}
    logs = sorted(scenario.subagents_dir.glob("agent-*.jsonl"))
    assert len(logs) == 2, sorted(p.name for p in scenario.subagents_dir.iterdir())
    for log in logs:
        agent_id = log.name[len("agent-") : -len(".jsonl")]
        meta = json.loads(log.with_name(f"agent-{agent_id}.meta.json").read_text())
        call = agent_calls[meta["toolUseId"]]
        assert meta["agentType"] == call["subagent_type"]
        assert meta["description"] == call["description"]
        agent_entries = read_entries(log)
        conversation = [e for e in agent_entries if e.get("type") in ("user", "assistant")]
        assert all(e["isSidechain"] is True and e["agentId"] == agent_id for e in conversation)
        assert all(e["sessionId"] == scenario.session_id for e in conversation)
        assert user_text(conversation[0]) == call["prompt"]


def test_agent_results_name_the_agent_foreground_and_background(scenario: ScenarioRun) -> None:
    entries = read_entries(scenario.transcript)
    results = tool_results(entries)
    by_type = {
        b["input"]["subagent_type"]: results[b["id"]][0]["toolUseResult"] for _, b in tool_uses(entries, "Agent")
    }
    logs = {p.name for p in scenario.subagents_dir.glob("agent-*.jsonl")}

    plan = by_type["Plan"]  # foreground: the result carries the agent's report
    assert plan["status"] == "completed"
    assert plan["agentType"] == "Plan"
    assert sc.PLAN_AGENT_REPORT in json.dumps(plan["content"])
    assert f"agent-{plan['agentId']}.jsonl" in logs

    general = by_type["general-purpose"]  # background: launched, reported later
    assert general["status"] == "async_launched"
    assert general["prompt"] == sc.GP_AGENT_PROMPT
    assert f"agent-{general['agentId']}.jsonl" in logs


def test_a_subagents_failing_bash_is_an_error_in_its_own_log(scenario: ScenarioRun) -> None:
    (log,) = [p for p in scenario.subagents_dir.glob("agent-*.jsonl") if sc.GP_AGENT_PROMPT in p.read_text()]
    entries = read_entries(log)
    (call,) = [b for _, b in tool_uses(entries, "Bash")]
    _, result = tool_results(entries)[call["id"]]
    assert call["input"]["command"] == sc.SUBAGENT_FAILING_COMMAND
    assert result["is_error"] is True and result_text(result).startswith("Exit code 1")


def test_exit_plan_mode_is_refused_in_print_mode_but_its_plan_is_written(scenario: ScenarioRun) -> None:
    entries = read_entries(scenario.transcript)
    (call,) = [b for _, b in tool_uses(entries, "ExitPlanMode")]
    assert call["input"]["plan"] == sc.PLAN_TEXT
    _, result = tool_results(entries)[call["id"]]
    assert result["is_error"] is True


def test_compact_writes_a_boundary_then_the_summary_in_the_same_file(scenario: ScenarioRun) -> None:
    entries = read_entries(scenario.transcript)
    (at,) = [i for i, e in enumerate(entries) if e.get("type") == "system" and e.get("subtype") == "compact_boundary"]
    boundary = entries[at]
    assert boundary["parentUuid"] is None and boundary["logicalParentUuid"]
    assert boundary["compactMetadata"]["trigger"] == "manual"
    summaries = [e for e in entries[at:] if e.get("isCompactSummary")]
    assert len(summaries) == 1 and "SCENARIO-SUMMARY" in user_text(summaries[0])
    after = entries[at:]
    assert any(e.get("type") == "user" and user_text(e) == sc.FOLLOW_UP_PROMPT for e in after)
    assert any(b["input"]["command"] == "echo after-compaction" for _, b in tool_uses(after, "Bash"))
    assert not any(e.get("type") == "summary" for e in entries)  # the 2025 dialect's summary line


def test_the_fake_saw_the_main_conversation_the_agents_and_the_compaction(scenario: ScenarioRun) -> None:
    fake = scenario.fake
    plan_agent_ids = {e.agent_id for e in fake.agent_requests("PLAN-AGENT")}
    assert len(plan_agent_ids) == 1 and None not in plan_agent_ids  # the x-claude-code-agent-id header
    assert len(fake.agent_requests("GP-AGENT")) == 2
    assert not fake.agent_requests("?"), fake.log_tail()
    (compaction,) = [e for e in fake.message_requests() if e.conversation == "compact"]
    assert sc.FAILING_COMMAND in compaction.text()
    follow_up = fake.last_main_request()
    assert "SCENARIO-SUMMARY" in follow_up.text() and sc.FOLLOW_UP_PROMPT in follow_up.last_human_text
    assert fake.requests_containing("Exit code 2")
    assert not fake.errors
