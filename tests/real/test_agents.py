"""Every command that names a session's agents names the truth's, each with the truth's ending:
`debug-agent --all --json`, `agents --json`, `info --json`, `memory --json` (its `agents`: what
the hooks would capture, so the agents the main conversation spawned) and `export` (its `agents`
table: the agents, typed; the table says nothing of endings)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.real.compare import describe, match_agents
from tests.real.corpus import KitRun, Truth, params

# The live view's `stalled` is a running agent whose log went silent: the corpus's logs all are.
LIVE_WORDS = {"stalled": "running"}


def wrong_agents(
    truth: Truth,
    shown: list[dict[str, Any]],
    wanted: list[dict[str, Any]] | None = None,
    *,
    id_field: str = "agent_id",
    call_field: str | None = "tool_use_id",
    status_field: str | None = "status",
    words: dict[str, str] | None = None,
) -> list[Any]:
    """What a command says wrong of the session's agents (or of `wanted`, some of them): those
    left out, those the file does not have, and each matched agent whose ending or type
    differs."""
    pairs, missing, extra = match_agents(
        truth, shown, id_field=id_field, call_field=call_field, agents=truth.agents if wanted is None else wanted
    )
    problems: list[Any] = [("left out", describe(a), a["how"]) for a in missing]
    problems += [("not in the file", a.get(id_field), a.get(status_field)) for a in extra]
    for want, got in pairs:
        if got.get("type") != want["type"]:
            problems.append(("type", describe(want), got.get("type"), want["type"]))
        if status_field is not None:
            status = got.get(status_field)
            status = (words or {}).get(status, status)
            if status != want["ending"]:
                problems.append(("ending", describe(want), status, want["ending"], want["how"]))
    return problems


@pytest.mark.parametrize("truth", params())
def test_debug_agent_names_every_agent_and_its_ending(kit: KitRun, truth: Truth) -> None:
    shown = kit.session("debug-agent", truth, "--all")
    assert shown["total"] == len(truth.agents)
    assert wrong_agents(truth, shown["agents"]) == []


@pytest.mark.parametrize("truth", params())
def test_agents_names_every_agent_and_its_ending(kit: KitRun, truth: Truth) -> None:
    shown = kit.session("agents", truth)["agents"]
    assert wrong_agents(truth, shown, words=LIVE_WORDS) == []


@pytest.mark.parametrize("truth", params())
def test_info_names_every_agent_and_its_ending(kit: KitRun, truth: Truth) -> None:
    info = kit.session("info", truth)
    assert wrong_agents(truth, info["agents"]) == []
    assert info["failed_agents"] == sum(1 for a in truth.agents if a["ending"] == "failed" or a["failed_calls"])


def spawned_by_the_conversation(truth: Truth) -> list[dict[str, Any]]:
    """The truth's agents whose spawning call is in the main conversation: those the memory
    follows (it reads the session's own file, as the hooks do)."""
    calls = set()
    with truth.path.open("rb") as lines:
        for raw in lines:
            try:
                entry = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(entry, dict) or entry.get("type") != "assistant" or entry.get("isSidechain"):
                continue
            content = (entry.get("message") or {}).get("content")
            for block in content if isinstance(content, list) else []:
                if (
                    isinstance(block, dict)
                    and block.get("type") == "tool_use"
                    and block.get("name") in ("Task", "Agent")
                ):
                    calls.add(block.get("id"))
    return [a for a in truth.agents if a["tool_use_id"] in calls]


@pytest.mark.parametrize("truth", params())
def test_memory_names_every_agent_the_conversation_spawned_and_its_ending(kit: KitRun, truth: Truth) -> None:
    memory = kit.session("memory", truth)["memory"]
    shown = memory["agents"] if memory is not None else []
    assert wrong_agents(truth, shown, spawned_by_the_conversation(truth), id_field="id", call_field="call") == []


def exported_agents(kit: KitRun, truth: Truth) -> list[dict[str, Any]]:
    """The `agents` table `export` writes for the session's corpus folder (one export each)."""
    folder = kit.home / "export" / truth.folder
    code, _out, err = kit.run("export", "--output-dir", str(folder), "--claude-dir", str(truth.root), "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in (folder / "agents.jsonl").read_text("utf-8").splitlines()]
    sessions = {Path(truth.rel).stem, *truth["session_ids"]}
    return [r for r in rows if r["session"] in sessions]


@pytest.mark.parametrize("truth", params())
def test_export_names_every_agent_with_its_type(kit: KitRun, truth: Truth) -> None:
    shown = exported_agents(kit, truth)
    assert wrong_agents(truth, shown, status_field=None) == []
