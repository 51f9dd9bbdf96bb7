"""The MCP server (`session-kit mcp`): its start against `session-kit --version`, and a tool
call against the same command's `--json` run."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import small_root, state_root
from benchmarks.harness.measure import Command, Measurement
from benchmarks.harness.report import Row

# The SDK's package `__init__` alone (it loads its client and high-level server as well).
SDK_IMPORT = "import mcp.server.lowlevel, mcp.server.stdio"
CALLS = 5  # calls per server run; a call's figure is the best of them over every run

# A client on stdin and stdout, as Claude Code is one: it starts the server, times the answer
# to `initialize` (from the spawn) and each tool call (from its request to its answer), closes
# stdin and waits for the exit. Prints {"start": s, "calls": [s, ...]}; exit 1 on a tool error.
DRIVER = r"""
import json, subprocess, sys, time
argv, calls = json.loads(sys.argv[1]), json.loads(sys.argv[2])
started = time.perf_counter()
server = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def ask(message):
    server.stdin.write(json.dumps(message).encode() + b"\n")
    server.stdin.flush()
def answer(number):
    while True:
        line = server.stdout.readline()
        if not line:
            sys.exit(f"the server closed its output before answering {number}")
        reply = json.loads(line)
        if reply.get("id") == number:
            if "error" in reply or reply["result"].get("isError"):
                sys.exit(f"request {number} failed: {line[:500]!r}")
            return reply
params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
ask({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
answer(1)
start = time.perf_counter() - started
ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
times = []
for number, (name, arguments) in enumerate(calls, 2):
    asked = time.perf_counter()
    ask({"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
    answer(number)
    times.append(time.perf_counter() - asked)
server.stdin.close()
server.wait(timeout=60)
print(json.dumps({"start": start, "calls": times}))
"""


def _drive(server: list[str], calls: list[tuple[str, dict]]) -> tuple[float, list[float]]:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(server), json.dumps(calls)], capture_output=True, timeout=300
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode(errors="replace")[-500:])
    found = json.loads(done.stdout)
    return found["start"], found["calls"]


def _measurement(label: str, seconds: list[float]) -> Measurement:
    return Measurement(label, (), tuple(seconds), (), 0, 0)


@benchmark("mcp")
def bench_mcp(ctx: Context) -> list[Row]:
    """`session-kit mcp` on one small session (the start-up benchmark's root), driven by a
    client on its stdin and stdout as Claude Code drives it. Start: from the spawn to the answer
    to `initialize`, against `session-kit --version`, at most 2x (missed: the MCP SDK's import
    alone, also measured, is many times the whole of `--version`; the kit imports only the
    low-level server and the stdio transport, but the SDK's package loads its client and its
    high-level server with them). A tool call inside the running server (request to answer):
    `debug_agents` and `search_history` against `debug-agent --json` and `search --json` run as
    commands, as the model would run them in the Bash tool: at most 1x."""
    with tempfile.TemporaryDirectory(prefix="kit-mcp-") as tmp, state_root(Path(tmp) / "state"):
        root = Path(tmp) / "claude"
        _, sid = small_root(root)
        on = ["--claude-dir", str(root)]
        query = "error"
        calls = [
            ("debug_agents", {"session": sid, "all": True}),
            ("search_history", {"query": query, "all_projects": True}),
        ]
        version = Command.of("session-kit --version", [*ctx.kit, "--version"])
        sdk = Command.of("python -c 'import mcp…'", [sys.executable, "-c", SDK_IMPORT])
        debug_cmd = Command.of("debug-agent --all --json", [*ctx.kit, "debug-agent", sid, "--all", "--json", *on])
        search_cmd = Command.of(f"search {query} --all --json", [*ctx.kit, "search", query, "--all", "--json", *on])
        m_version, m_sdk, m_debug_cmd, m_search_cmd = ctx.measure(version, sdk, debug_cmd, search_cmd)
        starts: list[float] = []
        firsts: list[float] = []  # the first call of each run: the tool's modules imported then
        per_tool: dict[str, list[float]] = {name: [] for name, _ in calls}
        ctx.log("  session-kit mcp, driven ...")
        try:
            _drive([*ctx.kit, "mcp", *on], calls)  # warm-up: the search index is made here
            for _ in range(ctx.scale.repeat):
                start, times = _drive([*ctx.kit, "mcp", *on], calls * CALLS)
                starts.append(start)
                firsts.append(times[0])
                for (name, _), took in zip(calls * CALLS, times):
                    per_tool[name].append(took)
        except (RuntimeError, ValueError, subprocess.TimeoutExpired) as exc:
            failed = Measurement("session-kit mcp", (), (), (), 1, 0, note=f"{type(exc).__name__}: {exc}"[:300])
            return [Row.error("mcp", "session-kit mcp", failed)]
    m_start = _measurement("session-kit mcp: initialize answered", starts)
    sdk_share = f"the SDK's import alone: {m_sdk.best / m_version.best:.1f}x" if m_sdk.ok and m_version.ok else ""
    return [
        Row.ratio_row(
            "mcp", "session-kit mcp: start, initialize answered", m_start, m_version, max_ratio=2, note=sdk_share
        ),
        Row.ratio_row("mcp", "python -c 'import mcp…' (reference: the SDK's import)", m_sdk, m_version),
        Row.ratio_row(
            "mcp",
            "mcp: a debug_agents call in a running server",
            _measurement("debug_agents", per_tool["debug_agents"]),
            m_debug_cmd,
            max_ratio=1,
        ),
        Row.ratio_row(
            "mcp",
            "mcp: a search_history call in a running server",
            _measurement("search_history", per_tool["search_history"]),
            m_search_cmd,
            max_ratio=1,
        ),
        Row.ratio_row(
            "mcp",
            "mcp: the first debug_agents call of a server (reference)",
            _measurement("first debug_agents", firsts),
            m_debug_cmd,
        ),
    ]
