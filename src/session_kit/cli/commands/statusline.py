"""`session-kit statusline`: the client's status line.

Owns: its option and help. The line itself is `usage.statusline`'s (the fast script the
client runs is `usage/statusline_main.py`).
"""

from __future__ import annotations

import json

import click

from session_kit import api
from session_kit.cli.helptext import epilog


@click.command(
    epilog=epilog(
        "session-kit statusline --setting     # the settings.json entry to paste",
        "session-kit statusline < event.json  # the line for the session the client's JSON names",
    )
)
@click.option("--setting", is_flag=True, help="Print the settings.json entry that runs the fast script, and exit.")
def statusline(setting: bool) -> None:
    """The client's status line: this session's id, tokens and cost, running subagents and compactions.

    The client runs the status-line command with JSON on stdin (session_id, transcript_path,
    cwd, model…) after each turn. `session-kit install --statusline` sets it in settings.json
    (a plugin cannot set the main status line); by hand, set it to what --setting prints: it starts without
    click or the rest of the kit and reads only what the transcript gained since its last run
    (the offset is kept in the session's scratch dir). This command does the same, slower.
    """
    if setting:
        import shlex  # here, not at the top: no other line of the command needs it

        command = f"python3 -I -S {shlex.quote(api.STATUSLINE_SCRIPT)}"
        click.echo(json.dumps({"statusLine": {"type": "command", "command": command, "padding": 0}}, indent=2))
        return
    raise SystemExit(api.statusline_main())
