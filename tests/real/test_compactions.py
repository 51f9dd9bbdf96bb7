"""The memory the kit puts back at each of the corpus's real automatic compactions, against
the truth written by reading each transcript up to its boundary (`compactions/README.md`).

Files, first requests and tasks must be exact and no fact wrong at every compaction; the plan,
what the session was doing and open failures right at six of seven; at least nine in ten of the
facts `--dropped` says the client's summary lost are ones it did lose (`summary_lacks`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real.compaction_scores import Compaction, compactions, score
from tests.real.corpus import KitRun

CASES = [pytest.param(c, id=c.name) for c in compactions()]


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    tmp = tmp_path_factory.mktemp("compactions")
    # a home of its own for each: three compactions are of one session, whose memory the kit keeps
    return {c.name: score(c, KitRun(tmp / c.name / "home"), tmp / c.name) for c in compactions()}


def test_there_are_seven_real_compactions() -> None:
    assert len(CASES) == 7


@pytest.mark.parametrize("compaction", CASES)
def test_no_wrong_fact(scores: dict, compaction: Compaction) -> None:
    wrong = {kind: items for kind, items in scores[compaction.name]["wrong"].items() if items}
    assert not wrong


@pytest.mark.parametrize("compaction", CASES)
def test_files_first_request_and_tasks_exact(scores: dict, compaction: Compaction) -> None:
    s = scores[compaction.name]
    assert (s["files"], s["first_request"], s["tasks"]) == (True, True, True)


@pytest.mark.parametrize("fact", ["plan", "doing", "failures"])
def test_six_of_seven_right(scores: dict, fact: str) -> None:
    right = [name for name, s in scores.items() if s[fact]]
    assert len(right) >= 6, sorted(set(scores) - set(right))


def test_failures_right_where_there_are_any(scores: dict) -> None:
    with_failures = [s for s in scores.values() if s["has_failures"]]
    assert with_failures and all(s["failures"] for s in with_failures)


def test_cut_transcripts_end_before_the_boundary(tmp_path: Path) -> None:
    from tests.real.compaction_scores import cut

    for c in compactions():
        root = cut(c, tmp_path / c.name, with_summary=False)
        lines = (root / c["file"]).read_text("utf-8").splitlines()
        assert len(lines) == c["boundary"] - 1 and "compact_boundary" not in lines[-1]


def test_dropped_is_right_nine_times_in_ten(scores: dict) -> None:
    claims = sum(s["dropped"]["claims"] for s in scores.values())
    right = sum(s["dropped"]["right"] for s in scores.values())
    wrong = [w for s in scores.values() for w in s["dropped"]["wrong"]]
    assert claims and right >= 0.9 * claims, wrong


def test_dropped_names_what_the_summary_lost(scores: dict) -> None:
    """Most facts the summaries lack are named (a claim is not right by saying nothing)."""
    lacks = sum(len(c["summary_lacks"]) for c in compactions())
    right = sum(s["dropped"]["right"] for s in scores.values())
    assert right >= 0.9 * lacks
