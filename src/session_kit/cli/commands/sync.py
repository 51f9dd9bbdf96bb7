"""`session-kit sync`: push sessions into the team database (PostgreSQL).

Owns: its options and its text output. What is pushed and how is `team`'s (`team.sync`,
`team.push`), reached through `api`.
"""

from __future__ import annotations

from pathlib import Path

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.text import plural
from session_kit.errors import EXIT_NOT_FOUND, TEAM_CODES


@click.command(
    epilog=epilog(
        "session-kit sync --to postgresql://kit@db.example/team        # password from ~/.pgpass",
        "session-kit sync --machine laptop        # the database from $SESSION_KIT_TEAM_URL or config.json",
        "session-kit sync --from artifact/ --origin ci:acme/app#1234   # a CI run's transcripts",
        codes=(EXIT_NOT_FOUND, *TEAM_CODES),
    )
)
@click.option(
    "--to",
    "url",
    metavar="URL",
    default=None,
    help="The team database (postgresql://USER@HOST[:PORT]/DB); default: $SESSION_KIT_TEAM_URL, else team.url in the config file.",
)
@click.option(
    "--machine",
    metavar="NAME",
    default=None,
    help="This machine's name in the team database (default: team.machine in the config file, else the host name; with --from: the origin).",
)
@click.option(
    "--from",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="FOLDER",
    default=None,
    help="Push the transcripts in FOLDER (a CI run's artifact: a Claude root, its projects/ or one project's folder) instead of this machine's.",
)
@click.option(
    "--origin",
    metavar="KIND:NAME",
    default=None,
    help="With --from: where the transcripts come from, as ci:OWNER/REPO#RUN.",
)
@shared_options
@pass_kit
def sync(kit: Kit, url: str | None, machine: str | None, folder: Path | None, origin: str | None) -> None:
    """Push sessions into the team database (PostgreSQL), for `--team` to read from anywhere.

    Brings this machine's index up to date (the one search, usage and export read), then
    pushes its sessions, agents, tool calls, token usage and searchable text, redacted as the
    index holds it, with this machine's name and the user. Only files that changed since the
    last push are sent: pushing again adds nothing; a push cut short (killed, the server lost)
    leaves no half-written file, and the next push sends the rest. A session keeps the
    machine, user and origin of its first push. The database's tables are made or migrated on
    the first push. --from FOLDER --origin ci:OWNER/REPO#RUN pushes a CI run's transcripts
    with that origin instead.

    The password comes from the URL, $PGPASSWORD or ~/.pgpass (and the rest of libpq's
    environment: PGHOST, PGUSER…), and is never printed. Needs the `team` extra:
    `./install.sh --with team` (without it, the error names the command for this kit's
    interpreter). How-to: docs/how-to/team-history.md.
    """
    if (folder is None) != (origin is None):
        raise click.UsageError("--from and --origin go together", click.get_current_context())
    if folder is not None and origin is not None:
        result = api.push_folder(folder, origin, url, state_root=api.state_root(), machine=machine)
    else:
        result = api.push_history(kit.root, api.state_root(), url, machine=machine)
    if kit.as_json:
        emit_json("sync", result.as_dict(), redact=False)
        return
    say(
        f"Pushed {plural(result.files, 'file')} ({plural(result.sessions, 'session')}, {plural(result.rows, 'row')})"
        f" as {result.machine} ({result.origin}) to {result.database}; {result.unchanged} unchanged."
    )
