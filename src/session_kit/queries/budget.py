"""Where a session stands against its budget, and changing it for that session: what
`session-kit budget` and `/budget` ask.

Owns: the report (`session_budget`: the budget set, what `session-kit budget` changed for the
session, the budget now, what the session spent, counted as the hooks count it,
`usage.spend`, from the same running count) and the change (`change_session_budget`:
`--raise AMOUNT`, `--off`). Does not enforce the budget (`hooks.budget`) or say where budgets
are set (`state.budgets`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from session_kit.base.budget import USD, Budget, BudgetProblem, human, parse_budget
from session_kit.errors import KitError
from session_kit.sessions.store import SessionRef
from session_kit.state import budgets
from session_kit.usage.spend import spend


def session_budget(ref: SessionRef, *, state_root: str, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The session's budget and spend, JSON-ready (docs/reference/json.md, `budget`)."""
    env = os.environ if env is None else env
    problems: list[str] = []
    cap, base = budgets.session_cap(state_root, env, ref.id, warn=problems.append)
    override = budgets.session_override(state_root, ref.id)
    spent = spend(budgets.budget_dir(state_root, ref.id), str(ref.path), ref.id, state_root=state_root, price=True)
    unit = (cap or base).unit if (cap or base) is not None else USD
    amount = (spent.usd or 0.0) if unit == USD else spent.tokens
    share = amount / cap.amount if cap is not None else None
    return {
        "session_id": ref.id,
        "budget": _value(cap),
        "set": _value(base),
        "raised": _value(Budget(*override["raised"])) if _raised(override) else None,
        "off_for_session": override.get("off") is True,
        "spent_usd": round(spent.usd or 0.0, 6),
        "cost_complete": spent.priced,
        "spent_tokens": spent.tokens,
        "share": share,
        "over": share is not None and share >= 1,
        "unreadable": spent.unreadable,
        "problems": problems,
    }


def _raised(override: Mapping[str, Any]) -> bool:
    raised = override.get("raised")
    return isinstance(raised, list) and len(raised) == 2 and isinstance(raised[0], (int, float))


def _value(budget: Budget | None) -> dict[str, Any] | None:
    return None if budget is None else {"amount": budget.amount, "unit": budget.unit, "text": str(budget)}


def change_session_budget(
    ref: SessionRef,
    *,
    state_root: str,
    raise_by: str | None = None,
    off: bool = False,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Raise the session's budget by `raise_by` (`$2`, `500k`), or turn it off for the
    session; KitError (exit 2) when there is no budget to raise or the amount is no budget."""
    env = os.environ if env is None else env
    base = budgets.session_budget(state_root, env)
    if base is None:
        raise KitError(
            "no budget per session is set: set SESSION_KIT_SESSION_BUDGET or session.budget in the kit's config"
        )
    if off:
        budgets.change_session(state_root, ref.id, off=True)
    elif raise_by is not None:
        try:
            amount = parse_budget(raise_by, where="--raise")
        except BudgetProblem as exc:
            raise KitError(str(exc)) from None
        if amount is None:
            raise KitError("--raise takes an amount; --off turns the budget off for this session")
        if amount.unit != base.unit:
            raise KitError(f"the budget is in {base.unit_word}: raise it by {base.unit_hint}")
        budgets.change_session(state_root, ref.id, raise_by=amount)
    return session_budget(ref, state_root=state_root, env=env)


def sentence(report: Mapping[str, Any]) -> str:
    """Where the session stands, in one sentence."""
    budget = report["budget"]
    spent_usd = human(report["spent_usd"], USD) + ("" if report["cost_complete"] else "+")
    spent = f"{spent_usd} ({human(report['spent_tokens'], 'tokens')})"
    sid = report["session_id"]
    if report["unreadable"]:
        return f"Session {sid}: its transcript cannot be read, so its budget is not enforced."
    if budget is None:
        if report["off_for_session"]:
            return (
                f"Session {sid}: its budget of {report['set']['text']} is off for this session; it has spent {spent}."
            )
        return (
            f"Session {sid}: no budget set (SESSION_KIT_SESSION_BUDGET or session.budget in the kit's config); "
            f"it has spent {spent}."
        )
    raised = f", raised by {report['raised']['text']} for this session" if report["raised"] else ""
    state = "over its budget: new prompts and tool calls are refused" if report["over"] else "under its budget"
    return (
        f"Session {sid} has spent {spent}, {int(report['share'] * 100)}% of its budget of {budget['text']}"
        f"{raised}; it is {state}."
    )
