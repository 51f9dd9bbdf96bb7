"""Speed and memory benchmarks for claude-session-kit, as ratios against baselines of the same run.

Owns: making (or reusing) the generated Claude roots under the data dir, running the kit's CLI
and the baseline commands as fresh child processes, and reporting best-of-N wall times and
peak RSS, the ratios, and PASS/MISS per target. Does not generate transcripts itself
(`generate.py` does) and asserts nothing in the test suite: machines here are small and noisy,
so a target is a ratio against a baseline timed in the same run, or a generous absolute limit.

    .venv/bin/python benchmarks/run.py            # full run: 10,000 sessions + a 60 MB session
    .venv/bin/python benchmarks/run.py --quick    # smaller data, fewer repeats
    .venv/bin/python benchmarks/run.py --json     # machine-readable results on stdout

Adding a target: write a function `def bench_x(ctx: Context) -> list[Row]` that calls
`ctx.measure(Command.of(...), Command.of(...))` for the kit command and its baseline (they
run interleaved), decorate it with `@benchmark("x")`, and return rows made with
`Row.ratio_row` (times) or `Row.memory_row` (peak RSS).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402  (a sibling script, not a package)

MB = 1024 * 1024


# --------------------------------------------------------------------------------------------
# Measuring one command.


@dataclass(frozen=True, slots=True)
class Measurement:
    """Wall times and peak RSS of repeated fresh runs of one command."""

    label: str
    argv: tuple[str, ...]
    seconds: tuple[float, ...]
    max_rss_kb: tuple[int, ...]
    returncode: int
    stdout_bytes: int
    note: str = ""

    @property
    def best(self) -> float | None:
        return min(self.seconds) if self.seconds else None

    @property
    def median(self) -> float | None:
        return statistics.median(self.seconds) if self.seconds else None

    @property
    def rss_mb(self) -> float | None:
        """Peak RSS in MiB; the smallest over the runs (the same work every run, so the least
        disturbed figure)."""
        return min(self.max_rss_kb) / 1024 if self.max_rss_kb else None

    @property
    def ok(self) -> bool:
        return self.returncode == 0


# The process that forks the measured command must be small: on Linux a child's peak RSS
# includes what it inherited before exec, so forking from this script (tens of MB) would put
# a floor under every figure. GNU time is tiny; a bare interpreter is the fallback.
TIME_BIN = shutil.which("time", path="/usr/bin:/bin")
RSS_WRAPPER = (
    "import os,sys\n"
    "pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def _run_once(
    argv: Sequence[str], *, cwd: Path | None, stdin: bytes | None, capture: bool
) -> tuple[float, int, int, bytes, bytes]:
    """One fresh child: (seconds, max RSS KiB, exit code, stdout if captured, stderr tail)."""
    exe = shutil.which(argv[0]) or argv[0]
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryFile() as inp,
        tempfile.NamedTemporaryFile("r") as rss,
    ):
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        if TIME_BIN:
            cmd = [TIME_BIN, "-f", "%M", "-o", rss.name, exe, *argv[1:]]
        else:
            cmd = [sys.executable, "-S", "-c", RSS_WRAPPER, rss.name, exe, *argv[1:]]
        began = time.perf_counter()
        # Timed runs write to a pipe that is drained and dropped, as a command's output goes to
        # a terminal or a pager: never to /dev/null, where GNU grep stops at each file's first
        # match (it acts as `-q`) and a baseline would look faster than the work it stands for.
        child = subprocess.Popen(
            cmd,
            cwd=cwd,
            stdin=inp if stdin is not None else subprocess.DEVNULL,
            stdout=out if capture else subprocess.PIPE,
            stderr=err,
        )
        if not capture:
            assert child.stdout is not None
            fd = child.stdout.fileno()
            while os.read(fd, 1 << 16):
                pass
            child.stdout.close()
        code = child.wait()
        elapsed = time.perf_counter() - began
        # GNU time writes "Command exited with non-zero status N" before the figure.
        lines = rss.read().split()
        kb = int(lines[-1]) if lines and lines[-1].isdigit() else 0
        out.seek(0)
        data = out.read() if capture else b""
        err.seek(0)
        tail = err.read()[-2000:]
    return elapsed, kb, code, data, tail


@dataclass(frozen=True, slots=True)
class Command:
    """A command to time: what to run, where, with what on stdin, and how to describe its output."""

    label: str
    argv: tuple[str, ...]
    cwd: Path | None = None
    stdin: bytes | None = None
    inspect: Callable[[bytes], str] | None = None
    ok_codes: tuple[int, ...] = (0,)

    @classmethod
    def of(cls, label: str, argv: Sequence[object], **kwargs) -> Command:
        return cls(label, tuple(str(a) for a in argv), **kwargs)


def measure(commands: Sequence[Command], *, repeat: int) -> list[Measurement]:
    """Run each command once capturing stdout (warm-up, exit check, `inspect` note), then
    `repeat` rounds in which every command runs once, stdout to a pipe that is drained.

    Interleaving the rounds puts a command and its baseline under the same passing load, which
    matters more on a busy 2-core machine than any number of repeats. A failing command is
    reported, not retried, and left out of the rounds."""
    notes: list[str] = []
    sizes: list[int] = []
    failed: dict[int, Measurement] = {}
    for i, c in enumerate(commands):
        _, _, code, data, tail = _run_once(c.argv, cwd=c.cwd, stdin=c.stdin, capture=True)
        if code not in c.ok_codes:
            last = tail.decode("utf-8", "replace").strip().splitlines()[-1:]
            failed[i] = Measurement(c.label, c.argv, (), (), code, len(data), f"exit {code}: {last[0] if last else ''}")
            notes.append("")
            sizes.append(len(data))
            continue
        note = ""
        if c.inspect:
            try:
                note = c.inspect(data)
            except Exception as exc:  # a note, never a failure
                note = f"(could not read output: {exc.__class__.__name__})"
        notes.append(note)
        sizes.append(len(data))
    seconds: list[list[float]] = [[] for _ in commands]
    rss: list[list[int]] = [[] for _ in commands]
    for _ in range(repeat):
        for i, c in enumerate(commands):
            if i in failed:
                continue
            sec, kb, _, _, _ = _run_once(c.argv, cwd=c.cwd, stdin=c.stdin, capture=False)
            seconds[i].append(sec)
            rss[i].append(kb)
    return [
        failed.get(i) or Measurement(c.label, c.argv, tuple(seconds[i]), tuple(rss[i]), 0, sizes[i], notes[i])
        for i, c in enumerate(commands)
    ]


# --------------------------------------------------------------------------------------------
# Results.


@dataclass(frozen=True, slots=True)
class Row:
    benchmark: str
    what: str
    value: float | None  # seconds or MiB
    unit: str  # "s" or "MB"
    baseline: str = ""
    baseline_value: float | None = None
    ratio: float | None = None
    target: str = ""
    status: str = "info"  # PASS, MISS, ERROR or info
    note: str = ""
    median: float | None = None

    @staticmethod
    def _status(ok: bool | None) -> str:
        return "info" if ok is None else ("PASS" if ok else "MISS")

    @classmethod
    def error(cls, benchmark: str, what: str, m: Measurement) -> Row:
        return cls(benchmark, what, None, "", target="", status="ERROR", note=m.note)

    @classmethod
    def ratio_row(
        cls,
        benchmark: str,
        what: str,
        m: Measurement,
        base: Measurement,
        *,
        max_ratio: float | None = None,
        max_seconds: float | None = None,
        note: str = "",
    ) -> Row:
        """Times: best of `m` against best of `base`; the target is a ratio, a time, or none."""
        if not m.ok:
            return cls.error(benchmark, what, m)
        if not base.ok:
            return cls(
                benchmark,
                what,
                m.best,
                "s",
                base.label,
                None,
                None,
                "",
                "ERROR",
                f"baseline failed: {base.note}",
                m.median,
            )
        ratio = m.best / base.best if base.best > 0 else float("inf")
        ok: bool | None = None
        target = ""
        if max_ratio is not None:
            ok, target = ratio <= max_ratio, f"ratio <= {max_ratio:g}"
        if max_seconds is not None:
            ok, target = m.best < max_seconds, f"< {max_seconds:g} s"
        return cls(
            benchmark,
            what,
            m.best,
            "s",
            base.label,
            base.best,
            ratio,
            target,
            cls._status(ok),
            note or m.note,
            m.median,
        )

    @classmethod
    def memory_row(
        cls,
        benchmark: str,
        what: str,
        m: Measurement,
        base: Measurement,
        *,
        max_mb: float | None = None,
        max_ratio: float | None = None,
        note: str = "",
    ) -> Row:
        """Peak RSS of `m` against `base`'s; the target is a size (`max_mb`), a ratio, or none."""
        if not m.ok:
            return cls.error(benchmark, what, m)
        if not base.ok:
            return cls(
                benchmark, what, m.rss_mb, "MB", base.label, None, None, "", "ERROR", f"baseline failed: {base.note}"
            )
        ok: bool | None = None
        target = ""
        if max_mb is not None:
            ok, target = m.rss_mb < max_mb, f"< {max_mb:g} MB"
        if max_ratio is not None:
            ok, target = m.rss_mb / base.rss_mb <= max_ratio, f"ratio <= {max_ratio:g}"
        return cls(
            benchmark,
            what,
            m.rss_mb,
            "MB",
            base.label,
            base.rss_mb,
            m.rss_mb / base.rss_mb,
            target,
            cls._status(ok),
            note or m.note,
        )


