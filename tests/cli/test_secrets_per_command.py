"""Every command that prints or writes transcript text shows it through the one redactor: the
held-out probes, put in every field a command shows (a request, a command, its output and
error, a tool's input, an agent's description and prompt, its answer, a plan, a compaction
summary), leave no piece of a secret in any command's output, text or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_kit.redaction.engine import redact_text
from tests.support.cli import invoke
from tests.support.heldout_secrets import heldout
from tests.support.secret_probes import Probe, leaked
from tests.support.transcripts import Transcript

SID = "5ec2e700-0000-4000-8000-00000000c0de"


def found_in_plain_text(probe: Probe) -> bool:
    out = redact_text(probe.line)
    return not any(leaked(s, out) for s in probe.secrets)


PROBES = [p for p in heldout() if found_in_plain_text(p)]


def session_with_probes(root: Path, probes: list[Probe]) -> Transcript:
    t = Transcript(SID, cwd="/work/probes")
    for n, probe in enumerate(probes):
        line = probe.line
        where = n % 6
        if where == 0:
            t.user(f"Here is what I have:\n{line}\nplease check it")
            t.say("Checking.")
        elif where == 1:
            t.bash(f"cd /srv && {line}", f"ran: {line}")
        elif where == 2:
            t.bash("./deploy.sh", exit_code=1, stderr=f"error: {line}")
        elif where == 3:
            t.tool_use("Custom", {"config": line, "note": f"see {line}"})
        elif where == 4:
            call = t.tool_use(
                "Agent",
                {"subagent_type": "general-purpose", "description": f"Use {line}", "prompt": f"Do it with {line}"},
            )
            t.tool_result(call, [{"type": "text", "text": f"Done with {line}"}])
        else:
            t.tool_use("ExitPlanMode", {"plan": f"# Plan {n}\n\n1. set {line}\n2. deploy"})
    t.compact("Summary: " + " ".join(p.line for p in probes[:5]))
    t.say("Finished; the last value was " + probes[-1].line)
    t.write_session(root)
    return t


COMMANDS = [
    ("show", SID, "--json"),
    ("show", SID),
    ("events", SID, "--json"),
    ("events", SID),
    ("info", SID, "--full", "--json"),
    ("plan", SID, "--all", "--json"),
    ("plan", SID, "--all"),
    ("debug-agent", SID, "--all", "--full", "--json"),
    ("memory", SID, "--whole", "--json"),
    ("view", SID, "--format", "md", "-o", "-"),
    ("view", SID, "--format", "html", "-o", "-"),
    ("preprocess", SID, "--stdout"),
    ("preprocess", SID, "--stdout", "--no-filtering"),
    ("search", "deploy", "--all", "--json", "--limit", "500"),
    ("search", "deploy", "--all", "--scan", "--json"),
    ("sessions", "--all", "--json"),
]


def leaks_of(probes: list[Probe], output: str) -> list[str]:
    return [p.kind for p in probes if any(leaked(s, output) for s in p.secrets)]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("probes") / ".claude"
    session_with_probes(root, PROBES)
    return root


def test_most_held_out_probes_take_part():
    assert len(PROBES) >= 0.95 * len(heldout())


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_no_command_shows_a_piece_of_a_secret(root: Path, args):
    result = invoke(*args, "--claude-dir", str(root))
    assert result.exit_code == 0, result.output
    assert leaks_of(PROBES, result.stdout) == []


def test_export_writes_no_piece_of_a_secret(root: Path, tmp_path: Path):
    result = invoke("export", "--claude-dir", str(root), "--output-dir", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    written = "".join(p.read_text(errors="replace") for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert "deploy" in written
    assert leaks_of(PROBES, written) == []


def test_the_clients_own_ids_are_never_taken_for_keys(claude_root: Path):
    """Bedrock's tool ids (`tooluse_…`) and bridge session ids (`cse_…`) are the client's
    identifiers: redacted, a call no longer matches its result."""
    t = Transcript(SID, cwd="/work/bedrock")
    t.user("list the files")
    calls = [t.tool_use("Bash", {"command": "ls"}, call_id=f"tooluse_{n}kJ8aLmN3pQ7rS2tUvW9xYz0") for n in range(3)]
    for call in calls:
        t.tool_result(call, "README.md")
    t.say("Three files; the bridge session is cse_01ABCDefgh23IJKLmnop45.")
    t.write_session(claude_root)
    shown = invoke("events", SID, "--json")
    assert shown.exit_code == 0, shown.output
    assert "REDACTED" not in shown.stdout
    assert [e["id"] for e in json.loads(shown.stdout)["events"]] == calls
    assert "cse_01ABCDefgh23IJKLmnop45" in invoke("preprocess", SID, "--stdout").stdout
