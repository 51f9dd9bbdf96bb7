"""What every benchmark is given: the run's scale (full or quick), the generated roots (made
once, reused while their manifest matches), the command that runs the kit, and `measure`
with the run's repeat counts; and the registry benchmarks add themselves to.

Owns the run's shared state; does not define a benchmark (`benchmarks/areas/`).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from benchmarks import generator
from benchmarks.harness.measure import Command, Measurement, measure
from benchmarks.harness.report import Row


@dataclass(frozen=True, slots=True)
class Scale:
    sessions: int
    big_mb: float
    huge_mb: float  # the biggest session preprocessed
    listing_sessions: int
    flat_sessions: tuple[int, int]  # the listing's memory, at few and at many sessions
    small_kb: float
    large_kb: float
    repeat: int
    slow_repeat: int  # for commands that take seconds
    reads_mb: int  # the session every read command reads, as a transcript and as an agent log


FULL = Scale(
    sessions=10_000,
    big_mb=60,
    huge_mb=240,
    listing_sessions=1_000,
    flat_sessions=(1_000, 30_000),
    small_kb=8,
    large_kb=230,
    repeat=5,
    slow_repeat=3,
    reads_mb=200,
)
QUICK = Scale(
    sessions=1_000,
    big_mb=10,
    huge_mb=40,
    listing_sessions=200,
    flat_sessions=(200, 6_000),
    small_kb=8,
    large_kb=230,
    repeat=3,
    slow_repeat=2,
    reads_mb=40,
)


def scale_for(*, quick: bool, repeat: int | None = None) -> Scale:
    """The run's scale: full or quick sizes, with `repeat` timed runs per command when given
    (and no more for slow commands than the scale's own)."""
    scale = QUICK if quick else FULL
    if repeat:
        scale = replace(scale, repeat=repeat, slow_repeat=min(repeat, scale.slow_repeat))
    return scale


def ensure_root(data: Path, name: str, *, log: Callable[[str], None], **params) -> dict:
    """The generated root `data/name`, made when missing or made with other parameters."""
    wanted = {
        "generator_version": generator.GENERATOR_VERSION,
        "seed": params.get("seed", 0),
        "sessions": params["sessions"],
        "big_mb": float(params.get("big_mb", 0.0)),
        "session_kb": params.get("session_kb"),
        "subagents": params.get("subagents", True),
    }

    def make(partial: Path) -> None:
        log(f"generating {name} ...")
        m = generator.generate(partial, **params)
        log(f"  {m.files} files, {m.total_bytes / 1e6:.1f} MB in {m.seconds:.1f}s")

    return made_root(data, name, wanted, make)


def made_root(data: Path, name: str, wanted: dict, make: Callable[[Path], object]) -> dict:
    """The manifest of the root `data/name`, made by `make(folder)` when missing or when its
    manifest does not say `wanted`.

    Makes it in `name.partial` and renames, so an interrupted run never leaves a root that
    looks complete. Only removes directories the benchmarks made (`.partial`, or holding a manifest)."""
    root = data / name
    manifest = generator.read_manifest(root)
    if manifest and all(manifest.get(k) == v for k, v in wanted.items()):
        return manifest
    if root.exists():
        if manifest is None:
            raise SystemExit(f"{root} exists but was not made by the benchmarks' generator; move it away")
        shutil.rmtree(root)
    partial = data / f"{name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    make(partial)
    os.replace(partial, root)
    return generator.read_manifest(root) or {}


@dataclass(slots=True)
class Context:
    data: Path
    scale: Scale
    kit: tuple[str, ...]
    log: Callable[[str], None]
    roots: dict[str, tuple[Path, dict]] = field(default_factory=dict)
    measurements: list[Measurement] = field(default_factory=list)
    cache: dict[str, Measurement] = field(default_factory=dict)

    def root(self, name: str, **params) -> tuple[Path, dict]:
        if name not in self.roots:
            manifest = ensure_root(self.data, name, log=self.log, **params)
            self.roots[name] = (self.data / name, manifest)
        return self.roots[name]

    def main_root(self) -> tuple[Path, dict]:
        s = self.scale
        return self.root(f"main-s{s.sessions}-b{s.big_mb:g}", sessions=s.sessions, big_mb=s.big_mb)

    def measure(self, *commands: Command, slow: bool = False, key: str | None = None) -> list[Measurement]:
        """`measure` (interleaved) with this run's repeat count; `key` keeps the result of a
        single command for reuse (a shared baseline)."""
        if key and key in self.cache:
            return [self.cache[key]]
        self.log("  " + " | ".join(c.label for c in commands) + " ...")
        ms = measure(commands, repeat=self.scale.slow_repeat if slow else self.scale.repeat)
        self.measurements.extend(ms)
        if key:
            self.cache[key] = ms[0]
        return ms

    def python_pass(self) -> Measurement:
        return self.measure(Command.of("python -c pass", [sys.executable, "-c", "pass"]), key="python-pass")[0]


def find_kit() -> tuple[str, ...]:
    exe = Path(sys.executable).parent / "session-kit"
    return (str(exe),) if exe.exists() else (sys.executable, "-m", "session_kit")


BENCHMARKS: dict[str, Callable[[Context], list[Row]]] = {}


def benchmark(name: str):
    def register(fn: Callable[[Context], list[Row]]) -> Callable[[Context], list[Row]]:
        BENCHMARKS[name] = fn
        return fn

    return register
