"""`session-kit archive`: every session's files copied into the kit's archive.

Owns: its options, its progress line and its text output. What is archived and how
(incremental gzip members, generations, manifests, 0700/0600) is `archive.store`'s; which
files, the retention and `--verify` `queries.history`'s.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.text import human_size, plural
from session_kit.errors import EXIT_DAMAGED

PROGRESS_EVERY_S = 0.2


@click.command(
    epilog=epilog(
        "session-kit archive                     # copy what was added since the last copy",
        "session-kit archive --prune             # and drop what the retention settings let go",
        "session-kit archive --verify            # and read every archived byte back (exit 9 if any is missing)",
        codes=(3, 5, EXIT_DAMAGED),
    )
)
@click.option(
    "--prune", is_flag=True, help="Also drop this Claude root's archived sessions the retention settings let go."
)
@click.option(
    "--verify",
    is_flag=True,
    help="Then read every archived generation back against its manifest's size and checksum, and check every "
    "file of the Claude root is archived; exit 9 when anything is missing.",
)
@shared_options
@pass_kit
def archive(kit: Kit, prune: bool, verify: bool) -> None:
    """Copy every file of every session into the kit's archive.

    Transcripts, agent logs and meta files, spilled tool outputs (`tool-results/`),
    `custom-title.json`, `precompact.json`, workflow journals, and plan files (recorded with
    their session).

    Only bytes added since the last copy are compressed and appended. A file the client
    rewrote or replaced starts a new generation: every earlier byte is kept, and `show`,
    `search`, `view`, `preprocess`, `memory` and `restore` read the history the client dropped
    too. Each Claude root has its own archive. The client deletes transcripts older than
    `cleanupPeriodDays` (30 by default); the archive keeps them (`restore` puts one back). The
    hooks archive each session as it ends; this command catches up on everything on disk.
    """
    progress = _progress() if sys.stderr.isatty() and not kit.as_json else None
    run = api.archive_all(kit.root, api.state_root(), progress=progress, prune=prune)
    if progress is not None:
        progress(-1, -1)
    checked = api.verify_archive(kit.root, api.state_root()) if verify else None
    if kit.as_json:
        emit_json("archive", {**run.as_dict(), **({"verify": checked.as_dict()} if checked else {})}, redact=False)
    else:
        for error in run.errors:
            click.echo(f"session-kit: skipped {error}", err=True)
        pruned = f"; {run.pruned} archived sessions dropped" if prune else ""
        click.echo(
            f"Archived {human_size(run.bytes)} new in {plural(run.files, 'file')} into {api.archive_dir(api.state_root())}{pruned}"
        )
        if checked is not None:
            for problem in checked.problems:
                click.echo(f"session-kit: {problem}", err=True)
            verdict = "every byte is there" if not checked.problems else plural(len(checked.problems), "problem")
            click.echo(
                f"Verified {plural(checked.files, 'file')}, {plural(checked.generations, 'generation')}, "
                f"{human_size(checked.bytes)}: {verdict}"
            )
    if checked is not None and checked.problems:
        raise SystemExit(EXIT_DAMAGED)


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
