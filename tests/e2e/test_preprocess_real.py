"""Preprocessing sessions the real client wrote: `--distill` through the pinned `claude -p`,
and the `/preprocess-session` slash command inside a real session."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from .client import Claude, ClaudeRun, client_env
from .fake_api import Exchange, Script, bash, text

REPO = Path(__file__).resolve().parents[2]
COMMAND = REPO / "commands" / "preprocess-session.md"
KIT = Path(sys.executable).with_name("session-kit")
DISTILLED_MARK = "DISTILLED-BY-FAKE-HAIKU"


def kit(claude: Claude, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`session-kit ARGS` in the client's isolated environment (so a nested `claude` reaches the fake)."""
    command = [str(KIT)] if KIT.exists() else [sys.executable, "-m", "session_kit"]
    return subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        env=client_env(
            claude.home, claude.fake.base_url, {"SESSION_KIT_HOME": str(claude.home.root / "kit"), **(env or {})}
        ),
        timeout=300,
    )


def a_session(claude: Claude) -> ClaudeRun:
    claude.fake.script = Script(
        main=[
            [text("Checking."), bash("ls /nonexistent-e2e-dir")],
            [text("It is missing."), bash("echo e2e-ok")],
            "E2E-DONE",
        ],
        decide=_distiller,
    )
    return claude.run("E2E-PREPROCESS: look for the directory")


def _distiller(exchange: Exchange) -> list | None:
    """Answers the distill requests (the document it was given, marked, nothing cut) and the
    slash command's turn (a plain answer, so the run ends)."""
    body = exchange.text()
    if "This session, preprocessed" in body:
        return [text("SLASH-COMMAND-ANSWERED")]
    if "When in doubt, keep it." not in body:
        return None
    match = re.search(r"<\?xml.*?</(session|agent)>", body, re.S)
    document = match.group(0) if match else "<session/>"
    return [text(document.replace("E2E-PREPROCESS", f"E2E-PREPROCESS {DISTILLED_MARK}", 1))]


def test_distill_runs_the_pinned_client_on_each_document(claude: Claude, claude_binary: Path, tmp_path: Path):
    run = a_session(claude)
    out = tmp_path / "pre"
    proc = kit(
        claude,
        "preprocess",
        run.session_id,
        "--output-dir",
        str(out),
        "--distill",
        "--json",
        env={"SESSION_KIT_CLAUDE": str(claude_binary)},
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    (document,) = doc["documents"]
    (distilled,) = doc["distilled"]
    assert distilled["well_formed"] and distilled["path"].endswith("-part1.distilled.xml")
    mechanical = ET.parse(document["path"]).getroot()
    assert "ls /nonexistent-e2e-dir" in ET.tostring(mechanical, encoding="unicode")
    answer = Path(distilled["path"]).read_text()
    assert DISTILLED_MARK in answer and ET.fromstring(answer.encode()).tag == "session"
    # The client got the instruction and the whole document (on stdin), for a small model.
    (request,) = claude.fake.requests_containing("When in doubt, keep it.")
    assert "E2E-DONE" in request.text() and "nonexistent-e2e-dir" in request.text()
    assert "haiku" in str(request.body.get("model", ""))
    assert "Bash" not in request.tool_names


def test_the_slash_command_preprocesses_the_running_session(claude: Claude):
    first = a_session(claude)
    commands = claude.home.config_dir / "commands"
    commands.mkdir(parents=True, exist_ok=True)
    (commands / COMMAND.name).write_text(COMMAND.read_text())
    # What the user types after the command must stay text: the file never puts it in a shell.
    claude.run(
        "/preprocess-session the failed `echo INJECTED` $(echo SUBST) call",
        resume=first.session_id,
        env={"SESSION_KIT_HOME": str(claude.home.root / "kit")},
    )
    prompt = claude.fake.last_main_request().text()
    assert "ARGUMENTS: the failed `echo INJECTED` $(echo SUBST) call" in prompt
    assert "\nINJECTED" not in prompt and "\nSUBST" not in prompt
    # The `!` line ran with the session's own id: the paths of its documents are in the prompt.
    paths = re.findall(r"(/\S+-part\d+\.xml)", prompt)
    assert paths, prompt[-3000:]
    assert all(first.session_id in p for p in paths)
    document = ET.parse(paths[0]).getroot()
    assert document.get("id") == first.session_id
    assert "E2E-PREPROCESS" in ET.tostring(document, encoding="unicode")
    assert "Read each printed document" in prompt or "read every printed document" in prompt


def test_distill_with_the_kit_installed_leaves_no_trace_of_its_child(claude: Claude, claude_binary: Path, tmp_path):
    # The kit's hooks in the user's settings: the `claude -p` child must not fire them.
    assert kit(claude, "install").returncode == 0
    run = a_session(claude)
    state = claude.home.root / "kit"
    projects = claude.home.config_dir / "projects"

    def traces() -> tuple[list[str], list[str], list[str]]:
        scratch = sorted(str(p.relative_to(state)) for p in state.glob("projects/*/sessions/*"))
        pointers = sorted(p.read_text() for p in state.glob("projects/*/current-session-id"))
        return scratch, pointers, sorted(p.name for p in projects.iterdir())

    before = traces()
    proc = kit(
        claude,
        "preprocess",
        run.session_id,
        "--output-dir",
        str(tmp_path / "pre"),
        "--distill",
        "--json",
        env={"SESSION_KIT_CLAUDE": str(claude_binary)},
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["distilled"][0]["well_formed"]
    assert claude.fake.requests_containing("When in doubt, keep it.")
    assert traces() == before
