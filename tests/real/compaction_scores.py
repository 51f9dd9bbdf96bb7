"""The real compactions' truth (`compactions/*.json`, README.md there) and how the memory the
kit puts back at each is scored against it: each transcript cut at its `compact_boundary`
into a Claude root of its own (its agent logs as they were then), `session-kit memory` and
`memory --dropped` run on it, and every fact the truth names looked for in the block.

Run as a script (`python -m tests.real.compaction_scores`) it prints the table per compaction."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.real.corpus import KitRun, corpus_dir

HERE = Path(__file__).resolve().parent / "compactions"

# The block's parts, by the start of their headings (`memory/parts.py`).
HEADINGS = {
    "requests": "The person's requests",
    "constraints": "Standing instructions",
    "failures": "Failed and not fixed since",
    "declined": "Declined by the person",
    "agents": "Subagents, as they stand",
    "doing": "What the session was doing",
    "plan": "The plan",
    "tasks": "Task list",
    "files": "Files changed",
    "next": "The assistant's last words",
    "reads": "Files read before",
}


@dataclass(frozen=True)
class Compaction:
    name: str
    data: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    @property
    def transcript(self) -> Path:
        return corpus_dir() / self.data["folder"] / self.data["file"]

    @property
    def session_id(self) -> str:
        return Path(self.data["file"]).stem


def compactions() -> list[Compaction]:
    return [Compaction(p.stem, json.loads(p.read_text("utf-8"))) for p in sorted(HERE.glob("*.json"))]


def _timestamp(raw: str) -> str | None:
    try:
        value = json.loads(raw).get("timestamp")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def cut(compaction: Compaction, root: Path, *, with_summary: bool) -> Path:
    """The transcript as it was when the client compacted it (the boundary left out), or up to
    and with the summary after it (`with_summary`), in the Claude root `root`; its agent logs
    cut to the lines written before the boundary."""
    lines = compaction.transcript.read_text("utf-8").splitlines(keepends=True)
    at = compaction["boundary"]
    kept = lines[: at + 1] if with_summary else lines[: at - 1]
    when = _timestamp(lines[at - 1])
    target = root / Path(compaction["file"]).parent
    target.mkdir(parents=True, exist_ok=True)
    (target / Path(compaction["file"]).name).write_text("".join(kept), "utf-8")
    logs = compaction.transcript.with_suffix("") / "subagents"
    for log in sorted(logs.glob("agent-*.jsonl")) if logs.is_dir() else []:
        if log.name.startswith("agent-acompact"):
            continue
        early = [raw for raw in log.read_text("utf-8").splitlines(keepends=True) if (_timestamp(raw) or "~") <= when]
        if early:
            out = target / compaction.session_id / "subagents"
            out.mkdir(parents=True, exist_ok=True)
            (out / log.name).write_text("".join(early), "utf-8")
            meta = log.with_suffix(".meta.json")
            if meta.is_file():
                shutil.copy(meta, out / meta.name)
    return root


def parts_of(block: str) -> dict[str, str]:
    """The block's text per part (the heading line and what follows it up to the next part)."""
    found: dict[str, str] = {}
    name = None
    for line in block.splitlines():
        for part, heading in HEADINGS.items():
            if line.startswith(heading):
                name = part
                found[name] = ""
                break
        if line.startswith("</session-kit-quote"):
            name = None
        if name is not None:
            found[name] += line + "\n"
    return found


def _any(text: str, wanted: list[str]) -> bool:
    return any(w in text for w in wanted)