# --------------------------------------------------------------------------------------------
# Data and context.


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
)


def ensure_root(data: Path, name: str, *, log: Callable[[str], None], **params) -> dict:
    """The generated root `data/name`, made when missing or made with other parameters."""
    wanted = {
        "generator_version": generate.GENERATOR_VERSION,
        "seed": params.get("seed", 0),
        "sessions": params["sessions"],
        "big_mb": float(params.get("big_mb", 0.0)),
        "session_kb": params.get("session_kb"),
        "subagents": params.get("subagents", True),
    }

    def make(partial: Path) -> None:
        log(f"generating {name} ...")
        m = generate.generate(partial, **params)
        log(f"  {m.files} files, {m.total_bytes / 1e6:.1f} MB in {m.seconds:.1f}s")

    return made_root(data, name, wanted, make)


def made_root(data: Path, name: str, wanted: dict, make: Callable[[Path], object]) -> dict:
    """The manifest of the root `data/name`, made by `make(folder)` when missing or when its
    manifest does not say `wanted`.

    Makes it in `name.partial` and renames, so an interrupted run never leaves a root that
    looks complete. Only removes directories this script made (`.partial`, or holding a manifest)."""
    root = data / name
    manifest = generate.read_manifest(root)
    if manifest and all(manifest.get(k) == v for k, v in wanted.items()):
        return manifest
    if root.exists():
        if manifest is None:
            raise SystemExit(f"{root} exists but was not made by benchmarks/generate.py; move it away")
        shutil.rmtree(root)
    partial = data / f"{name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    make(partial)
    os.replace(partial, root)
    return generate.read_manifest(root) or {}


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


def _count_json(data: bytes) -> str:
    """A short description of a JSON answer: how many items it holds."""
    text = data.decode("utf-8")
    try:
        doc = json.loads(text)
    except ValueError:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        return f"{len(lines)} output lines"
    if isinstance(doc, list):
        return f"{len(doc)} items"
    if isinstance(doc, dict):
        for k, v in doc.items():
            if isinstance(v, list):
                return f"{len(v)} {k}"
        return f"object with {len(doc)} keys"
    return type(doc).__name__


def _grep_total(data: bytes) -> str:
    lines = data.decode("utf-8", "replace").splitlines()
    total = sum(int(ln.rsplit(":", 1)[1]) for ln in lines if ":" in ln)
    hit = sum(1 for ln in lines if not ln.endswith(":0"))
    return f"{total} lines in {hit}/{len(lines)} files"


# --------------------------------------------------------------------------------------------
# Benchmarks: each a small function returning rows.

BENCHMARKS: dict[str, Callable[[Context], list[Row]]] = {}


def benchmark(name: str):
    def register(fn: Callable[[Context], list[Row]]) -> Callable[[Context], list[Row]]:
        BENCHMARKS[name] = fn
        return fn

    return register


@benchmark("listing")
def bench_listing(ctx: Context) -> list[Row]:
    """`sessions --all` over every session: within 20x `find` of the session files, whatever
    the sessions weigh, in the same memory at 1,000 sessions as at 30,000."""
    root, manifest = ctx.main_root()
    n = manifest.get("sessions", 0) + (1 if manifest.get("big_session_id") else 0)
    base = ctx.python_pass()
    find, kit = ctx.measure(
        Command.of(
            "find projects -name '*.jsonl'",
            ["find", "projects", "-name", "*.jsonl"],
            cwd=root,
            inspect=lambda d: f"{len(d.splitlines())} files",
        ),
        Command.of(
            "sessions --all", [*ctx.kit, "sessions", "--all", "--claude-dir", root, "--json"], inspect=_count_json
        ),
    )
    rows = [
        Row.ratio_row("listing", f"sessions --all --json ({n:,} sessions)", kit, find, max_ratio=20),
        Row.ratio_row("listing", "  same, against python -c pass", kit, base, max_seconds=1.0, note="-"),
    ]

    s = ctx.scale
    small, sm = ctx.root(
        f"listing-small-{s.listing_sessions}-{s.small_kb:g}kb",
        sessions=s.listing_sessions,
        projects=20,
        session_kb=s.small_kb,
        subagents=False,
    )
    large, lm = ctx.root(
        f"listing-large-{s.listing_sessions}-{s.large_kb:g}kb",
        sessions=s.listing_sessions,
        projects=20,
        session_kb=s.large_kb,
        subagents=False,
    )
    m_small, m_large = ctx.measure(
        Command.of(
            "sessions --all (small files)",
            [*ctx.kit, "sessions", "--all", "--claude-dir", small, "--json"],
            inspect=_count_json,
        ),
        Command.of(
            "sessions --all (large files)",
            [*ctx.kit, "sessions", "--all", "--claude-dir", large, "--json"],
            inspect=_count_json,
        ),
    )
    weight = lm.get("total_bytes", 0) / max(1, sm.get("total_bytes", 1))
    per_small = sm.get("total_bytes", 0) / max(1, s.listing_sessions) / 1000
    per_large = lm.get("total_bytes", 0) / max(1, s.listing_sessions) / 1000
    rows.append(
        Row.ratio_row(
            "listing",
            f"size independence: {s.listing_sessions:,} x {per_large:.0f} KB vs {s.listing_sessions:,} x "
            f"{per_small:.0f} KB ({weight:.0f}x the bytes)",
            m_large,
            m_small,
            max_ratio=1.5,
        )
    )
    rows.append(_flat_listing_row(ctx))
    return rows


FLAT_RATIO = 1.15  # "flat": the peak RSS at 30x the sessions is at most 15% above


