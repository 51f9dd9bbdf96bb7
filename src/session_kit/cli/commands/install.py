"""`session-kit install`: the kit's hooks and slash commands put into Claude Code.

Owns: its options and help. What is installed and how is `install/`'s; the report shared
with `uninstall` is `cli.installing`'s.
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
        "session-kit install                 # for you, in every project",
        "session-kit install --scope local   # hooks in this project only, for you",
        "session-kit install --guard-secrets   # also keep secrets tools print out of the conversation",
        "session-kit install --statusline      # also the kit's status line under the prompt",
        "session-kit install --dry-run --json",
        codes=SETUP_CODES,
    )
)
@click.option("--scope", type=SCOPE_CHOICE, default=api.SCOPE_USER, show_default=True, help=SCOPE_HELP)
@click.option(
    "--guard-secrets/--no-guard-secrets",
    default=None,
    help="Also install (or take out) the secret guard: a PostToolUse hook that replaces the secrets "
    "a tool's output holds with [REDACTED:kind] before the model sees it, and tells you in one line. "
    "Off unless asked; without either flag an install keeps it as it is. Needs Claude Code 2.1.121 "
    "or newer (older ones only for MCP tools). See docs/how-to/secrets.md.",
)
@click.option(
    "--statusline/--no-statusline",
    default=None,
    help="Also set (or take out) the kit's status line in the same settings file: the session's "
    "id, tokens, cost, running agents and compactions under the prompt. A status line of your own "
    "is left as it is (exit 2) unless --force; uninstall puts yours back. Without either flag an "
    "install keeps it as it is. A plugin cannot set it: use this command.",
)
@click.option("--force", is_flag=True, help="With --statusline: replace a status line of your own.")
@click.option("--dry-run", is_flag=True, help=DRY_RUN_HELP)
@shared_options
@pass_kit
def install(
    kit: Kit, scope: str, guard_secrets: bool | None, statusline: bool | None, force: bool, dry_run: bool
) -> None:
    """Install the kit's hooks and slash commands into Claude Code.

    Only the kit's own hook entries (marked `# claude-session-kit`) are added or replaced;
    installing twice is the same as once. The settings file is backed up, locked and
    replaced atomically; an invalid one is left as it was (exit 5). A slash-command file of
    yours with the same name is never overwritten. With the user scope the kit's MCP server
    (`session-kit mcp`) is registered too, in the client's ~/.claude.json (or
    $CLAUDE_CONFIG_DIR's): only its own `mcpServers` entry is touched.
    """
    result = api.install(
        scope=scope,
        claude_root=kit.root,
        project=Path.cwd(),
        dry_run=dry_run,
        guard_secrets=guard_secrets,
        statusline=statusline,
        force=force,
    )
    report_change(
        kit, result, verb="install", mcp=lambda: api.register_mcp_server(claude_root=kit.root, dry_run=dry_run)
    )
