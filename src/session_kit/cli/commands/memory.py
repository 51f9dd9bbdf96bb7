"""`session-kit memory`: the session's working memory, as the hooks would put it back.

Owns: its options and its text output. The memory (brought up to date first) is
`queries.memory`'s; what is captured `memory/`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say, say_lines
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument


@click.command(
    epilog=epilog(
        "session-kit memory              # what would come back after a compaction",
        "session-kit memory --whole      # the whole memory, not cut to the context limit",
        "session-kit memory --dropped    # what each compaction's summary lost of the memory",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option("--whole", is_flag=True, help="The whole memory, not the block cut to the context limit.")
@click.option("--saved", is_flag=True, help="Only what the hooks saved; do not read what the transcript gained since.")
@click.option(
    "--dropped",
    is_flag=True,
    help="For each compaction, the facts the memory held just before it that the client's own summary "
    "(PostCompact's compact_summary, else the summary message after the boundary) does not mention.",
)
@shared_options
@pass_kit
def memory(kit: Kit, session: str, whole: bool, saved: bool, dropped: bool) -> None:
    """The session's working memory: what the hooks would put back after a compaction (values
    saved by hand, the person's requests and every standing instruction in them, failures not
    yet fixed, subagents as they stand, the plan and working documents, tasks, changed files,
    the assistant's last words).

    It is brought up to date from the transcript first, as the PreCompact hook does (`--saved`
    shows only what was saved). Capture is turned off or trimmed in the kit's config file or
    with SESSION_KIT_MEMORY=off and SESSION_KIT_MEMORY_LEAVE_OUT (docs/how-to/survive-compaction.md).
    `--dropped` compares, at each compaction, the memory a capture just before it held with the
    client's summary, and lists what the summary lost: requests, standing instructions, open
    failures, changed files, tasks, agents still running, the plan (a path counts as mentioned
    by its file name, a test by its id, a task by its number in a range like "Tasks #1-#7", a
    text by most of its telling words). See docs/how-to/survive-compaction.md.
    SESSION defaults to `current`; `--session` is the same.
    """
    ref = resolve(kit, session)
    if dropped:
        _show_dropped(kit, ref)
        return
    view = api.session_memory(ref, update=not saved)
    if kit.as_json:
        emit_json("memory", view.as_dict())
        return
    settings = view.settings
    if not settings["capture"]:
        click.echo(f"Memory capture is off ({settings['source']}); only values saved by hand come back.")
    for problem in settings["problems"]:
        click.echo(f"session-kit: {problem}", err=True)
    if whole:
        say_lines(view.whole)
        return
    if view.restored is None:
        click.echo(f"Nothing to put back yet for session {ref.id}: no request, call or saved value captured.")
        return
    say_lines(view.restored)
    click.echo("")
    say(f"({len(view.restored)} characters of the {api.MEMORY_RESTORE_LIMIT} the restore may use; --whole for all)")


def _show_dropped(kit: Kit, ref) -> None:
    losses = api.compaction_losses(ref)
    if kit.as_json:
        emit_json("memory-dropped", {"session_id": ref.id, "compactions": [loss.as_dict() for loss in losses]})
        return
    if not losses:
        click.echo(f"Session {ref.id} has not been compacted: nothing was dropped.")
        return
    for loss in losses:
        where = f"compaction {loss.number} ({loss.trigger or 'trigger unknown'}, transcript line {loss.line})"
        if loss.summary_source is None:
            click.echo(f"{where}: no summary found; all {loss.facts} facts of the memory were lost with it.")
        else:
            kept = loss.facts - len(loss.lost)
            click.echo(
                f"{where}: the client's summary ({loss.summary_source}) mentions {kept} of {loss.facts} facts the memory held; it lost:"
            )
        for kind, text in loss.lost:
            click.echo(f"- {kind}: {one_line(text)}")
        click.echo("")


def one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
