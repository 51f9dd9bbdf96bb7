"""The kit's public Python face: what the CLI, the slash commands and other programs call.

Everything here is loaded on first use (PEP 562 `__getattr__`), so `from session_kit import
api` costs nothing until a name is used, and a program pays only for what it asks for.
Names not listed in `__all__` are private to the kit and may change.

    from session_kit import api

    ref = api.resolve_session("current", api.claude_root())
    print(api.session_report(ref).as_dict()["tool_calls"])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# name -> the module that defines it
_HOMES = {
    # where things are
    "claude_root": "session_kit.claude.paths",
    "encode_project_dir": "session_kit.claude.encoding",
    # sessions on disk
    "SessionRef": "session_kit.sessions.store",
    "AgentLogRef": "session_kit.sessions.store",
    "list_all_sessions": "session_kit.sessions.store",
    "sessions_in_scope": "session_kit.sessions.store",
    "resolve_session": "session_kit.sessions.resolve",
    "SessionOverview": "session_kit.sessions.overview",
    "overviews": "session_kit.sessions.overview",
    "Session": "session_kit.sessions.session",
    "AgentRun": "session_kit.sessions.agents",
    # transcripts
    "Entry": "session_kit.transcript.entries",
    "read_entries": "session_kit.transcript.entries",
    "ToolCall": "session_kit.transcript.calls",
    "ReadStats": "session_kit.transcript.reader",
    # questions
    "session_report": "session_kit.queries.report",
    "session_timeline": "session_kit.queries.timeline",
    "debug_agents": "session_kit.queries.agent_tree",
    "session_plans": "session_kit.queries.plans",
    "session_card": "session_kit.queries.card",
    "doctor_report": "session_kit.queries.doctor",
    "Query": "session_kit.queries.search",
    "search": "session_kit.queries.search",
    "session_targets": "session_kit.queries.search",
    # preprocessing
    "PreprocessOptions": "session_kit.preprocess",
    "PreprocessResult": "session_kit.preprocess",
    "preprocess_session": "session_kit.preprocess",
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
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # for type checkers and editors: the same names, eagerly
    pass