def _flat_listing_row(ctx: Context) -> Row:
    """Peak RSS of `sessions --all --json` over few and over many small sessions (~14 KB each,
    no subagents): the listing streams, so the count of sessions must not show."""
    few, many = ctx.scale.flat_sessions
    commands = []
    for count in (few, many):
        root, _ = ctx.root(
            f"listing-flat-{count}", sessions=count, projects=20, session_kb=ctx.scale.small_kb, subagents=False
        )
        commands.append(
            Command.of(
                f"sessions --all --json ({count:,} sessions)",
                [*ctx.kit, "sessions", "--all", "--claude-dir", root, "--json"],
                inspect=_count_json,
            )
        )
    m_few, m_many = ctx.measure(*commands, slow=True)
    return Row.memory_row(
        "listing",
        f"memory: sessions --all --json, {many:,} vs {few:,} sessions, peak RSS",
        m_many,
        m_few,
        max_ratio=FLAT_RATIO,
    )


def _search_row(ctx: Context, root: Path, query: str, what: str) -> Row:
    grep, kit = ctx.measure(
        Command.of(
            f"grep -ric -r {query}",
            ["grep", "-ric", "-r", query, "projects/"],
            cwd=root,
            inspect=_grep_total,
            ok_codes=(0, 1),
        ),  # grep: 1 = no match
        Command.of(
            f"search --scan {query}",
            [*ctx.kit, "search", query, "--all", "--scan", "--claude-dir", root, "--json"],
            inspect=_count_json,
        ),
        slow=True,
    )
    note = f"kit: {kit.note}; grep: {grep.note}" if kit.ok else ""
    return Row.ratio_row("search", what, kit, grep, max_ratio=1.5, note=note)


@benchmark("search")
def bench_search(ctx: Context) -> list[Row]:
    """`search --all --scan` (the exact scan) against `grep -ric -r` over the same files (grep
    writing to a pipe, so it counts every match): at most 1.5x."""
    root, manifest = ctx.main_root()
    mb = manifest.get("total_bytes", 0) / 1e6
    common, rare = manifest.get("common_query", generate.COMMON_QUERY), manifest.get("rare_query", generate.RARE_QUERY)
    return [
        _search_row(ctx, root, common, f'search "{common}" --all ({mb:.0f} MB, common)'),
        _search_row(ctx, root, rare, f'search "{rare}" --all ({mb:.0f} MB, rare)'),
    ]


JSON_LINES = "import json,sys\nwith open(sys.argv[1],'rb') as f:\n    for line in f: json.loads(line)\n"


def _big_session(ctx: Context) -> tuple[Path, Path, str, float]:
    """(root, big session file, its id, its size in MB)."""
    root, manifest = ctx.main_root()
    path = root / manifest["big_session_path"]
    return root, path, manifest["big_session_id"], path.stat().st_size / 1e6


def _json_lines(ctx: Context) -> Measurement:
    """The time (and memory) Python needs just to parse every line of the big session."""
    _, path, _, _ = _big_session(ctx)
    return ctx.measure(
        Command.of("json.loads every line", [sys.executable, "-c", JSON_LINES, path]), slow=True, key="json-lines"
    )[0]


@benchmark("memory")
def bench_memory(ctx: Context) -> list[Row]:
    """Peak RSS of `show <big> --json`: under 64 MB, next to a bare interpreter's."""
    root, _, sid, mb = _big_session(ctx)
    base = ctx.python_pass()
    lines = _json_lines(ctx)
    [kit] = ctx.measure(
        Command.of(
            "show big --json",
            [*ctx.kit, "show", sid, "--claude-dir", root, "--json"],
            inspect=lambda d: f"{len(d) / 1000:.1f} KB of output",
        ),
        slow=True,
    )
    return [
        Row.memory_row("memory", f"show <big> --json, peak RSS ({mb:.0f} MB session)", kit, base, max_mb=64),
        Row.memory_row("memory", "  same, against json.loads line by line", kit, lines, note="-"),
        Row.ratio_row("memory", f"  show <big> --json, time ({mb:.0f} MB session)", kit, lines, note="-"),
    ]


READS_MB = {"full": 200, "quick": 40}  # the session every read command reads, as a transcript and as an agent log
READS_MAX_MB = 100


def _host_of_agent_log(ctx: Context, big: Path) -> tuple[Path, str]:
    """A Claude root whose one small session has the big session's file as its agent log (a
    symlink, made afresh): `debug-agent` and `events` read an agent log that large."""
    root = ctx.data / "reads-host"
    shutil.rmtree(root, ignore_errors=True)
    project = root / "projects" / "-host"
    subagents = project / "host-session" / "subagents"
    subagents.mkdir(parents=True)
    (project / "host-session.jsonl").write_text(
        '{"type":"user","uuid":"h1","sessionId":"host-session","timestamp":"2026-01-01T00:00:00Z",'
        '"message":{"role":"user","content":"spawn the big agent"}}\n'
    )
    (subagents / "agent-abig.jsonl").symlink_to(big)
    return root, "host-session"


@benchmark("reads")
def bench_reads(ctx: Context) -> list[Row]:
    """Peak RSS of every read command on one large session (200 MB; quick: 40 MB), as a
    transcript and as an agent log: each under 100 MB, whatever the input size (they stream)."""
    mb = READS_MB["quick" if ctx.scale is QUICK else "full"]
    root, manifest = ctx.root(f"reads-b{mb}", sessions=1, big_mb=mb, subagents=False)
    big = root / manifest["big_session_path"]
    sid = manifest["big_session_id"]
    host, host_sid = _host_of_agent_log(ctx, big)
    size = big.stat().st_size / 1e6
    on_big = ["--claude-dir", root]
    commands = [
        Command.of("sessions --all --json", [*ctx.kit, "sessions", "--all", "--json", *on_big]),
        Command.of("show --json", [*ctx.kit, "show", sid, "--json", *on_big]),
        Command.of("events --json", [*ctx.kit, "events", sid, "--json", *on_big]),
        Command.of("events (text)", [*ctx.kit, "events", sid, *on_big]),
        Command.of("plan --all --json", [*ctx.kit, "plan", sid, "--all", "--json", *on_big]),
        Command.of("info --json", [*ctx.kit, "info", sid, "--json", *on_big]),
        Command.of(
            f"search {generate.COMMON_QUERY} --limit 5",
            [*ctx.kit, "search", generate.COMMON_QUERY, "--all", "--limit", "5", "--json", *on_big],
        ),
        Command.of(
            f"search {generate.COMMON_QUERY} (every hit)",
            [*ctx.kit, "search", generate.COMMON_QUERY, "--all", "--json", *on_big],
            inspect=_count_json,
        ),
        Command.of("preprocess --stdout", [*ctx.kit, "preprocess", sid, "--stdout", *on_big]),
        Command.of(
            "debug-agent --all --json (agent log)",
            [*ctx.kit, "debug-agent", host_sid, "--all", "--json", "--claude-dir", host],
        ),
        Command.of("events --json (agent log)", [*ctx.kit, "events", host_sid, "--json", "--claude-dir", host]),
    ]
    base = ctx.python_pass()
    rows = []
    for command in commands:
        [m] = ctx.measure(command, slow=True)
        rows.append(Row.memory_row("reads", f"{command.label}, peak RSS ({size:.0f} MB)", m, base, max_mb=READS_MAX_MB))
    return rows


