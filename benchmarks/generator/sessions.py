"""Sessions: the plan of every session of a root (id, project, size, start, compactions,
agents; drawn from the seed and the session's index) and writing one session with its
subagent logs and their meta files.

Owns a session's files; does not make the whole root or its manifest (`root`).
"""

from __future__ import annotations

import json
import math
import os
import random
from dataclasses import dataclass
from pathlib import Path

from benchmarks.generator.pools import Pools
from benchmarks.generator.transcript import Transcript
from benchmarks.generator.words import MODEL, RARE_EVERY, RARE_QUERY, SPAN_MS, START_MS, WORDS, random_uuid

try:  # the kit's own encoding rule, when the kit is importable
    from session_kit.base.encoding import encode_project_dir
except ImportError:  # pragma: no cover - only when run outside the venv
    import re

    def encode_project_dir(path: str) -> str:
        return re.sub(r"[^A-Za-z0-9]", "-", path)


@dataclass(frozen=True, slots=True)
class SessionPlan:
    index: int
    session_id: str
    project_dir: str  # encoded name under projects/
    cwd: str
    target_bytes: int
    start_ms: int
    compactions: int
    agents: int
    rare: bool


def _project_paths(rng: random.Random, n: int) -> list[str]:
    # A few names with characters the encoding folds (`.`, `_`, space) as real users have.
    out = []
    for i in range(n):
        name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}"
        style = rng.random()
        if style < 0.1:
            name = f"{name}.v{rng.randint(1, 9)}"
        elif style < 0.2:
            name = name.replace("-", "_")
        elif style < 0.25:
            name = f"My {name.capitalize()}"
        out.append(f"/home/user/code/{name}-{i}")
    return out


def _session_size(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.97:
        lo, hi = 5_000, 80_000
    elif r < 0.997:
        lo, hi = 80_000, 1_000_000
    else:
        lo, hi = 1_000_000, 5_000_000
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def plan_sessions(
    *, sessions: int, seed: int, projects: int | None = None, session_kb: float | None = None, subagents: bool = True
) -> list[SessionPlan]:
    rng = random.Random(f"plan:{seed}")
    n_projects = projects or max(1, round(sessions / 50))
    paths = _project_paths(rng, n_projects)
    # Zipf-ish: a few projects hold most sessions, as on a real machine.
    weights = [1 / (k + 1) ** 0.8 for k in range(n_projects)]
    plans = []
    for i in range(sessions):
        srng = random.Random(f"{seed}:{i}")
        # Ids, projects and times first, so roots that differ only in sizes share them.
        session_id = random_uuid(srng)
        k = i if i < n_projects else srng.choices(range(n_projects), weights)[0]
        start_ms = START_MS + srng.randrange(SPAN_MS)
        target = int(session_kb * 1000 * srng.uniform(0.9, 1.1)) if session_kb else _session_size(srng)
        compactions = 0
        if srng.random() < 0.15 and target > 50_000:
            compactions = 1 + (target > 1_000_000) + (target > 3_000_000)
        agents = 0
        if srng.random() < 0.12 and subagents:
            agents = srng.randint(1, 3)
        plans.append(
            SessionPlan(
                index=i,
                session_id=session_id,
                project_dir=encode_project_dir(paths[k]),
                cwd=paths[k],
                target_bytes=target,
                start_ms=start_ms,
                compactions=compactions,
                agents=agents,
                rare=(i % RARE_EVERY == 7),
            )
        )
    return plans


def _write_subagent(pools: Pools, parent: Transcript, sub_dir: Path, spawn, rng: random.Random) -> tuple[int, int, int]:
    agent_id, tool_use_id, agent_type, desc, prompt, start_ms = spawn
    sub_dir.mkdir(parents=True, exist_ok=True)
    path = sub_dir / f"agent-{agent_id}.jsonl"
    target = int(math.exp(rng.uniform(math.log(5_000), math.log(40_000))))
    with open(path, "w", encoding="ascii") as fh:
        t = Transcript(
            pools,
            rng,
            fh,
            session_id=parent.session_id,
            cwd=json.loads(f'"{parent.cwd}"'),
            branch=parent.branch,
            start_ms=start_ms,
            agent_id=agent_id,
        )
        t.turn(prompt, budget=target * 0.05, rounds=rng.randint(1, 4), stop_at=target)
        while t.written < target:
            t.turn(rng.choice(pools.prompts), budget=target * 0.05, rounds=rng.randint(1, 4), stop_at=target)
        t.flush()
    meta = {
        "agentType": agent_type,
        "description": json.loads(f'"{desc}"'),
        "toolUseId": tool_use_id,
        "spawnDepth": 1,
        "model": MODEL,
        "finished": True,
    }
    (sub_dir / f"agent-{agent_id}.meta.json").write_text(json.dumps(meta), encoding="ascii")
    os.utime(path, ns=(t.ms * 1_000_000, t.ms * 1_000_000))
    return 2, t.written, t.noise


def write_session(pools: Pools, root: Path, plan: SessionPlan, *, seed: int) -> tuple[int, int, int]:
    """Write one session (and its subagents); returns (files, bytes, noise bytes)."""
    rng = random.Random(f"{seed}:{plan.index}:body")
    project = root / "projects" / plan.project_dir
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{plan.session_id}.jsonl"
    files, total, noise = 1, 0, 0
    target = plan.target_bytes
    compact_at = [target * (k + 1) / (plan.compactions + 1) for k in range(plan.compactions)]
    agent_at = [target * (k + 0.5) / (plan.agents + 1) for k in range(plan.agents)]
    with open(path, "w", encoding="ascii") as fh:
        t = Transcript(
            pools,
            rng,
            fh,
            session_id=plan.session_id,
            cwd=plan.cwd,
            branch=rng.choice(("main", "main", "main", f"feature/{rng.choice(WORDS)}")),
            start_ms=plan.start_ms,
        )
        t.start(300.0)
        first = True
        while first or t.written < target:
            # How much one text or tool output may take: a 5 KB session holds no 1000-line read.
            budget = max(300.0, (target - t.written) * 0.2 / 4)
            prompt = rng.choice(pools.prompts)
            if first and plan.rare:
                prompt += f" (ticket {RARE_QUERY})"
            if not first and rng.random() < 0.05:
                t.user_text(
                    "<command-name>/cost</command-name>\\n<command-message>cost</command-message>"
                    "\\n<command-args></command-args>"
                )
                t.user_text(f"<local-command-stdout>Total cost: ${rng.uniform(0, 30):.2f}</local-command-stdout>")
            use_agents = 0
            if agent_at and t.written >= agent_at[0]:
                agent_at.pop(0)
                use_agents = 1
            rounds = rng.choice((0, 1, 1, 2, 3, 4, 6))
            t.turn(prompt, budget=budget, rounds=max(rounds, use_agents), agents=use_agents, stop_at=target)
            first = False
            if compact_at and t.written >= compact_at[0]:
                compact_at.pop(0)
                t.compact()
                t.start(budget)
                t.fill_noise()
        t.flush()
    os.utime(path, ns=(t.ms * 1_000_000, t.ms * 1_000_000))
    total, noise = t.written, t.noise
    for spawn in t.spawn:
        f, b, nb = _write_subagent(pools, t, project / plan.session_id / "subagents", spawn, rng)
        files, total, noise = files + f, total + b, noise + nb
    return files, total, noise


_WORKER_POOLS: Pools | None = None
