"""`session-kit doctor`: where the kit and the Claude root are, what is installed; with
`--transcripts`, what the transcripts hold that the kit does not know.

Owns: its options and its text output. The report is `queries.doctor`'s, the archive's part
`queries.history`'s, the drift `queries.drift`'s (which says when there is no root to read).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from session_kit import __version__, api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.errors import no_claude_root
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.style import FAILURE, paint
from session_kit.cli.text import plural, visible
from session_kit.cli.tokens import human_tokens
from session_kit.errors import EXIT_DRIFT, EXIT_INTERNAL, EXIT_NOT_FOUND, KitError


@click.command(
    epilog=epilog(
        "session-kit doctor",
        "session-kit doctor --transcripts --strict   # in CI: fail on transcript types the kit does not know",
        codes=(EXIT_NOT_FOUND, EXIT_DRIFT),
        meaning={
            EXIT_INTERNAL: "the kit is neither installed nor a plugin, or something dangles (or an internal error)",
            EXIT_NOT_FOUND: "--transcripts: no Claude root",
        },
    )
)
@click.option(
    "--transcripts",
    is_flag=True,
    help="Instead: the client versions in the root's transcripts, and the entry and content-block "
    "types the kit does not know (format drift), by version, with an example location each; also "
    "the attachment kinds it does not know (listed, not drift: attachments are never shown).",
)
@click.option("--strict", is_flag=True, help="With --transcripts: exit 7 when an unknown type was found.")
@shared_options
@pass_kit
def doctor(kit: Kit, transcripts: bool, strict: bool) -> None:
    """Where the Claude root and the kit's state are, what they hold, and what is installed.

    Exits 0 when the kit is installed and current for the user (or this project), or runs
    as a plugin (enabled by a marketplace install, or seen from inside a `--plugin-dir`
    session), else 1 with a line saying what to run. With --transcripts, what the transcripts hold that the
    kit does not know (exit 7 with --strict when there is any).
    """
    if strict and not transcripts:
        raise KitError("--strict goes with --transcripts")
    if transcripts:
        _doctor_transcripts(kit, strict=strict)
        return
    report = api.doctor_report(
        claude_root=kit.root, root_source=api.root_source(kit.claude_dir is not None), project=Path.cwd()
    )
    if report["claude_root_source"] == api.ROOT_FROM_OPTION:
        report["claude_root_source"] = "--claude-dir"
    if kit.as_json:
        emit_json("doctor", report, redact=False)
    else:
        _print_doctor(report)
    if not report["ok"]:
        sys.exit(1)


def _doctor_transcripts(kit: Kit, *, strict: bool) -> None:
    drift = api.drift_report(kit.root)
    if kit.as_json:
        emit_json("doctor-transcripts", drift.as_dict())
    else:
        data = drift.as_dict()
        versions = ", ".join(f"{v} ({n})" for v, n in data["versions"].items()) or "none"
        say(
            f"Transcripts under {kit.root}: {plural(data['files'], 'file')}, {plural(data['entries'], 'entry', 'entries')}"
        )
        say(f"Client versions (entries): {versions}")
        for label, key in (
            ("entry types", "unknown_entry_types"),
            ("content-block types", "unknown_block_types"),
            ("attachment kinds (never shown; not drift)", "unknown_attachment_kinds"),
        ):
            table = data[key]
            say(f"Unknown {label}: {len(table) or 'none'}")
            for name, item in table.items():
                by = ", ".join(f"{v} {n}" for v, n in item["versions"].items())
                say(f"  {visible(name)}  {item['count']} ({by})  e.g. {item['example']}")
    if strict and drift.drifted:
        sys.exit(EXIT_DRIFT)


NO_ROUTE = (
    "Installed:   nothing; choose one route:",
    "  session-kit install                            hooks in your settings.json",
    "  claude plugin marketplace add <kit>            then:",
    "  claude plugin install session-kit@session-kit  the plugin, in every session",
    "  claude --plugin-dir <kit>                      the plugin, in one session",
)


def _advice(item: dict, *, plugin: bool) -> str:
    """What to run for a scope that is not current: advice that works (install refuses an
    invalid file, exit 5, and the project scope, exit 2), and never a second install beside
    a plugin that already runs the hooks."""
    if item["error"]:
        return f"cannot be read: fix {item['settings_path']} (it is not valid JSON), then run `session-kit install`"
    if plugin:
        scope = "" if item["scope"] == api.SCOPE_USER else f" --scope {item['scope']}"
        return f"the plugin runs the kit: take these out with `session-kit uninstall{scope}`"
    if item["scope"] == api.SCOPE_PROJECT:
        return (
            "in the project's shared settings, with this machine's paths: run `session-kit uninstall --scope project`, "
            "then `session-kit install --scope local`"
        )
    return "OUTDATED or incomplete (run `session-kit install`)"


def _print_doctor(report: dict) -> None:
    say(f"session-kit {__version__} ({sys.executable})")
    say(f"Claude root: {report['claude_root']} [{report['claude_root_source']}]")
    if not report["is_claude_root"]:
        say(f"  {no_claude_root(report['claude_root'])}")  # the words `sessions` and every reader say
    say(f"Projects: {report['projects']}, sessions: {report['sessions']}")
    say(f"Kit state:   {report['state_root']}")
    _print_routes(report)
    for warning in report["warnings"]:
        say(paint(f"Warning: {warning}", FAILURE))
    if report["hook_log_lines"]:
        say(f"Hook log: {report['hook_log_lines']} problem lines in {report['hook_log']}")
    _print_archive(report["archive"])
    _print_index(report["index"])
    _print_budgets(report["budgets"])


def _print_budgets(budgets: dict) -> None:
    """One line of what is set, then each malformed value (left out) as a warning."""
    parts = []
    if budgets["session"] is not None:
        parts.append(f"{budgets['session']['text']} per session")
    if budgets["agent"] is not None:
        parts.append(f"{human_tokens(budgets['agent'])} tokens per subagent")
    for name, value in budgets["agent_by_type"].items():
        parts.append(f"{visible(name)} {human_tokens(value) + ' tokens' if value is not None else 'none'}")
    say(f"Budgets:     {'; '.join(parts) if parts else 'none set'}")
    for problem in budgets["problems"]:
        say(paint(f"Warning: {problem}", FAILURE))


def _print_routes(report: dict) -> None:
    """How the kit is in Claude Code: hooks in settings files, a plugin, both, or neither."""
    plugin = bool(report["plugin"])
    if not report["installed"]:
        for line in ("Installed:   as a plugin (its hooks come with it; nothing to install)",) if plugin else NO_ROUTE:
            say(line)
    for item in report["installed"]:
        hooks = ", ".join(sorted(item["hooks"])) or "no hooks"
        fine = item["current"] and not item["error"] and item["scope"] != api.SCOPE_PROJECT
        current = "current" if fine else _advice(item, plugin=plugin)
        say(f"Installed ({item['scope']}): {item['settings_path']}: {hooks}; {current}")
        if item["commands"]:
            say(f"  slash commands: {', '.join('/' + c for c in item['commands'])}")
        if item["error"]:
            say(f"  problem: {item['error']}")
        fix = "`session-kit uninstall`" if plugin else "`session-kit install` to repoint, or `session-kit uninstall`"
        for what in item["dangling"]:
            say(f"  dangling: {what} (run {fix})")
    for where in report["plugin"]:
        say(f"Plugin:      {where}")
    _print_mcp_server(report["mcp_server"], plugin=plugin)
    guard = report["guard_secrets"]
    if guard:
        say(f"Secret guard: on ({'; '.join(guard)})")
    elif report["installed"] or plugin:
        how = "the plugin's guard_secrets option" if plugin else "`session-kit install --guard-secrets`"
        say(f"Secret guard: off (turn it on with {how})")


def _print_mcp_server(server: dict, *, plugin: bool) -> None:
    """The kit's MCP server in the client's user config (the plugin declares its own)."""
    where = server["config_path"]
    if server["error"]:
        say(f"MCP server:  {server['error']}")
    elif server["registered"]:
        how = "current" if server["current"] else "not this installation's (run `session-kit install`)"
        say(f"MCP server:  registered in {where} ({'by the kit; ' if server['by_kit'] else ''}{how})")
    elif not plugin:
        say(f"MCP server:  not registered in {where} (`session-kit install` registers it)")
    if not server["sdk"] and (server["registered"] or plugin):
        say(f"  the MCP SDK is missing here: {api.install_hint('mcp')}")


def _print_archive(archive: dict) -> None:
    state = "" if archive["enabled"] else " (hooks' archiving is off)"
    say(f"Archive:     {archive['dir']}: {plural(archive['files'], 'file')}, {archive['bytes'] / 1e6:.1f} MB{state}")
    say(
        f"  not archived yet: {plural(archive['not_archived_files'], 'file')} ({archive['not_archived_bytes'] / 1e6:.1f} MB); "
        f"the client deletes transcripts after {archive['cleanup_period_days']:g} days "
        f"(cleanupPeriodDays: {archive['cleanup_period_source']})"
    )
    if archive["aging_out_unarchived"]:
        say(
            f"  WARNING: {plural(archive['aging_out_unarchived'], 'file')} will age out unarchived within a week: "
            "run `session-kit archive`"
        )


def _print_index(index: dict) -> None:
    if index["state"] == "missing":
        say(f"Index:       {index['path']}: not made yet (the first search makes it)")
    elif index["state"] == "damaged":
        say(paint(f"Index:       {index['path']}: damaged ({index['problem']}); the next search rebuilds it", FAILURE))
    else:
        busy = f" ({index['problem']})" if index["problem"] else ""
        say(f"Index:       {index['path']}: ok, {index['bytes'] / 1e6:.1f} MB{busy}")
