"""The page model: lanes per agent nested as they were spawned, calls timed from their use to
their result, failures, compactions, missing agent logs, every dialect, and the size limits."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.session import Session
from session_kit.view import build as build_module
from session_kit.view import timeline
from session_kit.view.build import SMALL_CHARS, Cutter, ViewOptions, build_page
from session_kit.view.model import MAIN, Call, Compaction, Message, Note
from tests.support.dialects import inline_1_0, legacy_2_0, subagents_2_1
from tests.support.sessions import build, build_planned
from tests.support.transcripts import Transcript


def page_of(root: Path, session: str, **options):
    page, _, _ = build_page(resolve_session(session, root), ViewOptions(**options))
    return page


def calls_of(page, key: str) -> list[Call]:
    [thread] = [t for t in page.threads if t.key == key]
    return [i for i in thread.items if isinstance(i, Call)]


def test_there_is_one_lane_for_the_main_conversation_and_one_per_agent(tmp_path: Path):
    built = build(tmp_path)
    page = page_of(tmp_path, built.current.session_id)
    assert [lane.key for lane in page.lanes] == [MAIN, built.plan_agent, built.worker_agent]
    assert [lane.depth for lane in page.lanes] == [0, 1, 1]
    assert [t.key for t in page.threads] == [lane.key for lane in page.lanes]


def test_an_agent_started_by_an_agent_is_nested_under_it_in_spawn_order(tmp_path: Path):
    p = build_planned(tmp_path)
    page = page_of(tmp_path, p.alpha.session_id)
    order = [(lane.key, lane.depth) for lane in page.lanes]
    assert order == [
        (MAIN, 0),
        (p.plan_agent, 1),
        (p.outer_agent, 1),
        (p.inner_agent, 2),
        (p.error_agent, 1),
    ]


def test_a_call_runs_from_its_use_to_its_result(tmp_path: Path):
    t = Transcript("5e550000-0000-0000-0000-000000000001")
    t.user("go")
    call = t.tool_use("Bash", {"command": "sleep 5"})
    used = t.clock
    t.tick(4)
    t.tool_result(call, "done")
    t.write_session(tmp_path)
    [bash] = calls_of(page_of(tmp_path, t.session_id), MAIN)
    assert bash.started == used and bash.ended == t.clock
    assert bash.duration_s == 5.0 and bash.status == "ok" and bash.summary == "sleep 5"


def test_a_failed_call_is_marked_in_its_lane_with_its_exit_code(tmp_path: Path):
    built = build(tmp_path)
    page = page_of(tmp_path, built.current.session_id)
    lanes = {lane.key: lane for lane in page.lanes}
    assert lanes[built.worker_agent].failed and not lanes[built.plan_agent].failed
    [failed] = [b.call for b in lanes[built.worker_agent].bars if b.call.failed]
    assert failed.exit_code == 3 and "SENTINEL_FAILURE" in failed.output.text
    assert page.card.failures == 2  # the main conversation's `ls` and the worker's `make`


def test_the_spawning_call_links_to_its_agents_thread_and_back(tmp_path: Path):
    built = build(tmp_path)
    page = page_of(tmp_path, built.current.session_id)
    spawns = [c for c in calls_of(page, MAIN) if c.name == "Agent"]
    assert [c.spawned for c in spawns] == [built.plan_agent, built.worker_agent]
    worker = next(t for t in page.threads if t.key == built.worker_agent)
    assert worker.spawned_by is not None and worker.spawned_by.anchor == spawns[1].anchor


def test_compactions_are_rules_across_the_timeline(tmp_path: Path):
    built = build(tmp_path)
    page = page_of(tmp_path, built.current.session_id)
    assert page.card.compactions == 1
    [(x, compaction)] = page.rules
    assert isinstance(compaction, Compaction) and compaction.trigger == "manual" and 0 < x < 1000


def test_the_card_counts_tokens_once_per_message_and_per_agent(tmp_path: Path):
    built = build(tmp_path)
    page = page_of(tmp_path, built.current.session_id)
    lanes = {lane.key: lane for lane in page.lanes}
    # `say` is one message of 10 + 5 + 100 + 1000 tokens; the Plan agent says one thing.
    assert lanes[built.plan_agent].tokens.total == 1115
    assert page.card.tokens.total == sum(lane.tokens.total for lane in page.lanes)
    assert page.card.session_id == built.current.session_id and page.card.cwd == "/work/proj"


def test_an_agent_whose_log_is_missing_still_gets_a_lane_from_its_spawning_call(tmp_path: Path):
    built = build(tmp_path)
    folder = tmp_path / "projects" / "-work-proj" / built.current.session_id / "subagents"
    for path in folder.glob(f"agent-{built.worker_agent}.*"):
        path.unlink()
    page = page_of(tmp_path, built.current.session_id)
    lanes = {lane.key: lane for lane in page.lanes}
    assert lanes[built.worker_agent].missing_log and lanes[built.worker_agent].span is not None
    assert page.card.missing_logs == 1 and page.card.agents == 2
    thread = next(t for t in page.threads if t.key == built.worker_agent)
    assert thread.missing_log and thread.spawned_by is not None and "Run the checks" in thread.label


def test_the_2025_layout_links_task_agents_and_reads_summary_lines_as_titles(tmp_path: Path):
    built = build(tmp_path)
    page = page_of(tmp_path, built.legacy.session_id)
    assert [lane.key for lane in page.lanes] == [MAIN, built.legacy_agent]
    assert page.card.title == "Earlier: explored the repo" and page.card.compactions == 0


def test_the_seed_dialect_pairs_top_level_tool_results(tmp_path: Path):
    t = Transcript("5eed0000-0000-0000-0000-000000000001", dialect="seed")
    t.user("go")
    t.bash("false", exit_code=1, stderr="nope")
    t.say("it failed")
    t.write_session(tmp_path)
    [call] = calls_of(page_of(tmp_path, t.session_id), MAIN)
    assert call.failed and call.started is not None and call.ended is not None


def test_thinking_is_left_out_unless_asked(tmp_path: Path):
    t = Transcript("7e1e0000-0000-0000-0000-000000000001")
    t.user("think")
    t.assistant({"type": "thinking", "thinking": "DEEP THOUGHT"}, {"type": "text", "text": "answer"})
    t.write_session(tmp_path)
    kinds = [i.kind for i in page_of(tmp_path, t.session_id).threads[0].items if isinstance(i, Message)]
    assert "thinking" not in kinds
    kinds = [i.kind for i in page_of(tmp_path, t.session_id, thinking=True).threads[0].items if isinstance(i, Message)]
    assert "thinking" in kinds


def test_secrets_are_redacted_in_texts_inputs_and_outputs(tmp_path: Path):
    key = "sk-ant-api03-" + "Ah3Jq8ZtX5mVb2WnK7Ld" * 2
    t = Transcript("5ec20000-0000-0000-0000-000000000001")
    t.user(f"use {key}")
    t.bash(f"curl -H 'x-api-key: {key}' x", f"echo {key}")
    t.write_session(tmp_path)
    page = page_of(tmp_path, t.session_id)
    texts = repr(page.threads)
    assert key not in texts and "REDACTED" in texts
    assert key in repr(page_of(tmp_path, t.session_id, redact=False).threads)


def test_a_long_output_is_cut_with_its_full_size_kept():
    cut = Cutter()
    text = "\n".join(f"line {n}" for n in range(1000))
    shown = cut(text, 6000, max_lines=120)
    assert shown.is_cut and shown.lines == 1000 and shown.chars == len(text)
    assert shown.text.count("\n") == 119


def test_past_the_page_budget_every_text_keeps_only_a_little():
    cut = Cutter(page_chars=100)
    assert not cut("x" * 100, 1000).is_cut
    late = cut("y" * 1000, 1000)
    assert len(late.text) == SMALL_CHARS and late.chars == 1000
    assert cut.left_out == 1000 - SMALL_CHARS


def test_a_warmup_agent_log_is_not_an_agent_of_the_conversation(tmp_path: Path):
    # 2.0.28-2.0.44 wrote them beside the sessions: the agent model leaves them out, as `show` does.
    built = build(tmp_path)
    start = built.current.clock + timedelta(hours=1)
    warm = Transcript(built.current.session_id, agent_id="a0a0warm", start=start, version="2.0.30")
    warm.user("Warmup")
    warm.say("Hi! I'm ready.")
    warm.write_legacy_agent(tmp_path, built.current)
    page = page_of(tmp_path, built.current.session_id)
    assert "a0a0warm" not in [lane.key for lane in page.lanes]


# --- every dialect the kit reads (tests/support/dialects.py) ---------------------------------


def lanes_of(page) -> list[tuple[str, int, bool]]:
    return [(lane.key, lane.depth, lane.missing_log) for lane in page.lanes]


def test_1_0_inline_agents_get_their_own_lanes_and_the_title_is_the_sessions(tmp_path: Path):
    d = inline_1_0(tmp_path)
    page = page_of(tmp_path, d.session.session_id)
    assert page.card.title == d.title
    assert len(page.lanes) == 3 and [lane.depth for lane in page.lanes] == [0, 1, 1]
    runner = page.lanes[2]
    assert runner.failed and "INLINE_SENTINEL" in runner.bars[0].call.output.text
    assert "INLINE_SENTINEL" not in repr(page.threads[0].items)  # the inline agent's thread is its own


def test_2_0_warmup_logs_are_no_lanes_and_an_agent_named_in_the_result_text_is_linked(tmp_path: Path):
    d = legacy_2_0(tmp_path)
    page = page_of(tmp_path, d.session.session_id)
    assert lanes_of(page) == [(MAIN, 0, False), (d.agent, 1, False)]
    [task] = [c for c in calls_of(page, MAIN) if c.name == "Task"]
    assert task.spawned == d.agent and page.card.title == d.title


def test_2_1_agents_with_and_without_meta_workflow_agents_and_agents_whose_logs_are_gone(tmp_path: Path):
    d = subagents_2_1(tmp_path)
    page = page_of(tmp_path, d.session.session_id)
    lanes = {key: missing for key, _, missing in lanes_of(page)}
    assert not lanes[d.with_meta] and not lanes[d.without_meta] and not lanes[d.workflow]
    assert all(lanes[key] for key in d.missing)
    # the one that failed before it could name its agent is keyed by its call, as the kit's agents are
    keys = {run.agent_id for run in Session(resolve_session(d.session.session_id, tmp_path)).agents}
    assert set(lanes) - {MAIN} == keys


# --- a page stays small whatever the session ---------------------------------------------------


def many_calls(root: Path, n: int, *, failing_every: int = 0) -> str:
    t = Transcript("3a000000-0000-0000-0000-0000000000f1")
    t.user("many calls")
    for i in range(n):
        if failing_every and i % failing_every == 0:
            t.bash(f"false {i}", exit_code=1, stderr=f"FAIL-{i}")
        else:
            t.bash(f"echo {i}", f"{i}")
    t.write_session(root)
    return t.session_id


def test_past_the_item_limits_only_requests_and_failures_stay_and_a_note_names_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(build_module, "ITEMS_WHOLE", 20)
    monkeypatch.setattr(build_module, "ITEMS_KEY", 5)
    page = page_of(tmp_path, many_calls(tmp_path, 200, failing_every=25))
    items = page.threads[0].items
    calls = [i for i in items if isinstance(i, Call)]
    failed_after = [c for c in calls[19:] if c.failed]
    assert len(items) < 40 and len(failed_after) == 5  # 20 in full, then 5 failures only
    notes = [i for i in items if isinstance(i, Note) and i.anchor]
    assert notes and page.hidden_items == 201 - 20 - 5
    # every call keeps its bar, and a bar of a left-out call leads to the note standing for it
    assert sum(bar.count for bar in page.lanes[0].bars) == 200
    anchors = {i.anchor for i in items if isinstance(i, (Call, Note))}
    assert all(page.link(bar.call.anchor) in anchors for bar in page.lanes[0].bars)


def test_a_lane_with_too_many_bars_draws_close_ones_of_one_status_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(timeline, "LANE_BARS", 50)
    monkeypatch.setattr(timeline, "PAGE_BARS", 60)
    page = page_of(tmp_path, many_calls(tmp_path, 300, failing_every=100))
    bars = page.lanes[0].bars
    assert len(bars) <= 60 and sum(bar.count for bar in bars) == 300
    assert sum(bar.count for bar in bars if bar.call.failed) == 3  # failures are never merged with successes


# --- the lanes are the agents `show` lists (the agent model) ---------------------------------


def lanes_and_agents(root: Path, session_id: str) -> tuple[list[str], list[str]]:
    ref = resolve_session(session_id, root)
    page, _, _ = build_page(ref, ViewOptions())
    return [lane.key for lane in page.lanes if lane.key != MAIN], [run.agent_id for run in Session(ref).agents]


def test_a_session_file_holding_only_an_agents_thread_draws_that_agent_in_its_own_lane(tmp_path: Path):
    # An agent log's content under a session's name (hand-written fixtures of other tools do it).
    agent = Transcript("s-only-thread", agent_id="e1c84ba5", version="2.0.46")
    agent.user("Find the parser")
    agent.tool_use("Grep", {"pattern": "def parse"})
    agent.say("It is in parser.py.")
    agent.write_session(tmp_path)
    lanes, agents = lanes_and_agents(tmp_path, "s-only-thread")
    assert lanes == agents == ["e1c84ba5"]
    page = page_of(tmp_path, "s-only-thread")
    assert calls_of(page, MAIN) == [] and [c.name for c in calls_of(page, "e1c84ba5")] == ["Grep"]


def test_an_inline_thread_written_with_spaces_after_the_colons_is_an_agent(tmp_path: Path):
    t = Transcript("s-spaced", version="1.0.0")
    t.user("Delegate a task.")
    t.tool_use("Task", {"description": "do work", "prompt": "do work", "subagent_type": "general-purpose"})
    thread = t.inline_agent()
    thread._last_uuid = t._last_uuid  # the thread hangs from the Task call, as some fixtures write it
    thread.tool_use("Read", {"file_path": "/work/proj/MEMORY.md"})
    thread.say("Read the memory.")
    t.clock = thread.clock
    t.say("Subagent done.")
    path = tmp_path / "projects" / "-work-proj" / "s-spaced.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in t.lines))  # `"isSidechain": true`
    lanes, agents = lanes_and_agents(tmp_path, "s-spaced")
    assert len(agents) == 1 and lanes == agents


def test_a_lone_sidechain_line_hanging_from_the_main_conversation_is_no_lane(tmp_path: Path):
    t = Transcript("s-stray")
    t.user("hello")
    t.say("hi")
    stray = t.inline_agent()
    stray._last_uuid = t.lines[0]["uuid"]
    stray.say("sidechain")
    t.write_session(tmp_path)
    assert lanes_and_agents(tmp_path, "s-stray") == ([], [])


def test_every_call_of_the_file_is_drawn_as_show_counts_it_another_sessions_too(tmp_path: Path):
    t = Transcript("s-two-ids")
    t.user("hello")
    t.tool_use("Read", {"file_path": "/work/proj/a.py"})
    other = Transcript("someone-else", start=t.clock)
    other.tool_use("TodoWrite", {"todos": []})
    t.lines += other.lines
    t.write_session(tmp_path)
    page = page_of(tmp_path, "s-two-ids")
    assert [c.name for c in calls_of(page, MAIN)] == ["Read", "TodoWrite"]
    assert page.card.calls == len(Session(resolve_session("s-two-ids", tmp_path)).calls) == 2


def test_a_workflow_agents_calls_are_drawn_though_its_entries_name_the_session_with_a_suffix(tmp_path: Path):
    d = subagents_2_1(tmp_path)
    log = next(tmp_path.rglob(f"agent-{d.workflow}.jsonl"))
    sid = d.session.session_id
    log.write_text(log.read_text().replace(f'"sessionId":"{sid}"', f'"sessionId":"{sid}#agent-{d.workflow}"'))
    assert f"#agent-{d.workflow}" in log.read_text()
    page = page_of(tmp_path, sid)
    assert [c.name for c in calls_of(page, d.workflow)] == ["Bash"]
