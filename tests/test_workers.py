"""Work split over two processes comes back whole and in order, whatever the child does."""

from __future__ import annotations

import os

import pytest

from session_kit import workers


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "cores", lambda: 2)


def test_the_results_come_in_the_order_of_the_pieces_half_of_them_from_a_child():
    here = os.getpid()
    results = list(workers.ordered_map(lambda n: (n * n, os.getpid()), range(40)))
    assert [square for square, _ in results] == [n * n for n in range(40)]
    assert {pid for _, pid in results[1::2]} != {here} and {pid for _, pid in results[0::2]} == {here}


def test_few_pieces_are_done_here():
    here = os.getpid()
    assert list(workers.ordered_map(lambda n: os.getpid(), range(workers.MIN_PIECES - 1))) == [here] * 3


def test_the_pieces_of_a_child_that_fails_are_done_here():
    here = os.getpid()

    def square(n: int) -> int:
        if os.getpid() != here and n > 10:
            raise RuntimeError("the child fails half way")
        return n * n

    assert list(workers.ordered_map(square, range(40))) == [n * n for n in range(40)]


def test_the_error_of_a_piece_is_raised_here():
    def square(n: int) -> int:
        if n == 7:
            raise ValueError("piece 7")
        return n * n

    with pytest.raises(ValueError, match="piece 7"):
        list(workers.ordered_map(square, range(40)))


def test_stopping_early_leaves_no_child_behind():
    results = workers.ordered_map(lambda n: os.getpid(), range(1000))
    [_, child] = [next(results), next(results)]
    results.close()
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)


def test_nothing_written_before_the_split_is_written_twice(capfd: pytest.CaptureFixture[str]):
    print("before", end="")
    list(workers.ordered_map(lambda n: n, range(10)))
    assert capfd.readouterr().out == "before"
