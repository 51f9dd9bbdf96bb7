"""Tokens and cost on what the real client writes: the kit's counts equal the usage the fake
API sent for every API message the client kept (main conversation and subagent), through
`show`, `usage` and the status-line script; and whether the client runs a status line in
`-p` mode at all."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from session_kit.usage.statusline import SCRIPT

from .client import Claude
from .fake_api import agent, bash, text

STDIN_COPY = "statusline-stdin.json"


def kit_json(claude: Claude, *args: str) -> dict:
    command = [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(claude.home.config_dir), "--json"]
    env = {"PATH": "/usr/bin:/bin", **claude.home.env()}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def message_ids(paths: list[Path]) -> set[str]:
    ids = set()
    for path in paths:
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry.get("type") == "assistant":
                ids.add(entry["message"]["id"])
    return ids


def test_the_kit_counts_exactly_what_the_api_sent_for_the_messages_the_client_kept(claude: Claude, tmp_path: Path):
    marker = tmp_path / STDIN_COPY
    status_command = f"tee {shlex.quote(str(marker))} | python3 -I -S {shlex.quote(SCRIPT)}"
    settings = claude.home.config_dir / "settings.json"
    settings.write_text(json.dumps({"statusLine": {"type": "command", "command": status_command}}))
    claude.fake.script.main = [
        [text("Counting."), bash("echo hi")],
        [agent("Explore", "AGENT-U: look", background=False)],
        "Done.",
    ]
    claude.fake.script.agents = {"AGENT-U": [[bash("true")], "found it"]}
    run = claude.run("USAGE-START: count the tokens")
    main = run.transcript_path
    agents = sorted((main.parent / run.session_id / "subagents").glob("agent-*.jsonl"))
    assert agents, "the client kept no subagent log"
    kept = message_ids([main, *agents])
    sent = [e.usage for e in claude.fake.message_requests() if e.usage and e.usage["message_id"] in kept]
    assert {u["message_id"] for u in sent} == kept  # every message kept was answered by the fake
    expected_in = sum(u["input_tokens"] for u in sent)
    expected_out = sum(u["output_tokens"] for u in sent)

    show = kit_json(claude, "show", run.session_id)
    total = show["usage"]["total"]["tokens"]
    assert (total["input"], total["output"], total["messages"]) == (expected_in, expected_out, len(kept))
    [agent_usage] = show["usage"]["agents"]
    agent_kept = message_ids(agents)
    assert agent_usage["tokens"]["output"] == sum(u["output_tokens"] for u in sent if u["message_id"] in agent_kept)

    report = kit_json(claude, "usage", "--by", "session")
    assert report["total"]["tokens"]["input"] == expected_in and report["total"]["tokens"]["output"] == expected_out

    # Every other command that gives the session's tokens gives the same figures.
    figures = ("input", "output", "cache_read", "cache_creation")
    [row] = [r for r in report["rows"] if r["key"] == run.session_id]
    assert [row["tokens"][f] for f in figures] == [total[f] for f in figures]
    [listed] = [s for s in kit_json(claude, "sessions", "--all", "--tokens")["sessions"] if s["id"] == run.session_id]
    assert [listed["tokens"][f] for f in figures] == [total[f] for f in figures]
    out = tmp_path / "export"
    kit_json(claude, "export", "--output-dir", str(out))
    [exported] = [
        r for r in map(json.loads, (out / "sessions.jsonl").read_text().splitlines()) if r["id"] == run.session_id
    ]
    columns = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")
    assert [exported[c] for c in columns] == [total[f] for f in figures]

    # The status line, given the client's documented stdin shape for this session.
    event = {
        "hook_event_name": "Status",
        "session_id": run.session_id,
        "transcript_path": str(main),
        "cwd": str(run.cwd),
        "model": {"id": "claude-opus-5-5", "display_name": "Opus"},
        "workspace": {"current_dir": str(run.cwd), "project_dir": str(run.cwd)},
        "version": "2.1.328",
        "output_style": {"name": "default"},
        "cost": {"total_cost_usd": 0.01, "total_duration_ms": 1000},
    }
    line = subprocess.run(
        [sys.executable, "-I", "-S", SCRIPT],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env={"SESSION_KIT_HOME": str(tmp_path / "kit-state"), "HOME": str(claude.home.home)},
        timeout=30,
    )
    assert line.returncode == 0, line.stderr
    tokens = total["total"]
    shown = f"{tokens / 1000:.1f}k" if tokens >= 1000 else str(tokens)
    assert line.stdout.startswith(f"{run.session_id[:8]} · {shown} tok · $")

    # Observed with the pinned client: `-p` runs never start the status-line command (it is a
    # part of the interactive screen), so the line is tested with the stdin shape above.
    assert not marker.exists()
