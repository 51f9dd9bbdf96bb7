"""The optional second stage: a small model reads each document and cuts what is still noise.

Owns: finding the Claude Code client (`SESSION_KIT_CLAUDE`, else `claude` on PATH), running
`claude -p` on one document (given on stdin; the client's own auth is used; no tools, no
saved session, no hooks: the kit's own hooks must not fire in the child and record a session
of it) in a temporary folder whose project folder in the Claude root is removed afterwards,
with a conservative "when in doubt, keep it" instruction, and writing the answer beside the
document as `<name>.distilled.xml`. Does not produce the documents.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from session_kit.base import fileio
from session_kit.claude.paths import project_dir
from session_kit.errors import KitError, NotFound
from session_kit.preprocess.result import DEFAULT_MODEL, Distilled

# The child is a text transform: no hook of anyone's (the kit's would make phantom scratch dirs
# and move the project's current-session pointer), whatever the user and project settings say.
CHILD_SETTINGS = json.dumps({"disableAllHooks": True})
TIMEOUT_S = 600.0
ENV_BINARY = "SESSION_KIT_CLAUDE"

INSTRUCTION = """\
The input (on stdin) is one part of a Claude Code session transcript that has already been \
reduced mechanically to XML. Its elements: <session>/<agent> (the root), <user>, <assistant> \
(with <text>, <thinking>, <tool_use> and its <param>s), <tool_result> (with <omitted lines=N/> \
where lines were cut), <compact_boundary>, <compact_summary>, <system>, <same_as>, \
<entry>.

Rewrite it shorter for a reader who wants to learn what happened in the session. Remove only \
what is clearly noise: repeated boilerplate, long listings nobody acted on, routine successful \
output, chatter without content. Keep every user request verbatim, every decision and its \
reason, every command run, every error message, stack trace and failed command, file paths, \
names, numbers, and the outcome of each step. Never invent, summarise into vaguer words, or \
reorder. When in doubt, keep it.

Answer with the XML document only: the same root element with the same attributes, the same \
element names, well-formed, nothing before or after it."""


def find_claude(env: Mapping[str, str] | None = None) -> str:
    """The client binary: `$SESSION_KIT_CLAUDE`, else `claude` on PATH; NotFound when neither."""
    import shutil

    env = os.environ if env is None else env
    configured = env.get(ENV_BINARY, "").strip()
    if configured:
        path = shutil.which(configured) or (configured if os.path.isfile(configured) else None)
        if path is None:
            raise NotFound(f"distilling: {ENV_BINARY}={configured} is not an executable file")
        return path
    found = shutil.which("claude", path=env.get("PATH"))
    if found is None:
        raise NotFound(
            f"distilling needs the Claude Code client: `claude` is not on PATH (or set {ENV_BINARY} to its path)"
        )
    return found


def distilled_path(document: Path) -> Path:
    name = document.name[: -len(".xml")] if document.name.endswith(".xml") else document.name
    return document.with_name(f"{name}.distilled.xml")


def distill_document(
    document: Path,
    *,
    binary: str,
    model: str = DEFAULT_MODEL,
    timeout: float = TIMEOUT_S,
    env: Mapping[str, str] | None = None,
) -> Distilled:
    """Run `claude -p` on one document and write its answer beside it."""
    argv = [
        binary,
        "-p",
        INSTRUCTION,
        "--model",
        model,
        "--output-format",
        "text",
        "--no-session-persistence",
        "--tools",
        "",
        "--settings",
        CHILD_SETTINGS,
    ]
    import subprocess  # only here: importing them costs every other command
    import tempfile

    environ = dict(os.environ if env is None else env)
    # A folder of its own: the client makes a project folder in the Claude root for its cwd
    # even without saving the session; that folder is removed with this one.
    workdir = tempfile.mkdtemp(prefix="session-kit-distill-")
    try:
        with open(document, "rb") as stdin:
            try:
                done = subprocess.run(
                    argv, stdin=stdin, capture_output=True, timeout=timeout, cwd=workdir, env=environ, check=False
                )
            except subprocess.TimeoutExpired:
                raise KitError(f"distilling: claude -p took longer than {timeout:.0f}s on {document.name}") from None
            except OSError as exc:
                raise KitError(f"distilling: cannot run {binary}: {exc.strerror}") from None
    finally:
        _remove_child_traces(workdir, environ)
    if done.returncode != 0:
        detail = (
            done.stderr.decode("utf-8", "replace").strip().splitlines()
            or done.stdout.decode("utf-8", "replace").strip().splitlines()
        )
        last = detail[-1] if detail else "(no output)"
        raise KitError(f"distilling: claude -p failed on {document.name} (exit {done.returncode}): {last}")
    text = _strip_fences(done.stdout.decode("utf-8", "replace"))
    target = distilled_path(document)
    fileio.atomic_write(str(target), text.encode("utf-8"), mode=0o644, sync=False)
    return Distilled(document, target, len(text), _well_formed(text))


def _remove_child_traces(workdir: str, env: Mapping[str, str]) -> None:
    """The temporary folder, and the project folder the child made for it in the Claude root
    (with what it wrote there: its transcript, if it kept one)."""
    import shutil

    configured = env.get("CLAUDE_CONFIG_DIR")
    home = env.get("HOME")
    root = Path(configured).expanduser() if configured else (Path(home) / ".claude" if home else None)
    if root is not None:
        for cwd in {workdir, os.path.realpath(workdir)}:
            shutil.rmtree(project_dir(root, cwd), ignore_errors=True)
    shutil.rmtree(workdir, ignore_errors=True)


def _strip_fences(text: str) -> str:
    """The answer without a Markdown code fence around it, which small models like to add."""
    body = text.strip()
    if body.startswith("```"):
        first_newline = body.find("\n")
        if body.endswith("```") and first_newline > 0:
            body = body[first_newline + 1 : -3].strip()
    return body + "\n"


def _well_formed(text: str) -> bool:
    from xml.etree import ElementTree

    try:
        ElementTree.fromstring(text.encode("utf-8"))
    except ElementTree.ParseError:
        return False
    return True
