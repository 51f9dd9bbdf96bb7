"""Every cut of transcript text redacts first: a secret that straddles a cut (a parameter's
200 characters, an output line's 500, an indexed error's 2,000, a memory error line's 400)
leaves no piece of itself, in the cut itself and through the commands that show it."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.conversation import steps
from session_kit.memory.text import LINE_CHARS, error_lines
from session_kit.redaction.engine import Redactor, redact_text
from tests.support.cli import invoke
from tests.support.secret_probes import CUT_INTO, Probe, leaked, probes
from tests.support.transcripts import Transcript


def removed_whole(probe: Probe) -> bool:
    out = redact_text(probe.line)
    return not any(leaked(s, out) for s in probe.secrets)


# the probes the redactor finds in plain text: a cut must not lose any of them
FOUND = [p for p in probes() if removed_whole(p)]


def straddling(probe: Probe, limit: int) -> str:
    """The probe's line after filler, so that the first `limit` characters end CUT_INTO
    characters into its first secret."""
    before = probe.line.index(probe.secrets[0]) + CUT_INTO
    return "x" * max(0, limit - before - 1) + " " + probe.line


def leaks(probe: Probe, out: str) -> bool:
    return any(leaked(s, out) for s in probe.secrets)


def test_most_probes_are_found_in_plain_text():
    assert len(FOUND) >= 0.9 * len(probes())


@pytest.mark.parametrize("limit", [steps.PARAM_LIMIT, 120])
def test_a_parameter_cut_through_a_secret_leaves_none_of_it(limit: int):
    missed = [
        p.kind for p in FOUND if leaks(p, steps.truncate_param("command", straddling(p, limit), limit, Redactor()))
    ]
    assert missed == []


def test_an_output_line_cut_through_a_secret_leaves_none_of_it():
    lines = [straddling(p, steps.LINE_LIMIT) for p in FOUND]
    pruned = steps.prune_output("\n".join(lines), redact=Redactor(), head_lines=len(lines) + 1)
    # the conversion redacts what pruning keeps; the lines it cut, it redacted before the cut
    out = redact_text("\n".join(piece for piece in pruned.pieces if isinstance(piece, str)))
    assert [p.kind for p in FOUND if leaks(p, out)] == []


def test_a_memory_error_line_cut_through_a_secret_leaves_none_of_it():
    missed = []
    for probe in FOUND:
        out = error_lines("Exit code 1\nerror: " + straddling(probe, LINE_CHARS - len("error: ")))
        if leaks(probe, out):
            missed.append(probe.kind)
    assert missed == []


# --- through the commands -----------------------------------------------------------------------

KEY = "sk-ant-api03-" + "Q7vZ2kX9mW4pL8rT1yB6nC3dF5gH0jK2" + "-AbCdEfGh"


def session_with_secrets_at_the_cuts(root: Path) -> Transcript:
    t = Transcript("c47c0000-0000-0000-0000-000000000001")
    t.user("deploy it")
    at_200 = "x" * (steps.PARAM_LIMIT - 20) + " " + KEY
    at_500 = "y" * (steps.LINE_LIMIT - 20) + " " + KEY
    t.bash(f"echo {at_200} > /dev/null", "\n".join([at_500] * 3 + [f"line {n}" for n in range(40)]))
    t.bash("deploy", exit_code=1, stderr="e" * 1990 + " " + KEY + "\nerror: refused")
    t.say("It was refused.")
    t.write_session(root)
    return t


def test_preprocess_leaves_no_piece_of_a_secret_across_its_cuts(tmp_path: Path):
    t = session_with_secrets_at_the_cuts(tmp_path)
    result = invoke("preprocess", t.session_id, "--stdout", "--claude-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "[REDACTED" in result.stdout
    assert not leaked(KEY, result.stdout)


@pytest.mark.parametrize(
    "args",
    [("show", "--json"), ("events", "--json"), ("memory", "--whole"), ("view", "--format", "md", "-o", "-")],
    ids=" ".join,
)
def test_commands_leave_no_piece_of_a_secret_across_their_cuts(tmp_path: Path, args):
    t = session_with_secrets_at_the_cuts(tmp_path)
    result = invoke(args[0], t.session_id, *args[1:], "--claude-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert not leaked(KEY, result.stdout)


def test_search_over_the_index_leaves_no_piece_of_a_secret_across_a_cut(tmp_path: Path):
    session_with_secrets_at_the_cuts(tmp_path)
    result = invoke("search", "refused", "--all", "--claude-dir", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    assert "refused" in result.stdout
    assert not leaked(KEY, result.stdout)
    exported = invoke("export", "--claude-dir", str(tmp_path), "--output-dir", str(tmp_path / "out"))
    assert exported.exit_code == 0, exported.output
    for path in (tmp_path / "out").rglob("*"):
        if path.is_file():
            assert not leaked(KEY, path.read_text(errors="replace")), path.name
