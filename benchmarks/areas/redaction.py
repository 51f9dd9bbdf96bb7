"""The redactor's own targets (issue 38), on a code-heavy session (Python source read with the
Read tool, `generator.code`): redaction's throughput with each engine, `preprocess` of the 50
MB session against `json.loads` of every line, and the secret guard on a 20,000-name `Glob`.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark, made_root
from benchmarks.harness.fixtures import HOOK_EVENT, JSON_LINES
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row

CODE_MB = 50.0
# Every string of every line, parsed (the baseline), then redacted in 64 KB batches as
# `preprocess` does (`many`): the difference is the redactor's time over those characters.
STRINGS = """
import json, sys
def strings(v, out):
    if isinstance(v, str): out.append(v)
    elif isinstance(v, dict):
        for x in v.values(): strings(x, out)
    elif isinstance(v, list):
        for x in v: strings(x, out)
texts = []
with open(sys.argv[1], 'rb') as f:
    for line in f: strings(json.loads(line), texts)
texts = [t for t in texts if len(t) >= 8 and chr(0) not in t]
"""
REDACT = (
    STRINGS
    + """
from session_kit.redaction.engine import Redactor
r = Redactor()
r.remember = False  # the engine's own speed: every string redacted
batch, size = [], 0
for t in texts:
    batch.append(t); size += len(t)
    if size >= 65536:
        r.many(batch); batch, size = [], 0
r.many(batch)
print(sum(map(len, texts)))
"""
)


def code_root(ctx: Context) -> tuple[Path, dict]:
    """The root holding the code-heavy session (made once)."""
    from benchmarks.generator.code import code_heavy

    name = f"code-heavy-b{CODE_MB:g}"
    if name in ctx.roots:
        return ctx.roots[name]
    wanted = {"big_mb": CODE_MB}
    root = ctx.data / name
    manifest = made_root(ctx.data, name, wanted, lambda partial: code_heavy(partial, mb=CODE_MB))
    ctx.roots[name] = (root, manifest)
    return root, manifest


def _chars(data: bytes) -> str:
    return f"{int(data.strip().splitlines()[-1]) / 1e6:.1f} M characters redacted"


@benchmark("redaction")
def bench_redaction(ctx: Context) -> list[Row]:
    """Redaction throughput on code-heavy text (>= 100 MB/s, with the compiled pass and, for
    the record, with `re` alone), and `preprocess` of the 50 MB code-heavy session against
    `json.loads` of every line (<= 1.5x)."""
    root, manifest = code_root(ctx)
    path = root / manifest["big_session_path"]
    parse = Command.of("parse every line, collect its strings", [sys.executable, "-c", STRINGS, path])
    fast = Command.of("  + redact them (compiled pass)", [sys.executable, "-c", REDACT, path], inspect=_chars)
    slow = Command.of(
        "  + redact them (re alone)",
        ["env", "SESSION_KIT_REDACT_ENGINE=re", sys.executable, "-c", REDACT, path],
        inspect=_chars,
    )
    lines = Command.of("json.loads every line", [sys.executable, "-c", JSON_LINES, path])
    with tempfile.TemporaryDirectory() as out:
        kit = Command.of(
            f"preprocess <code-heavy> ({path.stat().st_size / 1e6:.0f} MB)",
            [*ctx.kit, "preprocess", manifest["big_session_id"], "--claude-dir", root, "--output-dir", out, "--json"],
        )
        m_parse, m_fast, m_slow, m_lines, m_kit = ctx.measure(parse, fast, slow, lines, kit, slow=True)
    rows = []
    for m in (m_fast, m_slow):
        rows.append(_throughput(m, m_parse, chars=_count(m), target=100.0 if m is m_fast else None))
    rows.append(Row.ratio_row("redaction", m_kit.label, m_kit, m_lines, max_ratio=1.5))
    return rows


def _count(m) -> float:
    try:
        return float(m.note.split()[0]) * 1e6
    except (ValueError, IndexError, AttributeError):
        return 0.0


def _throughput(m, base, *, chars: float, target: float | None) -> Row:
    """The redactor's share (`m` less `base`) as MB/s of text; PASS at `target` MB/s or more."""
    if not m.ok or not base.ok:
        return Row.error("redaction", m.label, m if not m.ok else base)
    spent = max(m.best - base.best, 1e-6)
    rate = chars / 1e6 / spent
    ok = None if target is None else rate >= target
    return Row(
        "redaction",
        m.label,
        spent,
        "s",
        base.label,
        base.best,
        m.best / base.best,
        f">= {target:g} MB/s" if target else "",
        Row._status(ok),
        f"{rate:.0f} MB/s over {chars / 1e6:.1f} M characters",
        None,
    )


def glob_event(names: int = 20_000) -> bytes:
    """A PostToolUse event of a `Glob` answering `names` file names."""
    files = [f"/home/user/code/app/src/pkg_{i % 97}/module_{i}_token_store.py" for i in range(names)]
    event = {
        **HOOK_EVENT,
        "hook_event_name": "PostToolUse",
        "tool_name": "Glob",
        "tool_input": {"pattern": "**/*.py"},
        "tool_response": {"filenames": files, "durationMs": 12, "numFiles": names, "truncated": False},
    }
    return json.dumps(event).encode()


@benchmark("redaction-guard")
def bench_guard_glob(ctx: Context) -> list[Row]:
    """The secret guard on a `Glob` of 20,000 names (each naming a token store: the screen
    flags it, the redactor reads it): under 0.5 s."""
    import session_kit

    run_py = Path(session_kit.__file__).parent / "hooks" / "run.py"
    stdin = glob_event()
    with tempfile.TemporaryDirectory() as tmp:
        state = f"SESSION_KIT_HOME={Path(tmp) / 'state'}"
        base, guard = ctx.measure(
            Command.of("python -I -S -c pass (same stdin)", [sys.executable, "-I", "-S", "-c", "pass"], stdin=stdin),
            Command.of(
                "guard: Glob of 20,000 names",
                ["env", state, sys.executable, "-I", "-S", run_py, "post-tool-use"],
                stdin=stdin,
            ),
        )
    return [Row.ratio_row("redaction-guard", guard.label, guard, base, max_seconds=0.5)]
