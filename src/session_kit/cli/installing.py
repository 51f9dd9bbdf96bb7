"""What `install` and `uninstall` share: their `--scope` choice and help, and the report of
what changed.

Owns: those options' wording and the text (or JSON) of an install or uninstall result. What
is installed, where and how is `install/`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit
from session_kit.cli.output import emit_json
from session_kit.errors import EXIT_BAD_FILE

SCOPE_CHOICE = click.Choice(api.SCOPES)
DRY_RUN_HELP = "Say what would change; change nothing."
SCOPE_HELP = (
    "user: ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR's); project: ./.claude/settings.json; "
    "local: ./.claude/settings.local.json (both in the current directory)."
)
SETUP_CODES = (EXIT_BAD_FILE,)


def report_change(kit: Kit, result: api.InstallResult, *, verb: str) -> None:
    """What `verb` (install or uninstall) changed, or would change with --dry-run."""
    if kit.as_json:
        emit_json(verb, result.as_dict(), redact=False)
        return
    would = "would be " if result.dry_run else ""
    if result.changed:
        click.echo(f"{result.settings_path}: hooks {would}{'installed' if verb == 'install' else 'removed'}")
    else:
        click.echo(f"{result.settings_path}: already {'current' if verb == 'install' else 'without the kit'}")
    if result.backup:
        click.echo(f"  backup of the previous file: {result.backup}")
    for name in result.commands_installed:
        click.echo(f"  slash command /{name} {would}installed")
    for name in result.commands_skipped:
        click.echo(f"  slash command /{name} skipped: a file of yours has that name", err=True)
    for name in result.commands_removed:
        click.echo(f"  slash command /{name} {would}removed")
