"""`session-kit archive`: every session's files copied into the kit's archive.

Owns: its options, its progress line and its text output. What is archived and how
(incremental gzip members, manifests, 0700/0600) is `archive.store`'s; which files and the
retention `queries.history`'s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.helptext import epilog
from session_kit.cli.output import emit_json, plural

PROGRESS_EVERY_S = 0.2


@click.command(
    epilog=epilog(
        "session-kit archive                     # copy what was added since the last copy",
        "session-kit archive --prune             # and drop what the retention settings let go",
        codes=(3, 5),
    )
)
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
    click.echo(
        f"Archived {plural(run.bytes, 'new byte')} in {plural(run.files, 'file')} into {api.archive_dir(api.state_root())}{pruned}"
    )


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
            sys.stderr.write(f"\rarchived {plural(files, 'file')}, {copied / 1e6:.1f} MB")
            sys.stderr.flush()

    return show
