"""Pools: every text a generated transcript holds (prose, prompts, file reads, shell output,
tracebacks, grep results, listings) built and JSON-escaped once per seed, sorted by size.

Owns the texts; does not write lines (`transcript` draws from these by size).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from benchmarks.generator.words import EXCEPTIONS, TOOL_NAMES, VERBS, WORDS, esc, hexid


@dataclass(frozen=True, slots=True)
class Text:
    esc: str  # JSON-escaped body
    size: int  # len(esc), what it adds to the file


@dataclass(frozen=True, slots=True)
class FileRead:
    path: str
    numbered: str  # escaped, `cat -n` style, as the model sees it
    raw: str  # escaped, as in toolUseResult.file.content
    lines: int
    size: int


@dataclass(frozen=True, slots=True)
class Bash:
    command: str  # escaped
    output: str  # escaped stdout (or the whole error text)
    stderr: str  # escaped
    code: int
    size: int


def sized(items: list, budget: float, rng: random.Random):
    """A random item no bigger than `budget` (items sorted by size); the smallest if none fits."""
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid].size <= budget:
            lo = mid + 1
        else:
            hi = mid
    return items[rng.randrange(lo)] if lo else items[0]


class Pools:
    def __init__(self, seed: int) -> None:
        rng = random.Random(f"pools:{seed}")
        self.prose = sorted(
            (self._text(self._prose(rng, rng.randint(8, 900))) for _ in range(300)), key=lambda t: t.size
        )
        self.thinking = sorted(
            (self._text(self._prose(rng, rng.randint(100, 3000))) for _ in range(120)), key=lambda t: t.size
        )
        self.prompts = [self._prompt(rng) for _ in range(200)]
        self.files = sorted((self._file(rng, i) for i in range(80)), key=lambda f: f.size)
        self.bash_ok = sorted((self._bash_ok(rng) for _ in range(80)), key=lambda b: b.size)
        self.bash_fail = sorted((self._bash_fail(rng) for _ in range(60)), key=lambda b: b.size)
        self.grep = sorted((self._text(self._grep(rng)) for _ in range(50)), key=lambda t: t.size)
        self.noise = sorted((self._text(self._listing(rng)) for _ in range(120)), key=lambda t: t.size)
        self.tool_list = json.dumps(TOOL_NAMES)

    @staticmethod
    def _text(text: str) -> Text:
        e = esc(text)
        return Text(e, len(e))

    @staticmethod
    def _sentence(rng: random.Random) -> str:
        words = [rng.choice(WORDS) for _ in range(rng.randint(5, 16))]
        words[0] = words[0].capitalize()
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), f"`{rng.choice(WORDS)}_{rng.choice(WORDS)}()`")
        return " ".join(words) + rng.choice((".", ".", ".", ":", "?"))

    def _prose(self, rng: random.Random, chars: int) -> str:
        out: list[str] = []
        n = 0
        while n < chars:
            s = self._sentence(rng)
            if rng.random() < 0.08:
                s += "\n\n"
            out.append(s)
            n += len(s) + 1
        return " ".join(out)

    def _prompt(self, rng: random.Random) -> str:
        verb = rng.choice(VERBS)
        text = f"{verb} the {rng.choice(WORDS)} {rng.choice(WORDS)} in src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py"
        if rng.random() < 0.5:
            text += ". " + self._prose(rng, rng.randint(20, 400))
        return esc(text)

    def code_line(self, rng: random.Random, depth: int) -> str:
        a, b, c = rng.choice(WORDS), rng.choice(WORDS), rng.choice(WORDS)
        kind = rng.random()
        if kind < 0.15:
            line = f"def {a}_{b}(self, {c}: str | None = None) -> dict[str, int]:"
        elif kind < 0.25:
            line = f"# {self._sentence(rng)}"
        elif kind < 0.35:
            line = f'raise {rng.choice(EXCEPTIONS)}(f"bad {a}: {{{c}!r}}")'
        elif kind < 0.45:
            line = f"for {a} in self.{b}s:"
        elif kind < 0.5:
            line = ""
        else:
            line = f"{a}_{b} = self.{c}.get({a!r}, {rng.randint(0, 999)})"
        return "    " * depth + line if line else line

    def _file(self, rng: random.Random, i: int) -> FileRead:
        # Most reads are short; some are whole 1000-line files.
        n = rng.choice((20, 40, 60, 120, 200, 400)) if rng.random() < 0.8 else rng.randint(800, 1200)
        lines = [self.code_line(rng, rng.randint(0, 3)) for _ in range(n)]
        path = f"/home/user/code/app/src/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{i}.py"
        numbered = "\n".join(f"{k + 1:>6}\t{line}" for k, line in enumerate(lines))
        raw = "\n".join(lines)
        e_num, e_raw = esc(numbered), esc(raw)
        return FileRead(esc(path), e_num, e_raw, n, len(e_num) + len(e_raw))

    def _traceback(self, rng: random.Random, frames: int, exc: str) -> str:
        out = ["Traceback (most recent call last):"]
        for _ in range(frames):
            out.append(
                f'  File "/home/user/code/app/src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py", '
                f"line {rng.randint(1, 2000)}, in {rng.choice(WORDS)}_{rng.choice(WORDS)}"
            )
            out.append("    " + self.code_line(rng, 0))
        out.append(f"{exc}: {self._sentence(rng)}")
        return "\n".join(out)

    def _bash_ok(self, rng: random.Random) -> Bash:
        kind = rng.random()
        if kind < 0.3:
            n = rng.randint(3, 300)
            cmd = "python -m pytest -q"
            body = [f"tests/test_{rng.choice(WORDS)}.py " + "." * rng.randint(1, 60) for _ in range(n // 4 + 1)]
            body.append(f"{n} passed in {rng.uniform(0.1, 30):.2f}s")
        elif kind < 0.5:
            cmd = "git log --oneline -n 30"
            body = [
                f"{hexid(rng, 7)} {rng.choice(VERBS)} {rng.choice(WORDS)} {rng.choice(WORDS)}"
                for _ in range(rng.randint(1, 30))
            ]
        elif kind < 0.7:
            cmd = "ls -la src/"
            body = [
                f"-rw-r--r--  1 user user {rng.randint(100, 99999):>6} Nov 21 10:{rng.randint(10, 59)} "
                f"{rng.choice(WORDS)}.py"
                for _ in range(rng.randint(1, 80))
            ]
        elif kind < 0.85:
            cmd = "npm install"
            body = [
                f"npm WARN deprecated {rng.choice(WORDS)}@{rng.randint(1, 9)}.{rng.randint(0, 20)}.0: "
                + self._sentence(rng)
                for _ in range(rng.randint(1, 40))
            ]
            body.append(f"added {rng.randint(10, 900)} packages in {rng.randint(1, 60)}s")
        else:
            cmd = "git status"
            body = ["On branch main", "Changes not staged for commit:"] + [
                f"\tmodified:   src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py" for _ in range(rng.randint(1, 12))
            ]
        out = esc("\n".join(body))
        return Bash(esc(cmd), out, "", 0, len(out))

    def _bash_fail(self, rng: random.Random) -> Bash:
        kind = rng.random()
        code = rng.choice((1, 1, 1, 2, 127, 137))
        if kind < 0.5:
            cmd = "python -m pytest -x -q"
            frames = rng.randint(2, 12)
            name = f"tests/test_{rng.choice(WORDS)}.py::test_{rng.choice(WORDS)}_{rng.choice(WORDS)}"
            text = "\n".join(
                [
                    "=" * 30 + " FAILURES " + "=" * 30,
                    f"_____ test_{rng.choice(WORDS)} _____",
                    self._traceback(rng, frames, "AssertionError"),
                    f"E       AssertionError: assert {rng.randint(0, 99)} == {rng.randint(100, 199)}",
                    f"FAILED {name} - AssertionError",
                    f"1 failed, {rng.randint(0, 400)} passed in {rng.uniform(0.5, 40):.2f}s",
                ]
            )
        elif kind < 0.85:
            cmd = f"python -m app.{rng.choice(WORDS)}"
            # Some very long traces (deep recursion, framework stacks).
            frames = rng.randint(3, 30) if rng.random() < 0.8 else rng.randint(200, 900)
            text = self._traceback(rng, frames, rng.choice(EXCEPTIONS))
        else:
            cmd = "npm test"
            text = "\n".join(
                [f"TypeError: Cannot read properties of undefined (reading '{rng.choice(WORDS)}')"]
                + [
                    f"    at {rng.choice(WORDS)} (/home/user/code/web/src/{rng.choice(WORDS)}.js:"
                    f"{rng.randint(1, 900)}:{rng.randint(1, 80)})"
                    for _ in range(rng.randint(5, 60))
                ]
            )
        full = esc(f"Exit code {code}\n{text}")
        return Bash(esc(cmd), full, esc(text), code, 2 * len(full))

    def _grep(self, rng: random.Random) -> str:
        return "\n".join(
            f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py:{rng.randint(1, 900)}:{self.code_line(rng, 1)}"
            for _ in range(rng.randint(1, 150))
        )

    def _listing(self, rng: random.Random) -> str:
        """Skill / agent / tool listings and environment dumps: the bulk of a real file's bytes."""
        n = rng.choice((2, 5, 10, 20, 40, 80, 150))
        return "\n".join(
            f"- {rng.choice(WORDS)}-{rng.choice(WORDS)}: {self._prose(rng, rng.randint(40, 240))}" for _ in range(n)
        )
