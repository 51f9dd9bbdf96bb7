"""The kit's public Python face: what the CLI, the slash commands and other programs call.

Owns: the names a client may rely on (`__all__`): finding sessions, the questions the
commands ask, preprocessing, installing, the scratch state, and the errors. Everything is
loaded on first use (PEP 562 `__getattr__`), so `from session_kit import api` costs nothing
until a name is used and a client pays only for what it asks for: the command line imports
the core only through this module. Names not listed here are private and may change.

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
    "encode_project_dir": "session_kit.claude.encoding",
    "SCOPES": "session_kit.claude.settings",
    "SCOPE_USER": "session_kit.claude.settings",
    "SCOPE_PROJECT": "session_kit.claude.settings",
    # sessions on disk
    "SessionRef": "session_kit.sessions.store",
    "AgentLogRef": "session_kit.sessions.store",
    "list_all_sessions": "session_kit.sessions.store",
    "sessions_in_scope": "session_kit.sessions.store",
    "projects_in_scope": "session_kit.sessions.store",
    "resolve_session": "session_kit.sessions.resolve",
    "CURRENT": "session_kit.sessions.resolve",
    "SessionOverview": "session_kit.sessions.overview",
    "overviews": "session_kit.sessions.overview",
    "latest_first": "session_kit.sessions.listing",
    "Session": "session_kit.sessions.session",
    "AgentRun": "session_kit.sessions.agents",
    "AGENT_OK": "session_kit.sessions.agents",
    "AGENT_FAILED": "session_kit.sessions.agents",
    "AGENT_RUNNING": "session_kit.sessions.agents",
    # transcripts
    "Entry": "session_kit.transcript.entries",
    "read_entries": "session_kit.transcript.entries",
    "ToolCall": "session_kit.transcript.calls",
    "STATUS_OK": "session_kit.transcript.calls",
    "STATUS_ERROR": "session_kit.transcript.calls",
    "STATUS_PENDING": "session_kit.transcript.calls",
    "ReadStats": "session_kit.transcript.reader",
    # questions about sessions
    "SessionReport": "session_kit.queries.report",
    "session_report": "session_kit.queries.report",
    "Timeline": "session_kit.queries.timeline",
    "session_timeline": "session_kit.queries.timeline",
    "AgentNode": "session_kit.queries.agent_tree",
    "AgentReport": "session_kit.queries.agent_tree",
    "debug_agents": "session_kit.queries.agent_tree",
    "Plan": "session_kit.queries.plans",
    "session_plans": "session_kit.queries.plans",
    "SOURCE_EXIT_PLAN_MODE": "session_kit.queries.plans",
    "SOURCE_PLAN_AGENT": "session_kit.queries.plans",
    "SOURCE_PLAN_FILE": "session_kit.queries.plans",
    "SessionInfo": "session_kit.queries.card",
    "session_card": "session_kit.queries.card",
    "Query": "session_kit.queries.search",
    "SearchHit": "session_kit.queries.search",
    "search": "session_kit.queries.search",
    "session_targets": "session_kit.queries.search",
    "MemoryView": "session_kit.queries.memory",
    "session_memory": "session_kit.queries.memory",
    "MEMORY_RESTORE_LIMIT": "session_kit.queries.memory:RESTORE_LIMIT",
    "doctor_report": "session_kit.queries.doctor",
    # the archive: every session kept, and put back
    "ArchiveRun": "session_kit.queries.history",
    "archive_all": "session_kit.queries.history",
    "restore_session": "session_kit.queries.history",
    "session_cwd": "session_kit.queries.history",
    "archive_dir": "session_kit.archive.store",
    "HistoryHits": "session_kit.queries.history",
    "search_history": "session_kit.queries.history",
    "update_index": "session_kit.queries.history",
    "export_history": "session_kit.queries.history",
    "SearchFilters": "session_kit.index.query:Filters",
    "IndexedHit": "session_kit.index.query",
    "DriftReport": "session_kit.queries.drift",
    "drift_report": "session_kit.queries.drift",
    "root_source": "session_kit.queries.doctor",
    "ROOT_FROM_OPTION": "session_kit.queries.doctor",
    # tokens and cost
    "TokenUsage": "session_kit.transcript.tokens",
    "Usage": "session_kit.transcript.tokens",
    "PriceTable": "session_kit.usage.prices",
    "load_prices": "session_kit.usage.prices",
    "bundled_prices_date": "session_kit.usage.pricerows:bundled_date",
    "SessionUsage": "session_kit.usage.breakdown",
    "UsageReport": "session_kit.usage.history",
    "usage_report": "session_kit.usage.history",
    "parse_day": "session_kit.usage.history",
    "USAGE_BY": "session_kit.usage.history:BY",
    "statusline_main": "session_kit.usage.statusline:main",
    "STATUSLINE_SCRIPT": "session_kit.usage.statusline:SCRIPT",
    # preprocessing
    "PreprocessOptions": "session_kit.preprocess",
    "PreprocessResult": "session_kit.preprocess",
    "preprocess_session": "session_kit.preprocess",
    "FORMATS": "session_kit.preprocess.render.base",
    "DEFAULT_FORMAT": "session_kit.preprocess.render.base",
    # looking at a session
    "ViewOptions": "session_kit.view.build",
    "ViewResult": "session_kit.view.page",
    "VIEW_FORMATS": "session_kit.view.page",
    "view_session": "session_kit.view.page",
    # installing into Claude Code
    "InstallResult": "session_kit.install.installer",
    "install": "session_kit.install.installer",
    "uninstall": "session_kit.install.installer",
    "install_status": "session_kit.install.installer:status",
    # the kit's own state: scratch dirs and work state
    "state_root": "session_kit.state.root",
    "StateRootUnknown": "session_kit.state.root",
    "UnsafePath": "session_kit.state.root",
    "SessionScratch": "session_kit.state.scratch",
    "scratch_of": "session_kit.state.scratch",
    "scratch_overview": "session_kit.state.scratch",
    "clean_scratch": "session_kit.state.scratch:clean",
    "render_state": "session_kit.state.scratch",
    "ScratchError": "session_kit.state.scratch",
    "NoCurrentSession": "session_kit.state.scratch",
    "StateFileDamaged": "session_kit.state.scratch",
    "InvalidSessionId": "session_kit.state.ids",
    # secrets in what the kit shows
    "redact_text": "session_kit.redact",
    "shown": "session_kit.redact",
    "shown_value": "session_kit.redact",
    "shown_many": "session_kit.redact",
    "is_secret_name": "session_kit.redact",
    "showing_secrets": "session_kit.redact",
    "redaction_enabled": "session_kit.redact",
    # reading and writing files
    "TEXT_ERRORS": "session_kit.files",
    # errors
    "KitError": "session_kit.errors",
    "NotFound": "session_kit.errors",
    "Ambiguous": "session_kit.errors",
    "InvalidOptions": "session_kit.errors",
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
    from session_kit.archive.store import archive_dir
    from session_kit.claude.encoding import encode_project_dir
    from session_kit.claude.paths import claude_root
    from session_kit.claude.settings import SCOPE_PROJECT, SCOPE_USER, SCOPES
    from session_kit.errors import Ambiguous, InvalidOptions, KitError, NotFound
    from session_kit.files import TEXT_ERRORS
    from session_kit.index.query import Filters as SearchFilters
    from session_kit.index.query import IndexedHit
    from session_kit.install.installer import InstallResult, install, uninstall
    from session_kit.install.installer import status as install_status
    from session_kit.preprocess import PreprocessOptions, PreprocessResult, preprocess_session
    from session_kit.preprocess.render.base import DEFAULT_FORMAT, FORMATS
    from session_kit.queries.agent_tree import AgentNode, AgentReport, debug_agents
    from session_kit.queries.card import SessionInfo, session_card
    from session_kit.queries.doctor import ROOT_FROM_OPTION, doctor_report, root_source
    from session_kit.queries.drift import DriftReport, drift_report
    from session_kit.queries.history import (
        ArchiveRun,
        HistoryHits,
        archive_all,
        export_history,
        restore_session,
        search_history,
        session_cwd,
        update_index,
    )
    from session_kit.queries.memory import RESTORE_LIMIT as MEMORY_RESTORE_LIMIT
    from session_kit.queries.memory import MemoryView, session_memory
    from session_kit.queries.plans import (
        SOURCE_EXIT_PLAN_MODE,
        SOURCE_PLAN_AGENT,
        SOURCE_PLAN_FILE,
        Plan,
        session_plans,
    )
    from session_kit.queries.report import SessionReport, session_report
    from session_kit.queries.search import Query, SearchHit, search, session_targets
    from session_kit.queries.timeline import Timeline, session_timeline
    from session_kit.redact import (
        is_secret_name,
        redact_text,
        redaction_enabled,
        showing_secrets,
        shown,
        shown_many,
        shown_value,
    )
    from session_kit.sessions.agents import AGENT_FAILED, AGENT_OK, AGENT_RUNNING, AgentRun
    from session_kit.sessions.listing import latest_first
    from session_kit.sessions.overview import SessionOverview, overviews
    from session_kit.sessions.resolve import CURRENT, resolve_session
    from session_kit.sessions.session import Session
    from session_kit.sessions.store import (
        AgentLogRef,
        SessionRef,
        list_all_sessions,
        projects_in_scope,
        sessions_in_scope,
    )
    from session_kit.state.ids import InvalidSessionId
    from session_kit.state.root import StateRootUnknown, UnsafePath, state_root
    from session_kit.state.scratch import (
        NoCurrentSession,
        ScratchError,
        SessionScratch,
        StateFileDamaged,
        render_state,
        scratch_of,
        scratch_overview,
    )
    from session_kit.state.scratch import clean as clean_scratch
    from session_kit.transcript.calls import STATUS_ERROR, STATUS_OK, STATUS_PENDING, ToolCall
    from session_kit.transcript.entries import Entry, read_entries
    from session_kit.transcript.reader import ReadStats
    from session_kit.transcript.tokens import TokenUsage, Usage
    from session_kit.usage.breakdown import SessionUsage
    from session_kit.usage.history import BY as USAGE_BY
    from session_kit.usage.history import UsageReport, parse_day, usage_report
    from session_kit.usage.pricerows import bundled_date as bundled_prices_date
    from session_kit.usage.prices import PriceTable, load_prices
    from session_kit.usage.statusline import SCRIPT as STATUSLINE_SCRIPT
    from session_kit.usage.statusline import main as statusline_main
    from session_kit.view.build import ViewOptions
    from session_kit.view.page import VIEW_FORMATS, ViewResult, view_session
