"""The kit's public Python face: what the command line and other programs call.

Owns: the names a caller uses (`__all__`), each loaded on first use (PEP 562 `__getattr__`),
so `from session_kit import api` costs nothing until a name is used and a caller pays only for
what it asks for. The command line imports the core only through this module (and the errors
from `session_kit.errors`, their one home), and every name here has a caller: code of the
command line that runs (an annotation, a docstring or a comment is no caller) or the example
below (a test keeps it so). Does not re-export what has another import path (the errors) or
what no caller uses: result types are reached through the functions that return them (the
command line's annotations name them from their homes, for type checkers alone); names not
listed here are private and may change.

    from session_kit import api

    ref = api.resolve_session("current", api.claude_root())
    print(api.session_report(ref).as_dict()["tool_calls"])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# name -> "module" (the same name there) or "module:attribute"
_HOMES = {
    # where things are
    "claude_root": "session_kit.claude.paths",
    "install_hint": "session_kit.extras",
    "SCOPES": "session_kit.claude.settings",
    "SCOPE_USER": "session_kit.claude.settings",
    "SCOPE_LOCAL": "session_kit.claude.settings",
    "SCOPE_PROJECT": "session_kit.claude.settings",
    # sessions on disk
    "resolve_session": "session_kit.sessions.resolve",
    "CURRENT": "session_kit.sessions.resolve",
    "latest_first": "session_kit.index.listing",
    "AGENT_FAILED": "session_kit.base.agents:FAILED",
    "AGENT_RUNNING": "session_kit.base.agents:RUNNING",
    "AGENT_STALLED": "session_kit.base.agents:STALLED",
    "AGENT_ENDED": "session_kit.base.agents:ENDED",
    "LIVE_STATUSES": "session_kit.queries.live_agents",
    # transcripts
    "STATUS_OK": "session_kit.transcript.calls",
    "STATUS_ERROR": "session_kit.transcript.calls",
    "STATUS_DECLINED": "session_kit.transcript.calls",
    "STATUS_PENDING": "session_kit.transcript.calls",
    "NOISE_TYPES": "session_kit.base.vocabulary",
    # questions about sessions
    "session_report": "session_kit.queries.report",
    "session_timeline": "session_kit.queries.timeline",
    "debug_agents": "session_kit.queries.agent_tree",
    "live_agents": "session_kit.queries.live_agents",
    "stall_threshold": "session_kit.queries.live_agents:parse_threshold",
    "session_plans": "session_kit.queries.plans",
    "SOURCE_EXIT_PLAN_MODE": "session_kit.queries.plans",
    "SOURCE_PLAN_AGENT": "session_kit.queries.plans",
    "SOURCE_PLAN_FILE": "session_kit.queries.plans",
    "session_card": "session_kit.queries.card",
    "search_engine": "session_kit.queries.search_engine",
    "SEARCH_SCAN": "session_kit.queries.search_engine:SCAN",
    "scan_targets": "session_kit.queries.search_engine",
    "scan_hits": "session_kit.queries.search_engine",
    "iso_moment": "session_kit.queries.search_engine",
    "index_project": "session_kit.queries.search_engine",
    "session_memory": "session_kit.queries.memory",
    "compaction_losses": "session_kit.queries.memory",
    "MEMORY_RESTORE_LIMIT": "session_kit.queries.memory:RESTORE_LIMIT",
    "doctor_report": "session_kit.queries.doctor",
    "session_budget": "session_kit.queries.budget",
    "change_session_budget": "session_kit.queries.budget",
    "budget_sentence": "session_kit.queries.budget:sentence",
    "session_candidates": "session_kit.queries.completion",
    "project_candidates": "session_kit.queries.completion",
    # the archive: every session kept, and put back
    "archive_all": "session_kit.queries.history",
    "restore_session": "session_kit.queries.history",
    "session_cwd": "session_kit.queries.history",
    "archive_dir": "session_kit.archive.layout",
    "verify_archive": "session_kit.queries.history",
    "search_history": "session_kit.queries.indexed",
    "export_history": "session_kit.queries.indexed",
    "SearchFilters": "session_kit.index.query:Filters",
    "drift_report": "session_kit.queries.drift",
    "root_source": "session_kit.queries.doctor",
    "ROOT_FROM_OPTION": "session_kit.queries.doctor",
    # the team database (PostgreSQL, the `team` extra)
    "push_history": "session_kit.team.sync",
    "push_folder": "session_kit.team.sync",
    "TeamFilters": "session_kit.team.search",
    "search_team": "session_kit.team.queries",
    "team_sessions": "session_kit.team.queries",
    "team_card": "session_kit.team.queries",
    "team_agents": "session_kit.team.queries",
    "team_usage": "session_kit.team.queries",
    # tokens and cost
    "load_prices": "session_kit.usage.prices",
    "bundled_prices_date": "session_kit.usage.pricerows:bundled_date",
    "usage_report": "session_kit.usage.history",
    "parse_day": "session_kit.usage.history",
    "statusline_main": "session_kit.usage.statusline:main",
    "STATUSLINE_SCRIPT": "session_kit.usage.statusline:SCRIPT",
    # preprocessing
    "PreprocessOptions": "session_kit.preprocess",
    "preprocess_session": "session_kit.preprocess",
    "FORMATS": "session_kit.preprocess.render.base",
    "DEFAULT_FORMAT": "session_kit.preprocess.render.base",
    # looking at a session
    "ViewOptions": "session_kit.view.build",
    "VIEW_FORMATS": "session_kit.view.page",
    "view_session": "session_kit.view.page",
    # installing into Claude Code
    "install": "session_kit.install.installer",
    "uninstall": "session_kit.install.installer",
    "register_mcp_server": "session_kit.install.mcp_servers:install",
    "unregister_mcp_server": "session_kit.install.mcp_servers:uninstall",
    # the kit's own state: scratch dirs and work state
    "state_root": "session_kit.state.root",
    "StateRootUnknown": "session_kit.state.root",
    "UnsafePath": "session_kit.state.root",
    "scratch_of": "session_kit.state.scratch",
    "scratch_overview": "session_kit.state.scratch",
    "clean_scratch": "session_kit.state.scratch:clean",
    "render_state": "session_kit.state.scratch",
    "ScratchError": "session_kit.state.scratch",
    "NoCurrentSession": "session_kit.state.scratch",
    "StateFileDamaged": "session_kit.state.scratch",
    "InvalidSessionId": "session_kit.state.ids",
    # sessions only the client's prompt history remembers
    "lost_sessions": "session_kit.sessions.lost",
    "archived_only": "session_kit.sessions.archived_only",
    "search_lost": "session_kit.sessions.lost",
    # secrets kept in the client's files and the archive
    "secrets_scope": "session_kit.queries.secrets:scope_of",
    "find_secrets": "session_kit.queries.secrets:find_in",
    "scrub_secrets": "session_kit.queries.scrub:scrub",
    # secrets in what the kit shows
    "shown": "session_kit.redaction.engine",
    "shown_value": "session_kit.redaction.engine",
    "shown_many": "session_kit.redaction.engine",
    "is_secret_name": "session_kit.redaction.engine",
    "showing_secrets": "session_kit.redaction.engine",
    "redaction_enabled": "session_kit.redaction.engine",
    # text made safe for a terminal
    "safe_text": "session_kit.terminal:safe",
    "SafeStream": "session_kit.terminal",
    # the --json documents
    "json_document": "session_kit.documents",
    "json_text": "session_kit.documents",
    # the MCP server
    "serve_mcp": "session_kit.mcp_server.server:serve",
    # reading and writing files
    "TEXT_ERRORS": "session_kit.base.fileio",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attribute = home.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # for type checkers and editors: the same names, eagerly
    from session_kit.archive.layout import archive_dir
    from session_kit.base.agents import ENDED as AGENT_ENDED
    from session_kit.base.agents import FAILED as AGENT_FAILED
    from session_kit.base.agents import RUNNING as AGENT_RUNNING
    from session_kit.base.agents import STALLED as AGENT_STALLED
    from session_kit.base.fileio import TEXT_ERRORS
    from session_kit.base.vocabulary import NOISE_TYPES
    from session_kit.claude.paths import claude_root
    from session_kit.claude.settings import SCOPE_LOCAL, SCOPE_PROJECT, SCOPE_USER, SCOPES
    from session_kit.documents import json_document, json_text
    from session_kit.extras import install_hint
    from session_kit.index.listing import latest_first
    from session_kit.index.query import Filters as SearchFilters
    from session_kit.install.installer import install, uninstall
    from session_kit.install.mcp_servers import install as register_mcp_server
    from session_kit.install.mcp_servers import uninstall as unregister_mcp_server
    from session_kit.mcp_server.server import serve as serve_mcp
    from session_kit.preprocess import PreprocessOptions, preprocess_session
    from session_kit.preprocess.render.base import DEFAULT_FORMAT, FORMATS
    from session_kit.queries.agent_tree import debug_agents
    from session_kit.queries.budget import change_session_budget, session_budget
    from session_kit.queries.budget import sentence as budget_sentence
    from session_kit.queries.card import session_card
    from session_kit.queries.completion import project_candidates, session_candidates
    from session_kit.queries.doctor import ROOT_FROM_OPTION, doctor_report, root_source
    from session_kit.queries.drift import drift_report
    from session_kit.queries.history import archive_all, restore_session, session_cwd, verify_archive
    from session_kit.queries.indexed import export_history, search_history
    from session_kit.queries.live_agents import LIVE_STATUSES, live_agents
    from session_kit.queries.live_agents import parse_threshold as stall_threshold
    from session_kit.queries.memory import RESTORE_LIMIT as MEMORY_RESTORE_LIMIT
    from session_kit.queries.memory import compaction_losses, session_memory
    from session_kit.queries.plans import SOURCE_EXIT_PLAN_MODE, SOURCE_PLAN_AGENT, SOURCE_PLAN_FILE, session_plans
    from session_kit.queries.report import session_report
    from session_kit.queries.scrub import scrub as scrub_secrets
    from session_kit.queries.search_engine import SCAN as SEARCH_SCAN
    from session_kit.queries.search_engine import index_project, iso_moment, scan_hits, scan_targets, search_engine
    from session_kit.queries.secrets import find_in as find_secrets
    from session_kit.queries.secrets import scope_of as secrets_scope
    from session_kit.queries.timeline import session_timeline
    from session_kit.redaction.engine import (
        is_secret_name,
        redaction_enabled,
        showing_secrets,
        shown,
        shown_many,
        shown_value,
    )
    from session_kit.sessions.archived_only import archived_only
    from session_kit.sessions.lost import lost_sessions, search_lost
    from session_kit.sessions.resolve import CURRENT, resolve_session
    from session_kit.state.ids import InvalidSessionId
    from session_kit.state.root import StateRootUnknown, UnsafePath, state_root
    from session_kit.state.scratch import (
        NoCurrentSession,
        ScratchError,
        StateFileDamaged,
        render_state,
        scratch_of,
        scratch_overview,
    )
    from session_kit.state.scratch import clean as clean_scratch
    from session_kit.team.queries import search_team, team_agents, team_card, team_sessions, team_usage
    from session_kit.team.search import TeamFilters
    from session_kit.team.sync import push_folder, push_history
    from session_kit.terminal import SafeStream
    from session_kit.terminal import safe as safe_text
    from session_kit.transcript.calls import STATUS_DECLINED, STATUS_ERROR, STATUS_OK, STATUS_PENDING
    from session_kit.usage.history import parse_day, usage_report
    from session_kit.usage.pricerows import bundled_date as bundled_prices_date
    from session_kit.usage.prices import load_prices
    from session_kit.usage.statusline import SCRIPT as STATUSLINE_SCRIPT
    from session_kit.usage.statusline import main as statusline_main
    from session_kit.view.build import ViewOptions
    from session_kit.view.page import VIEW_FORMATS, view_session
