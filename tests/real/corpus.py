"""The real corpus and its truth: where the transcripts are, the truth files beside them, and
the kit's answers about each session, each asked once per test run.

The transcripts live outside the project (`../shared/corpus`, or `$SESSION_KIT_REAL_CORPUS`);
the truth (`truth/`, written by reading the transcripts: TRUTH.md) is committed here. Under
`CI=true` a missing corpus fails every test that needs it; elsewhere those tests skip, saying so.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

HERE = Path(__file__).resolve().parent
TRUTH = HERE / "truth"
ENV_CORPUS = "SESSION_KIT_REAL_CORPUS"

# The client's status words for an agent's ending, as TRUTH.md writes them, are the kit's own.
ENDINGS = ("finished", "failed", "stopped", "running", "unknown")


def corpus_dir() -> Path:
    named = os.environ.get(ENV_CORPUS)
    return Path(named) if named else HERE.parents[2] / "shared" / "corpus"


def need_corpus() -> Path:
    """The corpus folder; skips (fails under CI) when it is not there."""
    folder = corpus_dir()
    if (folder / "SOURCES.md").is_file():
        return folder
    why = f"the real corpus is not at {folder} (set {ENV_CORPUS})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}; under CI=true the real-session tests must run")
    pytest.skip(why)


@dataclass(frozen=True)
class Truth:
    """One session file's truth, and where its transcript is."""

    folder: str  # the corpus folder: a Claude root
    rel: str  # the transcript's path under it
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.folder}/{self.rel}"

    @property
    def root(self) -> Path:
        return corpus_dir() / self.folder

    @property
    def path(self) -> Path:
        return self.root / self.rel

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    @property
    def agents(self) -> list[dict[str, Any]]:
        return self.data["agents"]

    def token_totals(self) -> dict[str, int]:
        messages = self.data["messages"].values()
        return {
            "input": sum(m["input"] for m in messages),
            "output": sum(m["output"] for m in messages),
            "cache_read": sum(m["cache_read"] for m in messages),
            "cache_creation": sum(m["cache_write"] for m in messages),
            "messages": len(self.data["messages"]),
        }


@cache
def truths() -> tuple[Truth, ...]:
    found = []
    for path in sorted(TRUTH.rglob("*.jsonl.json")):
        rel = path.relative_to(TRUTH)
        folder = rel.parts[0]
        found.append(Truth(folder, str(Path(*rel.parts[1:]))[: -len(".json")], json.loads(path.read_text("utf-8"))))
    return tuple(found)


@cache
def orphan_logs() -> tuple[tuple[str, dict[str, Any]], ...]:
    """Every agent log that belongs to no session: (corpus folder, its `_logs.json` entry)."""
    found = []
    for path in sorted(TRUTH.rglob("_logs.json")):
        folder = path.relative_to(TRUTH).parts[0]
        found.extend((folder, log) for log in json.loads(path.read_text("utf-8"))["logs"])
    return tuple(found)


def folders() -> list[str]:
    return sorted({t.folder for t in truths()})


def params(select=lambda t: True) -> list[Any]:
    return [pytest.param(truth, id=truth.id) for truth in truths() if select(truth)]


def has_conversation(truth: Truth) -> bool:
    return truth["requests"] > 0 and bool(truth["messages"])


# --- the kit's answers, each asked once ---------------------------------------------------


class KitRun:
    """Runs `session-kit` in this process with its own home and state, outside every test's
    temporary home, so that one answer serves every test that compares with it."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.env: dict[str, str | None] = {
            "HOME": str(home),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "SESSION_KIT_HOME": str(home / "kit"),
            "CLAUDE_CONFIG_DIR": str(home / "no-claude"),
            "SESSION_CONTEXT": None,
            "CLAUDE_CODE_SESSION_ID": None,
            "CLAUDE_PROJECT_DIR": None,
            "COLUMNS": "80",
        }
        self.answers: dict[tuple[str, ...], tuple[int, str, str]] = {}

    def run(self, *args: str) -> tuple[int, str, str]:
        """(exit code, stdout, stderr), asked once for the same arguments."""
        if args not in self.answers:
            from session_kit.cli import main

            result = CliRunner().invoke(main, list(args), env=self.env, prog_name="session-kit")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            self.answers[args] = (result.exit_code, result.stdout, result.stderr)
        return self.answers[args]

    def json(self, *args: str) -> dict[str, Any]:
        code, out, err = self.run(*args, "--json")
        assert code == 0, f"session-kit {' '.join(args)} --json exited {code}: {err.strip()}"
        return json.loads(out)

    def session(self, command: str, truth: Truth, *extra: str) -> dict[str, Any]:
        return self.json(command, str(truth.path), "--claude-dir", str(truth.root), *extra)
