"""`session-kit uninstall`: the kit's hooks and slash commands taken out of Claude Code.

Owns: its options and help. What is removed and how is `install/`'s; the report shared
with `install` is `cli.installing`'s.
"""

from __future__ import annotations

from pathlib import Path

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.helptext import epilog
from session_kit.cli.installing import DRY_RUN_HELP, SCOPE_CHOICE, SCOPE_HELP, SETUP_CODES, report_change


@click.command(
    epilog=epilog(
        "session-kit uninstall",
        "session-kit uninstall --scope project --dry-run",
        codes=SETUP_CODES,
    )
)
@click.option(
    "--scope",
    type=SCOPE_CHOICE,
    default=api.SCOPE_USER,
    show_default=True,
    help="The settings file to take the kit out of (as for install). " + SCOPE_HELP,
)
@click.option("--dry-run", is_flag=True, help=DRY_RUN_HELP)
@shared_options
@pass_kit
def uninstall(kit: Kit, scope: str, dry_run: bool) -> None:
    """Remove the kit's hooks and slash commands: the settings become what they were.

    With the user scope the kit's MCP server entry goes too: ~/.claude.json becomes what it
    was when the client has not changed it since, else only the kit's entry is taken out.
    """
    result = api.uninstall(scope=scope, claude_root=kit.root, project=Path.cwd(), dry_run=dry_run)
    report_change(
        kit, result, verb="uninstall", mcp=lambda: api.unregister_mcp_server(claude_root=kit.root, dry_run=dry_run)
    )