def score(compaction: Compaction, kit: KitRun, tmp: Path) -> dict[str, Any]:
    """What the kit's memory got right at this compaction, fact by fact."""
    root = cut(compaction, tmp / "before", with_summary=False)
    shown = kit.json("memory", compaction.session_id, "--claude-dir", str(root))
    block, memory = shown["restored"] or "", shown["memory"]
    parts = parts_of(block)
    truth = compaction.data
    plan = parts.get("plan", "")
    first_item = next((line for line in plan.splitlines()[1:] if line.startswith("- ")), "")
    plan_right = _any(first_item, truth["plan"]["shows"]) and not _any(first_item, truth["plan"]["not_the_plan"])
    doing = parts.get("doing", "")
    doing_right = _any(doing, truth["doing"]["shows_any"])
    failures = parts.get("failures", "")
    opens = truth["open_failures"]
    shown_open = [f["what"] for f in opens if _any(failures, f["shows"])]
    wrong_open = [f["what"] for f in truth["not_open"] + truth["declined"] if _any(failures, f["shows"])]
    for item in [line for line in failures.splitlines()[1:] if line.startswith("- ")]:
        if not any(_any(item, f["shows"]) for f in opens):  # every failure shown must be one the truth has open
            wrong_open.append(item)
    failures_right = len(shown_open) == len(opens) and not wrong_open
    constraints = [line for line in parts.get("constraints", "").splitlines()[1:] if line.startswith("- ")]
    false_instructions = [c for c in constraints if not _any(c, truth["instructions"])] if True else []
    ended = {a["description"] for a in truth["agents"] if a["ending"] != "running"}
    running_wrong = [
        line
        for line in parts.get("agents", "").splitlines()
        if "still running" in line and any(f'"{d}"' in line for d in ended)
    ]
    superseded = [p for p in truth["plan"]["not_the_plan"] if p in first_item]
    tasks = sorted((i.get("subject"), i.get("status")) for i in (memory.get("tasks") or {}).get("items") or [])
    first = ((memory.get("requests") or {}).get("first") or {}).get("text")
    dropped = _dropped(compaction, kit, tmp)
    return {
        "plan": plan_right,
        "doing": doing_right,
        "failures": failures_right,
        "has_failures": bool(opens),
        "wrong": {
            "instructions": false_instructions,
            "failures_open": wrong_open,
            "agents_running": running_wrong,
            "plan_superseded": superseded,
        },
        "files": sorted(memory.get("files") or {}) == sorted(truth["files_changed"]),
        "first_request": first == truth["first_request"],
        "tasks": tasks == sorted((t["subject"], t["status"]) for t in truth["tasks"]),
        "dropped": dropped,
    }


def _dropped(compaction: Compaction, kit: KitRun, tmp: Path) -> dict[str, Any]:
    """`--dropped`'s claims at this compaction, each right when the truth says the summary
    lacks that fact."""
    root = cut(compaction, tmp / "after", with_summary=True)
    doc = kit.json("memory", compaction.session_id, "--dropped", "--claude-dir", str(root))
    claims = [c for c in doc["compactions"] if c["line"] == compaction["boundary"]]
    lost = claims[0]["lost"] if claims else []
    lacks = compaction["summary_lacks"]
    right = [c for c in lost if any(want in c["text"] for want in lacks)]
    return {
        "claims": len(lost),
        "right": len(right),
        "wrong": [f"{c['kind']}: {c['text'][:80]}" for c in lost if c not in right],
    }


def main() -> None:  # pragma: no cover - a report for people
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for n, compaction in enumerate(compactions()):
            rows.append((compaction.name, score(compaction, KitRun(Path(tmp) / str(n) / "home"), Path(tmp) / str(n))))
    for name, s in rows:
        wrong = sum(len(v) for v in s["wrong"].values())
        print(
            f"{name:24} plan {s['plan']!s:5} doing {s['doing']!s:5} failures {s['failures']!s:5}"
            f" wrong {wrong} files {s['files']!s:5} first {s['first_request']!s:5} tasks {s['tasks']!s:5}"
            f" dropped {s['dropped']['right']}/{s['dropped']['claims']}"
        )
        for kind, items in s["wrong"].items():
            for item in items:
                print(f"    wrong {kind}: {item[:150]}")
        for item in s["dropped"]["wrong"]:
            print(f"    dropped wrongly: {item}")


if __name__ == "__main__":  # pragma: no cover
    main()
