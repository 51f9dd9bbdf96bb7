"""`session-kit export`: the index's tables written as JSON Lines or Parquet.

Owns: its options and its text output. The tables and the writers are `index/`'s, brought up
to date by `queries.history`.
"""

from __future__ import annotations

from pathlib import Path

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog


@click.command(
    epilog=epilog(
        "session-kit export --output-dir history/ --source laptop",
        "session-kit export --output-dir history/ --format parquet",
        codes=(3,),
    )
)
@click.option(
    "--output-dir",
    "output_dir",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder to write sessions, texts, calls and agents into (one file per table).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "parquet"]),
    default="jsonl",
    show_default=True,
    help="JSON Lines, or Parquet (needs the parquet extra).",
)
@click.option(
    "--source", default=None, help="A name for this machine or runner, on every row (default: the host name)."
)
@shared_options
@pass_kit
def export(kit: Kit, output_dir: Path, fmt: str, source: str | None) -> None:
    """Write the index's tables (sessions, texts, calls, agents) as JSON Lines or Parquet.

    The index is brought up to date first. Text is redacted (it is indexed redacted). Load
    many people's or CI runners' exports into one engine, e.g. DuckDB:
    `SELECT * FROM read_json_auto('*/texts.jsonl')`. Columns: docs/reference/json.md. Parquet needs the
    optional extra: `./install.sh --with parquet` (without it, the error names the command for
    this kit's interpreter).
    """
    import socket

    written = api.export_history(
        kit.root, api.state_root(), str(output_dir), source=source or socket.gethostname(), fmt=fmt
    )
    if kit.as_json:
        emit_json("export", {"output_dir": str(output_dir), "format": fmt, "rows": written}, redact=False)
        return
    for table, count in written.items():
        click.echo(f"{output_dir / f'{table}.{fmt}'}: {count} rows")
