"""The tools the client offers the model, by the role each plays for the kit: one table.

Owns: the tool names and their roles: which spawn an agent (`Agent`, named `Task` in 2025),
which write a file and the input key naming it (Write, Edit, MultiEdit, NotebookEdit), which
read one (Read, NotebookRead), the plan tool (ExitPlanMode), the todo and task tools
(TodoWrite; TaskCreate, TaskUpdate, TaskOutput, TaskStop), and the calls whose successful
result tells the working memory something the call did not. Standard library only: the
hooks, the status line and the commands read it. A new tool, or a new role of one, goes
here and nowhere else. Does not: summarise a call's input or redact (`transcript.tools`).
"""

from __future__ import annotations

AGENT = "Agent"
TASK = "Task"  # the 2025 name of Agent
BASH = "Bash"
READ = "Read"
NOTEBOOK_READ = "NotebookRead"
WRITE = "Write"
EDIT = "Edit"
MULTI_EDIT = "MultiEdit"
NOTEBOOK_EDIT = "NotebookEdit"
GREP = "Grep"
GLOB = "Glob"
WEB_FETCH = "WebFetch"
WEB_SEARCH = "WebSearch"
EXIT_PLAN_MODE = "ExitPlanMode"
TODO_WRITE = "TodoWrite"
TASK_CREATE = "TaskCreate"
TASK_UPDATE = "TaskUpdate"
TASK_OUTPUT = "TaskOutput"  # polls a background agent or shell: its result may say it ended
TASK_STOP = "TaskStop"  # stops a background agent on purpose
KILL_SHELL = "KillShell"  # the 2.0.x name of TaskStop for a background shell (or agent)

# Each role, as the set of the tools that play it.
SPAWNS_AGENT = frozenset({AGENT, TASK})
# The input key naming the file a call writes.
WRITES_FILE = {WRITE: "file_path", EDIT: "file_path", MULTI_EDIT: "file_path", NOTEBOOK_EDIT: "notebook_path"}
READS_FILE = frozenset({READ, NOTEBOOK_READ})
# A call about one file, named by its path: the working memory keeps its key (the path) as
# it is, never redacted, and follows the file.
KEYED_BY_PATH = frozenset({*WRITES_FILE, READ})
PLAN_TOOLS = frozenset({EXIT_PLAN_MODE})
TODO_TOOLS = frozenset({TODO_WRITE})
TASK_TOOLS = frozenset({TASK_CREATE, TASK_UPDATE, TASK_OUTPUT, TASK_STOP})
# A call that stops a background task on purpose, and the input key naming the task.
STOPS_TASK = {TASK_STOP: "task_id", KILL_SHELL: "shell_id"}
# Calls whose successful result says something the call did not, for the working memory
# (a file created or overwritten, the plan approved and its file, a task's id, a background
# agent's ending in a TaskOutput poll, a spawned agent's answer, a task stopped).
RESULT_MATTERS = frozenset({WRITE, EXIT_PLAN_MODE, TASK_CREATE, TASK_OUTPUT, *SPAWNS_AGENT, *STOPS_TASK})


def spawns_agent(name: object) -> bool:
    return name in SPAWNS_AGENT


def written_file_key(name: object) -> str | None:
    """The input key naming the file a call of `name` writes (None: it writes none)."""
    return WRITES_FILE.get(name) if isinstance(name, str) else None
