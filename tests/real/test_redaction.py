"""The redactor on real sessions: the corpus holds no secret, so `secrets --all` finds none in
any of its Claude roots, and every command that shows transcript text shows the same text
redacted as with `--no-redact` (not one character altered)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.real.corpus import KitRun, Truth, folders, params

# Per session: the commands that show transcript text, with their options.
SHOWN = {
    "show": ("--json",),
    "events": ("--json",),
    "agents": ("--json",),
    "debug-agent": ("--all", "--json"),
    "preprocess": ("--stdout",),
}


def timeless(value: Any, key: str = "") -> Any:
    """A JSON answer without what depends on when it was asked (`at`, seconds since: `idle_s`)."""
    if isinstance(value, dict):
        return {k: timeless(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [timeless(v, key) for v in value]
    return None if key == "at" or key.endswith("_s") else value


@pytest.mark.parametrize("folder", folders())
def test_secrets_finds_nothing_in_a_corpus_root(kit: KitRun, folder: str) -> None:
    from tests.real.corpus import corpus_dir

    code, out, err = kit.run("secrets", "--all", "--claude-dir", str(corpus_dir() / folder), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["found"], report["kinds"]) == (0, {})


@pytest.mark.parametrize("command", sorted(SHOWN))
@pytest.mark.parametrize("truth", params())
def test_redacted_output_is_the_output_unredacted(kit: KitRun, truth: Truth, command: str) -> None:
    where = (str(truth.path), "--claude-dir", str(truth.root), *SHOWN[command])
    code, redacted, err = kit.run(command, *where)
    assert "Traceback" not in err
    code_plain, plain, _ = kit.run(command, *where, "--no-redact")
    assert code == code_plain
    if SHOWN[command][-1] == "--json":  # the moment a command answered is no transcript text
        redacted, plain = (json.dumps(timeless(json.loads(out))) for out in (redacted, plain))
    if redacted != plain:
        at = next(i for i, (a, b) in enumerate(zip(redacted, plain)) if a != b)
        assert redacted[at - 80 : at + 80] == plain[at - 80 : at + 80]
