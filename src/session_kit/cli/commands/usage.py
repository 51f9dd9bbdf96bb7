"""`session-kit usage`: tokens and cost over the whole history.

Owns: its options and its table. The counting is `usage.history`'s (through the index), the
prices `usage.prices`'.
"""

from __future__ import annotations

from datetime import date

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.style import terminal_width
from session_kit.cli.tables import Column, table
from session_kit.cli.team import only_local, team_option
from session_kit.cli.text import plural
from session_kit.cli.tokens import human_tokens
from session_kit.errors import EXIT_NOT_FOUND, TEAM_CODES, KitError


def _day(_ctx: click.Context, param: click.Parameter, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return api.parse_day(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD or YYYYMMDD)", param=param) from None


@click.command(
    epilog=epilog(
        "session-kit usage                          # tokens and cost by day",
        "session-kit usage --by model --since 2026-11-01",
        "session-kit usage --by session --json | jq '.total'",
        "session-kit usage --team --by machine      # the team database's, per machine",
        codes=(EXIT_NOT_FOUND, *TEAM_CODES),
    )
)
@click.option("--since", callback=_day, metavar="DATE", help="From this local date on (YYYY-MM-DD).")
@click.option("--until", callback=_day, metavar="DATE", help="Up to this local date, included.")
@click.option(
    "--by",
    type=click.Choice(["day", "week", "month", "project", "session", "model", "agent", "machine", "user"]),
    default="day",
    show_default=True,
    help="How to group the rows (agent: the main conversations, and agents by type; machine, user: with --team).",
)
@click.option("--no-index", is_flag=True, help="Read every transcript; neither use nor update the kit's index.")
@team_option
@shared_options
@pass_kit
def usage(kit: Kit, since: date | None, until: date | None, by: str, no_index: bool, team: bool) -> None:
    """Tokens and cost over the whole history, by day, week, month, project, session, model or agent.

    Every session and agent log of the Claude root is counted: once per API message (the last
    line of a message written as several; a message repeated by a resumed or copied file counts
    once), input, output, cache read and cache writes by tier (5-minute, 1-hour), per model.
    Agents whose log is missing count with the usage their Agent result reports: their last
    request only, so the rows holding them are marked floor.

    Cost comes from the price table bundled with the kit (dated {date}; the date of the table
    used is printed and in --json), or from $SESSION_KIT_PRICES / prices.json in the kit's state dir when there is one. A model
    with no price is named and left out of the cost, never priced at zero. The kit's index (the
    one search and export read) keeps what each file held, so later runs read only changed files.

    --team counts the team database's rows (`session-kit sync`) by the same rules, each API
    message once across every machine; --by machine and --by user group them by who pushed
    them: a machine's row is what `usage` counts on that machine.
    """
    if since and until and since > until:
        raise KitError("--since is after --until")
    if by in ("machine", "user") and not team:
        raise click.UsageError(f"--by {by} needs --team", click.get_current_context())
    prices = api.load_prices()
    if team:
        only_local(no_index=no_index)
        report = api.team_usage(prices, state_root=api.state_root(), by=by, since=since, until=until)
    else:
        report = api.usage_report(
            str(kit.root), prices, by=by, since=since, until=until, state_root=None if no_index else api.state_root()
        )
    if kit.as_json:
        where = {"team": True} if team else {"claude_root": str(kit.root)}
        emit_json("usage", {**where, **report.as_dict()})
        return
    if not report.rows:
        click.echo(
            "No usage in the team database."
            if team
            else f"No usage in {plural(report.files, 'transcript')} under {kit.root}."
        )
        return
    # On a narrow terminal the token kinds go first (TOTAL stays), then SESSIONS; keys are never cut.
    columns = [
        Column(by.upper()),
        Column("SESSIONS", right=True, drop=5),
        Column("INPUT", right=True, drop=1),
        Column("OUTPUT", right=True, drop=2),
        Column("CACHE R", right=True, drop=3),
        Column("CACHE W", right=True, drop=4),
        Column("TOTAL", right=True),
        Column("COST", right=True),
        Column("", flex=True),  # `floor` where a row holds agents counted from their results
    ]
    cells = []
    for row in (*report.rows, report.total):
        t = row.tokens.total
        figures = (t.input, t.output, t.cache_read, t.cache_write, t.tokens)
        cells.append(
            [row.key, str(row.sessions), *map(human_tokens, figures), row.cost.display(), "floor" if row.floor else ""]
        )
    for line in table(columns, cells, width=terminal_width(), flex_min=0):
        say(line)
    unknown = report.total.cost.unknown_models
    if unknown:
        say(f"No price for {', '.join(unknown)}: their tokens are counted, not priced.")
    if report.agents_from_results:
        say(
            f"{plural(report.agents_from_results, 'agent')} whose log is gone counted from the Agent results"
            " (the last request only): the rows marked floor are at least that much."
        )
    if report.duplicates:
        say(f"{plural(report.duplicates, 'message')} repeated by resumed or copied files counted once.")
    say(f"Prices of {prices.date}" + (f" from {prices.override}" if prices.override else " (bundled)") + ".")


# The bundled table's date, in the help (read when this module loads: only when a command runs).
usage.help = (usage.help or "").replace("{date}", api.bundled_prices_date())
