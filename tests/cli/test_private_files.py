"""Every file the kit writes with transcript text is private (0600) whatever the umask:
`export`, `view -o`, `preprocess --output-dir`."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sessions import Built, build

EXE = Path(sys.executable).with_name("session-kit")


@pytest.fixture
def built(claude_root: Path) -> Built:
    return build(claude_root)


def run_with_umask(*args: str, cwd: Path) -> None:
    command = " ".join(f"'{a}'" for a in (str(EXE), *args))
    proc = subprocess.run(["sh", "-c", f"umask 022 && exec {command}"], capture_output=True, text=True, cwd=cwd)
    assert proc.returncode == 0, proc.stderr


def modes(folder: Path) -> set[int]:
    return {stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*") if p.is_file()}


def test_export_writes_private_files(built: Built, tmp_path: Path):
    run_with_umask("export", "--output-dir", str(tmp_path / "out"), cwd=tmp_path)
    assert modes(tmp_path / "out") == {0o600}


def test_view_writes_a_private_page(built: Built, tmp_path: Path):
    for fmt in ("html", "md"):
        page = tmp_path / f"page.{fmt}"
        run_with_umask("view", built.current.session_id, "--format", fmt, "-o", str(page), cwd=tmp_path)
        assert stat.S_IMODE(page.stat().st_mode) == 0o600


def test_preprocess_writes_private_files(built: Built, tmp_path: Path):
    run_with_umask("preprocess", built.current.session_id, "--output-dir", str(tmp_path / "pre"), cwd=tmp_path)
    assert modes(tmp_path / "pre") == {0o600}


DEAD = 2**22 + 12345  # above the default pid_max: no process has it


def test_temp_files_a_killed_export_view_or_preprocess_left_are_swept_by_the_next_run(built: Built, tmp_path: Path):
    out, pre = tmp_path / "out", tmp_path / "pre"
    out.mkdir()
    pre.mkdir()
    run_with_umask("preprocess", built.current.session_id, "--output-dir", str(pre), cwd=tmp_path)
    part = sorted(p for p in pre.iterdir() if not p.name.startswith("."))[0]
    leftovers = [
        out / f".texts.jsonl.{DEAD}.1.tmp",
        tmp_path / f".page.html.{DEAD}.2.tmp",
        pre / f".{part.name}.{DEAD}.3.tmp",
    ]
    mine = [out / ".notes.tmp", tmp_path / f".other.html.{DEAD}.4.tmp"]  # not the kit's: kept
    for p in leftovers + mine:
        p.write_text("half")
    run_with_umask("export", "--output-dir", str(out), cwd=tmp_path)
    run_with_umask("view", built.current.session_id, "-o", str(tmp_path / "page.html"), cwd=tmp_path)
    run_with_umask("preprocess", built.current.session_id, "--output-dir", str(pre), cwd=tmp_path)
    assert [p for p in leftovers if p.exists()] == [] and all(p.exists() for p in mine)
