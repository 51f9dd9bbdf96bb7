"""Results: a row per figure (measured, baseline, ratio, target, PASS/MISS/ERROR) and the text
report made of them.

Owns judging and printing; does not measure (`measure`).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.harness.measure import Measurement


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
