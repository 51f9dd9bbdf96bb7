"""What a new user meets in the first hour: where `install --scope local` puts the slash
commands, what `--dry-run` says, a `--json` document when nothing is found, `view --open`
printing only the path, singular counts, and a wrong `--claude-dir` said as such."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from tests.support.cli import invoke, run
from tests.support.sessions import Built
from tests.support.transcripts import Transcript

# --- install --scope local ---------------------------------------------------------------------


def test_install_local_scope_keeps_the_slash_commands_out_of_the_repository(
    claude_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    project = tmp_path / "repo"
    project.mkdir()
    monkeypatch.chdir(project)
    result = invoke("install", "--scope", "local")
    assert result.exit_code == 0, result.output
    assert (project / ".claude" / "settings.local.json").is_file()
    assert not (project / ".claude" / "commands").exists()  # what a repository commits
    assert (claude_root / "commands" / "plan.md").is_file()  # the person's own folder
    assert f"into {claude_root / 'commands'}:" in result.stdout
    assert "no folder of commands for one person" in " ".join(result.stdout.split())


def test_uninstalling_the_local_scope_keeps_the_commands_the_user_scope_still_uses(
    claude_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    assert invoke("install").exit_code == 0
    assert invoke("install", "--scope", "local").exit_code == 0
    assert invoke("uninstall", "--scope", "local").exit_code == 0
    assert (claude_root / "commands" / "plan.md").is_file()
    assert invoke("uninstall").exit_code == 0
    assert not (claude_root / "commands" / "plan.md").exists()


def test_a_local_install_moves_the_commands_an_older_kit_put_in_the_project(
    claude_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    assert invoke("install", "--scope", "local").exit_code == 0
    receipts = Path(os.environ["SESSION_KIT_HOME"]) / "install" / "receipts.json"
    older = tmp_path / ".claude" / "commands"
    older.mkdir(parents=True)
    for path in (claude_root / "commands").glob("*.md"):
        (older / path.name).write_bytes(path.read_bytes())
    (older / "mine.md").write_text("my own command\n")
    data = json.loads(receipts.read_text())
    for receipt in data.values():
        receipt["commands_dir"] = str(older)  # as the older kit recorded it
    receipts.write_text(json.dumps(data))
    assert invoke("install", "--scope", "local").exit_code == 0
    assert sorted(p.name for p in older.iterdir()) == ["mine.md"]
    assert (claude_root / "commands" / "plan.md").is_file()


# --- install --dry-run ---------------------------------------------------------------------------


def test_install_dry_run_says_first_that_nothing_changed_then_what_would(claude_root: Path):
    lines = invoke("install", "--dry-run").stdout.splitlines()
    assert lines[0] == "Dry run: nothing was changed. `session-kit install` would:"
    assert lines[1] == f"  add the kit's hooks to {claude_root / 'settings.json'}"
    assert lines[2] == f"  copy 9 slash commands into {claude_root / 'commands'}:"
    assert not (claude_root / "settings.json").exists() and not (claude_root / "commands").exists()


def test_uninstall_dry_run_names_what_would_go(claude_root: Path):
    invoke("install")
    lines = invoke("uninstall", "--dry-run").stdout.splitlines()
    assert lines[0] == "Dry run: nothing was changed. `session-kit uninstall` would:"
    assert lines[1] == f"  remove the kit's hooks from {claude_root / 'settings.json'}"
    assert lines[2] == f"  remove 9 slash commands from {claude_root / 'commands'}:"


# --- sessions --json when nothing is found -----------------------------------------------------


def test_sessions_json_prints_a_document_when_it_finds_nothing_and_exits_3(claude_root: Path, tmp_path: Path):
    proc = run("sessions", "--json", cwd=tmp_path)
    assert proc.returncode == 3
    doc = json.loads(proc.stdout)
    assert doc["kind"] == "sessions" and doc["sessions"] == [] and "no Claude Code sessions" in doc["error"]
    assert proc.stderr.startswith("session-kit: no Claude Code sessions")


def test_sessions_json_on_a_folder_that_is_no_claude_root_is_a_document_too(tmp_path: Path):
    proc = run("sessions", "--all", "--json", "--claude-dir", str(tmp_path))
    assert proc.returncode == 3 and json.loads(proc.stdout)["sessions"] == []


# --- view --open -------------------------------------------------------------------------------


def test_view_open_prints_the_path_alone_whatever_the_opener_prints(built: Built, tmp_path: Path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    opened = tmp_path / "opened"
    for name in ("xdg-open", "open"):
        opener = bin_dir / name
        opener.write_text(
            "#!/bin/sh\n"
            "echo 'Opening in existing browser session.'\n"
            "echo 'gio: Operation not supported' >&2\n"
            f'echo "$1" > {opened}\n'
        )
        opener.chmod(opener.stat().st_mode | stat.S_IEXEC)
    proc = run("view", built.current.session_id, "--open", env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    assert proc.returncode == 0, proc.stderr
    page = proc.stdout.strip()
    assert proc.stdout == page + "\n" and page.endswith(".html")
    assert proc.stderr == ""
    for _ in range(100):  # the opener runs on its own: wait for it to have been given the page
        if opened.exists() and opened.read_text().strip():
            break
        time.sleep(0.05)
    assert opened.read_text().strip() == page


def test_view_open_without_any_opener_says_where_the_page_is(built: Built, tmp_path: Path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    # Only the empty folder: the interpreter's own folder may be /usr/bin, with an xdg-open in it.
    proc = run("view", built.current.session_id, "--open", env={"PATH": str(empty)})
    assert proc.returncode == 0
    page = proc.stdout.strip()
    assert proc.stderr == f"session-kit: no browser could be started; open {page}\n"


# --- one of a thing ----------------------------------------------------------------------------


def _one_agent_session(root: Path) -> Transcript:
    t = Transcript("0ne0a6e0-0000-0000-0000-000000000001", cwd="/work/single")
    t.user("Look for the ONEHITNEEDLE please")
    call = t.tool_use("Agent", {"subagent_type": "Explore", "description": "Look", "prompt": "Look around"})
    agent = Transcript(t.session_id, cwd=t.cwd, agent_id="a0e0000000000001", start=t.clock)
    agent.user("Look around")
    agent.say("Nothing there.")
    t.clock = agent.clock
    t.tool_result(call, [{"type": "text", "text": "Nothing there."}], extra={"agentId": "a0e0000000000001"})
    t.say("Done.")
    t.write_session(root)
    agent.write_subagent(root, t, meta={"agentType": "Explore", "description": "Look", "toolUseId": call})
    return t


def test_one_agent_one_hit_and_one_file_are_said_in_the_singular(claude_root: Path):
    t = _one_agent_session(claude_root)
    agents = invoke("debug-agent", t.session_id).stdout
    assert "1 agent," in agents and "1 agents" not in agents
    hits = invoke("search", "ONEHITNEEDLE", "--all").stdout
    assert hits.rstrip().endswith("1 hit (best first).")
    scan = invoke("search", "ONEHITNEEDLE", "--all", "--scan").stdout
    assert scan.rstrip().endswith("1 hit in 2 files.")


def test_doctor_says_one_file_and_one_entry_in_the_singular(claude_root: Path):
    project = claude_root / "projects" / "-work-one"
    project.mkdir()
    line = '{"type":"user","sessionId":"0a0a0a0a-0000-0000-0000-000000000000","message":{"role":"user","content":"hi"}}'
    (project / "0a0a0a0a-0000-0000-0000-000000000000.jsonl").write_text(line + "\n")
    out = invoke("doctor", "--transcripts").stdout
    assert ": 1 file, 1 entry" in out and "1 files" not in out and "1 entries" not in out


def test_usage_on_a_root_with_one_empty_transcript_says_transcript(claude_root: Path):
    project = claude_root / "projects" / "-work-empty"
    project.mkdir()
    (project / "e0e0e0e0-0000-0000-0000-000000000000.jsonl").write_text("")
    out = invoke("usage").stdout
    assert "No usage in 1 transcript under" in out


# --- a wrong --claude-dir ----------------------------------------------------------------------


def test_a_wrong_claude_dir_is_said_to_be_no_claude_root_not_read_from_the_archive(built: Built, tmp_path: Path):
    assert invoke("archive").exit_code == 0
    wrong = tmp_path / "not-a-root"
    wrong.mkdir()
    for args in (("show", built.current.session_id), ("info", built.current.session_id), ("sessions", "--all")):
        result = invoke(*args, "--claude-dir", str(wrong))
        assert result.exit_code == 3, args
        assert result.stderr == (
            f"session-kit: {wrong} is not a Claude root yet: it has no projects/ folder (Claude Code makes it "
            "when it first runs; else check --claude-dir or $CLAUDE_CONFIG_DIR)\n"
        )
        assert "archive" not in result.output


def test_sessions_and_doctor_say_the_missing_claude_root_in_the_same_words(tmp_path: Path):
    missing = tmp_path / "fresh-home" / ".claude"
    sessions = invoke("sessions", "--claude-dir", str(missing))
    doctor = invoke("doctor", "--claude-dir", str(missing))
    sentence = sessions.stderr.removeprefix("session-kit: ").strip()
    assert sessions.exit_code == 3 and sentence.startswith(f"{missing} is not a Claude root")
    assert f"  {sentence}\n" in doctor.stdout


@pytest.mark.parametrize("args", [("usage",), ("search", "hello", "--all"), ("search", "hello")])
def test_commands_over_the_whole_root_refuse_a_folder_that_is_no_claude_root(tmp_path: Path, args):
    result = invoke(*args, "--claude-dir", str(tmp_path))
    assert result.exit_code == 3 and "is not a Claude root" in result.stderr
