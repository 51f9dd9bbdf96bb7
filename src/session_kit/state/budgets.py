"""Where the budgets are set, and the kit's own files that enforce them. Standard library only:
the hooks, the status line and the commands read it.

Owns: the budget per subagent (`agent_budget`: `budget_by_type` for the agent's type, else
`SESSION_KIT_AGENT_BUDGET`, else `agents.budget` of the config file; tokens) and the budget per
session (`session_budget`: `SESSION_KIT_SESSION_BUDGET`, else `session.budget`; tokens or
dollars, raised or turned off for one session by `session-kit budget`: `session_override`);
the cheap test a subagent's call makes first (`agent_budget_may_be_set`; the session's is
`hooks.start.session_budget_may_be_set`, which runs before any of the kit loads);
every value read with the one parser (`base.budget`), a malformed one left out (the next
source is read, as if it were not written) and warned once: the hook log and one stderr line
the first time (`warn_once`), each time in `problems` (`doctor`); the per-session folder of
the budgets' running counts, outside every scratch dir (`budget_dir`:
`<state root>/budgets/<session id>/`).

    {"agents": {"budget": "500k", "budget_by_type": {"Explore": 200000}},
     "session": {"budget": "$5"}}

Does not count tokens (`usage.filecount`) or decide what a hook answers (`hooks.live`,
`hooks.budget`).
"""

from __future__ import annotations

import os
import sys

from session_kit.base import fileio
from session_kit.base.budget import Budget, BudgetProblem, parse_budget
from session_kit.state import root as state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

AGENT_ENV = "SESSION_KIT_AGENT_BUDGET"
SESSION_ENV = "SESSION_KIT_SESSION_BUDGET"
MAX_CONFIG_BYTES = 256 * 1024
MAX_STATE_BYTES = 1 << 20
BUDGETS_DIR = "budgets"
WARNED_FILE = "warned"  # in `<root>/budgets/`: the problems already said on stderr
OVERRIDE_FILE = "override.json"  # in a session's folder: `session-kit budget --raise/--off`
WARN_AT = 0.8  # the share of the session's budget past which the person is told once


def config(root: str) -> dict:
    value, _problem = fileio.read_json_object(os.path.join(root, "config.json"), MAX_CONFIG_BYTES)
    return value


def _section(cfg: Mapping, name: str) -> dict:
    section = cfg.get(name)
    return section if isinstance(section, dict) else {}


def _read(value: object, where: str, warn: Callable[[str], None] | None, *, dollars: bool) -> Budget | None | bool:
    """The budget `value` says; None for `off`; False when it is malformed (warned) or absent."""
    try:
        return parse_budget(value, where=where, dollars=dollars)
    except BudgetProblem as exc:
        if warn is not None:
            warn(f"budget: {exc}; it is left out")
        return False


def agent_budget(
    root: str, env: Mapping[str, str], agent_type: str | None, *, warn: Callable[[str], None] | None = None
) -> int | None:
    """The token budget of a subagent of `agent_type`; None: no budget (the default)."""
    section = _section(config(root), "agents")
    by_type = section.get("budget_by_type")
    if agent_type and isinstance(by_type, dict) and agent_type in by_type:
        found = _read(by_type[agent_type], f"agents.budget_by_type.{agent_type}", warn, dollars=False)
        if found is not False:
            return int(found.amount) if found is not None else None
    raw = env.get(AGENT_ENV, "")
    if raw.strip():
        found = _read(raw, AGENT_ENV, warn, dollars=False)
        if found is not False:
            return int(found.amount) if found is not None else None
    if "budget" in section:
        found = _read(section["budget"], "agents.budget", warn, dollars=False)
        if found:
            return int(found.amount)
    return None


def agent_budget_may_be_set(root: str, env: Mapping[str, str]) -> bool:
    """False when neither the variable nor the config file names a budget per subagent: the
    cheap test a subagent's tool call makes before anything else."""
    if env.get(AGENT_ENV, "").strip():
        return True
    section = _section(config(root), "agents")
    return "budget" in section or bool(section.get("budget_by_type"))


def session_budget(root: str, env: Mapping[str, str], *, warn: Callable[[str], None] | None = None) -> Budget | None:
    """The budget every session has before `session-kit budget` changed it; None: none."""
    raw = env.get(SESSION_ENV, "")
    if raw.strip():
        found = _read(raw, SESSION_ENV, warn, dollars=True)
        if found is not False:
            return found
    section = _section(config(root), "session")
    if "budget" in section:
        found = _read(section["budget"], "session.budget", warn, dollars=True)
        if found:
            return found
    return None


