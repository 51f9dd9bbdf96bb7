"""A capture after the transcript grew parses only the lines appended since the last one, as
the hooks run it (the memory saved in its file, read back, and the same file appended to)."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.memory.capture import capture_session
from session_kit.memory.fold import Fold
from session_kit.memory.settings import MemorySettings
from tests.support.transcripts import Transcript


def test_a_capture_after_an_append_parses_only_the_appended_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    t = Transcript()
    t.user("Fix the parser")
    for n in range(50):
        t.bash(f"pytest tests/test_{n}.py", f"{n} passed")
    path = t.write(tmp_path / "s.jsonl")
    scratch = str(tmp_path / "scratch")
    first = capture_session(scratch, str(path), MemorySettings())
    before = path.stat().st_size
    t.lines.clear()
    t.user("Now also handle commas")
    t.bash("pytest tests/test_commas.py", exit_code=1, stderr="1 failed")
    with path.open("a") as f:
        f.write(t.text())
    fed: list[bytes] = []
    feed = Fold.feed
    monkeypatch.setattr(Fold, "feed", lambda self, raw: (fed.append(raw), feed(self, raw))[1])
    memory = capture_session(scratch, str(path), MemorySettings())
    assert len(fed) == len(t.lines) == memory["lines"] - first["lines"]
    assert sum(len(raw) for raw in fed) <= path.stat().st_size - before
    assert memory["requests"]["recent"][-1]["text"] == "Now also handle commas"
    assert [f["command"] for f in memory["failures"]] == ["pytest tests/test_commas.py"]