HOOK_EVENT = {
    "hook_event_name": "SessionStart",
    "source": "startup",
    "cwd": "/home/user/code/project",
    "transcript_path": "/home/user/.claude/projects/-home-user-code-project/bench-session.jsonl",
}
# What the client adds to the event of each hook the kit installs (claude-code-facts: Hooks).
HOOK_EVENT_FIELDS = {
    "SessionStart": {"source": "startup"},
    "UserPromptSubmit": {"prompt": "run the tests again"},
    "PreCompact": {"trigger": "manual"},
    "PostCompact": {"trigger": "manual", "compact_summary": "The person asked for the tests to pass."},
    "SessionEnd": {"reason": "other"},
}
BARE_HOOK = (
    "import json, os, sys\n"
    "event = json.load(sys.stdin)\n"
    "d = os.path.join(os.environ['SESSION_KIT_HOME'], 'bare', event['session_id'])\n"
    "os.makedirs(d, exist_ok=True)\n"
    "open(os.path.join(d, 'id'), 'w').write(event['session_id'])\n"
    "open(os.environ['CLAUDE_ENV_FILE'], 'a').write('export X=1\\n')\n"
)


@contextmanager
def hook_environment(folder: Path) -> Iterator[None]:
    """SESSION_KIT_HOME and CLAUDE_ENV_FILE inside `folder` for the hooks run meanwhile."""
    saved = {k: os.environ.get(k) for k in ("SESSION_KIT_HOME", "CLAUDE_ENV_FILE")}
    os.environ["SESSION_KIT_HOME"] = str(folder / "state")
    os.environ["CLAUDE_ENV_FILE"] = str(folder / "env.sh")
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _small_root(
    into: Path, *, session_id: str = "5e551011-0000-4000-8000-000000000001", pools: object | None = None
) -> tuple[Path, str]:
    """A Claude root holding one small generated session (index 1 of seed 0: a 28 KB
    transcript with an 8 KB subagent log): (its transcript, its id)."""
    cwd = "/home/user/code/tiny"
    plan = generate.SessionPlan(
        index=1,
        session_id=session_id,
        project_dir=generate.encode_project_dir(cwd),
        cwd=cwd,
        target_bytes=5_000,
        start_ms=generate.START_MS,
        compactions=0,
        agents=1,
        rare=True,
    )
    generate.write_session(pools or generate._Pools(0), into, plan, seed=0)
    return into / "projects" / plan.project_dir / f"{session_id}.jsonl", session_id


@benchmark("hooks")
def bench_hooks(ctx: Context) -> list[Row]:
    """Every hook the kit installs (`hooks.events`), by both routes: as `session-kit install`
    writes it (`python -I -S run.py EVENT`) and as the plugin runs it (`hooks/run-hook EVENT`,
    `python3` on PATH a version manager's shim), the event's JSON on stdin, against the same
    interpreter running `-c pass` with the same stdin: at most 1.3x. The events name a real
    small transcript (the compaction hooks' capture and the archive's copy have work to do, in
    the children they fork); the hooks write into a throw-away state root and env file."""
    import session_kit
    from session_kit.hooks.events import HOOK_EVENTS

    run_py = Path(session_kit.__file__).parent / "hooks" / "run.py"
    run_hook = HERE.parent / "hooks" / "run-hook"
    rows = []
    with tempfile.TemporaryDirectory() as tmp, hook_environment(Path(tmp)):
        pools = generate._Pools(0)
        made = iter(range(1, 1000))

        def stdin_of(event: str) -> bytes:
            # A session of its own for each command: the memory's capture holds the session's
            # lock until its child is done, and the next hook of that session would wait for it
            # (the client leaves a compaction's length between PreCompact and PostCompact).
            sid = f"5e551011-0000-4000-8000-{next(made):012d}"
            transcript, _ = _small_root(Path(tmp) / "claude", session_id=sid, pools=pools)
            fields = {**HOOK_EVENT, "hook_event_name": event, **HOOK_EVENT_FIELDS.get(event, {})}
            return json.dumps({**fields, "session_id": sid, "transcript_path": str(transcript)}).encode()

        stdin = stdin_of("SessionStart")
        base = Command.of("python -c pass (same stdin)", [sys.executable, "-c", "pass"], stdin=stdin)
        isolated = Command.of("python -I -S -c pass", [sys.executable, "-I", "-S", "-c", "pass"], stdin=stdin)
        bare = Command.of("bare stdlib hook script", [sys.executable, "-c", BARE_HOOK], stdin=stdin)
        hooks = [
            Command.of(f"hook {arg}", [sys.executable, "-I", "-S", run_py, arg], stdin=stdin_of(event))
            for event, arg in HOOK_EVENTS.items()
        ]
        # The plugin route, with `python3` on PATH a version manager's shim (a stand-in that
        # costs what pyenv's did where it was measured: 138 ms against 18 ms).
        shims = Path(tmp) / "shims"
        shims.mkdir()
        (shims / "python3").write_text(f'#!/bin/sh\nsleep {SHIM_COST_S}\nexec "{sys.executable}" "$@"\n')
        (shims / "python3").chmod(0o755)
        through_shim = Command.of(
            "python3 -c pass through the shim (reference)", [shims / "python3", "-c", "pass"], stdin=stdin
        )
        plugin = [
            Command.of(f"plugin hook {arg} (run-hook, python3 a shim)", [run_hook, arg], stdin=stdin_of(event))
            for event, arg in HOOK_EVENTS.items()
        ]
        with plugin_environment(shims, Path(tmp) / "plugin-data"):
            # The baseline twice in a round, its runs pooled: the run after the SessionEnd hook
            # shares the machine with that hook's detached archive child.
            measured = ctx.measure(base, isolated, bare, *hooks, through_shim, base, *plugin)
    m_base, m_isolated, m_bare, *m_rest = measured
    m_hooks, m_shim, m_base2 = m_rest[: len(hooks)], m_rest[len(hooks)], m_rest[len(hooks) + 1]
    m_plugin = m_rest[len(hooks) + 2 :]
    m_base = replace(
        m_base, seconds=m_base.seconds + m_base2.seconds, max_rss_kb=m_base.max_rss_kb + m_base2.max_rss_kb
    )
    for m in m_hooks:
        rows.append(Row.ratio_row("hooks", m.label, m, m_base, max_ratio=1.3))
        rows.append(Row.ratio_row("hooks", "  same, against python -I -S -c pass", m, m_isolated, note="-"))
    rows.append(Row.ratio_row("hooks", "bare stdlib hook script (reference)", m_bare, m_base))
    for m in m_plugin:
        rows.append(Row.ratio_row("hooks", m.label, m, m_base, max_ratio=1.3))
    rows.append(Row.ratio_row("hooks", m_shim.label, m_shim, m_base, note="-"))
    return rows


SHIM_COST_S = 0.12


@contextmanager
def plugin_environment(shims: Path, data: Path) -> Iterator[None]:
    """`shims` first on PATH and the plugin's data folder set, for the plugin hooks run meanwhile."""
    saved = {k: os.environ.get(k) for k in ("PATH", "CLAUDE_PLUGIN_DATA")}
    os.environ["PATH"] = f"{shims}{os.pathsep}{os.environ.get('PATH', '')}"
    os.environ["CLAUDE_PLUGIN_DATA"] = str(data)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@benchmark("startup")