def problems(root: str, env: Mapping[str, str]) -> list[str]:
    """Every malformed budget value set now, one sentence each (for `doctor`)."""
    found: list[str] = []
    agents = _section(config(root), "agents")
    by_type = agents.get("budget_by_type")
    if by_type is not None and not isinstance(by_type, dict):
        found.append("budget: agents.budget_by_type is not an object of {type: budget}; it is left out")
    for agent_type in by_type if isinstance(by_type, dict) else ():
        _read(by_type[agent_type], f"agents.budget_by_type.{agent_type}", found.append, dollars=False)
    if env.get(AGENT_ENV, "").strip():
        _read(env[AGENT_ENV], AGENT_ENV, found.append, dollars=False)
    if "budget" in agents:
        _read(agents["budget"], "agents.budget", found.append, dollars=False)
    if env.get(SESSION_ENV, "").strip():
        _read(env[SESSION_ENV], SESSION_ENV, found.append, dollars=True)
    session = _section(config(root), "session")
    if "budget" in session:
        _read(session["budget"], "session.budget", found.append, dollars=True)
    return found


def warn_once(root: str, message: str) -> None:
    """`message` in the hook log, and on stderr the first time it is given (the hooks run as
    new processes, before every tool call: a bad value is said once, not on every call)."""
    folder = os.path.join(root, BUDGETS_DIR)
    line = message.replace("\n", " ")[:300]
    try:
        state.ensure_dir(folder, root=root)
        path = os.path.join(folder, WARNED_FILE)
        with state.locked(path):
            try:
                said = fileio.read_small(path, MAX_STATE_BYTES).decode("utf-8", "replace").splitlines()
            except FileNotFoundError:
                said = []
            if line in said:
                return
            state.append_line(path, line)
        state.log(root, line)
    except (OSError, ValueError):  # a state root that cannot be written: say it anyway
        pass
    sys.stderr.write(f"session-kit {line}\n")


def budget_dir(root: str, session_id: str) -> str:
    """`<root>/budgets/<session id>/`, made to exist: the running counts and the person's
    override of one session, where no agent's scratch dir (which its environment names) is."""
    from session_kit.state.ids import check_session_id

    return state.ensure_dir(os.path.join(root, BUDGETS_DIR, check_session_id(session_id)), root=root)


def session_override(root: str, session_id: str) -> dict:
    """What `session-kit budget` set for the session: `{"raised": [amount, unit]}` (summed) or
    `{"off": true}`; empty when nothing."""
    from session_kit.state.ids import check_session_id

    path = os.path.join(root, BUDGETS_DIR, check_session_id(session_id), OVERRIDE_FILE)
    try:
        value = fileio.read_json(path, MAX_STATE_BYTES)
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def session_cap(root: str, env: Mapping[str, str], session_id: str, *, warn: Callable[[str], None] | None = None):
    """`(budget now, base budget)` of the session: the base raised by `session-kit budget
    --raise`, None when it is off for this session or none is set."""
    base = session_budget(root, env, warn=warn)
    if base is None:
        return None, None
    override = session_override(root, session_id)
    if override.get("off") is True:
        return None, base
    raised = override.get("raised")
    if isinstance(raised, list) and len(raised) == 2 and raised[1] == base.unit:
        try:
            return base.plus(Budget(raised[0], raised[1])), base
        except (TypeError, BudgetProblem):
            return base, base
    return base, base


def change_session(root: str, session_id: str, *, raise_by: Budget | None = None, off: bool = False) -> dict:
    """Raise the session's budget by `raise_by` (added to what was raised before), or turn it
    off for the session; returns the override now."""
    path = os.path.join(budget_dir(root, session_id), OVERRIDE_FILE)
    with state.locked(path):
        current = session_override(root, session_id)
        if off:
            current = {"off": True}
        elif raise_by is not None:
            before = current.get("raised")
            amount = raise_by.amount
            if isinstance(before, list) and len(before) == 2 and before[1] == raise_by.unit:
                amount = Budget(before[0], raise_by.unit).plus(raise_by).amount
            current = {"raised": [amount, raise_by.unit]}
        fileio.write_json(path, current, sync=False)
    return current
