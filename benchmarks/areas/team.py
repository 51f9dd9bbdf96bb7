"""The team database (PostgreSQL): pushing 4,000 sessions against building the local index, a
push with nothing new, and `search --team` on 100,000 sessions against a plain `psql` query of
the same rows.

The server is started for the run, as the test suite starts its own (`tests/support/postgres.py`:
`initdb` + `pg_ctl` into a temporary folder); without one the rows say so (ERROR).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import count_json
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row

SESSIONS = 4_000
QUICK_SESSIONS = 1_000
SEARCHED = 100_000  # sessions `search --team` looks through (`--quick`: 10,000)
QUICK_SEARCHED = 10_000
RARE = "quasar-kestrel"  # the generator plants it in a few sessions' first prompt
COMMON = "AssertionError"

# Copies of every pushed session (new ids, machines `bench-K`) until the database holds `n`.
_GROW = """
DROP INDEX texts_tsv;
INSERT INTO sessions SELECT id || '-' || k, origin, 'bench-' || k, user_name, project, cwd, path, title,
    first_request, started, ended, branch, version, input_tokens, output_tokens, cache_read_tokens,
    cache_write_tokens, agents, compactions, first_pushed, last_pushed
FROM sessions, generate_series(1, {copies}) k WHERE machine = 'bench';
INSERT INTO files(machine, path, session, agent, project, modified, warmup, user_name, present, checkpoint)
SELECT 'bench-' || k, path, session || '-' || k, agent, project, modified, warmup, user_name, present, checkpoint
FROM files, generate_series(1, {copies}) k WHERE machine = 'bench';
INSERT INTO texts(file_id, session, agent, line, ts, kind, tool, status, text, kit)
SELECT c.id, t.session || '-' || k, t.agent, t.line, t.ts, t.kind, t.tool, t.status, t.text, t.kit
FROM texts t JOIN files f ON f.id = t.file_id CROSS JOIN generate_series(1, {copies}) k
JOIN files c ON c.machine = 'bench-' || k AND c.path = f.path
WHERE f.machine = 'bench';
CREATE INDEX texts_tsv ON texts USING gin(tsv);
ANALYZE;
"""


def _psql(server, db: str, sql: str) -> str:
    """`sql` run by psql, with the time a big copy takes (minutes on a busy machine)."""
    done = subprocess.run(
        [server.bindir / "psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", server.url(db), "-c", sql],
        capture_output=True,
        text=True,
        timeout=3600,
        check=True,
    )
    return done.stdout


def _plain_query(word: str) -> str:
    """The rows `search --team WORD` prints, as one SQL statement (its count, then its 20 best)."""
    from session_kit.team.search import tsquery

    q = "to_tsquery('simple', '{}')".format(tsquery(word).replace("'", "''"))
    return (
        f"SELECT count(*) FROM texts t WHERE t.tsv @@ {q} AND NOT t.kit; "
        "SELECT t.session, t.agent, f.machine, s.origin, t.line, t.ts, t.kind, t.tool, t.status, t.text, s.title"
        " FROM texts t JOIN files f ON f.id = t.file_id LEFT JOIN sessions s ON s.id = t.session"
        f" WHERE t.tsv @@ {q} AND NOT t.kit ORDER BY ts_rank(t.tsv, {q}) DESC, t.ts DESC NULLS LAST LIMIT 20"
    )


@benchmark("team")
def bench_team(ctx: Context) -> list[Row]:
    """`session-kit sync` of 4,000 sessions (1,000 with `--quick`) into an empty team database,
    its local index already built, against building that index (`search` with no index yet):
    at most 1x; the same push with nothing new against the same baseline: at most 0.25x;
    `search --team` (a rare and a common word, 20 best hits) on 100,000 sessions (10,000 with
    `--quick`: the pushed ones copied in SQL) against `psql` running the same query: at most 12x
    for the rare word, whose query takes milliseconds (the kit's start-up is most of it:
    `python -c 'import psycopg'` is measured in the same rounds, for reference), at most 3x for
    the common one."""
    try:
        from tests.support import postgres

        server = postgres.start()
    except Exception as exc:  # no server here: say so in the report
        return [Row("team", "team database (PostgreSQL)", None, "", status="ERROR", note=str(exc)[:200])]
    try:
        return _measured(ctx, server)
    finally:
        server.stop()


def _measured(ctx: Context, server) -> list[Row]:
    quick = ctx.scale.sessions < 4_000
    sessions = QUICK_SESSIONS if quick else SESSIONS
    searched = QUICK_SEARCHED if quick else SEARCHED
    root, _manifest = ctx.root(f"archive-s{sessions}", sessions=sessions, big_mb=0.0)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="kit-team-") as tmp:
        state = Path(tmp) / "state"
        kit = ["env", f"SESSION_KIT_HOME={state}", *ctx.kit]
        db = "bench"
        url = server.url(db)
        fresh = f"{server.bindir / 'psql'} -X -q -d {server.url('postgres')} -c 'DROP DATABASE IF EXISTS {db}' -c 'CREATE DATABASE {db}'"
        sync = [*kit, "sync", "--to", url, "--machine", "bench", "--claude-dir", root]
        build = Command.of(
            "index build (search, no index yet)",
            [
                "sh",
                "-c",
                f'rm -rf {state}/index && exec "$@"',
                "sh",
                *kit,
                "search",
                RARE,
                "--all",
                "--claude-dir",
                root,
            ],
        )
        subprocess.run(build.argv, check=True, capture_output=True)
        push = Command.of("sync (empty database)", ["sh", "-c", f'{fresh} && exec "$@"', "sh", *sync])
        built, pushed = ctx.measure(build, push, slow=True)
        what = f"sync of {sessions} sessions into an empty database / local index build"
        rows.append(Row.ratio_row("team", what, pushed, built, max_ratio=1.0))
        subprocess.run(["sh", "-c", f"{fresh}"], check=True, capture_output=True)
        subprocess.run(sync, check=True, capture_output=True)
        (again,) = ctx.measure(Command.of("sync (nothing new)", sync), slow=True)
        rows.append(Row.ratio_row("team", f"sync, nothing new, {sessions} sessions", again, built, max_ratio=0.25))
        copies = max(0, searched // sessions - 1)
        _psql(server, db, _GROW.format(copies=copies))
        total = int(_psql(server, db, "SELECT count(*) FROM sessions").strip())
        env = ["env", f"SESSION_KIT_TEAM_URL={url}"]
        floor = Command.of("python -c 'import psycopg'", [sys.executable, "-c", "import psycopg"])
        for word, kind, most in ((RARE, "rare", 12.0), (COMMON, "common", 3.0)):
            plain, team, driver = ctx.measure(
                Command.of(f"psql: {word}", [server.bindir / "psql", "-X", "-At", "-d", url, "-c", _plain_query(word)]),
                Command.of(
                    f"search --team {word}", [*env, *kit, "search", word, "--team", "--json"], inspect=count_json
                ),
                floor,
            )
            what = f"search --team {word} ({kind}) on {total} sessions / psql of the same rows"
            rows.append(Row.ratio_row("team", what, team, plain, max_ratio=most, note=team.note))
            rows.append(Row.ratio_row("team", f"search --team {word} ({kind}) / importing psycopg alone", team, driver))
    return rows
