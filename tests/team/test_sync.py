"""`session-kit sync` and `--team` against a real PostgreSQL server: two machines (two Claude
roots, two state dirs) and a CI run push into one database; the team's search, sessions and
usage answer across them, naming the machine; pushing again adds nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support import postgres
from tests.support.cli import invoke
from tests.support.sessions import build, build_leaky, make_session


def machine(tmp_path: Path, name: str) -> dict[str, str]:
    """A machine's environment: its own Claude root and its own kit state."""
    root = tmp_path / name / ".claude"
    (root / "projects").mkdir(parents=True)
    return {"CLAUDE_CONFIG_DIR": str(root), "SESSION_KIT_HOME": str(tmp_path / name / "state")}


def root_of(env: dict[str, str]) -> Path:
    return Path(env["CLAUDE_CONFIG_DIR"])


def ok(*args: str, env: dict[str, str] | None = None) -> dict:
    result = invoke(*args, "--json", env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def counts(server: postgres.Server, db: str) -> dict[str, int]:
    tables = ("sessions", "files", "texts", "calls", "messages", "agent_results", "agents")
    query = " UNION ALL ".join(f"SELECT '{t}', count(*) FROM {t}" for t in tables)
    return {line.split("|")[0]: int(line.split("|")[1]) for line in server.psql(db, query).split()}


@pytest.fixture
def two_machines(tmp_path: Path, team_db: str) -> tuple[dict[str, str], dict[str, str]]:
    """`laptop` holds the rich session (agents, a failure), `devbox` the leaky one and a short one."""
    laptop, devbox = machine(tmp_path, "laptop"), machine(tmp_path, "devbox")
    build(root_of(laptop))
    build_leaky(root_of(devbox))
    make_session(root_of(devbox), "dddd0000-0000-0000-0000-00000000d0d0", prompt="refactor the zanzibar module")
    ok("sync", "--machine", "laptop", env=laptop)
    ok("sync", "--machine", "devbox", env=devbox)
    return laptop, devbox


def test_two_machines_push_into_one_database_and_the_team_lists_both(two_machines):
    laptop, _devbox = two_machines
    listed = ok("sessions", "--team", env=laptop)["sessions"]
    by_id = {s["id"]: s for s in listed}
    assert by_id["c0ffee00-1111-2222-3333-444455556666"]["machine"] == "laptop"
    assert by_id["dddd0000-0000-0000-0000-00000000d0d0"]["machine"] == "devbox"
    assert by_id["dddd0000-0000-0000-0000-00000000d0d0"]["origin"] == "machine:devbox"
    assert {s["user"] for s in listed} == {"alice"}
    assert len(listed) == 4  # laptop: the current-layout and the 2025 session; devbox: two


def test_search_team_finds_each_machines_text_and_names_the_machine(two_machines):
    laptop, devbox = two_machines
    found = ok("search", "SENTINEL_fail", "--team", env=devbox)  # laptop's text, asked on devbox
    assert found["mode"] == "team" and found["total"] >= 1
    assert {h["machine"] for h in found["hits"]} == {"laptop"}
    assert any("SENTINEL_FAILURE" in h["snippet"] for h in found["hits"])
    other = ok("search", "zanzibar", "--team", env=laptop)
    assert [h["machine"] for h in other["hits"]] == ["devbox"]
    assert ok("search", "refactor the zanz", "--team", env=laptop)["total"] == 1  # words in order, last a prefix
    assert ok("search", "zanzibar refactor", "--team", env=laptop)["total"] == 0


def test_search_team_text_output_names_the_machine(two_machines):
    laptop, _devbox = two_machines
    result = invoke("search", "zanzibar", "--team", env=laptop)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("devbox  dddd0000-0000-0000-0000-00000000d0d0:")


def test_search_team_uses_the_gin_index_not_a_scan(two_machines, pg_server, team_db):
    plan = pg_server.psql(
        team_db,
        "SET enable_seqscan = off; EXPLAIN SELECT 1 FROM texts WHERE tsv @@ to_tsquery('simple', 'zanzibar:*')",
    )
    assert "texts_tsv" in plan


def test_usage_by_machine_equals_each_machines_own_usage(two_machines):
    laptop, devbox = two_machines
    team = {row["key"]: row for row in ok("usage", "--team", "--by", "machine", env=laptop)["rows"]}
    assert set(team) == {"laptop", "devbox"}
    for name, env in (("laptop", laptop), ("devbox", devbox)):
        own = ok("usage", "--by", "model", env=env)["total"]
        assert team[name]["tokens"] == own["tokens"]
        assert team[name]["cost"] == own["cost"]
        assert team[name]["sessions"] == own["sessions"]
    by_user = ok("usage", "--team", "--by", "user", env=laptop)["rows"]
    assert [r["key"] for r in by_user] == ["alice"]


def test_usage_team_by_day_adds_up_both_machines(two_machines):
    laptop, devbox = two_machines
    team = ok("usage", "--team", env=laptop)["total"]["tokens"]
    mine, theirs = ok("usage", env=laptop)["total"]["tokens"], ok("usage", env=devbox)["total"]["tokens"]
    assert team["input"] == mine["input"] + theirs["input"] > 0
    assert team["messages"] == mine["messages"] + theirs["messages"]


def test_by_machine_needs_team(tmp_path):
    env = machine(tmp_path, "solo")
    result = invoke("usage", "--by", "machine", env=env)
    assert result.exit_code == 2 and "--team" in result.stderr


def test_pushing_again_adds_no_rows(two_machines, pg_server, team_db):
    laptop, devbox = two_machines
    before = counts(pg_server, team_db)
    assert before["texts"] > 0 and before["messages"] > 0 and before["calls"] > 0
    again = ok("sync", "--machine", "laptop", env=laptop)
    assert again["files"] == 0 and again["rows"] == 0 and again["unchanged"] > 0
    ok("sync", "--machine", "devbox", env=devbox)
    assert counts(pg_server, team_db) == before


def test_a_session_that_grew_is_pushed_again_whole_and_only_it(two_machines, pg_server, team_db):
    _laptop, devbox = two_machines
    t = make_session(root_of(devbox), "eeee0000-0000-0000-0000-00000000e0e0", prompt="first words")
    ok("sync", "--machine", "devbox", env=devbox)
    t.user("second request about quokkas")
    t.say("done")
    t.write_session(root_of(devbox))
    pushed = ok("sync", "--machine", "devbox", env=devbox)
    assert pushed["files"] == 1
    assert ok("search", "quokkas", "--team", env=devbox)["total"] == 1
    assert ok("search", "first words", "--team", env=devbox)["total"] == 1  # not twice


def test_no_planted_secret_appears_in_a_dump_of_the_team_database(two_machines, pg_server, team_db):
    from tests.support import sessions

    dump = pg_server.dump(team_db)
    assert "zanzibar" in dump  # the dump holds the pushed text
    planted = [
        sessions.ANTHROPIC_KEY,
        sessions.AWS_SECRET,
        sessions.PG_PASSWORD,
        sessions.GITHUB_TOKEN,
        sessions.STRIPE_KEY,
        sessions.PROMPT_PASSWORD,
        sessions.AGENT_TOKEN,
    ]
    assert [s for s in planted if s in dump] == []


def test_ci_transcripts_pushed_from_a_folder_appear_with_their_origin(tmp_path, team_db, pg_server):
    artifact = tmp_path / "artifact"
    build(artifact)  # a Claude root, as a CI run uploads it
    laptop = machine(tmp_path, "laptop")
    pushed = ok("sync", "--from", str(artifact), "--origin", "ci:acme/app#42", env=laptop)
    assert pushed["origin"] == "ci:acme/app#42" and pushed["files"] > 0
    listed = {s["id"]: s for s in ok("sessions", "--team", env=laptop)["sessions"]}
    ci = listed["c0ffee00-1111-2222-3333-444455556666"]
    assert ci["origin"] == "ci:acme/app#42" and ci["machine"] == "ci:acme/app#42"
    before = counts(pg_server, team_db)
    # the same artifact downloaded again elsewhere, as one project's folder: nothing new
    again = tmp_path / "download2" / "proj"
    shutil.copytree(artifact / "projects", again.parent / "projects")
    assert ok("sync", "--from", str(again.parent / "projects"), "--origin", "ci:acme/app#42", env=laptop)["files"] == 0
    assert counts(pg_server, team_db) == before
    hits = ok("search", "SENTINEL_FAILURE", "--team", env=laptop)["hits"]
    assert {h["origin"] for h in hits} == {"ci:acme/app#42"}


def test_from_needs_origin_and_an_origin_needs_its_kind(tmp_path, team_db):
    env = machine(tmp_path, "laptop")
    result = invoke("sync", "--from", str(tmp_path), env=env)
    assert result.exit_code == 2 and "--origin" in result.stderr
    result = invoke("sync", "--from", str(tmp_path), "--origin", "just-a-name", env=env)
    assert result.exit_code == 2 and "ci:OWNER/REPO#RUN" in result.stderr


def test_a_sessions_provenance_is_never_overwritten_by_a_later_push_from_elsewhere(tmp_path, team_db):
    laptop, devbox = machine(tmp_path, "laptop"), machine(tmp_path, "devbox")
    build(root_of(laptop))
    ok("sync", "--machine", "laptop", env=laptop)
    shutil.copytree(root_of(laptop) / "projects", root_of(devbox) / "projects", dirs_exist_ok=True)
    ok("sync", "--machine", "devbox", env={**devbox, "USER": "bob", "LOGNAME": "bob"})
    ok("sync", "--from", str(root_of(laptop)), "--origin", "ci:acme/app#7", env=devbox)
    listed = {s["id"]: s for s in ok("sessions", "--team", env=laptop)["sessions"]}
    kept = listed["c0ffee00-1111-2222-3333-444455556666"]
    assert (kept["machine"], kept["origin"], kept["user"]) == ("laptop", "machine:laptop", "alice")


def test_show_team_summarises_a_session_of_another_machine(two_machines):
    _laptop, devbox = two_machines
    card = ok("show", "c0ffee00", "--team", env=devbox)
    assert card["team"] and card["machine"] == "laptop" and card["origin"] == "machine:laptop"
    assert any(f["tool"] == "Bash" and "nonexistent-dir" in (f["summary"] or "") for f in card["failures"])
    assert {a["agent_id"] for a in card["agents"]} >= {"a11ce0000000plan", "b0b000000000work"}
    text = invoke("show", "c0ffee00", "--team", env=devbox)
    assert text.exit_code == 0 and "machine:   laptop" in text.stdout


def test_debug_agent_team_shows_the_failed_agent_of_a_session_of_another_machine(two_machines):
    _laptop, devbox = two_machines
    found = ok("debug-agent", "c0ffee00", "--team", env=devbox)
    assert [a["agent_id"] for a in found["agents"]] == ["b0b000000000work"]
    assert "SENTINEL_FAILURE" in found["agents"][0]["failed"][0]["error"]
    assert found["session"]["machine"] == "laptop"


def test_show_team_of_an_unknown_or_ambiguous_session(two_machines):
    laptop, _devbox = two_machines
    for sid in ("abab0001-0000-0000-0000-000000000000", "abab0002-0000-0000-0000-000000000000"):
        make_session(root_of(laptop), sid)
    ok("sync", "--machine", "laptop", env=laptop)
    unknown = invoke("show", "ffffffff", "--team", env=laptop)
    assert unknown.exit_code == 3 and "no session 'ffffffff' in the team database" in unknown.stderr
    ambiguous = invoke("show", "abab", "--team", env=laptop)
    assert ambiguous.exit_code == 4
    assert ok("show", "abab0002", "--team", env=laptop)["id"] == "abab0002-0000-0000-0000-000000000000"


def test_reading_a_database_no_kit_pushed_to_is_not_found(tmp_path, team_db):
    result = invoke("sessions", "--team", env=machine(tmp_path, "laptop"))
    assert result.exit_code == 3 and "sync --to" in result.stderr


def test_the_team_listing_and_usage_in_text_name_each_machine(two_machines):
    laptop, _devbox = two_machines
    listing = invoke("sessions", "--team", env={**laptop, "COLUMNS": "200"})
    assert listing.exit_code == 0, listing.output
    header, *rows = listing.stdout.splitlines()
    assert header.split()[:3] == ["LAST", "ACTIVE", "MACHINE"]
    assert any(" laptop " in r and "c0ffee00-1111-2222-3333-444455556666" in r for r in rows)
    assert any(" devbox " in r and "dddd0000-0000-0000-0000-00000000d0d0" in r for r in rows)
    usage = invoke("usage", "--team", "--by", "machine", env=laptop)
    assert usage.exit_code == 0, usage.output
    keys = [line.split()[0] for line in usage.stdout.splitlines()[1:] if line.strip()]
    assert keys[:3] == ["devbox", "laptop", "total"]


def test_a_file_pushed_twice_from_the_archive_view_is_removed_by_the_migration(tmp_path: Path, pg_server, team_db):
    env = machine(tmp_path, "devbox")
    built = build_leaky(root_of(env))
    ok("sync", "--machine", "devbox", env=env)
    before = counts(pg_server, team_db)
    # what an older kit pushed after `secrets --scrub`: the same transcript from the archive's view
    view = (
        f"{tmp_path}/devbox/state/archive/roots/k-0123abcd/view/projects/-work-leaky/{built.session.session_id}.jsonl"
    )
    pg_server.psql(
        team_db,
        f"""WITH old AS (SELECT * FROM files WHERE path LIKE '%/{built.session.session_id}.jsonl'),
        new AS (INSERT INTO files(machine, path, session, agent, project, modified, warmup, user_name, present, checkpoint)
                SELECT machine, '{view}', session, agent, project, modified, warmup, user_name, present, checkpoint
                FROM old RETURNING id)
        INSERT INTO calls(file_id, session, agent, tool_use_id, tool, summary, status, exit_code, error, started,
                          duration_s, line)
        SELECT (SELECT id FROM new), session, agent, tool_use_id, tool, summary, status, exit_code, error, started,
               duration_s, line FROM calls WHERE file_id = (SELECT id FROM old);
        UPDATE kit_meta SET value = '1' WHERE key = 'schema';""",
    )
    doubled = counts(pg_server, team_db)
    assert doubled["files"] == before["files"] + 1 and doubled["calls"] > before["calls"]

    ok("sync", "--machine", "devbox", env=env)
    assert counts(pg_server, team_db) == before
    assert pg_server.psql(team_db, "SELECT value FROM kit_meta WHERE key = 'schema'").strip() == "2"


def test_a_nul_in_the_machine_name_is_cleaned_like_any_team_text(tmp_path: Path, team_db):
    laptop = machine(tmp_path, "laptop")
    make_session(root_of(laptop), "eeee0000-0000-0000-0000-00000000e0e0", prompt="tune the walrus cache")
    ok("sync", "--machine", "lap\x00top", env=laptop)
    listed = ok("sessions", "--team", env=laptop)["sessions"]
    assert [s["machine"] for s in listed] == ["lap\ufffdtop"]
    assert [s["origin"] for s in listed] == ["machine:lap\ufffdtop"]
    assert ok("sync", "--machine", "lap\x00top", env=laptop)  # the same machine again: nothing new
