"""How a run ends when something fails: one line on stderr, the exit code, never a traceback.

The exit codes, a closed pipe and garbage input go through the real entry point (a
subprocess); bugs and Ctrl-C are simulated in process.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from session_kit import api
from session_kit.cli.errors import FLAGS, worded
from session_kit.errors import InvalidOptions, NoScratchDir, NoSessionsHere
from tests.support.cli import EXE, invoke, run
from tests.support.transcripts import Transcript


def test_an_ambiguous_prefix_exits_4_naming_the_candidates_in_one_line(built, claude_root: Path):
    t = Transcript("c0ffee00-9999-0000-0000-000000000000")
    t.user("x")
    t.write_session(claude_root)
    amb = run("show", "c0ffee00")
    assert amb.returncode == 4
    assert amb.stderr.count("\n") == 1 and "c0ffee00-1111" in amb.stderr and "c0ffee00-9999" in amb.stderr


def test_an_unknown_session_exits_3_in_one_line(built):
    nf = run("show", "deadbeef")
    assert nf.returncode == 3 and nf.stderr.startswith("session-kit: no session matches")
    assert nf.stderr.count("\n") == 1


def test_a_bad_option_value_exits_2(built):
    assert run("sessions", "--limit", "0").returncode == 2


def test_garbage_input_never_gives_a_traceback(claude_root: Path, tmp_path: Path):
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\xff not json\n{\n" + b"[" * 5000 + b"\n")
    for args in (("show", str(garbage)), ("events", str(garbage)), ("show", str(tmp_path / "missing.jsonl"))):
        proc = run(*args)
        assert "Traceback" not in proc.stderr
        assert proc.returncode in (0, 3)


def test_a_reader_that_left_is_no_error(built):
    # `session-kit sessions | head`, with the reader gone before the first write.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [str(EXE), "sessions", "--all"], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 0 and proc.stderr == ""


def test_a_bug_is_one_line_without_a_traceback(built, monkeypatch: pytest.MonkeyPatch):
    def broken(*_args, **_kw):
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "session_report", broken)
    result = invoke("show", built.current.session_id)
    assert result.exit_code == 1
    assert (
        result.stderr == "session-kit: internal error: RuntimeError: boom (set SESSION_KIT_DEBUG=1 for a traceback)\n"
    )


def test_a_bug_raises_with_session_kit_debug(built, monkeypatch: pytest.MonkeyPatch):
    def broken(*_args, **_kw):
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "session_report", broken)
    result = invoke("show", built.current.session_id, env={"SESSION_KIT_DEBUG": "1"})
    assert isinstance(result.exception, RuntimeError)


def test_ctrl_c_exits_130_in_one_line(built, monkeypatch: pytest.MonkeyPatch):
    def interrupted(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "session_report", interrupted)
    result = invoke("show", built.current.session_id)
    assert result.exit_code == 130 and result.stderr == "session-kit: interrupted\n"


def test_options_in_a_core_error_are_worded_as_flags():
    error = InvalidOptions("{} and {} do not go together", ["to_stdout", "max_tokens"])
    assert worded(error) == "--stdout and --max-tokens do not go together"
    assert set(FLAGS) >= {"to_stdout", "max_tokens"}


def test_no_sessions_here_suggests_all():
    assert worded(NoSessionsHere("/w", "/root")).endswith("(try --all)")


def test_no_scratch_dir_suggests_output_dir():
    assert worded(NoScratchDir("x/y", "not a plain id")).endswith("; give --output-dir")


def test_no_usable_home_is_one_line_and_a_usage_error(monkeypatch):
    import pwd

    class NoHome:
        pw_dir = ""

    monkeypatch.delenv("SESSION_KIT_HOME")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: NoHome())
    result = invoke("scratch", "path", "--session", "s1", env={"HOME": ""})
    assert result.exit_code == 2 and "SESSION_KIT_HOME" in result.stderr and result.stderr.count("\n") == 1


def test_a_usage_error_is_one_line_in_the_kits_style_with_where_to_look():
    result = invoke("sessions", "--limit", "0")
    assert result.exit_code == 2
    assert result.stderr.startswith("session-kit: Invalid value for '--limit'")
    assert result.stderr.endswith("(see `session-kit sessions --help`)\n") and result.stderr.count("\n") == 1


def test_an_unknown_option_is_one_line_in_the_kits_style():
    result = invoke("show", "--nosuch")
    assert (
        result.exit_code == 2
        and result.stderr == "session-kit: No such option '--nosuch' (see `session-kit show --help`)\n"
    )


def test_the_real_entry_point_exits_2_on_a_usage_error():
    proc = run("sessions", "--since", "not-a-date")
    assert proc.returncode == 2 and proc.stderr.startswith("session-kit: Invalid value for '--since'")
