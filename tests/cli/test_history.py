"""Every command reading a session the client deleted (from the archive, and said so), and each
Claude root with its own archive and index (`archive` and `restore` themselves: their own modules)."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import invoke, invoke_json
from tests.support.sessions import Built, delete_as_the_client_does


def test_commands_read_a_deleted_session_from_the_archive_and_say_so(built: Built):
    sid = built.current.session_id
    before = invoke_json("show", sid)
    assert invoke("archive").exit_code == 0
    delete_as_the_client_does(built.root, sid)
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


def test_each_claude_root_has_its_own_index(built: Built, tmp_path: Path):
    other = tmp_path / "other-root"
    from tests.support.sessions import make_session

    make_session(other, "0e0e0000-0000-4000-8000-000000000001", prompt="only in the other root")
    assert invoke_json("search", "only in the other", "--all", "--claude-dir", str(other))["total"] == 1
    assert invoke_json("search", "only in the other", "--all")["total"] == 0
    assert invoke_json("search", "Please build", "--all", "--claude-dir", str(other))["total"] == 0