def bench_startup(ctx: Context) -> list[Row]:
    """Every read command on one small session (a throw-away root: a generated 28 KB
    transcript and its 8 KB subagent log), where start-up is nearly all of the time, against
    `python -c pass` in the same rounds: at most 4x. For reference, in the same rounds:
    `session-kit --version` (the command line alone) and `python -c 'import click'` (the floor
    of any command click parses)."""
    with tempfile.TemporaryDirectory(prefix="kit-startup-") as tmp, _state_root(Path(tmp) / "state"):
        root = Path(tmp) / "claude"
        _, sid = _small_root(root)
        kb = sum(p.stat().st_size for p in root.rglob("*.jsonl")) / 1000
        on = ["--claude-dir", root]
        reads = [
            ("preprocess --stdout", ["preprocess", sid, "--stdout"]),
            ("show", ["show", sid]),
            ("info", ["info", sid]),
            ("events", ["events", sid]),
            ("plan", ["plan", sid]),
            ("debug-agent", ["debug-agent", sid]),
            ("memory", ["memory", sid]),
            ("sessions --all", ["sessions", "--all"]),
            (f"search {generate.COMMON_QUERY} --scan", ["search", generate.COMMON_QUERY, "--all", "--scan"]),
            ("usage (its index built)", ["usage"]),
        ]
        # The usage index is made by the first run; the timed runs read it, as any later run does.
        subprocess.run([*ctx.kit, "usage", *on], capture_output=True)
        base = Command.of("python -c pass", [sys.executable, "-c", "pass"])
        version = Command.of("session-kit --version", [*ctx.kit, "--version"])
        click_only = Command.of("python -c 'import click'", [sys.executable, "-c", "import click"])
        commands = [Command.of(label, [*ctx.kit, *argv, *on]) for label, argv in reads]
        m_base, m_version, m_click, *m_reads = ctx.measure(base, version, click_only, *commands)
    rows = [Row.ratio_row("startup", f"{m.label} ({kb:.0f} KB session)", m, m_base, max_ratio=4) for m in m_reads]
    rows.append(Row.ratio_row("startup", "session-kit --version (reference)", m_version, m_base))
    rows.append(Row.ratio_row("startup", "python -c 'import click' (reference: click's floor)", m_click, m_base))
    return rows


@benchmark("usage")
def bench_usage(ctx: Context) -> list[Row]:
    """`usage --json` over the whole root once its index exists (the first run builds it, in a
    throw-away state root) against `sessions --all --json`: at most 1.5x."""
    root, manifest = ctx.main_root()
    n = manifest.get("sessions", 0) + (1 if manifest.get("big_session_id") else 0)
    with tempfile.TemporaryDirectory() as tmp, _state_root(Path(tmp) / "state"):
        started = time.monotonic()
        built = subprocess.run([*ctx.kit, "usage", "--claude-dir", root, "--json"], capture_output=True)
        build_s = time.monotonic() - started
        if built.returncode != 0:
            ctx.log(f"  usage failed: {built.stderr.decode(errors='replace')[-300:]}")
        listing, usage = ctx.measure(
            Command.of("sessions --all", [*ctx.kit, "sessions", "--all", "--claude-dir", root, "--json"]),
            Command.of(
                "usage (index)",
                [*ctx.kit, "usage", "--claude-dir", root, "--json", "--by", "day"],
                inspect=lambda d: f"{len(json.loads(d)['rows'])} rows",
            ),
        )
    return [
        Row.ratio_row("usage", f"usage --json, index built ({n:,} sessions)", usage, listing, max_ratio=1.5),
        Row(
            "usage",
            "  first run: reading every transcript, building the index",
            build_s,
            "s",
            note=f"{(manifest.get('total_bytes') or 0) / 1e6:.0f} MB, once",
        ),
    ]


class _state_root:
    """`SESSION_KIT_HOME` pointed at `path` for the block."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.saved: str | None = None

    def __enter__(self) -> None:
        self.saved = os.environ.get("SESSION_KIT_HOME")
        os.environ["SESSION_KIT_HOME"] = str(self.path)

    def __exit__(self, *_exc: object) -> None:
        if self.saved is None:
            os.environ.pop("SESSION_KIT_HOME", None)
        else:
            os.environ["SESSION_KIT_HOME"] = self.saved


STATUSLINE_MB = 10


@benchmark("statusline")
def bench_statusline(ctx: Context) -> list[Row]:
    """The status-line script on a 10 MB session (the first 10 MB of the big session, in a
    throw-away root) once it has counted the file, against `python -I -S -c pass` with the
    same stdin: at most 2x. Each run re-reads its remembered offset and the session's agents."""
    import session_kit

    script = Path(session_kit.__file__).parent / "usage" / "statusline_main.py"
    _, big, sid, _ = _big_session(ctx)
    with tempfile.TemporaryDirectory() as tmp, _state_root(Path(tmp) / "state"):
        session = Path(tmp) / "projects" / "-bench" / f"{sid}.jsonl"
        session.parent.mkdir(parents=True)
        with open(big, "rb") as f:
            head = f.read(STATUSLINE_MB * MB)
        session.write_bytes(head[: head.rfind(b"\n") + 1])
        stdin = json.dumps({"session_id": sid, "transcript_path": str(session), "cwd": "/bench"}).encode()
        started = time.monotonic()
        subprocess.run([sys.executable, "-I", "-S", script], input=stdin, capture_output=True)
        first_s = time.monotonic() - started
        base, line = ctx.measure(
            Command.of("python -I -S -c pass (same stdin)", [sys.executable, "-I", "-S", "-c", "pass"], stdin=stdin),
            Command.of(
                "statusline (counted)",
                [sys.executable, "-I", "-S", script],
                stdin=stdin,
                inspect=lambda d: d.decode(errors="replace").strip(),
            ),
        )
    return [
        Row.ratio_row(
            "statusline", f"statusline, {STATUSLINE_MB} MB session, offset remembered", line, base, max_ratio=2
        ),
        Row("statusline", "  first run: counting the whole file", first_s, "s", note="once"),
    ]


# Runs a hook (argv[2:], stdin passed through), then waits for the memory's lock (argv[1]):
# the time until the capture the hook handed to a child process is saved.
HOOK_THEN_LOCK = (
    "import fcntl, os, subprocess, sys\n"
    "subprocess.run(sys.argv[2:], check=True)\n"
    "fd = os.open(sys.argv[1] + '.lock', os.O_RDWR | os.O_CREAT, 0o600)\n"
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
)


def _run_hook(run_py: Path, event: str, payload: dict) -> None:
    subprocess.run(
        [sys.executable, "-I", "-S", str(run_py), event], input=json.dumps(payload).encode(), check=True, timeout=600
    )


