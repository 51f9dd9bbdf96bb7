"""Batches redacted in a worker process come back as they would have been redacted here."""

from __future__ import annotations

import io
import os
import signal
from pathlib import Path

import pytest

from session_kit.conversation import redacting
from session_kit.conversation.redacting import BatchRedactor
from session_kit.preprocess import PreprocessOptions, preprocess_session
from session_kit.redaction.engine import SEPARATOR, Redactor
from session_kit.sessions.store import session_ref_from_path
from tests.support.transcripts import Transcript

forks = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

BATCHES = [
    SEPARATOR.join(["export GITHUB_TOKEN=ghp_" + "a1B2" * 9, "nothing here", "password=hunter2hunter2"]),
    "no secret at all, just text " * 50,
    SEPARATOR.join(["curl -H 'Authorization: Bearer sk-ant-api03-" + "x" * 80 + "'", "\ud800 a lone surrogate"]),
]


def _redacted_here() -> tuple[list[str], dict[str, int]]:
    redactor = Redactor()
    return [redactor(b) for b in BATCHES], dict(redactor.counts)


def _each_batch_through(batches: BatchRedactor) -> list[str]:
    """Every batch of BATCHES handed over and taken back, one at a time; then closed."""
    try:
        got = []
        for batch in BATCHES:
            got.append(batches.result() if batches.send(batch) else batches.here(batch))
        return got
    finally:
        batches.close()


def _with_worker(redactor: Redactor) -> BatchRedactor:
    """A BatchRedactor whose worker starts at the next `send` (one batch was redacted here)."""
    batches = BatchRedactor(redactor, parallel=True)
    batches.here("a first batch, nothing secret in it")
    return batches


@forks
def test_the_worker_starts_once_a_batch_was_redacted_here_with_the_rules_compiled():
    batches = BatchRedactor(Redactor(), parallel=True)
    try:
        assert not batches.send(BATCHES[0]) and batches._worker is None
        batches.here(BATCHES[0])
        assert batches.send(BATCHES[1]) and batches._worker is not None
        assert batches.result() == Redactor()(BATCHES[1])
    finally:
        batches.close()


@forks
def test_a_worker_redacts_each_batch_and_counts_as_here():
    expected, counts = _redacted_here()
    redactor = Redactor()
    batches = _with_worker(redactor)
    sent = [batches.send(batch) and batches.result() for batch in BATCHES]
    batches.close()
    assert sent == expected
    assert dict(redactor.counts) == counts
    assert sent[0] != BATCHES[0]  # something was redacted


@forks
def test_a_worker_that_dies_leaves_the_batch_to_be_redacted_here():
    expected, counts = _redacted_here()
    redactor = Redactor()
    batches = _with_worker(redactor)
    assert batches.send(BATCHES[0])
    worker = batches._worker
    assert worker is not None
    os.kill(worker.pid, signal.SIGKILL)
    os.waitpid(worker.pid, 0)
    got = [batches.result()]  # redacted here after all
    got += [batches.result() if batches.send(batch) else batches.here(batch) for batch in BATCHES[1:]]
    batches.close()
    assert got == expected
    assert dict(redactor.counts) == counts


@forks
def test_closing_leaves_no_child_behind():
    batches = _with_worker(Redactor())
    assert batches.send(BATCHES[0])
    batches.result()
    batches.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_without_a_worker_no_batch_is_sent_and_each_is_redacted_here():
    batches = BatchRedactor(Redactor(), parallel=False)
    assert not batches.send(BATCHES[0])
    assert batches.here(BATCHES[0]) == Redactor()(BATCHES[0]) != BATCHES[0]
    with pytest.raises(RuntimeError):
        batches.result()  # nothing is waiting in a worker


@forks
def test_the_worker_holds_one_batch_at_a_time():
    expected, counts = _redacted_here()
    redactor = Redactor()
    batches = _with_worker(redactor)
    try:
        assert batches.send(BATCHES[0])
        assert not batches.send(BATCHES[1])  # it has one already: this one is redacted here
        assert batches.here(BATCHES[1]) == expected[1]
        assert batches.result() == expected[0]
        assert batches.send(BATCHES[2])
        assert batches.result() == expected[2]
        assert dict(redactor.counts) == counts
    finally:
        batches.close()


@forks
def test_preprocess_with_a_worker_writes_what_it_writes_without(tmp_path: Path, monkeypatch):
    t = Transcript(cwd="/work/p")
    for i in range(300):
        t.user(f"request {i}: use password=hunter2hunter{i} and token ghp_{'a1B2' * 9}")
        call = t.tool_use("Bash", {"command": f"echo {i}"})
        t.tool_result(call, f"output {i}\n" * 40 + "Authorization: Bearer " + "z" * 40)
        t.say(f"done {i} & <ok>")
    path = t.write(tmp_path / "projects" / "-work-p" / f"{t.session_id}.jsonl")
    ref = session_ref_from_path(path)

    def run() -> tuple[str, dict]:
        out = io.StringIO()
        result = preprocess_session(ref, PreprocessOptions(to_stdout=True), stream=out)
        return out.getvalue(), dict(result.redactions)

    import session_kit.conversation.convert as convert

    started = []
    start = redacting._Worker.start
    monkeypatch.setattr(redacting._Worker, "start", classmethod(lambda cls, r: started.append(1) or start(r)))
    monkeypatch.setattr(convert, "second_core_pays", lambda path: False)
    here = run()
    assert not started
    monkeypatch.setattr(convert, "second_core_pays", lambda path: True)
    beside = run()
    assert started  # the work was done beside
    assert beside == here
    assert here[1]  # the secrets were found
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)
