"""Every line type a client wrote into a transcript, 1.0.x to 2.1.332, classified once.

Owns: the names of the entry types (the top-level `type` of a line) and the class of each:
conversation (`user`, `assistant`), `system` (its subtypes: `compact_boundary` and notes),
the seed docs' top-level `tool_result`, title lines (`summary`, `custom-title`, `ai-title`…),
hook progress (`progress`, one line per hook run in 2.1.x), mode changes (`permission-mode`,
`mode`…), attachments (and the kinds an `attachment` line carries), snapshots
(`file-history-snapshot`…) and the rest of the client's bookkeeping. From the classes come
the sets every reader uses: `NOISE_TYPES` (never parsed by a reader of the conversation, told
from raw bytes by `rawtype`), `TITLE_TYPES`, `KNOWN_ENTRY_TYPES` (`queries.drift` reports the
others). A type nobody knows is class `unknown`: readers keep it, outputs never show its content.

Does not read lines or entries (that is `reader`, `rawtype`, `entries`), pick a title (that
is `titles`) or decide what an attachment means for agents or plans (their readers do).
Standard library only and nothing but constants: the memory capture, beside a hook, imports it.

The lists were taken from the facts about real files (clients 1.0.24 to 2.1.330), from the
2.1.328 client's own table of the line types it writes, and from the 2.1.332 binary (its two
new attachment kinds).
"""

from __future__ import annotations

from types import MappingProxyType

# --- classes of entry type ----------------------------------------------------------------
CONVERSATION = "conversation"  # what the person and the model said: `user`, `assistant`
SYSTEM = "system"  # the client's notes in the conversation (`subtype`: compact_boundary, …)
TOOL_RESULT = "tool_result"  # the seed docs' top-level tool result entry
TITLE = "title"  # a session's (or an agent's) name, as `--resume` lists it
HOOK_PROGRESS = "hook_progress"  # one line per hook run (2.1.x)
MODE = "mode"  # the mode the session is in (permission mode, memory mode…)
ATTACHMENT = "attachment"  # context the client attached to a request (`attachment.type` says which)
SNAPSHOT = "snapshot"  # file-history and attribution snapshots
CLIENT_NOISE = "client_noise"  # the client's other bookkeeping: requests, queues, latches, links
UNKNOWN = "unknown"  # a type nobody knows yet: kept, counted, never shown

# --- the entry types a reader names -------------------------------------------------------
TYPE_USER = "user"
TYPE_ASSISTANT = "assistant"
TYPE_SYSTEM = "system"
TYPE_TOOL_RESULT = "tool_result"
TYPE_SUMMARY = "summary"  # a title in real 1.0.x–2.0.x files; a compaction in the seed docs
TYPE_CUSTOM_TITLE = "custom-title"  # a person's /rename
TYPE_AI_TITLE = "ai-title"
TYPE_ATTACHMENT = "attachment"
TYPE_PROGRESS = "progress"
TYPE_PERMISSION_MODE = "permission-mode"
# Bookkeeping, but a background agent's ending can arrive in one (an enqueued notification).
TYPE_QUEUE_OPERATION = "queue-operation"

SUBTYPE_COMPACT_BOUNDARY = "compact_boundary"  # a `system` entry: where a compaction happened

_CLASSES: dict[str, tuple[str, ...]] = {
    CONVERSATION: (TYPE_USER, TYPE_ASSISTANT),
    SYSTEM: (TYPE_SYSTEM,),
    TOOL_RESULT: (TYPE_TOOL_RESULT,),
    TITLE: (TYPE_SUMMARY, TYPE_CUSTOM_TITLE, TYPE_AI_TITLE, "agent-name", "summary-title"),
    HOOK_PROGRESS: (TYPE_PROGRESS,),
    MODE: (TYPE_PERMISSION_MODE, "mode", "memory-mode", "repl-mode"),
    ATTACHMENT: (TYPE_ATTACHMENT,),
    SNAPSHOT: ("file-history-snapshot", "file-history-delta", "attribution-snapshot"),
    CLIENT_NOISE: (
        "api-request",
        "api-request-shape",
        "api-request-blob",
        "api-request-resumed",
        TYPE_QUEUE_OPERATION,
        "atis-latch",
        "isolation-latch",
        "last-prompt",
        "tools-used",
        "cost-state",
        "content-replacement",
        "agent-color",
        "agent-setting",
        "tag",
        "pr-link",
        "worktree-state",
        "session-owner",
        "bridge-session",
        "continued-in",
        "derived-from",
        "relocated",
        "fork-context-ref",
        "frame-link",
        "observer-ref",
        "resume-head-vouch",
        "history-suppression",
        "ended-by-model",
        "dev-mods",
        "data-flow-records",
        "data-flow-incomplete",
        "artifact-autoreact-ledger",
        "artifact-comment-monitor",
    ),
}

