"""The team database's tables, and the migrations that make them.

Owns: `MIGRATIONS` (version n is `MIGRATIONS[n - 1]`; a new kit appends, never edits one
that shipped), `kit_meta.schema` (the version the database is at) and `ready`, which brings a
database up to this kit's version under an advisory lock (two pushes at once take turns), each
migration in the transaction that records it, and refuses a database a newer kit made
(`errors.TeamSchemaNewer`, exit 12) before anything is written.

Tables (version 1); every text column holds what the local index holds (redacted there):
    sessions  one row per session id: its provenance (origin `machine:NAME` or `ci:OWNER/
              REPO#RUN`, machine, user_name, first_pushed: written by its first push and never
              changed; facts only by pushes of that same origin) and the index's facts
    files     one row per pushed file: machine, path (a CI folder's: relative to it),
              session, agent, project, modified (ns), warmup, user_name, present (on the
              machine's disk at its last push: what `usage` counts), checkpoint (the
              follower's checkpoint the rows were pushed at: what makes a push incremental)
    texts     the index's searchable pieces of each file; `tsv` (generated: the text's words,
              punctuation a separator as in the local index's FTS5, `to_tsvector('simple', …)`)
              with a GIN index answers `search --team`
    calls, messages, agent_results  the index's rows of each file (`index/db.py`)
    agents    one row per machine, session and agent: type, description
The rows of a file go with it (`ON DELETE CASCADE`). Version 2 removes the files a machine
pushed twice (the archive's view of a file the client still had). Does not: fill them (`push`).
"""

from __future__ import annotations

from typing import Any

from session_kit.errors import NotFound, TeamSchemaNewer

_TOKENS = "input bigint, output bigint, cache_read bigint, cache_write_5m bigint, cache_write_1h bigint, web_search bigint, web_fetch bigint"
_FILE = "file_id bigint NOT NULL REFERENCES files(id) ON DELETE CASCADE"

MIGRATIONS: tuple[str, ...] = (
    f"""
CREATE TABLE sessions(
    id text PRIMARY KEY, origin text NOT NULL, machine text NOT NULL, user_name text,
    project text, cwd text, path text, title text, first_request text, started text, ended text,
    branch text, version text, input_tokens bigint, output_tokens bigint, cache_read_tokens bigint,
    cache_write_tokens bigint, agents integer, compactions integer,
    first_pushed timestamptz NOT NULL DEFAULT now(), last_pushed timestamptz NOT NULL DEFAULT now());
CREATE INDEX sessions_ended ON sessions(ended DESC NULLS LAST);
CREATE INDEX sessions_machine ON sessions(machine);
CREATE TABLE files(
    id bigserial PRIMARY KEY, machine text NOT NULL, path text NOT NULL, session text NOT NULL, agent text,
    project text, modified bigint, warmup boolean NOT NULL DEFAULT false, user_name text,
    present boolean NOT NULL DEFAULT true, checkpoint text, UNIQUE(machine, path));
CREATE INDEX files_session ON files(session);
CREATE TABLE texts(
    {_FILE}, session text NOT NULL, agent text, line integer, ts text, kind text, tool text,
    status text, text text NOT NULL, kit boolean NOT NULL DEFAULT false,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', regexp_replace(text, '[[:punct:]]+', ' ', 'g'))) STORED);
CREATE INDEX texts_tsv ON texts USING gin(tsv);
CREATE INDEX texts_file ON texts(file_id);
CREATE TABLE calls(
    {_FILE}, session text NOT NULL, agent text, tool_use_id text, tool text, summary text, status text,
    exit_code bigint, error text, started text, duration_s double precision, line integer);
CREATE INDEX calls_file ON calls(file_id);
CREATE INDEX calls_session ON calls(session);
CREATE TABLE messages(
    {_FILE}, key text NOT NULL, session text NOT NULL, agent text, hour integer, model text, {_TOKENS},
    PRIMARY KEY(file_id, key));
CREATE INDEX messages_key ON messages(key);
CREATE TABLE agent_results(
    {_FILE}, session text NOT NULL, agent_id text NOT NULL, hour integer, model text, {_TOKENS}, source text,
    PRIMARY KEY(file_id, agent_id));
CREATE TABLE agents(
    machine text NOT NULL, session text NOT NULL, agent_id text NOT NULL, type text, description text,
    PRIMARY KEY(machine, session, agent_id));
""",
    # 2: a session's file pushed twice, from the client's folder and from the kit's archive view
    # (`<state>/archive/roots/<key>/view/<the same path under the Claude root>`: `secrets
    # --scrub` indexed the view of a session the client still had): the view's file goes, and
    # its rows with it.
    r"""
DELETE FROM files v USING files c
WHERE v.machine = c.machine AND v.session = c.session AND v.id <> c.id
  AND v.path ~ '/archive/roots/[^/]+/view/projects/' AND c.path !~ '/archive/roots/[^/]+/view/projects/'
  AND c.path LIKE '%/' || substring(v.path from '/archive/roots/[^/]+/view/(projects/.*)$');
""",
)
SCHEMA_VERSION = len(MIGRATIONS)
_LOCK = 0x5E55_1011  # the advisory lock two kits migrating one database take turns on


def _version(conn: Any) -> int | None:
    """The database's schema version; None when the kit never wrote to it."""
    found = conn.execute("SELECT to_regclass('kit_meta') IS NOT NULL").fetchone()[0]
    if not found:
        return None
    row = conn.execute("SELECT value FROM kit_meta WHERE key = 'schema'").fetchone()
    return int(row[0]) if row else None


def _newer(version: int) -> TeamSchemaNewer:
    return TeamSchemaNewer(
        f"the team database is at schema version {version}, made by a newer kit (this one knows "
        f"up to {SCHEMA_VERSION}): upgrade claude-session-kit; nothing was written"
    )


def ready(conn: Any, *, write: bool) -> int:
    """The database at this kit's version: migrated first when `write` (a push); for a read,
    `NotFound` when no kit ever pushed to it. A newer kit's database: `TeamSchemaNewer`."""
    version = _version(conn)
    conn.commit()
    if version is not None and version > SCHEMA_VERSION:
        raise _newer(version)
    if version == SCHEMA_VERSION:
        return version
    if not write and version is None:
        raise NotFound("the team database holds no history yet: push to it with `session-kit sync --to URL`")
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS kit_meta(key text PRIMARY KEY, value text NOT NULL)")
        version = _version(conn) or 0
        if version > SCHEMA_VERSION:
            raise _newer(version)
        for number in range(version + 1, SCHEMA_VERSION + 1):
            conn.execute(MIGRATIONS[number - 1])
        conn.execute(
            "INSERT INTO kit_meta VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (str(SCHEMA_VERSION),),
        )
    return SCHEMA_VERSION
