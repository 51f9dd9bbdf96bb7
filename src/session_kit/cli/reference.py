"""The command-line reference (docs/reference/cli.md): every command's `--help`, as the
command prints it at a fixed width, in one Markdown page.

    python -m session_kit.cli.reference > docs/reference/cli.md

Owns: the page (its order, headings, the width it is rendered at, and the machine's paths
written as what they stand for). Does not write any help
text: each command's module does, and a test keeps the page equal to what `--help` prints.
"""

from __future__ import annotations

import click

from session_kit.cli import CONTEXT, main
from session_kit.cli.context import JSON_DOC

COLUMNS = 100  # the group's max_content_width: --help is the same on any terminal this wide or wider
WIDTH = COLUMNS - 2  # click's help formatter keeps two columns free

HEADER = """# Command-line reference

Every command's `--help`, generated from the code (`python -m session_kit.cli.reference >
docs/reference/cli.md`; a test keeps this page equal to what `--help` prints on a terminal
{width} columns wide). The `--json` shapes are in [json.md](json.md); the exit codes in each
command's help and in [configuration.md](configuration.md#exit-codes).
"""


def commands() -> list[tuple[str, click.Context]]:
    """Every command as `session-kit … --help` reaches it, with its context: the group, each
    command, and each subcommand of a group, in the order `--help` lists them."""
    root = click.Context(main, info_name="session-kit", terminal_width=WIDTH, **CONTEXT)
    found = [("session-kit", root)]

    def walk(group: click.Group, parent: click.Context, prefix: str) -> None:
        for name in group.list_commands(parent):
            command = group.get_command(parent, name)
            if command is None:
                continue
            ctx = click.Context(command, info_name=name, parent=parent)
            found.append((f"{prefix} {name}", ctx))
            if isinstance(command, click.Group):
                walk(command, ctx, f"{prefix} {name}")

    walk(main, root, "session-kit")
    return found


# `--json`'s help names the installed json.md by its absolute path, which is this machine's.
JSON_DOC_SHOWN = "<the kit's package>/docs/reference/json.md"


def same_everywhere(text: str) -> str:
    """Help text with the machine's own paths in it replaced by what they stand for, also
    where click wrapped a path at one of its hyphens, slashes or spaces (a checkout named
    `claude-session-kit` is wrapped at its hyphen, one in `My Projects` at its space)."""
    import re  # here: only the reference page and its test need it

    path = str(JSON_DOC)
    wrapped = "".join(r"(?: |\n *)" if c == " " else re.escape(c) + (r"(?:\n *)?" if c in "-/" else "") for c in path)
    # A long path is put on a line of its own: the words before it keep it, as a short one has.
    return re.sub(r"(?: |\n *)" + wrapped, lambda _: " " + JSON_DOC_SHOWN, text)


def help_text(ctx: click.Context) -> str:
    return same_everywhere(ctx.command.get_help(ctx))


def _anchor(title: str) -> str:
    return title.replace(" ", "-")


def render() -> str:
    """The whole page."""
    every = commands()
    lines = [HEADER.format(width=COLUMNS)]
    lines.append(" · ".join(f"[`{name.removeprefix('session-kit ')}`](#{_anchor(name)})" for name, _ in every[1:]))
    for name, ctx in every:
        lines += ["", f"## {name}", "", "```text", help_text(ctx), "```"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    click.echo(render(), nl=False)
