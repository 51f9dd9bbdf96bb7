"""`archive` and `restore`, and every command reading a session the client deleted."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

from tests.support.cli import invoke, invoke_json
from tests.support.sessions import Built


def _delete_as_the_client_does(root: Path, sid: str) -> None:
    project = root / "projects" / "-work-proj"
    (project / f"{sid}.jsonl").unlink()
    shutil.rmtree(project / sid, ignore_errors=True)


def test_archive_reports_what_it_copied_and_again_nothing(built: Built):
    first = invoke_json("archive")
    assert first["kind"] == "archive" and first["files"] >= 5 and first["bytes"] > 0 and first["errors"] == []
    again = invoke_json("archive")
    assert (again["files"], again["bytes"]) == (0, 0)


def test_commands_read_a_deleted_session_from_the_archive_and_say_so(built: Built):
    sid = built.current.session_id
    before = invoke_json("show", sid)
    assert invoke("archive").exit_code == 0
    _delete_as_the_client_does(built.root, sid)
    result = invoke("show", sid[:8])
    assert result.exit_code == 0, result.output
    assert "read from the kit's archive" in result.stderr and "Please build the feature" in result.stdout
    after = invoke_json("show", sid)
    assert after["tool_calls"] == before["tool_calls"]

    def unplaced(agents: list[dict]) -> list[dict]:  # the logs are read from the kit's copy
        return [{k: v for k, v in a.items() if k != "path"} for a in agents]

    assert unplaced(after["agents"]) == unplaced(before["agents"])
    agents = invoke("debug-agent", sid)
    assert agents.exit_code == 0 and "SENTINEL_FAILURE" in agents.stdout
    events = invoke_json("events", sid, "--errors")
    assert any("SENTINEL_FAILURE" in (c.get("error") or "") for c in events["events"])
    assert invoke("plan", sid).exit_code == 0
    assert invoke("preprocess", sid, "--stdout").exit_code == 0


def test_restore_puts_the_session_back_where_resume_finds_it(built: Built):
    sid = built.current.session_id
    transcript = built.root / "projects" / "-work-proj" / f"{sid}.jsonl"
    original = transcript.read_bytes()
    old = time.time() - 90 * 86400
    os.utime(transcript, (old, old))
    invoke("archive")
    _delete_as_the_client_does(built.root, sid)
    result = invoke("restore", sid)
    assert result.exit_code == 0, result.output
    assert transcript.read_bytes() == original
    assert time.time() - transcript.stat().st_mtime < 600, "restored files are new to the client's clean-up"
    assert f"cd /work/proj && claude --resume {sid}" in result.stdout
    agent = built.root / "projects" / "-work-proj" / sid / "subagents" / f"agent-{built.worker_agent}.jsonl"
    assert agent.is_file()
    again = json.loads(invoke("restore", sid, "--json").stdout)
    assert again["written"] == [] and len(again["kept"]) >= 3


def test_restore_of_a_session_never_archived_is_not_found(built: Built):
    result = invoke("restore", "ffffffff")
    assert result.exit_code == 3 and "no archived session" in result.stderr
    assert invoke("restore", "../x").exit_code == 2


def _doctor() -> dict:
    return json.loads(invoke("doctor", "--json").stdout)["archive"]  # exit 1: the kit is not installed here


def test_doctor_shows_the_cleanup_period_and_what_is_not_archived(built: Built):
    (built.root / "settings.json").write_text('{"cleanupPeriodDays": 10}')
    old = time.time() - 9 * 86400
    for path in (built.root / "projects").rglob("*.jsonl"):
        os.utime(path, (old, old))
    report = _doctor()
    assert report["cleanup_period_days"] == 10 and report["not_archived_files"] >= 5
    assert report["aging_out_unarchived"] >= 5
    text = invoke("doctor").stdout
    assert "WARNING" in text and "after 10 days" in text
    invoke("archive")
    report = _doctor()
    assert report["not_archived_files"] == 0 and report["aging_out_unarchived"] == 0 and report["bytes"] > 0


def test_search_hands_off_to_resume_and_filters(built: Built):
    sid = built.current.session_id
    doc = invoke_json("search", "SENTINEL_failure", "--all")
    [hit] = doc["hits"]
    assert doc["mode"] == "index" and hit["resume"] == f"cd /work/proj && claude --resume {sid}"
    text = invoke("search", "SENTINEL_failure", "--all").stdout
    assert f"resume: cd /work/proj && claude --resume {sid}" in text
    assert invoke_json("search", "SENTINEL", "--all", "--errors")["total"] == 1
    assert invoke_json("search", "build", "--all", "--errors")["total"] == 0
    assert invoke_json("search", "SENTINEL", "--all", "--agent", "general")["total"] == 0
    assert invoke_json("search", "SENTINEL", "--all", "--agent", "general-purpose")["total"] == 1
    assert invoke_json("search", "SENTINEL", "--all", "--agent", built.worker_agent[:6])["total"] == 1
    assert invoke_json("search", "SENTINEL", "--all", "--since", "2099-01-01")["total"] == 0
    assert invoke_json("search", "SENTINEL", "--all", "--until", "2099-01-01")["total"] == 1
    bad = invoke("search", "x", "--all", "--since", "yesterday")
    assert bad.exit_code == 2 and "not a date" in bad.stderr


def test_search_scan_keeps_the_exact_substring_search(built: Built):
    doc = invoke_json("search", "ENTINEL_FAIL", "--all", "--scan")
    assert "mode" not in doc and len(doc["hits"]) == 1
    assert invoke_json("search", "ENTINEL_FAIL", "--all")["total"] == 0  # the index holds words
    assert invoke("search", "x", "--all", "--scan", "--errors").exit_code == 2


def test_search_finds_a_session_the_client_deleted_and_offers_no_restore_the_archive_cannot_do(built: Built):
    sid = built.current.session_id
    invoke("search", "anything", "--all")  # indexed while it was there, never archived
    _delete_as_the_client_does(built.root, sid)
    [hit] = invoke_json("search", "Please build", "--all")["hits"]
    assert hit["archived"] and hit["resume"] is None  # `restore` would exit 3: nothing to put back
    assert invoke("restore", sid).exit_code == 3
    assert "resume: not possible" in invoke("search", "Please build", "--all").stdout


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
    assert result.exit_code == 2 and "claude-session-kit[parquet]" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_search_finds_an_archived_session_deleted_before_it_was_ever_indexed(built: Built):
    sid = built.current.session_id
    invoke("archive")
    _delete_as_the_client_does(built.root, sid)
    doc = invoke_json("search", "SENTINEL_failure", "--all")
    [hit] = doc["hits"]
    assert (hit["session_id"], hit["agent_id"]) == (sid, built.worker_agent)
    assert hit["archived"] and hit["resume"].startswith(f"session-kit restore {sid} && cd /work/proj && ")
    assert invoke_json("search", "SENTINEL_failure", "--all")["updated_files"] == 0  # once is enough


def test_prune_drops_only_old_archived_sessions_the_client_no_longer_has(built: Built):
    from session_kit.archive import layout, store

    invoke("archive")
    gone, kept = built.current.session_id, built.legacy.session_id
    _delete_as_the_client_does(built.root, gone)
    state = os.environ["SESSION_KIT_HOME"]
    base = layout.base_dir(state, str(built.root))
    for path in Path(layout.files_dir(base)).rglob("*.gz.json"):  # archived 400 days ago
        manifest = json.loads(path.read_text())
        path.write_text(json.dumps({**manifest, "archived": time.time() - 400 * 86400}))
    assert invoke_json("archive", "--prune")["pruned"] == 0  # no retention set: keep forever
    Path(state, "config.json").write_text(json.dumps({"archive": {"keep_days": 365}}))
    assert invoke_json("archive", "--prune")["pruned"] == 1
    sessions = store.archived_sessions(base)
    assert gone not in sessions and kept in sessions
    assert invoke("restore", gone).exit_code == 3


def test_each_claude_root_has_its_own_index(built: Built, tmp_path: Path):
    other = tmp_path / "other-root"
    from tests.support.sessions import make_session

    make_session(other, "0e0e0000-0000-4000-8000-000000000001", prompt="only in the other root")
    assert invoke_json("search", "only in the other", "--all", "--claude-dir", str(other))["total"] == 1
    assert invoke_json("search", "only in the other", "--all")["total"] == 0
    assert invoke_json("search", "Please build", "--all", "--claude-dir", str(other))["total"] == 0
