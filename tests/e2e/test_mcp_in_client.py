"""The kit's MCP server inside the real client, by every route: `./install.sh` (registered by
`session-kit install` in the client's `.claude.json`), `--plugin-dir` and a marketplace install
(declared in the plugin's `plugin.json`).

Each route gets one home. A first session runs a Bash command holding a needle and a subagent
whose `Bash` call fails. Resuming it, the scripted model loads the kit's tools with ToolSearch
(the client lists MCP tools as deferred tools, by name only), calls `search_history` for the
needle and `debug_agents` with no session, and the next requests carry the tools' JSON: the
needle's hit in the first session, and that session's failed agent (the current session, from
`CLAUDE_CODE_SESSION_ID`). Then, without `--dangerously-skip-permissions`, a call is refused
until `--allowedTools` names the server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .fake_api import Exchange, Reply, Script, agent, bash, tool_use
from .routes import Route, install_sh, installed_route, marketplace_route, plugin_route

NEEDLE = "MCPNEEDLE4217"
MISSING = "/nonexistent-mcp-e2e-file"
TOOLS = ("search_history", "show_session", "debug_agents", "session_memory", "plan", "live_agents", "usage")
# What the client calls the server (the prefix of its tools, and what `--allowedTools` names).
SERVER = {
    "installed": "mcp__session-kit",
    "plugin": "mcp__plugin_session-kit_session-kit",
    "marketplace": "mcp__plugin_session-kit_session-kit",
}


def script(server: str) -> Script:
    search, debug = f"{server}__search_history", f"{server}__debug_agents"
    turns = {
        "MCP-SETUP": [
            [bash(f"echo {NEEDLE}-in-bash")],
            [agent("general-purpose", "MCP-WORKER: read the notes", description="Read notes", background=False)],
            "Set up.",
        ],
        "MCP-ASK": [
            [tool_use("ToolSearch", {"query": f"select:{search},{debug}", "max_results": 5})],
            [tool_use(search, {"query": NEEDLE, "limit": 5})],
            [tool_use(debug, {})],
            "Asked.",
        ],
        "MCP-DENIED": [[tool_use(search, {"query": NEEDLE})], "Denied."],
        "MCP-ALLOWED": [[tool_use(search, {"query": NEEDLE})], "Allowed."],
    }

    def decide(exchange: Exchange) -> Reply | None:
        """The turn after the latest prompt naming a key: the client adds a user text ("Tool
        loaded.") after a ToolSearch result, which the fake's own turn count takes for a prompt."""
        if exchange.conversation != "main":
            return None
        key, turn = None, 0
        for message in exchange.messages:
            own = human_text(message)
            found = next((k for k in turns if k in own), None)
            if found:
                key, turn = found, 0
            elif message.get("role") == "assistant":
                turn += 1
        if key is None:
            return None
        return turns[key][turn] if turn < len(turns[key]) else "OK."

    return Script(
        decide=decide, agents={"MCP-WORKER": [[bash(f"cat {MISSING}")], "Worker report: the notes are missing."]}
    )


def human_text(message: dict[str, Any]) -> str:
    if message.get("role") != "user":
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")


def _make(name: str, binary: Path, tmp: Path):
    maker = {"installed": installed_route, "plugin": plugin_route, "marketplace": marketplace_route}[name]
    return maker(binary, tmp, script(SERVER[name]))


@pytest.fixture(params=["installed", "plugin", "marketplace"], scope="module")
def route(request: pytest.FixtureRequest, claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with _make(request.param, claude_binary, tmp_path_factory.mktemp(f"mcp-{request.param}")) as made:
        setup = made.run("MCP-SETUP: echo the needle and start a worker")
        made.session_id = setup.session_id
        yield made


def tool_results(exchanges: list[Exchange]) -> dict[str, list[Any]]:
    """tool name -> the results the client sent back for it (content and is_error), from the
    main requests in `exchanges`, each call once."""
    names: dict[str, str] = {}
    results: dict[str, Any] = {}
    for exchange in exchanges:
        for message in exchange.messages:
            for block in message.get("content") if isinstance(message.get("content"), list) else []:
                if block.get("type") == "tool_use":
                    names[block["id"]] = block["name"]
                elif block.get("type") == "tool_result" and block.get("tool_use_id") in names:
                    results[block["tool_use_id"]] = block
    found: dict[str, list[Any]] = {}
    for use_id, block in results.items():
        found.setdefault(names[use_id], []).append(block)
    return found


def text_of(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [] if part.get("type") == "text")


def document(block: dict[str, Any]) -> dict[str, Any]:
    """The tool's JSON document: the first text block of a result that is not an error."""
    assert not block.get("is_error"), text_of(block)
    first = block["content"][0]
    assert first["type"] == "text", block
    return json.loads(first["text"])


def test_the_client_lists_the_kits_tools_under_the_routes_server_name(route: Route):
    before = len(route.fake.exchanges)
    route.run("MCP-ASK: search and debug", resume=route.session_id)
    route.asked = route.fake.exchanges[before:]  # type: ignore[attr-defined]
    first = next(e for e in route.asked if e.conversation == "main")  # type: ignore[attr-defined]
    # Deferred: named in a system message, not in `tools`, until ToolSearch loads them.
    listed = first.text() + json.dumps(first.body.get("messages"))
    server = SERVER[route.name]
    assert all(f"{server}__{tool}" in listed for tool in TOOLS), route.fake.log_tail()
    # ToolSearch answers with references; the next request carries the tools' schemas, the kit's own.
    (loaded,) = tool_results(route.asked)["ToolSearch"]  # type: ignore[attr-defined]
    named = {part.get("tool_name") for part in loaded["content"] if part.get("type") == "tool_reference"}
    assert named == {f"{server}__search_history", f"{server}__debug_agents"}, loaded
    later = [e for e in route.asked if f"{server}__search_history" in e.tool_names]  # type: ignore[attr-defined]
    assert later, route.fake.log_tail()
    schema = next(t for t in later[0].body["tools"] if t["name"] == f"{server}__search_history")
    assert "query" in schema["input_schema"]["required"] and schema["description"]


def test_search_history_answers_with_the_needles_hit_in_the_next_request(route: Route):
    results = tool_results(route.asked)  # type: ignore[attr-defined]
    assert f"{SERVER[route.name]}__search_history" in results, route.fake.log_tail(20)
    (block,) = results[f"{SERVER[route.name]}__search_history"]
    found = document(block)
    assert found["kind"] == "search" and found["query"] == NEEDLE
    assert found["hits"] and all(hit["session_id"] == route.session_id for hit in found["hits"])
    assert any(NEEDLE in json.dumps(hit) for hit in found["hits"])


def test_debug_agents_answers_for_the_current_session_with_its_failed_agent(route: Route):
    results = tool_results(route.asked)  # type: ignore[attr-defined]
    assert f"{SERVER[route.name]}__debug_agents" in results, route.fake.log_tail(20)
    (block,) = results[f"{SERVER[route.name]}__debug_agents"]
    found = document(block)
    assert found["kind"] == "debug-agent" and found["session_id"] == route.session_id
    assert found["failed"] >= 1 and MISSING in json.dumps(found["agents"]), json.dumps(found)[:2000]


def test_headless_mode_needs_the_server_allowed(route: Route):
    server = SERVER[route.name]
    before = len(route.fake.exchanges)
    route.run("MCP-DENIED: search", resume=route.session_id, permission_mode="default")
    denied = tool_results(route.fake.exchanges[before:])[f"{server}__search_history"][-1]  # this run's call
    assert denied.get("is_error") and f"permissions to use {server}__search_history" in text_of(denied)
    before = len(route.fake.exchanges)
    route.run(
        "MCP-ALLOWED: search", resume=route.session_id, permission_mode="default", args=["--allowedTools", server]
    )
    allowed = tool_results(route.fake.exchanges[before:])[f"{server}__search_history"][-1]
    assert document(allowed)["kind"] == "search"


def test_uninstall_takes_the_server_out_of_the_config_the_client_rewrote(route: Route):
    """Installed: `install.sh --uninstall` takes out the kit's entry and nothing else. A plugin
    route registers nothing there (its plugin.json declares the server)."""
    config = route.home.config_dir / ".claude.json"
    before = json.loads(config.read_bytes())
    if route.name != "installed":
        assert "session-kit" not in before.get("mcpServers", {})
        return
    assert before["mcpServers"]["session-kit"]["args"] == ["-m", "session_kit", "mcp"]
    assert "userID" in before  # the client has rewritten the file since the install
    done = install_sh(route.home, "--uninstall")
    assert done.returncode == 0, done.stdout + done.stderr
    after = json.loads(config.read_bytes())
    assert "session-kit" not in after.get("mcpServers", {})
    assert {k: v for k, v in before.items() if k != "mcpServers"} == after
