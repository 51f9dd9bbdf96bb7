"""The restored block's budget keeps what matters: long pastes in requests are excerpted to a
few lines with their size, the task list is never cut (open tasks first, then counts of the
rest), and a request's decision stays with its constraint, however much was pasted."""

from __future__ import annotations

from pathlib import Path

from session_kit.memory import record, restore
from session_kit.memory.capture import capture_file
from tests.support.transcripts import Transcript

DECISION = "Go with a token bucket, not a sliding window."
CONSTRAINT = "The limiter must stay under 50 ms per request."
TASKS = [
    "Write the token bucket limiter in gateway/limits.py: a bucket per API key, its capacity and refill rate read"
    " from settings.RATE_LIMITS, the clock injected so the tests can move it, and no lock held across an await",
    "Wire the limiter into the request middleware of the gateway: answer 429 with a Retry-After header computed"
    " from the bucket's refill time, log the key's id (never the key), and count the rejections per route",
    "Add load tests for the limiter under 2,000 requests per second against the staging gateway, with the p99"
    " latency of the check itself recorded per run in benchmarks/limits.csv beside the earlier runs",
    "Document the limiter's settings, the 429 answer and its failure modes (the settings store down, a clock"
    " jump, a key with no bucket yet) in docs/operations/rate-limits.md and link it from the runbook",
]


def log_paste(tag: str, lines: int = 310) -> str:
    return "\n".join(
        f"2026-11-30T10:{n // 60:02d}:{n % 60:02d}Z {tag} gateway worker-{n % 8} GET /v1/orders 200 {40 + n % 13} ms"
        for n in range(lines)
    )


def session() -> Transcript:
    t = Transcript()
    t.user("Add rate limiting to the API gateway (ticket RL-12).")
    t.user(f"{DECISION} {CONSTRAINT}")
    for n, subject in enumerate(TASKS, start=1):
        call = t.tool_use("TaskCreate", {"subject": subject, "description": subject})
        t.tool_result(call, f"Task #{n} created successfully: {subject}")
    start = t.tool_use("TaskUpdate", {"taskId": "1", "status": "in_progress"})
    t.tool_result(start, "Updated task #1 status")
    for name in ("limits.py", "middleware.py", "settings.py"):
        edit = t.tool_use("Edit", {"file_path": f"/work/proj/gateway/{name}", "old_string": "a", "new_string": "b"})
        t.tool_result(edit, "updated", extra={"filePath": f"/work/proj/gateway/{name}"})
    t.bash("pytest tests/test_limits.py", exit_code=1, stderr="E   AssertionError: bucket refilled too early\n" * 3)
    for tag in ("PASTE-A", "PASTE-B", "PASTE-C", "PASTE-D", "PASTE-E"):
        t.user(f"Here is the load test log {tag}:\n{log_paste(tag)}\nWhat does it say about the p99?")
    return t


def block(tmp_path: Path, t: Transcript | None = None) -> str:
    memory = capture_file(
        str((t or session()).write(tmp_path / "s.jsonl")), record.empty_memory(), keeps=lambda p: True
    )
    text = restore.render(
        memory, {"values": {}, "notes": []}, limit=restore.LIMIT, memory_file="/s/memory.md", read_plan=lambda p: None
    )
    assert text is not None and len(text) <= restore.LIMIT
    return text


def test_a_long_paste_is_a_few_lines_with_its_size(tmp_path: Path) -> None:
    text = block(tmp_path)
    size = len(log_paste("PASTE-E").encode()) / 1024
    assert f"[pasted {size:.1f} KB, 310 lines: first lines …]" in text
    assert "What does it say about the p99?" in text  # the person's own words after the paste
    for tag in ("PASTE-A", "PASTE-B", "PASTE-C", "PASTE-D", "PASTE-E"):
        assert text.count(f"{tag} gateway worker-") <= 3


def test_the_task_list_is_never_cut(tmp_path: Path) -> None:
    tasks = block(tmp_path).split("Task list (", 1)[1].split("\n\n", 1)[0]
    assert f"- [in_progress] {TASKS[0]}" in tasks
    for subject in TASKS[1:]:
        assert f"- [pending] {subject}" in tasks


def test_the_task_list_is_never_cut_by_long_requests_failures_and_agents(tmp_path: Path) -> None:
    t = session()
    for n in range(5):
        t.user(f"Typed request {n}: " + "the gateway should answer slowly when the bucket is empty " * 18)
    for n in range(8):
        t.bash(f"pytest tests/test_limits_{n}.py", exit_code=1, stderr=f"E   AssertionError: case {n} failed\n" * 12)
    tasks = block(tmp_path, t).split("Task list (", 1)[1].split("\n\n", 1)[0]
    assert f"- [in_progress] {TASKS[0]}" in tasks
    for subject in TASKS[1:]:
        assert f"- [pending] {subject}" in tasks


def test_closed_tasks_that_do_not_fit_are_counted(tmp_path: Path) -> None:
    t = session()
    for n in range(60):
        subject = f"Closed task {n}: " + "a step of the gateway work that is done now " * 4
        call = t.tool_use("TaskCreate", {"subject": subject, "description": subject})
        t.tool_result(call, f"Task #{n + 5} created successfully: {subject}")
        done = t.tool_use("TaskUpdate", {"taskId": str(n + 5), "status": "completed"})
        t.tool_result(done, f"Updated task #{n + 5} status")
    tasks = block(tmp_path, t).split("Task list (", 1)[1].split("\n\n", 1)[0]
    for subject in TASKS[1:]:
        assert f"- [pending] {subject}" in tasks
    shown = tasks.count("- [completed] Closed task")
    assert shown < 60 and f"- … and {60 - shown} more (completed: {60 - shown})" in tasks


def test_an_older_requests_decision_is_kept_with_its_constraint(tmp_path: Path) -> None:
    text = block(tmp_path)
    assert f"{DECISION} {CONSTRAINT}" in " ".join(text.split())
