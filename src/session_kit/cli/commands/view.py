"""`view`: a session as a page to look at (HTML) or a conversation to paste (Markdown).

Owns: the command's options (mapped onto `api.ViewOptions`), printing the path written (or
the text, with `--output -`), and opening the page in a browser (`--open`: the opener's own output silenced). The page, where it
goes by default and how it is written are the core's (`session_kit.view`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.session_arg import resolve, session_argument
from session_kit.cli.streams import warn_skipped
from session_kit.errors import EXIT_AMBIGUOUS, EXIT_NOT_FOUND, KitError

STDOUT = "-"


@click.command(
    epilog=epilog(
        "session-kit view --open                 # the current session's page, in the browser",
        "session-kit view 3f2a --format md -o -  # the conversation as Markdown, on stdout",
        "session-kit view 3f2a --no-agents -o page.html",
        codes=(EXIT_NOT_FOUND, EXIT_AMBIGUOUS),
    )
)
@session_argument
@click.option(
    "--format",
    "output_format",
    type=click.Choice(sorted(api.VIEW_FORMATS)),
    default="html",
    show_default=True,
    help="html: one self-contained page with the timeline; md: the conversation, for an issue or a pull request.",
)
@click.option(
    "--output",
    "-o",
    default=None,
    help="The file to write (`-`: stdout). Default: view-SESSIONID.html (or .md) in the session's scratch dir.",
)
@click.option("--open", "open_page", is_flag=True, help="Open the file written in the default browser.")
@click.option("--thinking", is_flag=True, help="Include the model's thinking blocks (collapsed).")
@click.option("--no-agents", is_flag=True, help="Leave out the session's subagents.")
@no_redact_option
@shared_options
@pass_kit
def view(
    kit: Kit,
    session: str,
    output_format: str,
    output: str | None,
    open_page: bool,
    thinking: bool,
    no_agents: bool,
) -> None:
    """Look at a session: a page with a timeline (a lane per subagent) and the conversation.

    SESSION defaults to `current`; `--session` is the same. Writes one self-contained HTML file
    (no network needed; light and dark; works without scripts) or, with `--format md`, the
    conversation as Markdown, and prints its path. Redacted unless `--no-redact`; the same
    session gives the same bytes.
    """
    to_stdout = output == STDOUT
    if to_stdout and (kit.as_json or open_page):
        raise KitError("--output - writes the page to stdout: it cannot go with --json or --open")
    ref = resolve(kit, session)
    options = api.ViewOptions(thinking=thinking, redact=api.redaction_enabled(), agents=not no_agents)
    result = api.view_session(
        ref,
        fmt=output_format,
        output=None if output is None or to_stdout else Path(output),
        stream=sys.stdout if to_stdout else None,
        options=options,
    )
    if kit.as_json:
        emit_json("view", result.as_dict())
    elif not to_stdout:
        warn_skipped(result.read, ref.path)
        click.echo(str(result.path))
    if open_page and result.path is not None and not open_in_browser(result.path):
        click.echo(f"session-kit: no browser could be started; open {result.path}", err=True)


def open_in_browser(path: Path) -> bool:
    """Start the system's opener on `path` and leave it: what it prints (a browser's start-up
    chatter, xdg-open's complaints) goes nowhere, so the command prints only the path. False
    when there is no opener."""
    if sys.platform == "win32":
        try:
            os.startfile(str(path))  # type: ignore[attr-defined]  # (Windows only)
        except OSError:
            return False
        return True
    import subprocess

    opener = "open" if sys.platform == "darwin" else "xdg-open"
    try:
        subprocess.Popen(
            [opener, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a browser it starts outlives the command, and Ctrl-C here
        )
    except OSError:
        return False
    return True
