"""What `sync` and `--team` do when the team database cannot be used: a server that is down,
a wrong password, a schema from a newer kit; one line, the documented exit code, no password
printed, nothing half-written. And where the credentials come from: the URL, `PGPASSWORD`,
`.pgpass`, the config file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from session_kit.errors import EXIT_TEAM_REFUSED, EXIT_TEAM_SCHEMA, EXIT_TEAM_UNREACHABLE
from tests.support import postgres
from tests.support.cli import EXE, invoke
from tests.support.sessions import build, make_session
from tests.team.test_sync import counts, machine, ok, root_of


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_a_wrong_password_is_refused_in_one_line_without_the_password(tmp_path, pg_server, team_db):
    env = machine(tmp_path, "laptop")
    build(root_of(env))
    wrong = "Wr0ng-Secret-Pw-7731"
    result = invoke("sync", "--to", pg_server.url(team_db, password=wrong), env=env)
    assert result.exit_code == EXIT_TEAM_REFUSED
    line = one_line(result.stderr)
    assert "refused" in line and "authentication failed" in line
    assert wrong not in result.output and wrong not in result.stderr
    assert "tables" not in pg_server.psql(team_db, "SELECT count(*) FROM pg_tables WHERE tablename = 'sessions'")
    assert pg_server.psql(team_db, "SELECT count(*) FROM pg_tables WHERE tablename = 'sessions'").strip() == "0"


def test_a_server_that_is_down_is_said_in_one_line_with_its_exit_code(tmp_path, team_db):
    env = machine(tmp_path, "laptop")
    build(root_of(env))
    down = postgres._free_port()  # nothing listens there
    secret = "Pgpass-Env-Secret-5521"
    url = f"postgresql://kit:{secret}@127.0.0.1:{down}/team"
    result = invoke("sync", "--to", url, env={**env, "PGPASSWORD": "Other-Env-Secret-9"})
    assert result.exit_code == EXIT_TEAM_UNREACHABLE
    line = one_line(result.stderr)
    assert line.startswith("session-kit: cannot reach the team database postgresql://kit:***@127.0.0.1")
    assert secret not in result.stderr and "Other-Env-Secret-9" not in result.stderr
    for command in (["sessions"], ["search", "x"], ["usage"], ["show", "abc"], ["debug-agent", "abc"]):
        read = invoke(*command, "--team", env={**env, "SESSION_KIT_TEAM_URL": url})
        assert read.exit_code == EXIT_TEAM_UNREACHABLE, (command, read.output)
        assert secret not in read.stderr


def test_a_schema_from_a_newer_kit_is_refused_and_nothing_is_written(tmp_path, pg_server, team_db):
    env = machine(tmp_path, "laptop")
    build(root_of(env))
    ok("sync", env=env)
    pg_server.psql(team_db, "UPDATE kit_meta SET value = '99' WHERE key = 'schema'")
    before = counts(pg_server, team_db)
    make_session(root_of(env), "aaaa0000-0000-0000-0000-0000000000aa", prompt="pushed by no one")
    result = invoke("sync", env=env)
    assert result.exit_code == EXIT_TEAM_SCHEMA
    assert "newer kit" in one_line(result.stderr)
    assert counts(pg_server, team_db) == before
    read = invoke("search", "pushed", "--team", env=env)
    assert read.exit_code == EXIT_TEAM_SCHEMA and "newer kit" in read.stderr


def test_the_password_can_come_from_pgpass(tmp_path, pg_server, team_db, isolated_home):
    env = machine(tmp_path, "laptop")
    build(root_of(env))
    pgpass = isolated_home / ".pgpass"
    pgpass.write_text(f"127.0.0.1:{pg_server.port}:{team_db}:{postgres.ROLE}:{postgres.PASSWORD}\n")
    pgpass.chmod(0o600)
    bare = f"postgresql://{postgres.ROLE}@127.0.0.1:{pg_server.port}/{team_db}"
    assert ok("sync", "--to", bare, env={**env, "PGPASSFILE": str(pgpass)})["files"] > 0


def test_the_password_can_come_from_pgpassword(tmp_path, pg_server, team_db):
    env = machine(tmp_path, "laptop")
    build(root_of(env))
    bare = f"postgresql://{postgres.ROLE}@127.0.0.1:{pg_server.port}/{team_db}"
    assert ok("sync", "--to", bare, env={**env, "PGPASSWORD": postgres.PASSWORD})["files"] > 0


def test_the_database_and_machine_can_come_from_the_config_file(tmp_path, pg_server, team_db, monkeypatch):
    monkeypatch.delenv("SESSION_KIT_TEAM_URL")
    env = machine(tmp_path, "laptop")
    build(root_of(env))
    state = Path(env["SESSION_KIT_HOME"])
    state.mkdir(parents=True, exist_ok=True)
    (state / "config.json").write_text(json.dumps({"team": {"url": pg_server.url(team_db), "machine": "cfgbox"}}))
    assert ok("sync", env=env)["machine"] == "cfgbox"
    assert {s["machine"] for s in ok("sessions", "--team", env=env)["sessions"]} == {"cfgbox"}


def test_without_a_database_named_anywhere_sync_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.delenv("SESSION_KIT_TEAM_URL", raising=False)
    result = invoke("sync", env=machine(tmp_path, "laptop"))
    assert result.exit_code == 2 and "SESSION_KIT_TEAM_URL" in one_line(result.stderr)


def _files_pushed(server: postgres.Server, db: str) -> int:
    try:
        return int(server.psql(db, "SELECT count(*) FROM files").strip() or 0)
    except RuntimeError:  # the first push has not made the tables yet
        return 0


def test_a_push_killed_midway_then_pushed_again_ends_complete(tmp_path, pg_server, team_db):
    env = machine(tmp_path, "laptop")
    for n in range(900):
        make_session(root_of(env), f"{n:08x}-0000-0000-0000-000000000000", prompt=f"request number {n} " * 50)
    ok("search", "request", "--all", env=env)  # the index built first: the push is what is killed
    command = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "session_kit"]
    child = subprocess.Popen([*command, "sync"], env={**os.environ, **env}, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while _files_pushed(pg_server, team_db) == 0 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait()
    partial = _files_pushed(pg_server, team_db)
    assert 0 < partial < 900, "the push was not stopped midway"
    # every file pushed so far is whole: its texts are all there
    whole = pg_server.psql(
        team_db, "SELECT count(*) FROM files f WHERE (SELECT count(*) FROM texts t WHERE t.file_id = f.id) = 0"
    )
    assert whole.strip() == "0"
    again = ok("sync", env=env)
    assert again["files"] == 900 - partial
    other = pg_server.new_database()  # the same history pushed in one go, for comparison
    ok("sync", "--to", pg_server.url(other), env=env)
    assert counts(pg_server, team_db) == counts(pg_server, other)


@pytest.mark.parametrize("command", [["sessions"], ["usage"], ["search", "x"]])
def test_team_does_not_go_with_options_only_this_machine_answers(tmp_path, team_db, command):
    extra = {"sessions": ["--lost"], "usage": ["--no-index"], "search": ["--scan"]}[command[0]]
    result = invoke(*command, "--team", *extra, env=machine(tmp_path, "laptop"))
    assert result.exit_code == 2 and "--team does not go with" in result.stderr


def test_a_password_with_an_unencoded_slash_is_a_usage_error_that_never_prints_it(tmp_path, team_db):
    env = machine(tmp_path, "laptop")
    build(root_of(env))
    for url in ("postgresql://kit:pa/ss-Zq9w@127.0.0.1:1/team", "postgresql://kit:pa@ss-Zq9w@127.0.0.1:1/team"):
        for args in (("sync", "--to", url), ("sessions", "--team")):
            result = invoke(*args, env={**env, "SESSION_KIT_TEAM_URL": url})
            assert result.exit_code == 2, result.output
            line = one_line(result.stderr)
            assert "postgresql://USER:PASSWORD@HOST[:PORT]/DATABASE" in line and "%2F" in line
            assert "ss-Zq9w" not in result.output + result.stderr
