"""The options most commands share, and the one object they fill for a run.

Owns: `Kit`, the group's context object, built once per invocation; `--claude-dir` and `--json`
(accepted after the command name, as every command documents them), which write into it;
`--no-redact`, which the commands that show transcript text take; `--project` (completed
with the folders projects ran in) and `--all`, the sessions a command looks through (whether they go together is the core's); `pass_kit`,
which hands the object to a command. Does not resolve sessions (`cli.session_arg`) or
print (`cli.text`, `cli.tables`, `cli.envelope`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from session_kit import api

F = TypeVar("F", bound=Callable[..., Any])

# Installed with the package (a link to the repository's docs/ in a checkout): help points here.
JSON_DOC = Path(__file__).parent.parent / "docs" / "reference" / "json.md"


class Kit:
    """What the shared options said: the Claude root to read and whether to print JSON."""

    __slots__ = ("claude_dir", "as_json")

    def __init__(self, claude_dir: Path | None = None, as_json: bool = False) -> None:
        self.claude_dir = claude_dir
        self.as_json = as_json

    @property
    def root(self) -> Path:
        """`--claude-dir`, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
        return api.claude_root(self.claude_dir)


pass_kit = click.make_pass_decorator(Kit, ensure=True)


def _into_kit(field: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def store(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        setattr(ctx.ensure_object(Kit), field, value)

    return store


def json_option(func: F) -> F:
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        expose_value=False,
        callback=_into_kit("as_json"),
        help=f"Print JSON (indented on a terminal); its shapes: {JSON_DOC}",
    )(func)


def claude_dir_option(func: F) -> F:
    return click.option(
        "--claude-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        expose_value=False,
        callback=_into_kit("claude_dir"),
        help="Claude root to read (default: $CLAUDE_CONFIG_DIR, else ~/.claude).",
    )(func)


def _show_secrets(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        # For this command's run only: the policy is reset when its context closes.
        ctx.with_resource(api.showing_secrets())


def no_redact_option(func: F) -> F:
    """`--no-redact`: this command shows transcript text with its secrets."""
    return click.option(
        "--no-redact",
        is_flag=True,
        expose_value=False,
        callback=_show_secrets,
        help="Show secrets (keys, tokens, passwords) as written; by default they are redacted.",
    )(func)


def shared_options(func: F) -> F:
    """`--claude-dir` and `--json`, listed last in the command's help."""
    return claude_dir_option(json_option(func))


def _complete_project(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of `--project`: the folders the Claude root's projects ran in."""
    from click.shell_completion import CompletionItem

    kit = ctx.find_object(Kit)
    root = kit.root if kit is not None else api.claude_root()
    return [CompletionItem(c.value, help=c.help) for c in api.project_candidates(root, incomplete)]


def project_options(all_help: str) -> Callable[[F], F]:
    """`--project PATH` and `--all`: the sessions to look at (default: the current project's)."""

    def add(func: F) -> F:
        func = click.option("--all", "all_projects", is_flag=True, help=all_help)(func)
        return click.option(
            "--project",
            "project_path",
            type=click.Path(path_type=Path),
            help="Project directory (default: the current one).",
            shell_complete=_complete_project,
        )(func)

    return add
