"""`session-kit secrets`: where secrets are kept, in the client's files and the kit's archive.

Owns: its options, its table (kind, session, where, file:line; never a secret's text) and its
exit code (8 when secrets are found, or with --scrub when some are left). Which files are read
and how secrets are found are `queries.secrets`'; what --scrub rewrites `queries.scrub`'s.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, project_options, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.style import id_width
from session_kit.cli.text import plural
from session_kit.errors import EXIT_AMBIGUOUS, EXIT_NOT_FOUND, EXIT_SECRETS


@click.command(
    epilog=epilog(
        "session-kit secrets                   # this project's sessions, here and in the archive",
        "session-kit secrets --all             # everything, history.jsonl and shell snapshots too",
        "session-kit secrets 3f2a --json       # one session",
        "session-kit secrets --all --scrub     # rewrite the archive's copies without them",
        "session-kit secrets --all --scrub --client   # and the client's files (not running sessions)",
        codes=(EXIT_NOT_FOUND, EXIT_AMBIGUOUS, EXIT_SECRETS),
    )
)
@click.argument("session", required=False, metavar="[SESSION]")
@project_options("Every project, and the files of no one project (shell snapshots, plans).")
@click.option(
    "--scrub",
    is_flag=True,
    help="Rewrite the archive's copies with each secret replaced by its marker, at its length (every other byte kept).",
)
@click.option(
    "--client",
    is_flag=True,
    help="With --scrub: also the client's own files, except those a running session may write.",
)
@shared_options
@pass_kit
def secrets(
    kit: Kit, session: str | None, project_path: Path | None, all_projects: bool, scrub: bool, client: bool
) -> None:
    """Find secrets (keys, tokens, passwords) kept in the client's files and the kit's archive:
    rule, session, file and line, never the secret.

    Reads transcripts, agent logs and meta files, everything in a session's folder (spilled
    tool results, titles), the lines of `history.jsonl` (every prompt typed), and the kit's
    archived copies; with --all also shell snapshots and plan files. Secrets are what the kit
    redacts from everything it shows: the same rules. Without SESSION, --project or --all:
    the current directory's project.

    --scrub rewrites the archive's copies with the secrets replaced (each by its marker, at
    its length, so every other byte and line stays where it was; the index is updated, so
    `search` still finds the rest). The client's files are never changed unless --client is
    given, and then not while a session that may write them is running.
    """
    if client and not scrub:
        raise click.UsageError("--client goes with --scrub", click.get_current_context())
    root, state = kit.root, api.state_root()
    scope = api.secrets_scope(root, session=session, project_path=project_path, all_projects=all_projects)
    report = api.scrub_secrets(root, state, scope, client=client) if scrub else api.find_secrets(root, state, scope)
    if kit.as_json:
        emit_json("secrets", {"scrub": scrub, **report.as_dict()}, redact=False)
    else:
        _print(report, scrub=scrub, client=client)
    if report.left if scrub else report.hits:
        sys.exit(EXIT_SECRETS)


def _print(report: Any, *, scrub: bool, client: bool) -> None:
    for error in report.errors:
        click.echo(f"session-kit: skipped {error}", err=True)
    hits = report.hits
    if hits:
        width = max(len(h.kind) for h in hits)
        ids = id_width()
        for h in hits:
            times = f"  ({h.count}x)" if h.count > 1 else ""
            say(f"{h.kind:<{width}}  {(h.session or '-')[:ids]:<{ids}}  {h.where:<7}  {h.path}:{h.line}{times}")
    kinds = report.kinds
    files = len({(h.where, h.path) for h in hits})
    searched = plural(report.files, "file")
    if not hits:
        click.echo(f"No secrets in {searched}.")
        return
    summary = ", ".join(f"{n} {kind}" for kind, n in kinds.items())
    say(f"{plural(report.found, 'secret')} in {plural(files, 'file')} of {searched} searched: {summary}.")
    if not scrub:
        say("`session-kit secrets --scrub` removes them from the archive (--client: from the client's files too).")
        return
    for done in report.scrubbed:
        say(f"scrubbed {plural(done['scrubbed'], 'secret')} from {done['where']} {done['path']}")
    for session in report.running:
        click.echo(f"left alone (running): {session}")
    left = report.left
    if left:
        where = "" if client else " (the client's files are scrubbed with --client)"
        say(f"{plural(left, 'secret')} left{where}.")
    else:
        click.echo("None left.")
