"""`view` on every real session draws what its truth says: a lane per agent, every tool call
(the conversation's and its logged agents'), and the failed ones."""

from __future__ import annotations

import pytest

from tests.real.corpus import KitRun, Truth, params


def drawn(kit: KitRun, truth: Truth) -> dict:
    return kit.session("view", truth, "-o", str(kit.home / "view.html"))


@pytest.mark.parametrize("truth", params())
def test_a_lane_per_agent(kit: KitRun, truth: Truth) -> None:
    assert drawn(kit, truth)["agents"] == len(truth.agents)


@pytest.mark.parametrize("truth", params())
def test_every_call_and_every_failure(kit: KitRun, truth: Truth) -> None:
    page = drawn(kit, truth)
    logged = [a for a in truth.agents if a["failed_calls"] is not None]
    assert page["calls"] == truth["tool_calls"] + sum(a["tool_calls"] for a in logged)
    assert page["failures"] == truth["failed_calls"] + sum(a["failed_calls"] for a in logged)