# Entry type -> class, for every type the kit knows.
ENTRY_CLASSES = MappingProxyType({name: cls for cls, names in _CLASSES.items() for name in names})
KNOWN_ENTRY_TYPES = frozenset(ENTRY_CLASSES)
TITLE_TYPES = frozenset(_CLASSES[TITLE])

# The classes no reader of the conversation parses: bookkeeping, never conversation.
NOISE_CLASSES = frozenset({TITLE, HOOK_PROGRESS, MODE, ATTACHMENT, SNAPSHOT, CLIENT_NOISE})
# Their types, but `summary`: in the seed docs' dialect a `summary` line is a compaction, so
# it is parsed (as a title by `titles`, as a compaction by `compactions` in that dialect).
NOISE_TYPES = frozenset(t for t, cls in ENTRY_CLASSES.items() if cls in NOISE_CLASSES) - {TYPE_SUMMARY}
# The same names as bytes, for readers that tell a line's type from its raw bytes (`rawtype`).
NOISE_TYPE_BYTES = frozenset(t.encode() for t in NOISE_TYPES)
# How the client starts most of its bookkeeping lines: with the type (`{"type":"api-request",…`);
# a reader that meets it reads the name that follows without parsing the line.
TYPE_FIRST = b'{"type":"'
TITLE_TYPE_BYTES = frozenset(t.encode() for t in TITLE_TYPES)

# --- what an `attachment` line carries (`attachment.type`) --------------------------------
# Each kind with what it is. Every attachment is bookkeeping for the conversation's readers;
# the agent model and the plan reader look into the kinds they need.
ATTACHMENT_QUEUED_COMMAND = "queued_command"  # a prompt queued while busy; may hold a <task-notification>
ATTACHMENT_TASK_STATUS = "task_status"  # a background task's state (ends background agents)
ATTACHMENT_PLAN_MODE = "plan_mode"

ATTACHMENT_CONTEXT = "context"  # context given to the model (listings, environment, files…)
ATTACHMENT_HOOK = "hook"  # what a hook answered
ATTACHMENT_PLAN = "plan"
ATTACHMENT_TASK = "task"  # background work and queued prompts
ATTACHMENT_REMINDER = "reminder"

_ATTACHMENT_CLASSES: dict[str, tuple[str, ...]] = {
    ATTACHMENT_TASK: (ATTACHMENT_QUEUED_COMMAND, ATTACHMENT_TASK_STATUS, "async_hook_response"),
    ATTACHMENT_PLAN: (ATTACHMENT_PLAN_MODE, "plan_mode_exit", "plan_mode_reentry", "plan_file_reference"),
    ATTACHMENT_HOOK: (
        "hook_success",
        "hook_additional_context",
        "hook_non_blocking_error",
        "hook_blocking_error",
        "hook_error_during_execution",
        "hook_stopped_continuation",
        "hook_cancelled",
        "hook_system_message",
        "hook_permission_decision",
        "hook_deferred_tool",
        "hook_callback",
        "hook_progress",
        "hook_started",
        "hook_response",
        "hook_failed",
    ),
    ATTACHMENT_REMINDER: (
        "critical_system_reminder",
        "silent_turn_reminder",
        "todo_reminder",
        "task_reminder",
        "total_tokens_reminder",
        "elapsed_time_reminder",
        "batching_reminder",
        "secondary_reminder",
        "tool_search_usage_reminder",
        "progress_reminder_sent",  # 2.1.332 (named in its binary; a reminder by its name)
    ),
    ATTACHMENT_CONTEXT: (
        "prompt_snapshot",
        "skill_listing",
        "agent_listing_delta",
        "deferred_tools_delta",
        "mcp_instructions_delta",
        "mcp_dropped_tools_delta",
        "cloud_session_delta",
        "prefix_delta",
        "environment",
        "session_context",
        "date",
        "model",
        "auto_mode",
        "remote_session_change",
        "file",
        "edited_text_file",
        "compact_file_reference",
        "nested_memory",
        "invoked_skills",
        "diagnostics",
        "mcp_resource",
        "selected_lines_in_ide",
        "opened_file_in_ide",
        "output_style",
        "token_usage",
        "budget_usd",
        "first_week",  # 2.1.332 (named in its binary, not yet seen in a transcript)
    ),
}
ATTACHMENT_KINDS = MappingProxyType({kind: cls for cls, kinds in _ATTACHMENT_CLASSES.items() for kind in kinds})


def entry_class(entry_type: object) -> str:
    """The class of an entry type (`UNKNOWN` for a type nobody knows, or no type at all)."""
    return ENTRY_CLASSES.get(entry_type, UNKNOWN) if isinstance(entry_type, str) else UNKNOWN


def attachment_class(kind: object) -> str:
    """The class of an attachment kind (`UNKNOWN` for a kind nobody knows)."""
    return ATTACHMENT_KINDS.get(kind, UNKNOWN) if isinstance(kind, str) else UNKNOWN