@benchmark("compaction")
def bench_compaction(ctx: Context) -> list[Row]:
    """The working memory's hooks on the big session. PreCompact's first capture (no memory
    yet) against json.loads of every line of the same file: at most 1x. PreCompact after 1 MB
    was appended since the last capture, and SessionStart putting the memory back after a
    compaction, against `python -c pass` given the same stdin and the same shell wrapper
    (which resets the memory file before each run): at most 2x. The hook hands the capture to
    a child process and returns; the rows "capture finished" time the hook and then the wait
    for that child's lock (what the next SessionStart waits for at most), for the record."""
    import session_kit

    run_py = Path(session_kit.__file__).parent / "hooks" / "run.py"
    _, big, _, mb = _big_session(ctx)
    with tempfile.TemporaryDirectory() as tmp, hook_environment(Path(tmp)):
        work = Path(tmp)
        # The big session as it was 1 MB before its end (cut at a line), then whole.
        data = big.read_bytes()
        cut = data.rfind(b"\n", 0, len(data) - MB) + 1
        early, whole = work / "early.jsonl", work / "session.jsonl"
        early.write_bytes(data[:cut])
        whole.write_bytes(data)
        del data
        sid = "bench-compaction"
        event = {**HOOK_EVENT, "session_id": sid, "hook_event_name": "PreCompact", "trigger": "auto"}
        _run_hook(run_py, "pre-compact", {**event, "transcript_path": str(early)})
        subprocess.run(
            [
                sys.executable,
                "-c",
                HOOK_THEN_LOCK,
                str(next((work / "state").glob(f"projects/*/sessions/{sid}")) / "memory.json"),
                "true",
            ],
            check=True,
        )
        (memory_file,) = (work / "state").glob(f"projects/*/sessions/{sid}/memory.json")
        appended_state = work / "memory-1mb-before.json"
        # The memory as captured from `early`, pointing at the whole file (same path).
        doc = json.loads(memory_file.read_text())
        doc["transcript"] = str(whole)
        appended_state.write_text(json.dumps(doc))
        pre = json.dumps({**event, "transcript_path": str(whole)}).encode()
        start = json.dumps({**HOOK_EVENT, "session_id": sid, "source": "compact"}).encode()
        fresh = f"rm -f '{memory_file}'; exec \"$@\""
        resume = f"cp '{appended_state}' '{memory_file}'; exec \"$@\""

        def wrapped(label: str, script: str, argv: list, stdin: bytes) -> Command:
            return Command.of(label, ["sh", "-c", script, "sh", *argv], stdin=stdin)

        hook = [sys.executable, "-I", "-S", run_py]
        # The hook, then the wait for the capture it left running (the memory's lock).
        finished = [sys.executable, "-c", HOOK_THEN_LOCK, str(memory_file), *map(str, hook), "pre-compact"]
        first, done_first, lines = ctx.measure(
            wrapped("hook pre-compact, first capture", fresh, [*hook, "pre-compact"], pre),
            wrapped("  capture finished", fresh, finished, pre),
            wrapped("json.loads every line (same file)", fresh, [sys.executable, "-c", JSON_LINES, whole], b""),
            slow=True,
        )
        root, _, big_id, _ = _big_session(ctx)
        [cli] = ctx.measure(
            wrapped(
                "session-kit memory <big> --json (first capture)",
                f"rm -rf '{work / 'state' / 'projects'}'/*/sessions/{big_id}; exec \"$@\"",
                [*ctx.kit, "memory", big_id, "--claude-dir", root, "--json"],
                b"",
            ),
            slow=True,
        )
        later, done_later, base_later, restored, base = ctx.measure(
            wrapped("hook pre-compact, 1 MB appended", resume, [*hook, "pre-compact"], pre),
            wrapped("  capture finished", resume, finished, pre),
            wrapped("python -c pass (same stdin, same wrapper)", resume, [sys.executable, "-c", "pass"], pre),
            Command.of("hook session-start (compact)", [*hook, "session-start"], stdin=start),
            Command.of("python -c pass (same stdin)", [sys.executable, "-c", "pass"], stdin=start),
        )
        _run_hook(run_py, "pre-compact", {**event, "transcript_path": str(whole)})
        subprocess.run([sys.executable, "-c", HOOK_THEN_LOCK, str(memory_file), "true"], check=True)
        shown = subprocess.run([*map(str, hook), "session-start"], input=start, capture_output=True, check=True).stdout
        size = len(json.loads(shown)["hookSpecificOutput"]["additionalContext"]) if shown.strip() else 0
    return [
        Row.ratio_row("compaction", f"pre-compact, first capture ({mb:.0f} MB session)", first, lines, max_ratio=1),
        Row.ratio_row("compaction", "  capture finished (hook, then wait for its child)", done_first, lines, note="-"),
        Row.ratio_row("compaction", "  session-kit memory <big> (same capture, in the command)", cli, lines, note="-"),
        Row.memory_row("compaction", "  same, peak RSS", cli, ctx.python_pass(), max_mb=64, note="-"),
        Row.ratio_row(
            "compaction", "pre-compact, 1 MB appended since the last capture", later, base_later, max_ratio=2
        ),
        Row.ratio_row(
            "compaction", "  capture finished (hook, then wait for its child)", done_later, base_later, note="-"
        ),
        Row.ratio_row(
            "compaction",
            "session-start after a compaction (restore)",
            restored,
            base,
            max_ratio=2,
            note=f"{size} characters put back",
        ),
    ]


def _preprocess_note(data: bytes) -> str:
    doc = json.loads(data)
    red = doc["reduction"]
    return (
        f"{red['input_chars'] / 1e6:.1f} MB in, {red['output_chars'] / 1e6:.2f} MB of XML out "
        f"in {len(doc['documents'])} documents ({len(doc['agents'])} agents)"
    )


@benchmark("preprocess")
def bench_preprocess(ctx: Context) -> list[Row]:
    """`preprocess <session>` (agents included, files written) against json.loads of every line
    of the same file, timed in the same rounds: at most 0.8x on the 60 MB generated session and
    on a 60 MB session grown from a real client's transcript, at most 0.65x on a 240 MB one;
    peak RSS at most 32 MB at every size. The CLI's start-up (`session-kit --version`) is shown
    against the same baseline: it is spent before any line is read."""
    s = ctx.scale
    root, path, sid, mb = _big_session(ctx)
    rows = _preprocess_rows(ctx, root, path, sid, f"preprocess <big>, time ({mb:.0f} MB session)", max_ratio=0.8)
    [m_floor] = ctx.measure(Command.of("session-kit --version", [*ctx.kit, "--version"]))
    rows.append(
        Row.ratio_row("preprocess", "  session-kit --version (start-up alone)", m_floor, _json_lines(ctx), note="-")
    )
    huge, manifest = ctx.root(f"huge-s10-b{s.huge_mb:g}", sessions=10, big_mb=s.huge_mb, subagents=True)
    path = huge / manifest["big_session_path"]
    rows += _preprocess_rows(
        ctx,
        huge,
        path,
        manifest["big_session_id"],
        f"preprocess <huge>, time ({path.stat().st_size / 1e6:.0f} MB session)",
        max_ratio=0.65,
    )
    grown, manifest = grown_root(ctx, s.big_mb)
    path = grown / manifest["big_session_path"]
    rows += _preprocess_rows(
        ctx,
        grown,
        path,
        manifest["big_session_id"],
        f"preprocess, {path.stat().st_size / 1e6:.0f} MB grown from a real client's transcript",
        max_ratio=0.8,
    )
    return rows


def _preprocess_rows(ctx: Context, root: Path, path: Path, sid: str, what: str, *, max_ratio: float) -> list[Row]:
    with tempfile.TemporaryDirectory() as out:
        lines = Command.of("json.loads every line (same rounds)", [sys.executable, "-c", JSON_LINES, path])
        kit = Command.of(
            "preprocess",
            [*ctx.kit, "preprocess", sid, "--claude-dir", root, "--output-dir", out, "--json"],
            inspect=_preprocess_note,
        )
        m_lines, m_kit = ctx.measure(lines, kit, slow=True)
    return [
        Row.ratio_row("preprocess", what, m_kit, m_lines, max_ratio=max_ratio),
        Row.memory_row("preprocess", "  same, peak RSS", m_kit, ctx.python_pass(), max_mb=32, note="-"),
    ]


# The real client's transcript of the end-to-end scenario (two subagents, a plan, failures).
REAL_SESSION = (
    HERE.parent / "tests/fixtures/real/projects/-tmp-real-fixture-project/266f5872-b716-4df1-b42b-7ca857a257ae.jsonl"
)


def grown_root(ctx: Context, mb: float) -> tuple[Path, dict]:
    """The root with one session grown to `mb` MB from the real client's transcript (made once)."""
    name = f"grown-real-b{mb:g}"
    if name in ctx.roots:
        return ctx.roots[name]
    wanted = {"generator_version": generate.GENERATOR_VERSION, "big_mb": float(mb)}

    def make(partial: Path) -> None:
        ctx.log(f"growing {name} from {REAL_SESSION.name} ...")
        generate.grow(REAL_SESSION, partial, mb=mb)

    root, manifest = ctx.data / name, made_root(ctx.data, name, wanted, make)
    ctx.roots[name] = (root, manifest)
    return root, manifest


