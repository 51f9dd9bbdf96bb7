"""Each tool of `session-kit mcp` answered by the core, as its command's `--json` document.

Owns: calling the core for a tool's checked arguments (through `session_kit.api`, as the
command line does), the document each answers with (the same fields, kind and redaction as
the command's `--json`: `documents.json_document`), and cutting a long document's JSON text
into pages (`page`: a cursor is where the next page starts). Writes nothing: the memory is
brought up to date in memory only; the search and usage keep the kit's index, a cache of the
transcripts, up to date as `session-kit search` and `usage` do. Does not check arguments
(`tools`) or speak the protocol (`server`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from session_kit import api
from session_kit.errors import KitError
from session_kit.mcp_server.tools import BadArguments

PAGE_CHARS = 20_000  # a page of an answer's JSON text: well under the client's limit for a tool's output


class Page(NamedTuple):
    text: str  # this page of the document's JSON text
    start: int  # where it starts in the whole text
    total: int  # the whole text's length
    cursor: str | None  # where the next page starts; None: this is the last

    def note(self) -> str | None:
        """What the model is told about a page that is not the whole answer."""
        if self.start == 0 and self.cursor is None:
            return None
        end = self.start + len(self.text)
        head = f"characters {self.start}-{end} of {self.total} of the JSON document"
        if self.cursor is None:
            return f"The last page: {head}."
        return f"Page {head}: call again with the same arguments and cursor {self.cursor!r} for the rest."


def page(text: str, cursor: str | None, size: int = PAGE_CHARS) -> Page:
    """The page of `text` that `cursor` names (None: the first)."""
    start = 0
    if cursor is not None:
        if not cursor.isdigit() or int(cursor) >= max(len(text), 1):
            raise BadArguments(f"`cursor` must be one a previous page of this answer gave, not {cursor!r}")
        start = int(cursor)
    end = min(len(text), start + size)
    return Page(text[start:end], start, len(text), str(end) if end < len(text) else None)


def _session(root: Path, args: dict[str, Any]) -> Any:
    return api.resolve_session(args.get("session") or api.CURRENT, root)


def _iso(value: str | None, name: str) -> str | None:
    try:
        return api.iso_moment(value)
    except ValueError:
        raise BadArguments(f"`{name}` must be a date (YYYY-MM-DD) or an ISO time, not {value!r}") from None


def search_history(root: Path, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    query, all_projects, project = args["query"], args.get("all_projects", False), args.get("project")
    if project is not None and all_projects:
        raise BadArguments("give `project` or `all_projects`, not both")
    since, until = _iso(args.get("since"), "since"), _iso(args.get("until"), "until")
    engine = api.search_engine(
        query,
        project_path=project,
        all_projects=all_projects,
        errors_only=args.get("errors_only", False),
        since=since,
        until=until,
        agent=args.get("agent"),
    )
    limit = args.get("limit", 20)
    if engine == api.SEARCH_SCAN:
        targets = api.scan_targets(root, project_path=project, all_projects=all_projects)
        hits, echoes = api.scan_hits(targets, query, tool=args.get("tool"), limit=limit)
        return "search", {
            "query": query,
            "files": len(targets),
            "kit_hits": len(echoes),
            "hits": [h.as_dict() for h in hits],
        }
    filters = api.SearchFilters(
        project=api.index_project(root, project_path=project, all_projects=all_projects),
        tool=args.get("tool"),
        errors_only=args.get("errors_only", False),
        since=since,
        until=until,
        agent=args.get("agent"),
        kit=False,
    )
    found = api.search_history(query, root, api.state_root(), filters, limit=limit)
    return "search", {"query": query, "mode": "index", **found.as_dict()}


def show_session(root: Path, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return "show", api.session_report(_session(root, args)).as_dict()


def debug_agents(root: Path, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    report = api.debug_agents(
        _session(root, args),
        agent=args.get("agent"),
        all_agents=args.get("all", False),
        agent_type=args.get("agent_type"),
        tool=args.get("tool"),
    )
    return "debug-agent", report.as_dict()


def session_memory(root: Path, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    ref = _session(root, args)
    if args.get("dropped"):
        return "memory-dropped", {
            "session_id": ref.id,
            "compactions": [c.as_dict() for c in api.compaction_losses(ref)],
        }
    return "memory", api.session_memory(ref, save=False).as_dict()


def plan(root: Path, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    ref = _session(root, args)
    plans = api.session_plans(ref, root=root)
    chosen = plans if args.get("all") else plans[-1:]
    return "plan", {
        "session_id": ref.id,
        "path": str(ref.path),
        "count": len(plans),
        "plans": [p.as_dict() for p in chosen],
    }


def live_agents(root: Path, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    threshold = None
    if args.get("stalled_after") is not None:
        try:
            threshold = api.stall_threshold(args["stalled_after"])
        except (ValueError, KitError):
            raise BadArguments(
                f"`stalled_after` must be minutes (10, 0.5) or 30s, 2m, 1h, not {args['stalled_after']!r}"
            ) from None
    report = api.live_agents(_session(root, args), state_root=api.state_root(), stalled_after_s=threshold)
    return "agents", report.as_dict()


def usage(root: Path, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    days = {}
    for name in ("since", "until"):
        if args.get(name) is not None:
            try:
                days[name] = api.parse_day(args[name])
            except ValueError:
                raise BadArguments(f"`{name}` must be a date (YYYY-MM-DD), not {args[name]!r}") from None
    if days.get("since") and days.get("until") and days["since"] > days["until"]:
        raise BadArguments("`since` is after `until`")
    report = api.usage_report(
        str(root), api.load_prices(), by=args.get("by", "day"), state_root=api.state_root(), **days
    )
    return "usage", {"claude_root": str(root), **report.as_dict()}


ANSWERS: dict[str, Callable[[Path, dict[str, Any]], tuple[str, dict[str, Any]]]] = {
    "search_history": search_history,
    "show_session": show_session,
    "debug_agents": debug_agents,
    "session_memory": session_memory,
    "plan": plan,
    "live_agents": live_agents,
    "usage": usage,
}


def answer(name: str, root: Path, args: dict[str, Any]) -> Page:
    """The page of tool `name`'s document that `args["cursor"]` names."""
    kind, payload = ANSWERS[name](root, args)
    return page(api.json_text(api.json_document(kind, payload)), args.get("cursor"))
