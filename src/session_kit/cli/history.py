"""`archive` and `restore`: the kit's copy of every session, and putting a session back.

Owns: these commands' options and output. What is archived and how (incremental gzip
members, manifests, 0700/0600) is `archive.store`'s; which files and the retention is
`queries.history`'s.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.output import emit_json
from session_kit.errors import EXIT_CODES_HELP

PROGRESS_EVERY_S = 0.2


@click.command(epilog=EXIT_CODES_HELP)
@click.option("--prune", is_flag=True, help="Also drop archived sessions the retention settings let go.")
@shared_options
@pass_kit
def archive(kit: Kit, prune: bool) -> None:
    """Copy every session's transcript, agent logs, meta and plan files into the kit's archive.

    Only bytes added since the last copy are compressed and appended; a file that was replaced
    is copied again. The client deletes transcripts older than `cleanupPeriodDays` (30 by
    default); the archive keeps them (`restore` puts one back). The hooks archive each session
    as it ends; this command catches up on everything already on disk.
    """
    progress = _progress() if sys.stderr.isatty() and not kit.as_json else None
    run = api.archive_all(kit.root, api.state_root(), progress=progress, prune=prune)
    if progress is not None:
        progress(-1, -1)
    if kit.as_json:
        emit_json("archive", run.as_dict(), redact=False)
        return
    for error in run.errors:
        click.echo(f"session-kit: skipped {error}", err=True)
    pruned = f"; {run.pruned} archived sessions dropped" if prune else ""
    click.echo(f"Archived {run.bytes} new bytes in {run.files} files into {api.archive_dir(api.state_root())}{pruned}")


def _progress() -> Callable[[int, int], None]:
    last = 0.0

    def show(files: int, copied: int) -> None:
        nonlocal last
        if files < 0:
            sys.stderr.write("\r\033[K")
            return
        now = time.monotonic()
        if now - last > PROGRESS_EVERY_S:
            last = now
            sys.stderr.write(f"\rarchived {files} files, {copied / 1e6:.1f} MB")
            sys.stderr.flush()

    return show


@click.command(epilog=EXIT_CODES_HELP)
@click.argument("session")
@shared_options
@pass_kit
def restore(kit: Kit, session: str) -> None:
    """Put an archived session (id or unique prefix) back where `claude --resume` finds it.

    Its transcript, agent logs, meta and plan files are written under the Claude root; files
    already there are left as they are. Restored files get the current time, so the client's
    clean-up does not delete them again at its next start.
    """
    restored = api.restore_session(session, kit.root, api.state_root())
    if kit.as_json:
        emit_json(
            "restore",
            {
                "session_id": restored.session_id,
                "written": list(restored.written),
                "kept": list(restored.kept),
                "transcript": restored.transcript,
            },
            redact=False,
        )
        return
    click.echo(f"Restored {len(restored.written)} files of {restored.session_id} ({len(restored.kept)} already there)")
    if restored.transcript:
        click.echo(f"  {restored.transcript}")
        cwd = api.session_cwd(restored.transcript)
        where = f"cd {shlex.quote(cwd)} && " if cwd else ""
        click.echo(f"Resume it: {where}claude --resume {restored.session_id}")
