"""`archive --verify` after kill -9 at any point: during an append, during compression, during
a generation switch. Real processes, killed at times spread over a run as long as theirs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from session_kit.archive import generations, layout

SID = "7c7c0000-1111-4222-8333-444455556666"
LINES = 3000  # ~6 MB of lines that compress poorly: a run takes long enough to be cut


def _lines(tag: str, n: int = LINES) -> bytes:
    out = []
    for _ in range(n):
        entry = {
            "type": "user",
            "uuid": str(uuid.uuid4()),
            "sessionId": SID,
            "message": {"role": "user", "content": tag + os.urandom(1000).hex()},
        }
        out.append(json.dumps(entry).encode() + b"\n")
    return b"".join(out)


def _kit(*args: str, state: Path) -> list[str]:
    return [sys.executable, "-m", "session_kit", *args]


def _env(state: Path) -> dict[str, str]:
    return {**os.environ, "SESSION_KIT_HOME": str(state)}


def _archive(root: Path, state: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        _kit("archive", "--claude-dir", str(root), *extra, state=state),
        env=_env(state),
        capture_output=True,
        timeout=300,
    )


def _run_time(root: Path, scratch: Path) -> float:
    """How long one archive run of what is on disk takes, into a throw-away state root."""
    started = time.monotonic()
    assert _archive(root, scratch).returncode == 0
    return time.monotonic() - started


def _kill_at(root: Path, state: Path, delay: float) -> int | None:
    proc = subprocess.Popen(
        _kit("archive", "--claude-dir", str(root), state=state),
        env=_env(state),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(delay)
    proc.kill()  # SIGKILL, this process only
    return proc.wait(timeout=60)


def _partial(base: str, rel: str) -> bool:
    """A killed run left bytes the manifest does not count (a member cut mid-way or a new
    generation not yet named)."""
    entry = layout.archived(base, rel)
    if entry is None:
        return False
    newest = entry.generations[-1]
    if os.path.getsize(newest.member) != newest.gz_size:
        return True
    return os.path.exists(layout.member_path(base, rel, newest.number + 1))


def _kills(root: Path, state: Path, scratch: Path, base: str, rel: str) -> int:
    """Kill runs at 10 points over a run's length; how many were cut mid-copy."""
    full = _run_time(root, scratch)
    cut = 0
    for step in range(10):
        _kill_at(root, state, full * (0.25 + 0.08 * step))
        cut += _partial(base, rel)
    return cut


def test_kills_during_append_and_compression_lose_nothing(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "-work-proj" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(_lines("first"))
    state = tmp_path / "state"
    assert _archive(claude_root, state).returncode == 0
    with path.open("ab") as f:
        f.write(_lines("more"))
    rel = f"projects/-work-proj/{SID}.jsonl"
    base = layout.base_dir(str(state), str(claude_root))
    cut = _kills(claude_root, state, tmp_path / "scratch", base, rel)
    verified = _archive(claude_root, state, "--verify")
    assert verified.returncode == 0, verified.stderr
    assert generations.read_original(base, rel) == path.read_bytes()
    assert len(layout.archived(base, rel).generations) == 1
    assert cut >= 1, "no kill landed mid-copy: the test proved nothing"


def test_kills_during_a_generation_switch_keep_the_earlier_generation_whole(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "-work-proj" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    before = _lines("before")
    path.write_bytes(before)
    state = tmp_path / "state"
    assert _archive(claude_root, state).returncode == 0
    after = _lines("after")
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(after)
    tmp.replace(path)  # rewritten: nothing of the old file is left in it
    rel = f"projects/-work-proj/{SID}.jsonl"
    base = layout.base_dir(str(state), str(claude_root))
    cut = _kills(claude_root, state, tmp_path / "scratch", base, rel)
    verified = _archive(claude_root, state, "--verify")
    assert verified.returncode == 0, verified.stderr
    entry = layout.archived(base, rel)
    assert [g.number for g in entry.generations] == [0, 1]
    assert generations.read_original(base, rel, entry.generations[0]) == before
    assert generations.read_original(base, rel, entry.generations[1]) == after
    assert cut >= 1, "no kill landed mid-switch: the test proved nothing"


def test_verify_fails_when_an_archived_byte_is_missing(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "-work-proj" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(_lines("x", 50))
    state = tmp_path / "state"
    assert _archive(claude_root, state, "--verify").returncode == 0
    base = layout.base_dir(str(state), str(claude_root))
    member = layout.member_path(base, f"projects/-work-proj/{SID}.jsonl")
    data = bytearray(Path(member).read_bytes())
    data[len(data) // 2] ^= 0xFF
    Path(member).write_bytes(bytes(data))
    damaged = _archive(claude_root, state, "--verify")
    assert damaged.returncode == 9 and b"generation 0" in damaged.stderr
