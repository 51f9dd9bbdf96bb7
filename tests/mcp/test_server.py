"""`session-kit mcp` driven over stdio by the MCP SDK's own client: every tool answers with its
command's `--json` document (redacted, in pages), the current session comes from the client's
`CLAUDE_CODE_SESSION_ID`, bad calls are told what is expected, and nothing is written."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.mcp.client import Answer, Failure, ask, session_env
from tests.support.cli import invoke_json
from tests.support.sessions import build, build_leaky
from tests.support.transcripts import Transcript

TOOLS = {"search_history", "show_session", "debug_agents", "session_memory", "plan", "live_agents", "usage"}


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_every_tool_is_listed_with_what_it_is_for_and_its_arguments(claude_root: Path):
    tools, _ = ask(claude_root, [])
    assert {t.name for t in tools} == TOOLS
    for tool in tools:
        assert "Use it" in tool.description and "Returns the `session-kit" in tool.description, tool.name
        assert tool.input_schema["type"] == "object" and "cursor" in tool.input_schema["properties"]
    search = next(t for t in tools if t.name == "search_history")
    assert search.input_schema["required"] == ["query"]


def test_each_tool_answers_with_its_commands_json_document_and_writes_nothing(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    state = Path(os.environ["SESSION_KIT_HOME"])
    _, answers = ask(
        claude_root,
        [
            ("show_session", {"session": sid[:8]}),
            ("debug_agents", {"session": sid, "all": True}),
            ("debug_agents", {"session": sid, "agent": built.worker_agent[:6]}),
            ("plan", {"session": sid, "all": True}),
            ("session_memory", {"session": sid}),
            ("session_memory", {"session": sid, "dropped": True}),
            ("live_agents", {"session": sid}),
        ],
    )
    assert all(isinstance(a, Answer) and not a.error and len(a.texts) == 1 for a in answers), answers
    assert files_under(state) == []  # no scratch, no memory saved, no index
    show, every_agent, one_agent, plans, memory, dropped, live = (a.document for a in answers)
    assert show == invoke_json("show", sid)
    assert every_agent == invoke_json("debug-agent", sid, "--all")
    assert one_agent == invoke_json("debug-agent", sid, built.worker_agent[:6])
    assert {a["agent_id"] for a in every_agent["agents"]} == {built.plan_agent, built.worker_agent}
    assert plans == invoke_json("plan", sid, "--all") and plans["count"] >= 1
    assert dropped == invoke_json("memory", sid, "--dropped")
    nonce = re.compile(r"\b[0-9a-f]{24}\b")  # each rendering quotes the transcript between fresh nonces
    restored = invoke_json("memory", sid)["restored"]
    assert memory["kind"] == "memory" and nonce.sub("N", memory["restored"]) == nonce.sub("N", restored)
    assert "Please build the feature" in memory["restored"]
    cli_live = invoke_json("agents", sid)
    assert [(a["agent_id"], a["status"]) for a in live["agents"]] == [
        (a["agent_id"], a["status"]) for a in cli_live["agents"]
    ]


def test_the_search_and_the_usage_answer_as_their_commands_do(claude_root: Path):
    built = build(claude_root)
    _, answers = ask(
        claude_root,
        [
            ("search_history", {"query": "nonexistent", "all_projects": True}),
            ("search_history", {"query": "SENTINEL_FAILURE", "all_projects": True, "errors_only": True}),
            ("search_history", {"query": "parser", "all_projects": True, "limit": 1}),
            ("usage", {"by": "session"}),
        ],
    )
    ls, failure, parser, usage = (a.document for a in answers)

    def same(document: dict) -> dict:  # how much of the index the call brought up to date first
        return {k: v for k, v in document.items() if k != "updated_files"}

    assert same(ls) == same(invoke_json("search", "nonexistent", "--all"))
    assert [h["session_id"] for h in failure["hits"]] == [built.current.session_id]
    assert failure["hits"][0]["agent_id"] == built.worker_agent
    assert same(failure) == same(invoke_json("search", "SENTINEL_FAILURE", "--all", "--errors"))
    assert len(parser["hits"]) == 1 and parser["total"] > 1
    assert usage == invoke_json("usage", "--by", "session")
    assert {row["key"] for row in usage["rows"]} >= {built.current.session_id, built.legacy.session_id}


def test_without_a_session_the_tools_answer_for_the_clients_current_session(claude_root: Path):
    built = build(claude_root)
    env = session_env(claude_root, CLAUDE_CODE_SESSION_ID=built.legacy.session_id)
    _, answers = ask(claude_root, [("show_session", {}), ("debug_agents", {"all": True})], env=env)
    show, agents = (a.document for a in answers)
    assert show["id"] == built.legacy.session_id
    assert [a["agent_id"] for a in agents["agents"]] == [built.legacy_agent]


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (("show_session", {"sesion": "c0ffee"}), "takes no argument 'sesion'; it takes: session, cursor"),
        (("search_history", {}), "needs `query`"),
        (("search_history", {"query": "x", "limit": "ten"}), "`limit` of search_history must be a whole number"),
        (("search_history", {"query": "x", "limit": 0}), "from 1 to 200"),
        (("search_history", {"query": "x", "since": "last tuesday"}), "`since` must be a date"),
        (("search_history", {"query": "x", "project": "/work/proj", "all_projects": True}), "not both"),
        (("usage", {"by": "year"}), "`by` of usage must be one of day, week, month"),
        (("usage", {"since": "2026-13-01"}), "`since` must be a date (YYYY-MM-DD)"),
        (("plan", {"all": "yes"}), "must be true or false"),
        (("live_agents", {"stalled_after": "soon"}), "`stalled_after` must be minutes"),
        (("show_session", {"session": "ffffffff"}), "show_session: "),
        (("show_session", {"session": "c0ffee", "cursor": "oops"}), "`cursor` must be one a previous page"),
    ],
    ids=lambda v: v[0] if isinstance(v, tuple) else None,
)
def test_a_bad_call_is_a_tool_error_saying_what_is_expected(claude_root: Path, call, says: str):
    build(claude_root)
    _, [answer] = ask(claude_root, [call])
    assert isinstance(answer, Answer) and answer.error
    assert says in answer.texts[0]
    assert "Traceback" not in answer.texts[0]


def test_an_unknown_tool_is_a_protocol_error_naming_the_tools(claude_root: Path):
    _, [answer] = ask(claude_root, [("delete_history", {})])
    assert isinstance(answer, Failure) and answer.code == -32602
    assert "search_history" in answer.message


def test_secrets_are_redacted_unless_the_server_was_started_with_no_redact(claude_root: Path):
    leaky = build_leaky(claude_root)
    sid = leaky.session.session_id
    calls = [("show_session", {"session": sid}), ("debug_agents", {"session": sid, "all": True})]
    _, redacted = ask(claude_root, calls)
    _, shown = ask(claude_root, calls, args=("--no-redact",))
    redacted_text = " ".join(t for a in redacted for t in a.texts)
    shown_text = " ".join(t for a in shown for t in a.texts)
    assert [s for s in leaky.secrets if s in redacted_text] == []
    assert "[REDACTED" in redacted_text
    assert [s for s in leaky.secrets if s in shown_text] != []


def test_a_long_answer_comes_in_pages_that_join_into_the_document(claude_root: Path):
    t = Transcript("facade00-1111-2222-3333-444455556666", cwd="/work/long")
    for n in range(120):
        t.user(f"request {n}: " + "please look at this again " * 12)
        t.say("ok")
    t.write_session(claude_root)
    texts, notes, cursor = [], [], None
    for _ in range(10):
        _, [answer] = ask(
            claude_root, [("show_session", {"session": "facade00", **({"cursor": cursor} if cursor else {})})]
        )
        assert not answer.error
        texts.append(answer.texts[0])
        notes.append(answer.texts[1])
        cursor = (
            json.loads(notes[-1].split("cursor ", 1)[1].split(" ", 1)[0].replace("'", '"'))
            if "cursor" in notes[-1]
            else None
        )
        if cursor is None:
            break
    assert len(texts) > 1 and all(len(text) <= 20_000 for text in texts)
    assert "call again with the same arguments and cursor" in notes[0] and notes[-1].startswith("The last page")
    assert json.loads("".join(texts)) == invoke_json("show", "facade00")


def test_without_the_sdk_the_command_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch):
    import importlib.util

    from tests.support.cli import invoke

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else real(name, *a))
    result = invoke("mcp")
    assert result.exit_code != 0 and "-m pip install 'mcp>=2.3,<3'" in result.stderr
    assert "Traceback" not in result.stderr
