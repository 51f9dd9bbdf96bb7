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
