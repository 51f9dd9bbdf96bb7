"""A root holding one code-heavy session: Python source files read with the Read tool, round
after round, as the current client writes them (each line numbered with an arrow in the
result's text, the file's raw content in `toolUseResult`), with a short prompt and answer each.

The source is the running interpreter's standard library (its tests included), files in name
order, at most 2,000 lines each (the Read tool's default): real code, naming keys, tokens and
passwords as code does, and holding no secret. The same Python gives the same bytes.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import asdict
from pathlib import Path

from benchmarks.generator.root import GENERATOR_VERSION, MANIFEST_NAME, Manifest

SESSION_ID = "c0de0000-0000-4000-8000-000000000038"
PROJECT = "-home-user-code-app"
CWD = "/home/user/code/app"


def _sources() -> list[tuple[str, str]]:
    base = Path(os.__file__).parent
    out = []
    for path in sorted(base.rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = text.splitlines()[:2000]
        if lines:
            out.append((f"{CWD}/{path.relative_to(base)}", "\n".join(lines)))
    return out


def code_heavy(out: str | os.PathLike[str], *, mb: float) -> Manifest:
    """Write the root with its one code-heavy session of about `mb` MB; its manifest."""
    began = time.perf_counter()
    project = Path(out) / "projects" / PROJECT
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{SESSION_ID}.jsonl"
    target = int(mb * 1e6)
    written = n = lines_made = 0
    parent = None
    sources = _sources()
    base = {"sessionId": SESSION_ID, "cwd": CWD, "version": "2.1.121", "gitBranch": "main", "isSidechain": False}
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            file_path, text = sources[n % len(sources)]
            n += 1
            stamp = f"2026-01-{1 + n // 20000 % 28:02d}T{n // 1000 % 24:02d}:{n // 20 % 60:02d}:{n % 60:02d}.000Z"
            tool_id = f"toolu_{n:024d}"
            numbered = "\n".join(f"{k:>6}→{line}" for k, line in enumerate(text.split("\n"), 1))
            entries = [
                {"type": "user", "message": {"role": "user", "content": f"Look at {file_path} and explain it."}},
                {
                    "type": "assistant",
                    "message": {
                        "id": f"msg_{n:024d}",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude-opus-4-5",
                        "content": [
                            {"type": "tool_use", "id": tool_id, "name": "Read", "input": {"file_path": file_path}}
                        ],
                        "stop_reason": "tool_use",
                        "usage": {"input_tokens": 10, "output_tokens": 20},
                    },
                },
                {
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": numbered}],
                    },
                    "toolUseResult": {
                        "type": "text",
                        "file": {
                            "filePath": file_path,
                            "content": text,
                            "numLines": text.count("\n") + 1,
                            "startLine": 1,
                            "totalLines": text.count("\n") + 1,
                        },
                    },
                },
                {
                    "type": "assistant",
                    "message": {
                        "id": f"msg_{n:023d}a",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude-opus-4-5",
                        "content": [{"type": "text", "text": f"{file_path} defines its module's functions."}],
                        "stop_reason": "end_turn",
                        "usage": {"input_tokens": 10, "output_tokens": 20},
                    },
                },
            ]
            for entry in entries:
                lines_made += 1
                me = str(uuid.UUID(int=(0x38 << 100) + lines_made))
                line = json.dumps({**base, **entry, "uuid": me, "parentUuid": parent, "timestamp": stamp})
                parent = me
                f.write(line + "\n")
                written += len(line) + 1
    manifest = Manifest(GENERATOR_VERSION, 0, 1, 1, mb, None, False)
    manifest.big_session_id = SESSION_ID
    manifest.big_session_path = str(path.relative_to(out))
    manifest.files = 1
    manifest.total_bytes = path.stat().st_size
    manifest.seconds = round(time.perf_counter() - began, 2)
    manifest.extra = {"code_heavy": True, "reads": n}
    (Path(out) / MANIFEST_NAME).write_text(json.dumps(asdict(manifest), indent=2), encoding="utf-8")
    return manifest
