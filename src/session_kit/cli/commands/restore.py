"""`session-kit restore`: an archived session put back where `claude --resume` finds it.

Owns: its options and its text output. What is restored is `queries.history`'s and
`archive.view`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.text import plural


@click.command(
    epilog=epilog(
        "session-kit restore 3f2a                # then: cd <project> && claude --resume <id>",
        codes=(3, 4),
    )
)
@click.argument("session")
@shared_options
@pass_kit
def restore(kit: Kit, session: str) -> None:
    """Put an archived session (id or unique prefix) back where `claude --resume` finds it.

    Every archived file of it is written under the Claude root (transcript, agent logs and
    meta files, spilled tool outputs, titles, workflow journals, its plan), files already there
    left as they are. A transcript the client had rewritten comes back whole: the entries its
    earlier generations held and the rewrite dropped first, then the rest. Restored files get the current time, so the client's
    clean-up does not delete them again at its next start.
    """
    restored = api.restore_session(session, kit.root, api.state_root())
    if kit.as_json:
        emit_json(
            "restore",
            {
                "session_id": restored.session_id,
                "written": list(restored.written),
                "kept": list(restored.kept),
                "transcript": restored.transcript,
                "earlier_entries": restored.earlier_entries,
            },
            redact=False,
        )
        return
    click.echo(
        f"Restored {plural(len(restored.written), 'file')} of {restored.session_id} ({len(restored.kept)} already there)"
    )
    if restored.earlier_entries:
        click.echo(
            f"  {plural(restored.earlier_entries, 'earlier entry', 'earlier entries')} came from the archive's earlier generations "
            "(the client had rewritten the transcript without them)"
        )
    if restored.transcript:
        click.echo(f"  {restored.transcript}")
        cwd = api.session_cwd(restored.transcript)
        import shlex  # here, not at the top: no other line of the command needs it

        where = f"cd {shlex.quote(cwd)} && " if cwd else ""
        click.echo(f"Resume it: {where}claude --resume {restored.session_id}")
