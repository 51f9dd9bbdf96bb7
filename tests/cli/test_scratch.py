"""`scratch …` in process: which session's dir, and what each subcommand prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import EXE, invoke, invoke_json
from tests.support.sessions import make_session

SID = "5c7a0000-0000-0000-0000-000000000001"


@pytest.fixture(autouse=True)
def known_session(claude_root: Path) -> Path:
    """SID has a transcript: `--session SID` names a session the kit can find."""
    make_session(claude_root, SID)
    return claude_root


def test_a_session_prefix_resolves_to_the_full_id():
    invoke("scratch", "set", "step", "three", "--session", SID)
    got = invoke("scratch", "get", "step", "--session", SID[:8])
    assert got.exit_code == 0 and got.stdout == "three\n"


def test_an_ambiguous_prefix_is_refused_with_the_candidates(claude_root: Path):
    make_session(claude_root, "5c7a0000-0000-0000-0000-000000000002")
    result = invoke("scratch", "show", "--session", "5c7a")
    assert result.exit_code == 4 and "matches 2 sessions" in result.stderr


def test_an_unknown_session_is_refused_and_nothing_is_saved():
    result = invoke("scratch", "set", "step", "three", "--session", "deadbeef-typo")
    assert result.exit_code == 3
    assert result.stderr == (
        "session-kit: no session matches 'deadbeef-typo' (no transcript, no scratch dir); "
        "--create starts a scratch dir for it\n"
    )
    assert not list(Path(os.environ["SESSION_KIT_HOME"]).rglob("deadbeef-typo"))


def test_show_of_an_unknown_session_is_refused_not_shown_empty():
    assert invoke("scratch", "show", "--session", "deadbeef-typo").exit_code == 3


def test_create_saves_into_a_session_the_kit_does_not_know_yet():
    assert invoke("scratch", "set", "k", "v", "--session", "brand-new", "--create").exit_code == 0
    assert invoke("scratch", "get", "k", "--session", "brand-new").stdout == "v\n"


def test_a_session_with_a_scratch_dir_but_no_transcript_yet_is_known():
    # the SessionStart hook makes the dir before the client writes the transcript
    exported = Path(os.environ["SESSION_KIT_HOME"]) / "projects" / "-p" / "sessions" / "fresh-session"
    exported.mkdir(parents=True)
    assert invoke("scratch", "set", "k", "v", "--session", "fresh-session").exit_code == 0


def test_set_then_get_gives_the_value_back():
    assert invoke("scratch", "set", "step", "three", "--session", SID).exit_code == 0
    got = invoke("scratch", "get", "step", "--session", SID)
    assert got.exit_code == 0 and got.stdout == "three\n"


def test_set_says_what_it_saved_and_where():
    result = invoke("scratch", "set", "step", "three", "--session", SID)
    assert result.stdout.startswith("saved step (5 chars) in ") and result.stdout.rstrip().endswith(SID)


def test_a_dash_reads_the_value_from_stdin():
    assert invoke("scratch", "set", "long", "-", "--session", SID, input="from stdin").exit_code == 0
    assert invoke("scratch", "get", "long", "--session", SID).stdout == "from stdin\n"


def test_get_of_a_missing_key_is_not_found():
    result = invoke("scratch", "get", "nothing", "--session", SID)
    assert result.exit_code == 3 and result.stderr == "session-kit: no value saved under 'nothing'\n"


def test_unset_forgets_the_value():
    invoke("scratch", "set", "step", "three", "--session", SID)
    assert invoke("scratch", "unset", "step", "--session", SID).exit_code == 0
    assert invoke("scratch", "get", "step", "--session", SID).exit_code == 3


def test_an_empty_note_is_a_usage_error():
    result = invoke("scratch", "note", "  ", "--session", SID)
    assert result.exit_code == 2 and result.stderr == "session-kit: an empty note\n"


def test_without_a_session_the_current_one_is_used():
    invoke("scratch", "set", "k", "v", env={"SESSION_CONTEXT": f"session_id={SID}"})
    assert invoke("scratch", "get", "k", "--session", SID).stdout == "v\n"


def test_without_any_session_it_is_not_found_and_says_what_to_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("scratch", "path")
    assert result.exit_code == 3
    assert result.stderr == (
        "session-kit: no session: pass --session, or run inside a Claude Code session with the kit's hooks installed\n"
    )


def test_a_session_id_that_cannot_name_a_dir_is_refused():
    result = invoke("scratch", "path", "--session", "../escape")
    assert result.exit_code == 2 and result.stderr.startswith("session-kit: not a plain session id")


def test_the_exported_scratch_dir_is_used_for_its_session():
    exported = Path(os.environ["SESSION_KIT_HOME"]) / "projects" / "-elsewhere" / "sessions" / SID
    result = invoke("scratch", "path", "--session", SID, env={"SESSION_KIT_SCRATCH": str(exported) + "/"})
    assert result.stdout == f"{exported}\n" and exported.is_dir()


def test_the_exported_scratch_dir_of_another_session_is_not_used():
    exported = Path(os.environ["SESSION_KIT_HOME"]) / "projects" / "-elsewhere" / "sessions" / "other-session"
    result = invoke("scratch", "path", "--session", SID, env={"SESSION_KIT_SCRATCH": str(exported)})
    assert result.exit_code == 0 and str(exported) not in result.stdout


def test_show_json_is_the_work_state():
    invoke("scratch", "set", "step", "three", "--session", SID)
    invoke("scratch", "note", "remember", "--session", SID)
    doc = invoke_json("scratch", "show", "--session", SID)
    assert doc["kind"] == "scratch-show" and doc["session_id"] == SID and doc["values"] == {"step": "three"}
    assert [n["text"] for n in doc["notes"]] == ["remember"] and os.path.isdir(doc["path"])


def test_show_text_lists_values_and_notes():
    invoke("scratch", "set", "step", "three", "--session", SID)
    out = invoke("scratch", "show", "--session", SID).stdout
    assert "Work state" in out and "step" in out and "three" in out


def test_list_shows_every_scratch_dir_with_its_counts():
    invoke("scratch", "set", "a", "1", "--session", SID)
    invoke("scratch", "note", "n", "--session", "other-0001", "--create")
    doc = invoke_json("scratch", "list")
    counts = {s["session_id"]: (s["values"], s["notes"]) for s in doc["sessions"]}
    assert doc["kind"] == "scratch-list" and counts == {SID: (1, 0), "other-0001": (0, 1)}
    assert doc["sessions"][0]["session_id"] == "other-0001"  # newest activity first
    assert "T" in doc["sessions"][0]["last_activity"]  # a local ISO time


def test_list_without_any_dir_says_so():
    assert invoke("scratch", "list").stdout.startswith("No scratch directories under ")


def test_clean_with_nothing_old_says_so():
    invoke("scratch", "set", "a", "1", "--session", SID)
    assert invoke("scratch", "clean", "--dry-run").stdout == "nothing to clean\n"


def test_clean_takes_durations_with_a_unit():
    invoke("scratch", "set", "a", "1", "--session", SID)
    out = invoke("scratch", "clean", "--older-than", "0s", "--dry-run").stdout
    assert out.startswith("would remove ") and SID in out


def test_clean_refuses_what_is_not_a_duration():
    result = invoke("scratch", "clean", "--older-than", "soon")
    assert result.exit_code == 2 and result.stderr == "session-kit: not a duration: 'soon' (e.g. 7d, 12h, 30m)\n"


# --- nothing lost: bytes the shell hands over, and a damaged state file -------------------------

from tests.support.cli import run  # noqa: E402 - the real process: argv and stdin as bytes


def run_bytes(*args: str | bytes, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    command = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "session_kit"]
    return subprocess.run([*command, *args], input=stdin, capture_output=True, timeout=60)


def test_a_value_argument_with_a_latin1_byte_comes_back_byte_for_byte():
    assert run_bytes("scratch", "set", "file", b"caf\xe9.txt", "--session", SID).returncode == 0
    got = run_bytes("scratch", "get", "file", "--session", SID)
    assert got.returncode == 0 and got.stdout == b"caf\xe9.txt\n"


def test_a_value_on_stdin_with_bytes_that_are_not_utf8_comes_back_byte_for_byte():
    done = run_bytes("scratch", "set", "out", "-", "--session", SID, stdin=b"line \xff\xfe\nnext\n")
    assert done.returncode == 0, done.stderr
    assert run_bytes("scratch", "get", "out", "--session", SID).stdout == b"line \xff\xfe\nnext\n\n"


def test_values_saved_before_a_non_utf8_one_survive_the_next_write():
    run_bytes("scratch", "set", "first", "kept", "--session", SID)
    run_bytes("scratch", "set", "file", b"\xe9", "--session", SID)
    run_bytes("scratch", "set", "last", "also kept", "--session", SID)
    shown = run_bytes("scratch", "show", "--session", SID)
    assert b"- first: kept" in shown.stdout and b"- last: also kept" in shown.stdout


def test_a_damaged_state_file_is_named_refused_and_kept():
    path = Path(run("scratch", "path", "--session", SID).stdout.strip()) / "state.json"
    path.write_bytes(b'{"values": {"plan": "step 3')
    for args in (("set", "k", "v"), ("note", "n"), ("show",), ("get", "plan")):
        done = run("scratch", *args, "--session", SID)
        assert done.returncode == 5, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and str(path) in done.stderr and "Traceback" not in done.stderr
    assert path.read_bytes() == b'{"values": {"plan": "step 3'


def test_a_symlinked_session_folder_is_refused_in_one_line(tmp_path: Path):
    path = Path(run("scratch", "path", "--session", SID).stdout.strip())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for p in path.iterdir():
        p.unlink()
    path.rmdir()
    path.symlink_to(elsewhere)
    done = run("scratch", "set", "k", "v", "--session", SID)
    assert done.returncode == 5 and "symlink" in done.stderr and done.stderr.count("\n") == 1
    assert list(elsewhere.iterdir()) == []


def test_list_text_says_one_value_and_one_note_in_the_singular():
    invoke("scratch", "set", "a", "1", "--session", SID)
    invoke("scratch", "note", "n", "--session", SID)
    out = invoke("scratch", "list").stdout
    assert "1 value " in out and "1 note " in out and "1 values" not in out and "1 notes" not in out


def test_scratch_alone_is_a_one_line_usage_error_naming_the_subcommands():
    result = invoke("scratch")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "scratch needs a subcommand: clean, get, list" in result.stderr
