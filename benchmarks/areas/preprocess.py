"""Preprocess: `preprocess` on the big session, a huge one and one grown from a real client's
transcript, against json.loads of every line of the same file; with two floors measured in the
same rounds: reading the file and dropping its noise unparsed, and redacting the documents'
text once, each in a process of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import generator
from benchmarks.harness.context import Context, benchmark, made_root
from benchmarks.harness.fixtures import JSON_LINES, big_session, json_lines
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row


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
    root, path, sid, mb = big_session(ctx)
    rows = _preprocess_rows(ctx, root, path, sid, f"preprocess <big>, time ({mb:.0f} MB session)", max_ratio=0.8)
    [m_floor] = ctx.measure(Command.of("session-kit --version", [*ctx.kit, "--version"]))
    rows.append(
        Row.ratio_row("preprocess", "  session-kit --version (start-up alone)", m_floor, json_lines(ctx), note="-")
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


# The floors: what two parts of the work cost alone, each in a fresh process like the baseline.
READ_FLOOR = (
    "import sys\n"
    "from session_kit.conversation.noise import NoiseTally, conversation_lines\n"
    "from session_kit.transcript.reader import ReadStats\n"
    "for _ in conversation_lines(sys.argv[1], ReadStats(), NoiseTally()): pass\n"
)
REDACT_FLOOR = (
    "import sys\n"
    "from session_kit.redaction.engine import Redactor\n"
    "text, redact = open(sys.argv[1], encoding='utf-8').read(), Redactor()\n"
    "for at in range(0, len(text), 65536): redact(text[at : at + 65536])\n"
)


def _preprocess_rows(ctx: Context, root: Path, path: Path, sid: str, what: str, *, max_ratio: float) -> list[Row]:
    with tempfile.TemporaryDirectory() as out:
        lines = Command.of("json.loads every line (same rounds)", [sys.executable, "-c", JSON_LINES, path])
        kit = Command.of(
            "preprocess",
            [*ctx.kit, "preprocess", sid, "--claude-dir", root, "--output-dir", out, "--json"],
            inspect=_preprocess_note,
        )
        # The documents' text, as one stream not yet redacted: what the redactor goes over.
        text = Path(out) / "unredacted.xml"
        with open(text, "wb") as stream:
            argv = [*ctx.kit, "preprocess", sid, "--claude-dir", root, "--stdout", "--no-redact"]
            subprocess.run(argv, stdout=stream, stderr=subprocess.DEVNULL, check=True)
        read = Command.of("reading, noise dropped", [sys.executable, "-c", READ_FLOOR, path])
        redact = Command.of("redacting the text", [sys.executable, "-c", REDACT_FLOOR, text])
        m_lines, m_kit, m_read, m_redact = ctx.measure(lines, kit, read, redact, slow=True)
        size = text.stat().st_size / 1e6
    return [
        Row.ratio_row("preprocess", what, m_kit, m_lines, max_ratio=max_ratio),
        Row.memory_row("preprocess", "  same, peak RSS", m_kit, ctx.python_pass(), max_mb=32, note="-"),
        Row.ratio_row("preprocess", "  floor: reading it, noise dropped unparsed", m_read, m_lines, note="-"),
        Row.ratio_row("preprocess", f"  floor: redacting its {size:.1f} MB of text once", m_redact, m_lines, note="-"),
    ]


# The real client's transcript of the end-to-end scenario (two subagents, a plan, failures).
REAL_SESSION = (
    Path(__file__).resolve().parents[2]
    / "tests/fixtures/real/projects/-tmp-real-fixture-project/266f5872-b716-4df1-b42b-7ca857a257ae.jsonl"
)


def grown_root(ctx: Context, mb: float) -> tuple[Path, dict]:
    """The root with one session grown to `mb` MB from the real client's transcript (made once)."""
    name = f"grown-real-b{mb:g}"
    if name in ctx.roots:
        return ctx.roots[name]
    wanted = {"generator_version": generator.GENERATOR_VERSION, "big_mb": float(mb)}

    def make(partial: Path) -> None:
        ctx.log(f"growing {name} from {REAL_SESSION.name} ...")
        generator.grow(REAL_SESSION, partial, mb=mb)

    root, manifest = ctx.data / name, made_root(ctx.data, name, wanted, make)
    ctx.roots[name] = (root, manifest)
    return root, manifest
