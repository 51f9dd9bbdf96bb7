"""`session-kit info`, in process, on hand-made and real files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import invoke, invoke_json

REAL = Path(__file__).parents[1] / "fixtures" / "real"


def test_info_text_is_the_sessions_card_with_its_work_state(planned):
    sid = planned.alpha.session_id
    assert invoke("scratch", "set", "step", "three", "--session", sid).exit_code == 0
    assert invoke("scratch", "note", "remember", "--session", sid).exit_code == 0
    text = invoke("info", sid).stdout
    assert f"Session {sid}" in text and "agents:      4, 3 failed" in text
    assert "work state:  keys: step; 1 note" in text and "plans:       4" in text


def test_info_json_shape(planned):
    sid = planned.alpha.session_id
    assert invoke("scratch", "set", "step", "three", "--session", sid).exit_code == 0
    assert invoke("scratch", "note", "remember", "--session", sid).exit_code == 0
    doc = invoke_json("info", sid)
    assert doc["kind"] == "info" and doc["id"] == sid and doc["project"] == "-work-multi"
    assert doc["failed_agents"] == 3 and len(doc["agents"]) == 4 and doc["plans"] == 4
    assert doc["latest_plan"]["source"] == "plan_file"
    ws = doc["work_state"]
    assert ws["exists"] and ws["keys"] == ["step"] and ws["notes"] == 1 and Path(ws["path"]).is_dir()
    assert doc["compactions"] == [] and doc["path"].endswith(f"{sid}.jsonl")


def test_info_on_real_client_files():
    info = invoke_json("info", "266f", "--claude-dir", str(REAL))
    assert len(info["compactions"]) == 1 and info["failed_agents"] == 1 and info["plans"] == 2
    assert json.dumps(info)  # whole and serialisable


def test_info_shows_each_compaction_with_the_clients_summary():
    text = invoke("info", "266f", "--claude-dir", str(REAL)).stdout
    assert "summary: SCENARIO-SUMMARY: the session ran Bash (one call failed)" in text
    assert "If you need specific details" not in text  # the client's framing is left out
