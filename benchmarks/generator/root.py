"""A whole generated Claude root: every planned session written (in worker processes when
there are many) and the `benchmark-manifest.json` that says what was written; reading a
root's manifest back.

Owns the root and its manifest; does not write lines or sessions (`sessions`).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchmarks.generator.pools import Pools
from benchmarks.generator.sessions import SessionPlan, encode_project_dir, plan_sessions, write_session
from benchmarks.generator.words import COMMON_QUERY, RARE_QUERY, SPAN_MS, START_MS, random_uuid

GENERATOR_VERSION = 1
MANIFEST_NAME = "benchmark-manifest.json"


@dataclass(slots=True)
class Manifest:
    generator_version: int
    seed: int
    sessions: int
    projects: int
    big_mb: float
    session_kb: float | None
    subagents: bool
    big_session_id: str | None = None
    big_session_path: str | None = None
    common_query: str = COMMON_QUERY
    rare_query: str = RARE_QUERY
    files: int = 0
    total_bytes: int = 0
    noise_bytes: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)


def _worker_init(seed: int) -> None:
    global _WORKER_POOLS
    _WORKER_POOLS = Pools(seed)


def _write_chunk(root: str, plans: list[SessionPlan], seed: int) -> tuple[int, int, int]:
    assert _WORKER_POOLS is not None
    files = total = noise = 0
    for plan in plans:
        f, b, n = write_session(_WORKER_POOLS, Path(root), plan, seed=seed)
        files, total, noise = files + f, total + b, noise + n
    return files, total, noise


def _chunks(items: list, n: int) -> Iterator[list]:
    for i in range(0, len(items), n):
        yield items[i : i + n]


def generate(
    out: str | os.PathLike[str],
    *,
    sessions: int,
    big_mb: float = 0.0,
    seed: int = 0,
    projects: int | None = None,
    session_kb: float | None = None,
    subagents: bool = True,
    workers: int | None = None,
) -> Manifest:
    """Write a Claude root at `out` and its manifest; the same arguments give the same bytes."""
    began = time.perf_counter()
    root = Path(out)
    (root / "projects").mkdir(parents=True, exist_ok=True)
    plans = plan_sessions(sessions=sessions, seed=seed, projects=projects, session_kb=session_kb, subagents=subagents)
    manifest = Manifest(
        GENERATOR_VERSION, seed, sessions, len({p.project_dir for p in plans}), big_mb, session_kb, subagents
    )
    workers = workers or min(os.cpu_count() or 1, 8)
    totals = [0, 0, 0]

    def add(res: tuple[int, int, int]) -> None:
        for k in range(3):
            totals[k] += res[k]

    if big_mb > 0:
        brng = random.Random(f"big:{seed}")
        big = SessionPlan(
            index=-1,
            session_id=random_uuid(brng),
            project_dir=encode_project_dir("/home/user/code/monorepo"),
            cwd="/home/user/code/monorepo",
            target_bytes=int(big_mb * 1_000_000),
            start_ms=START_MS + SPAN_MS,
            compactions=max(1, int(big_mb // 15)),
            agents=6 if subagents else 0,
            rare=True,
        )
        manifest.big_session_id = big.session_id
        manifest.big_session_path = f"projects/{big.project_dir}/{big.session_id}.jsonl"
        plans_big = [big]
    else:
        plans_big = []

    if workers <= 1 or sessions < 200:
        pools = Pools(seed)
        for plan in plans_big + plans:
            add(write_session(pools, root, plan, seed=seed))
    else:
        # Big session first, on its own, so it overlaps with the many small ones.
        work = [plans_big] if plans_big else []
        work += list(_chunks(plans, max(1, len(plans) // (workers * 8))))
        with ProcessPoolExecutor(workers, initializer=_worker_init, initargs=(seed,)) as ex:
            for res in ex.map(_write_chunk, [str(root)] * len(work), work, [seed] * len(work)):
                add(res)
    manifest.files, manifest.total_bytes, manifest.noise_bytes = totals
    manifest.projects = len({p.project_dir for p in plans + plans_big})
    manifest.seconds = round(time.perf_counter() - began, 2)
    (root / MANIFEST_NAME).write_text(json.dumps(asdict(manifest), indent=2) + "\n", encoding="utf-8")
    return manifest


def read_manifest(root: str | os.PathLike[str]) -> dict | None:
    try:
        return json.loads((Path(root) / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
