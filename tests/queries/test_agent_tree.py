"""A session's agents as a tree, one agent found by prefix, and the agents a command shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.errors import Ambiguous, NotFound
from session_kit.queries.agent_tree import AgentSelection, agent_tree, find_agent, select_agents
from tests.support.sessions import Planned, agent_runs, build_planned


@pytest.fixture
def planned(claude_root: Path) -> tuple[Planned, list]:
    """Alpha's agents: a Plan agent, an outer one (failing Bash) that nests an Explore agent
    (failing Bash), and one whose API call failed."""
    p = build_planned(claude_root)
    return p, agent_runs(claude_root, p.alpha.session_id)


def shown(selection: AgentSelection) -> list[str]:
    return [n.run.agent_id for n in selection.shown]


def test_the_tree_lists_agents_in_start_order_with_their_depth(planned):
    p, runs = planned
    tree = agent_tree(runs)
    assert [(n.run.agent_id, n.depth) for n in tree] == [
        (p.plan_agent, 0),
        (p.outer_agent, 0),
        (p.inner_agent, 1),
        (p.error_agent, 0),
    ]


def test_a_tree_node_names_its_children(planned):
    p, runs = planned
    assert agent_tree(runs)[1].children == (p.inner_agent,)


def test_an_agent_is_found_by_an_id_prefix(planned):
    p, runs = planned
    assert find_agent(runs, "aout").agent_id == p.outer_agent


def test_an_agent_is_found_by_its_log_file_name(planned):
    p, runs = planned
    assert find_agent(runs, "agent-ainner").agent_id == p.inner_agent


def test_an_ambiguous_agent_prefix_names_the_candidates(planned):
    _, runs = planned
    with pytest.raises(Ambiguous) as amb:
        find_agent(runs, "a")
    assert amb.value.exit_code == 4 and len(amb.value.candidates) == 4


def test_an_unknown_agent_is_not_found(planned):
    _, runs = planned
    with pytest.raises(NotFound):
        find_agent(runs, "zzz")


def test_failed_agents_are_shown_by_default_and_the_others_counted(planned):
    p, runs = planned
    default = select_agents(runs)
    assert shown(default) == [p.outer_agent, p.inner_agent, p.error_agent]
    assert [n.run.agent_id for n in default.others] == [p.plan_agent]
    assert (default.total, default.failed) == (4, 3)


def test_all_agents_shows_every_agent(planned):
    p, runs = planned
    assert shown(select_agents(runs, all_agents=True)) == [p.plan_agent, p.outer_agent, p.inner_agent, p.error_agent]


def test_naming_an_agent_shows_it_even_when_it_did_not_fail(planned):
    p, runs = planned
    assert shown(select_agents(runs, agent="aplan")) == [p.plan_agent]


def test_agents_are_picked_by_type_whatever_its_case(planned):
    p, runs = planned
    assert shown(select_agents(runs, all_agents=True, agent_type="explore")) == [p.inner_agent]


def test_agents_are_picked_by_a_tool_they_called(planned):
    p, runs = planned
    assert shown(select_agents(runs, all_agents=True, tool="agent")) == [p.outer_agent]


def test_picking_by_tool_selects_among_every_agent_not_only_the_failed(planned):
    p, runs = planned
    assert shown(select_agents(runs, tool="agent")) == [p.outer_agent]


def test_picking_by_type_selects_an_agent_that_did_not_fail(planned):
    p, runs = planned
    assert shown(select_agents(runs, agent_type="Plan")) == [p.plan_agent]
