"""`session-kit export`: the index's tables written out."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.support.cli import invoke, invoke_json
from tests.support.sessions import Built


def test_export_writes_the_tables_as_json_lines(built: Built, tmp_path: Path):
    out = tmp_path / "export"
    doc = invoke_json("export", "--output-dir", str(out), "--source", "ci-7")
    assert set(doc["rows"]) == {"sessions", "texts", "calls", "agents"} and doc["rows"]["sessions"] == 2
    rows = [json.loads(line) for line in (out / "calls.jsonl").read_text().splitlines()]
    assert len(rows) == doc["rows"]["calls"] and all(r["source"] == "ci-7" for r in rows)
    assert any(r["tool"] == "Bash" and r["exit_code"] == 3 and r["status"] == "error" for r in rows)
    sessions = {r["id"]: r for r in map(json.loads, (out / "sessions.jsonl").read_text().splitlines())}
    assert sessions[built.current.session_id]["agents"] == 2


def test_export_as_parquet_without_the_extra_says_what_to_install(built: Built, tmp_path: Path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as where the extra is not installed
    result = invoke("export", "--output-dir", str(tmp_path / "p"), "--format", "parquet")
    # the command that works for the interpreter running: its own pip (no install.sh route here)
    assert result.exit_code == 2 and f"{sys.executable} -m pip install 'pyarrow>=14'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
