"""Jobs shared with forks of this process: the same results in the same order as a plain loop."""

from __future__ import annotations

import os
import time
import warnings

import pytest

from session_kit import forked

PARENT = os.getpid()


def square_slowly(n: int) -> tuple[int, bool]:
    time.sleep(0.002)  # long enough that every process gets jobs
    return n * n, os.getpid() != PARENT


def test_results_come_back_in_the_order_of_the_jobs_with_the_forks_taking_some():
    results = list(forked.ordered_map(square_slowly, list(range(200)), workers=3))
    assert [r for r, _ in results] == [n * n for n in range(200)]
    assert any(in_fork for _, in_fork in results) and not all(in_fork for _, in_fork in results)


def test_one_worker_is_a_plain_loop():
    assert [in_fork for _, in_fork in forked.ordered_map(square_slowly, [1, 2, 3], workers=1)] == [False] * 3


def warn_each(n: int) -> int:
    time.sleep(0.002)
    warnings.warn(f"job {n}", UserWarning, stacklevel=1)
    return n


def test_warnings_of_every_job_are_raised_here_in_the_order_of_the_jobs():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert list(forked.ordered_map(warn_each, list(range(60)), workers=2)) == list(range(60))
    assert [str(w.message) for w in caught] == [f"job {n}" for n in range(60)]


def fail_in_a_fork(n: int) -> int:
    time.sleep(0.002)
    if os.getpid() != PARENT:
        raise ValueError(f"job {n} failed in a fork")
    return n


def test_a_job_that_fails_in_a_fork_is_done_again_here():
    assert list(forked.ordered_map(fail_in_a_fork, list(range(100)), workers=2)) == list(range(100))
    assert_no_children_left()


def fail_everywhere(n: int) -> int:
    time.sleep(0.002)
    if n == 37:
        raise ValueError("job 37")
    return n


def test_the_error_of_a_job_is_raised_here():
    with pytest.raises(ValueError, match="job 37"):
        list(forked.ordered_map(fail_everywhere, list(range(100)), workers=2))
    assert_no_children_left()


def die_in_a_fork(n: int) -> int:
    time.sleep(0.002)
    if os.getpid() != PARENT:
        os._exit(3)  # killed, say: no result, no exception sent
    return n


def test_the_jobs_of_a_fork_that_dies_are_done_here_not_lost_nor_waited_for():
    assert list(forked.ordered_map(die_in_a_fork, list(range(100)), workers=2)) == list(range(100))
    assert_no_children_left()


def test_nothing_written_before_the_split_is_written_twice(capfd: pytest.CaptureFixture[str]):
    print("before", end="")
    assert list(forked.ordered_map(square_slowly, list(range(10)), workers=2))
    assert capfd.readouterr().out == "before"


def test_few_jobs_or_one_core_take_one_worker(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(forked, "cores", lambda: 2)
    assert forked.spare_workers(forked.MIN_JOBS - 1) == 1
    assert forked.spare_workers(forked.MIN_JOBS) == 2
    monkeypatch.setattr(forked, "cores", lambda: 1)
    assert forked.spare_workers(100) == 1


def test_stopping_early_stops_the_forks():
    results = forked.ordered_map(square_slowly, list(range(2000)), workers=2)
    assert next(results)[0] == 0
    began = time.monotonic()
    results.close()
    assert time.monotonic() - began < 2  # the rest of the jobs (4 s) are not waited for
    assert_no_children_left()


def test_more_jobs_than_a_pipe_holds_are_run_here(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(forked, "_PIPE_BYTES", 4096)
    monkeypatch.setattr(forked, "fcntl", None)  # the pipe keeps its default size (64 kB)
    jobs = list(range(20_000))  # 80 kB of tickets
    assert list(forked.ordered_map(lambda n: (n, os.getpid()), jobs, workers=2)) == [(n, PARENT) for n in jobs]


def test_large_results_pass_whole():
    jobs = list(range(8))
    results = list(forked.ordered_map(lambda n: bytes([n]) * 3_000_000, jobs, workers=2))
    assert [len(r) for r in results] == [3_000_000] * 8 and [r[-1] for r in results] == jobs


def assert_no_children_left() -> None:
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
