"""A root holding one session grown from a real client's transcript: its lines written round
after round with every id but the session's renamed, its subagent logs copied.

Owns growing; the generated dialect is the rest of the package's.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict
from pathlib import Path

from benchmarks.generator.root import GENERATOR_VERSION, MANIFEST_NAME, Manifest

# The real client's bookkeeping entries, for the manifest's count: the kit's `NOISE_TYPES`.
try:
    from session_kit.transcript.entries import NOISE_TYPES as _GROWN_NOISE
except ImportError:  # pragma: no cover - only when run outside the venv
    _GROWN_NOISE = frozenset()
# Ids a real transcript links its lines with: uuids (entries, prompts, parents) and the API's
# message, request and tool-use ids. `grow` renames them round by round.
_LINK_IDS = None


def grow(source: str | os.PathLike[str], out: str | os.PathLike[str], *, mb: float) -> Manifest:
    """A Claude root holding one session grown from a real client's transcript: the session's
    lines written again and again, every id but the session's renamed in each round after the
    first (so no round repeats an entry: nothing is dropped as a copy), until about `mb` MB;
    its subagent logs and meta files copied as they are. For benchmarks on the current
    client's own dialect, where the generator writes its idea of it."""
    import re
    import shutil

    global _LINK_IDS
    if _LINK_IDS is None:
        _LINK_IDS = re.compile(
            rb'"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:toolu|msg|req)_[0-9A-Za-z]+)"'
        )
    began = time.perf_counter()
    source = Path(source)
    session_id = source.stem
    project = Path(out) / "projects" / source.parent.name
    project.mkdir(parents=True, exist_ok=True)
    if (source.parent / session_id).is_dir():
        shutil.copytree(source.parent / session_id, project / session_id, dirs_exist_ok=True)
    lines = [ln if ln.endswith(b"\n") else ln + b"\n" for ln in source.read_bytes().splitlines(keepends=True)]
    target = int(mb * 1e6)
    keep = session_id.encode()
    written = rounds = 0
    with open(project / source.name, "wb") as f:
        while written < target:
            if rounds == 0:
                chunk = b"".join(lines)
            else:
                tag = b"%06x" % rounds

                def rename(m: re.Match[bytes], tag: bytes = tag) -> bytes:
                    value = m.group(1)
                    if value == keep:
                        return m.group(0)
                    return b'"' + (value[:-6] + tag if value[8:9] == b"-" else value + tag) + b'"'

                chunk = _LINK_IDS.sub(rename, b"".join(lines))
            f.write(chunk)
            written += len(chunk)
            rounds += 1
    files = list(Path(out).rglob("*.jsonl"))
    manifest = Manifest(GENERATOR_VERSION, 0, 1, 1, mb, None, True)
    noise_per_round = sum(len(ln) for ln in lines if json.loads(ln).get("type") in _GROWN_NOISE)
    manifest.noise_bytes = round(written * noise_per_round / max(1, sum(map(len, lines))))
    manifest.big_session_id = session_id
    manifest.big_session_path = str((project / source.name).relative_to(out))
    manifest.files = len(files)
    manifest.total_bytes = sum(p.stat().st_size for p in files)
    manifest.seconds = round(time.perf_counter() - began, 2)
    manifest.extra = {"grown_from": str(source), "rounds": rounds}
    (Path(out) / MANIFEST_NAME).write_text(json.dumps(asdict(manifest), indent=2), encoding="utf-8")
    return manifest
