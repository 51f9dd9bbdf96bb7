"""Work handed to a detached child: it runs, and behind the process that handed it over."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from session_kit.base.detach import in_child

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: the work runs in the caller")


def wait_for(path: Path, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            text = path.read_text()
        except FileNotFoundError:
            text = ""
        if text.endswith("\n"):
            return text
        time.sleep(0.01)
    raise AssertionError(f"the child never wrote {path}")


def reaped(text: str) -> str:
    """`text` ("<child pid> <value>"): its value, once the child is reaped (a hook's children
    outlive it; this test process must not keep them as zombies)."""
    pid, _, value = text.strip().partition(" ")
    os.waitpid(int(pid), 0)
    return value


def test_the_work_runs_in_a_child_and_the_caller_goes_on_at_once(tmp_path: Path):
    out = tmp_path / "out"
    handed_over = in_child(lambda: out.write_text(f"{os.getpid()} {os.getpid()}\n"), log=print, what="test")
    assert handed_over is True
    assert int(reaped(wait_for(out))) != os.getpid()


def test_a_child_nobody_waits_for_can_run_at_a_lower_priority(tmp_path: Path):
    """Two busy cores: a child at the hook's own priority slowed the hook's exit by ~10 ms."""
    out = tmp_path / "nice"
    in_child(lambda: out.write_text(f"{os.getpid()} {os.nice(0)}\n"), log=print, what="test", niceness=5)
    assert int(reaped(wait_for(out))) == min(19, os.nice(0) + 5)


def test_by_default_the_child_keeps_the_priority_of_the_hook(tmp_path: Path):
    """A capture is waited for by the start after the compaction: it must not be starved."""
    out = tmp_path / "nice"
    in_child(lambda: out.write_text(f"{os.getpid()} {os.nice(0)}\n"), log=print, what="test")
    assert int(reaped(wait_for(out))) == os.nice(0)


def test_the_archives_copy_runs_behind_the_hook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from session_kit.archive import background

    seen: dict[str, object] = {}
    monkeypatch.setattr(background, "in_child", lambda work, **kw: seen.update(kw) or True)
    transcript = tmp_path / "claude" / "projects" / "-p" / "s.jsonl"
    assert background.archive_in_background(str(tmp_path / "state"), str(transcript), log=print)
    assert seen["niceness"] == 10


def test_a_failing_work_is_logged_by_the_child_and_never_reaches_the_caller(tmp_path: Path):
    log = tmp_path / "log"

    def fail() -> None:
        raise RuntimeError("boom")

    line = lambda text: log.write_text(f"{os.getpid()} {text}\n")  # noqa: E731
    assert in_child(fail, log=line, what="the test work") is True
    assert reaped(wait_for(log)) == "the test work in the background failed: RuntimeError: boom"
