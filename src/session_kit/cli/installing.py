"""What `install` and `uninstall` share: their `--scope` choice and help, and the report of
what changed.

Owns: those options' wording and the text (or JSON) of an install or uninstall result. What
is installed, where and how is `install/`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from session_kit import api
from session_kit.cli.context import Kit
from session_kit.cli.envelope import emit_json
from session_kit.cli.style import terminal_width
from session_kit.cli.text import plural
from session_kit.errors import EXIT_BAD_FILE, KitError

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.install.installer import InstallResult
    from session_kit.install.mcp_servers import McpResult

SCOPE_CHOICE = click.Choice(api.SCOPES)
DRY_RUN_HELP = "Say what would change; change nothing."
SCOPE_HELP = (
    "user: ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR's); project: ./.claude/settings.json; "
    "local: ./.claude/settings.local.json (both in the current directory). The slash commands go to "
    "the Claude root's commands/ for user and local: a repository commits ./.claude/commands/."
)
SETUP_CODES = (EXIT_BAD_FILE,)


def report_change(kit: Kit, result: InstallResult, *, verb: str, mcp: Callable[[], McpResult] | None = None) -> None:
    """What `verb` (install or uninstall) changed, or would change with --dry-run: one line
    per file or folder, saying what happens to it and where it is. `mcp` does the same for
    the kit's MCP server entry, with the user scope alone (its file is the user's)."""
    server, failure = None, None
    if mcp is not None and result.scope == api.SCOPE_USER:
        try:
            server = mcp()
        except KitError as exc:  # the hooks' change stands: say it, then the failure
            failure = exc
    if kit.as_json:
        if failure is not None:
            raise failure
        emit_json(verb, {**result.as_dict(), "mcp_server": server.as_dict() if server else None}, redact=False)
        return
    _report_text(result, verb)
    if server is not None:
        _report_server(server, verb)
    if failure is not None:
        raise failure


def _report_server(server: McpResult, verb: str) -> None:
    lead = "  " if server.dry_run else ""
    if server.skipped:
        click.echo(f"{lead}MCP server: not registered: {server.skipped}")
    elif server.changed:
        done = (
            ("register" if server.dry_run else "Registered")
            if verb == "install"
            else ("remove" if server.dry_run else "Removed")
        )
        where = "in" if verb == "install" else "from"
        click.echo(f"{lead}{done} the kit's MCP server (session-kit mcp) {where} {server.path}")
    elif verb == "install":
        click.echo(f"{lead}MCP server: registered in {server.path} (current)")


def _report_text(result: InstallResult, verb: str) -> None:
    installing = verb == "install"
    dry = result.dry_run
    lead = "  " if dry else ""

    def say(action: str, rest: str) -> None:  # "add …" under a dry run's heading, else "Added …"
        click.echo(lead + (action if dry else _past(action).capitalize()) + " " + rest)

    if dry:
        click.echo(f"Dry run: nothing was changed. `session-kit {verb}` would:")
    if result.changed:
        say(
            "add" if installing else "remove",
            f"the kit's hooks {'to' if installing else 'from'} {result.settings_path}",
        )
    elif installing:
        click.echo(f"{lead}{'leave' if dry else 'Left'} {result.settings_path} as it is (the kit's hooks are current)")
    else:
        click.echo(
            f"{lead}{'leave' if dry else 'Left'} {result.settings_path} as it is (it holds none of the kit's hooks)"
        )
    if result.backup:
        click.echo(f"{lead}  (backup of the previous file: {result.backup})")
    if result.commands_installed:
        count = plural(len(result.commands_installed), "slash command")
        say("copy", f"{count} into {result.commands_dir}:")
        _wrapped(", ".join("/" + n for n in result.commands_installed), lead + "  ")
        if result.scope == api.SCOPE_LOCAL:
            _wrapped(
                "(your own folder, seen in every project: Claude Code has no folder of commands for one person "
                "in one project, and a repository commits its .claude/commands/)",
                lead + "  ",
            )
    for name in result.commands_skipped:
        click.echo(f"{lead}/{name} {'would be skipped' if dry else 'skipped'}: a file of yours has that name", err=True)
    if result.commands_removed:
        count = plural(len(result.commands_removed), "slash command")
        say("remove", f"{count} from {result.commands_dir}:")
        _wrapped(", ".join("/" + n for n in result.commands_removed), lead + "  ")
    if installing:
        guard = (
            "on: secrets in tools' output are replaced before the model sees them"
            if result.guard_secrets
            else "off (session-kit install --guard-secrets turns it on)"
        )
        click.echo(f"{lead}Secret guard: {guard}")


def _past(action: str) -> str:
    return {"add": "added", "remove": "removed", "copy": "copied"}[action]


def _wrapped(text: str, indent: str) -> None:
    """`text` in lines that fit the terminal (80 columns into a pipe), each after `indent`."""
    import textwrap

    width = max(40, terminal_width() or 80)
    for line in textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=indent):
        click.echo(line)