# Opens a page in the distribution's Chromium N times; prints each load's `loadEventEnd` (ms
# from navigation start: the whole document parsed and laid out, the timeline drawn).
BROWSER_LOAD = """
import json, sys
from playwright.sync_api import sync_playwright
url, chromium, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=chromium, args=args)
    times = []
    for _ in range(rounds):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url, wait_until="load")
        page.wait_for_selector("#timeline .lane")
        times.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
        page.close()
    browser.close()
print(json.dumps(times))
"""


def _chromium() -> str | None:
    named = os.environ.get("SESSION_KIT_CHROMIUM")
    return named or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium"))


def _view_note(data: bytes) -> str:
    doc = json.loads(data)
    return f"{doc['bytes'] / 1e6:.2f} MB page, {doc['lanes']} lanes, {doc['calls']} calls, {doc['cut_chars'] / 1e6:.1f} MB of text cut"


@benchmark("view")
def bench_view(ctx: Context) -> list[Row]:
    """`view <big>` against `preprocess <big>` in the same rounds: at most 2x; the page under
    10 MB; the page opened in a headless Chromium: loaded, timeline drawn, in under 1 s."""
    root, _, sid, mb = _big_session(ctx)
    with tempfile.TemporaryDirectory() as out:
        page = Path(out) / "view.html"
        pre = Command.of(
            "preprocess big (same rounds)",
            [*ctx.kit, "preprocess", sid, "--claude-dir", root, "--output-dir", out, "--json"],
        )
        kit = Command.of(
            "view big", [*ctx.kit, "view", sid, "--claude-dir", root, "-o", page, "--json"], inspect=_view_note
        )
        m_pre, m_view = ctx.measure(pre, kit, slow=True)
        rows = [
            Row.ratio_row("view", f"view <big>, time ({mb:.0f} MB session)", m_view, m_pre, max_ratio=2),
            Row.memory_row("view", "  same, peak RSS", m_view, ctx.python_pass(), note="-"),
        ]
        if not page.exists():
            return rows
        size = page.stat().st_size / 1e6
        rows.append(Row("view", "  page size", size, "MB", target="< 10 MB", status=Row._status(size < 10), note="-"))
        chromium = _chromium()
        if chromium is None:
            rows.append(Row("view", "  page open in Chromium", None, "s", status="info", note="no chromium"))
            return rows
        ctx.log("  view big in Chromium ...")
        done = subprocess.run(
            [sys.executable, "-c", BROWSER_LOAD, page.as_uri(), chromium, str(ctx.scale.slow_repeat + 1)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            last = done.stderr.strip().splitlines()[-1:] or [""]
            rows.append(Row("view", "  page open in Chromium", None, "s", status="ERROR", note=last[0]))
            return rows
        times = json.loads(done.stdout)[1:]  # the first load warms the browser's caches
        best = min(times) / 1000
        rows.append(
            Row(
                "view",
                "  page open in Chromium (load, timeline drawn)",
                best,
                "s",
                target="< 1 s",
                status=Row._status(best < 1),
                note=f"loads: {', '.join(f'{t:.0f} ms' for t in times)}",
            )
        )
    return rows


@benchmark("baselines")
def bench_baselines(ctx: Context) -> list[Row]:
    """Reading the big session: json.loads of every line (what preprocessing is measured
    against), and `cat` (the floor)."""
    _, path, _, mb = _big_session(ctx)
    lines = _json_lines(ctx)
    [cat] = ctx.measure(Command.of("cat big", ["cat", path]))
    return [
        Row.ratio_row("baselines", f"json.loads every line ({mb:.0f} MB session)", lines, cat),
        Row.ratio_row("baselines", f"cat ({mb:.0f} MB session)", cat, ctx.python_pass()),
    ]


# --------------------------------------------------------------------------------------------
# Report.


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"
    return f"{value:.1f} {unit}"


def render(rows: list[Row], header: dict) -> str:
    out = [
        f"claude-session-kit benchmarks  ({header['mode']} run, {header['date']})",
        f"machine: {header['cpus']} cpus ({header['cpus_usable']} usable), load {header['load']}, {header['platform']}",
        f"python {header['python']}; kit: {' '.join(header['kit'])} ({header['kit_source']}); peak RSS via {header['rss_via']}",
    ]
    for name, d in header["data"].items():
        out.append(
            f"data {name}: {d['sessions']:,} sessions, {d['files']:,} files, "
            f"{d['total_bytes'] / 1e6:.0f} MB ({d['noise_bytes'] / max(1, d['total_bytes']):.0%} noise), "
            f"generated in {d['seconds']:.1f}s"
        )
    out.append(
        f"times are best of {header['repeat']} ({header['slow_repeat']} for slow commands); "
        "median in parentheses; RSS is peak resident memory of the child"
    )
    out.append("")
    cols = ("benchmark", "measured", "baseline", "ratio", "target", "result")
    table = []
    for r in rows:
        measured = _fmt(r.value, r.unit)
        if r.median is not None and r.unit == "s" and r.value is not None:
            measured += f" ({_fmt(r.median, 's')})"
        base = f"{r.baseline} {_fmt(r.baseline_value, r.unit)}" if r.baseline else ""
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else ""
        table.append((r.what, measured, base, ratio, r.target, r.status))
    widths = [max(len(c), *(len(t[i]) for t in table)) if table else len(c) for i, c in enumerate(cols)]
    line = "  ".join(c.ljust(w) for c, w in zip(cols, widths))
    out += [line, "-" * len(line)]
    for t in table:
        out.append("  ".join(v.ljust(w) for v, w in zip(t, widths)).rstrip())
    notes = [f"- {r.what.strip()}: {r.note}" for r in rows if r.note and r.note != "-"]
    if notes:
        out += ["", "notes:", *notes]
    misses = [r for r in rows if r.status in ("MISS", "ERROR")]
    out += [
        "",
        f"{sum(r.status == 'PASS' for r in rows)} PASS, {sum(r.status == 'MISS' for r in rows)} MISS, "
        f"{sum(r.status == 'ERROR' for r in rows)} ERROR"
        + (": " + "; ".join(r.what.strip() for r in misses) if misses else ""),
    ]
    return "\n".join(out)


# Appends about 1 MB of conversation lines naming a fresh word (argv[2]) to a session (argv[1]).
APPEND_MB = (
    "import json, sys, uuid\n"
    "word = sys.argv[2]\n"
    "line = json.dumps({'type': 'user', 'uuid': str(uuid.uuid4()), 'timestamp': '2026-11-20T10:00:00Z',"
    " 'message': {'role': 'user', 'content': word + ' ' + 'lorem ipsum dolor sit amet ' * 40}}) + '\\n'\n"
    "with open(sys.argv[1], 'a') as f:\n"
    "    f.write(line * (1024 * 1024 // len(line)))\n"
)


def _linked_copy(root: Path, into: Path) -> Path:
    """A copy of `root` made of hard links (seconds, no bytes), for benchmarks that append."""
    subprocess.run(["cp", "-al", str(root), str(into)], check=True)
    return into


def _unlinked(path: Path) -> None:
    """Give `path` its own bytes, so appending to it never touches the shared root."""
    tmp = path.with_name(path.name + ".own")
    shutil.copyfile(path, tmp)
    os.replace(tmp, path)


def _dir_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


@benchmark("history")
def bench_history(ctx: Context) -> list[Row]:
    """The index and the archive (issue 12) on the main root, into a throw-away state root.
    Index build from nothing against one `search --scan` (at most 1.5x); warm indexed search
    against `grep -ric -r` (rare at most 0.1x, common at most 0.2x); archive from nothing
    against `cat | gzip -1` of the same files (at most 2x); index update plus query after 1 MB
    was appended to one session (under 100 ms is the target; the command's start is in it);
    archive update after 1 MB appended to the big session against gzip -1 of that 1 MB; index
    size against the transcripts' bytes (at most 0.3)."""
    root, manifest = ctx.main_root()
    rows: list[Row] = []
    common, rare = manifest.get("common_query", generate.COMMON_QUERY), manifest.get("rare_query", generate.RARE_QUERY)
    with tempfile.TemporaryDirectory(prefix="kit-history-") as tmp:
        state = Path(tmp) / "state"
        env = {"SESSION_KIT_HOME": str(state)}
        kit = ["env", *(f"{k}={v}" for k, v in env.items()), *ctx.kit]
        fresh = f'rm -rf {state}/index && exec "$@"'
        scan, build = ctx.measure(
            Command.of(
                f"search --scan {rare}", [*kit, "search", rare, "--all", "--scan", "--claude-dir", root, "--json"]
            ),
            Command.of(
                "index build (search, empty index)",
                ["sh", "-c", fresh, "sh", *kit, "search", rare, "--all", "--claude-dir", root, "--json"],
                inspect=_count_json,
            ),
            slow=True,
        )
        rows.append(Row.ratio_row("history", "index build from nothing", build, scan, max_ratio=1.5))
        for query, what, limit in ((rare, "rare", 0.1), (common, "common", 0.2)):
            grep, warm = ctx.measure(
                Command.of(
                    f"grep -ric -r {query}", ["grep", "-ric", "-r", query, "projects/"], cwd=root, ok_codes=(0, 1)
                ),
                Command.of(
                    f"search {query} (index, warm)",
                    [*kit, "search", query, "--all", "--claude-dir", root, "--json"],
                    inspect=_count_json,
                ),
            )
            rows.append(Row.ratio_row("history", f"indexed search, warm, {what} word", warm, grep, max_ratio=limit))
        index_bytes = _dir_bytes(state / "index")
        text_bytes = manifest.get("total_bytes") or _dir_bytes(root / "projects")
        ratio = index_bytes / text_bytes if text_bytes else None
        rows.append(
            Row(
                "history",
                "index size / transcript bytes",
                index_bytes / MB,
                "MB",
                "transcripts",
                text_bytes / MB,
                ratio,
                "ratio <= 0.3",
                Row._status(ratio is not None and ratio <= 0.3),
            )  # fmt: skip
        )
        files = "find projects -name '*.jsonl' -o -name '*.meta.json' | xargs cat | gzip -1 > /dev/null"
        gz, archived = ctx.measure(
            Command.of("cat | gzip -1", ["sh", "-c", files], cwd=root),
            Command.of(
                "archive (from nothing)",
                ["sh", "-c", f'rm -rf {state}/archive && exec "$@"', "sh", *kit, "archive", "--claude-dir", root],
            ),
            slow=True,
        )
        rows.append(Row.ratio_row("history", "archive from nothing", archived, gz, max_ratio=2.0))
        # Appends: into a hard-linked copy whose appended files got their own bytes first.
        copy = _linked_copy(root, Path(tmp) / "root")
        big = copy / manifest["big_session_path"]
        _unlinked(big)
        subprocess.run([*kit, "search", rare, "--all", "--claude-dir", copy], check=True, capture_output=True)
        one_mb = Path(tmp) / "one-mb"
        one_mb.write_bytes(b"lorem ipsum dolor sit amet " * 40000)

        def appended(label: str, *then: str) -> Command:
            script = f'{sys.executable} -c "$0" {big} appendword && exec "$@"'
            return Command.of(label, ["sh", "-c", script, APPEND_MB, *then])

        session_archive = (
            "import sys\n"
            "from session_kit.archive.background import archive_session_now\n"
            "archive_session_now(sys.argv[1], sys.argv[2], sys.argv[3])\n"
        )
        hook_work = [sys.executable, "-c", session_archive, str(state), str(copy), str(big)]
        subprocess.run(hook_work, check=True, capture_output=True)  # archived once, whole
        base_gz, archive_update, index_update = ctx.measure(
            Command.of("gzip -1 of 1 MB", ["sh", "-c", f"gzip -1 < {one_mb} > /dev/null"]),
            appended("archive of the session after 1 MB appended (the hooks' work)", *hook_work),
            appended(
                "index update + query after 1 MB",
                *kit,
                "search",
                "appendword",
                "--all",
                "--claude-dir",
                str(copy),
                "--json",
            ),
        )
        rows.append(
            Row.ratio_row(
                "history",
                f"archive of a {big.stat().st_size / MB:.0f} MB session after 1 MB appended (append, start included)",
                archive_update,
                base_gz,
            )
        )
        rows.append(
            Row.ratio_row(
                "history",
                "index update + query after 1 MB appended (append and CLI start included)",
                index_update,
                ctx.python_pass(),
                max_seconds=0.1,
            )
        )
    return rows


def _kit_source() -> str:
    import session_kit

    return str(Path(session_kit.__file__).parent)


def cache_bytecode(log: Callable[[str], None]) -> None:
    """Compile the kit's modules, so every timed run starts from cached bytecode as an installed
    kit does (an editable install run under PYTHONDONTWRITEBYTECODE=1 would compile its
    modules afresh on every run and time the compiler)."""
    import compileall

    import session_kit

    package = Path(session_kit.__file__).parent
    if not compileall.compile_dir(str(package), quiet=1, force=False):
        log(f"warning: could not compile every module under {package}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=HERE / "data", help="where generated roots are kept")
    ap.add_argument("--quick", action="store_true", help="1,000 sessions and a 10 MB session, fewer repeats")
    ap.add_argument("--json", action="store_true", help="print results as JSON on stdout")
    ap.add_argument("--repeat", type=int, help="timed runs per command (default 5, quick 3)")
    ap.add_argument("--only", action="append", choices=sorted(BENCHMARKS), help="run only these (repeatable)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed or a command fails")
    ap.add_argument(
        "--kit",
        help="the command that runs the kit, split on spaces (default: the session-kit next to this python); "
        "with PYTHONPATH set, e.g. --kit 'python -m session_kit' times another checkout",
    )
    args = ap.parse_args(argv)

    scale = QUICK if args.quick else FULL
    if args.repeat:
        scale = Scale(**{**asdict(scale), "repeat": args.repeat, "slow_repeat": min(args.repeat, scale.slow_repeat)})

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    args.data.mkdir(parents=True, exist_ok=True)
    cache_bytecode(log)
    ctx = Context(data=args.data, scale=scale, kit=tuple(args.kit.split()) if args.kit else find_kit(), log=log)
    rows: list[Row] = []
    for name, fn in BENCHMARKS.items():
        if args.only and name not in args.only:
            continue
        log(f"[{name}]")
        rows += fn(ctx)

    cpus_usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    header = {
        "mode": "quick" if args.quick else "full",
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "cpus": os.cpu_count(),
        "cpus_usable": cpus_usable,
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "kit": list(ctx.kit),
        "kit_source": _kit_source(),
        "rss_via": TIME_BIN or "python wrapper",
        "repeat": scale.repeat,
        "slow_repeat": scale.slow_repeat,
        "data": {
            name: {k: m.get(k) for k in ("sessions", "files", "total_bytes", "noise_bytes", "seconds")}
            for name, (_, m) in ctx.roots.items()
        },
    }
    if args.json:
        doc = {
            "header": header,
            "results": [asdict(r) for r in rows],
            "measurements": [
                {**asdict(m), "best": m.best, "median": m.median, "rss_mb": m.rss_mb} for m in ctx.measurements
            ],
        }
        print(json.dumps(doc, indent=2))
    else:
        print(render(rows, header))
    bad = any(r.status in ("MISS", "ERROR") for r in rows)
    return 1 if args.strict and bad else 0


if __name__ == "__main__":
    sys.exit(main())
