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
from session_kit.cli.layout import say as fitted_say
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
        fitted_say(lead + (action if dry else _past(action).capitalize()) + " " + rest)

    written = result.commands_written if installing else result.commands_removed
    if not result.changed and not written:
        _nothing(result, installing=installing, dry=dry)
    else:
        if dry:
            click.echo(f"Dry run: nothing was changed. `session-kit {verb}` would:")
        if result.changed and any(result.hook_changes().values()):
            say(*_hooks_changed(result, installing=installing))
        if result.statusline_change == "added":
            say("add", f"the kit's status line to {result.settings_path}")
        elif result.statusline_change == "removed":
            say("remove", f"the kit's status line from {result.settings_path}")
        if result.backup:
            click.echo(f"{lead}  (backup of the previous file: {result.backup})")
        if installing and written:
            say("copy", f"{plural(len(written), 'slash command')} into {result.commands_dir}:")
            _wrapped(", ".join("/" + n for n in written), lead + "  ")
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
    lead = "" if not result.changed and not written else lead
    if installing:
        guard = (
            "on: secrets in tools' output are replaced before the model sees them"
            if result.guard_secrets
            else "off (session-kit install --guard-secrets turns it on)"
        )
        click.echo(f"{lead}Secret guard: {guard}")


def _nothing(result: InstallResult, *, installing: bool, dry: bool) -> None:
    """One sentence for a run that changes nothing."""
    if installing:
        commands = (
            f" and its {plural(len(result.commands_installed), 'slash command')}" if result.commands_installed else ""
        )
        why = f"the kit's hooks in {result.settings_path}{commands} are current"
    else:
        why = f"{result.settings_path} holds none of the kit's hooks"
    verb = "install" if installing else "uninstall"
    fitted_say(f"{f'Dry run: `session-kit {verb}` would change' if dry else 'Changed'} nothing: {why}")


def _hooks_changed(result: InstallResult, *, installing: bool) -> tuple[str, str]:
    """What happens to the kit's hooks: all of them added or removed, else the events changed."""
    changes = result.hook_changes()
    where = result.settings_path
    whole = (
        not changes["updated"] and not changes["removed"] and len(changes["added"]) == len(result.as_dict()["hooks"])
    )
    if not installing or whole:
        return ("add", f"the kit's hooks to {where}") if installing else ("remove", f"the kit's hooks from {where}")
    parts = [f"{verb} {', '.join(events)}" for verb, events in changes.items() if events]
    return "change", f"the kit's hooks in {where}: " + "; ".join(parts)


def _past(action: str) -> str:
    return {"add": "added", "remove": "removed", "copy": "copied", "change": "changed"}[action]


def _wrapped(text: str, indent: str) -> None:
    """`text` in lines that fit the terminal (80 columns into a pipe), each after `indent`."""
    import textwrap

    width = max(40, terminal_width() or 80)
    for line in textwrap.wrap(text, width=width, initial_indent=indent, subsequent_indent=indent):
        click.echo(line)
