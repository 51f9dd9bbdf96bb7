"""`preprocess`: a session and its agents as compact XML documents for an LLM to read.

Owns: the command's options (mapped onto `PreprocessOptions`), printing the paths written and
the reduction, and the exit code of a session with nothing to write. The pipeline, the
documents and where they go by default are `preprocess`'s (see docs/preprocess.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.session_arg import resolve, session_argument
from session_kit.cli.streams import warn_skipped
from session_kit.errors import EXIT_AMBIGUOUS, EXIT_BAD_FILE, EXIT_NOT_FOUND, EXIT_NOTHING_TO_DO, KitError


@click.command(
    epilog=epilog(
        "session-kit preprocess                      # the current session, into its scratch dir",
        "session-kit preprocess 3f2a --max-tokens 50000 --output-dir ./out",
        "session-kit preprocess --stdout --no-agents | llm -s 'What went wrong?'",
        codes=(EXIT_NOT_FOUND, EXIT_AMBIGUOUS, EXIT_BAD_FILE, EXIT_NOTHING_TO_DO),
        meaning={EXIT_BAD_FILE: "the output folder is not safe to write into"},
    )
)
@session_argument
@click.option("--no-agents", is_flag=True, help="Leave out the session's subagents.")
@click.option(
    "--no-filtering",
    is_flag=True,
    help="Only drop noise: no pruning, truncation, deduplication, log-discovery removal, nor the empty/warmup check.",
)
@click.option("--thinking", is_flag=True, help="Keep the model's thinking blocks.")
@click.option(
    "--max-tokens",
    type=click.IntRange(min=100),
    default=None,
    help="Split into documents of at most N tokens (4 characters each), between entries.",
)
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the documents (default: the session's scratch dir).",
)
@click.option("--prefix", default="session", show_default=True, help="Files are PREFIX-SESSIONID-partN.xml.")
@click.option(
    "--stdout",
    "to_stdout",
    is_flag=True,
    help="Write one document (agents inside) to stdout instead of files; one document, so not with "
    "--max-tokens (parts go to files: --output-dir), --prefix or --distill.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(sorted(api.FORMATS)),
    default=api.DEFAULT_FORMAT,
    show_default=True,
    help="The documents' format.",
)
@click.option(
    "--distill",
    is_flag=True,
    help="Also give each document to a small model through `claude -p` ($SESSION_KIT_CLAUDE, else "
    "claude on PATH) and write its reduction beside it as .distilled.xml.",
)
@no_redact_option
@shared_options
@pass_kit
def preprocess(
    kit: Kit,
    session: str,
    no_agents: bool,
    no_filtering: bool,
    thinking: bool,
    max_tokens: int | None,
    output_dir: Path | None,
    prefix: str,
    to_stdout: bool,
    output_format: str,
    distill: bool,
) -> None:
    """Turn a session and its agents into compact XML documents for an LLM to read.

    SESSION defaults to `current`; `--session` is the same. Prints the paths written, one
    per line, and the reduction on stderr (see docs/preprocess.md). An empty or warmup
    session writes nothing and exits 6.
    """
    if to_stdout and kit.as_json:
        raise KitError("--stdout and --json both write to stdout; choose one")
    options = api.PreprocessOptions(
        agents=not no_agents,
        filtering=not no_filtering,
        thinking=thinking,
        redact=api.redaction_enabled(),
        max_tokens=max_tokens,
        output_dir=output_dir,
        prefix=prefix,
        to_stdout=to_stdout,
        distill=distill,
        format=output_format,
    )
    ref = resolve(kit, session)
    result = api.preprocess_session(ref, options, stream=sys.stdout if to_stdout else None)
    if kit.as_json:
        emit_json("preprocess", result.as_dict())
    else:
        warn_skipped(result.read, ref.path)
        for path in result.paths:
            click.echo(str(path))
        click.echo(f"session-kit: {result.reduction.describe()}", err=True)
        for distilled in result.distilled:
            if not distilled.well_formed:
                click.echo(
                    f"session-kit: warning: {distilled.path} is not well-formed XML (kept as the model wrote it)",
                    err=True,
                )
        if result.redactions:
            redacted = ", ".join(f"{kind} {n}" for kind, n in sorted(result.redactions.items()))
            click.echo(f"session-kit: redacted {redacted}", err=True)
    if not result.ok:
        raise KitError(
            f"session {ref.id} is {result.status} ({result.reason}): nothing written (--no-filtering writes it anyway)",
            exit_code=EXIT_NOTHING_TO_DO,
        )
