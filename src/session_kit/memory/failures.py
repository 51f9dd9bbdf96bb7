"""Failures in the working memory: which are still open at the compaction.

Owns: the memory's `failures` list (`record`'s shape) and the rule that a failure is fixed:
a later successful call of the same tool on the same target, where "the same" is a command
family, not the same bytes: the same file for the file tools (an Edit that failed is fixed by
a Write of that file); for Bash, the same program and subcommand (`git add` and `git add -f`,
`pytest` and `python -m pytest`) whose targets (the words that name a file, a folder or a
test) cover the failure's, or that names no target at all (the whole suite ran); a failed
Skill is fixed by a Bash command that runs its name (`commit` and `git commit`). It also keeps
failures no call result shows: those an agent's answer reports (fixed by a later clean answer
of the same kind of agent, or by a successful run of a program the report names) and those a
hook's feedback reports (`hook_blocking_error`; fixed by a later success of the same hook).
Standard library only. Does not read lines (`fold`) or word the restore (`restore`).
"""

from __future__ import annotations

from session_kit.memory.text import clip, error_lines, exit_code_of, redact

MAX_FAILURES = 30
# Programs whose first word after the name is a subcommand that makes the family.
_SUBCOMMANDS = frozenset(
    {"git", "npm", "pnpm", "yarn", "cargo", "go", "docker", "kubectl", "gh", "uv", "pip", "poetry", "bun", "dotnet"}
)
# Launchers: the family is the program they run.
_LAUNCHERS = {("python", "-m"), ("uv", "run"), ("poetry", "run"), ("npx", None), ("pnpx", None), ("bunx", None)}
_PREFIXES = frozenset({"sudo", "time", "command", "exec", "nohup", "env", "stdbuf"})
_SHELL_ONLY = frozenset({"cd", "export", "source", ".", "set", "echo", "printf", "true", ":", "pushd", "popd"})
_NEGATIONS = ("0 failed", "0 errors", "0 error", "no fail", "no error", "not fail", "without error", "none fail")
_FAILURE_WORDS = ("fail", "error", "traceback", "exception", "panic")


def family(tool: str, call: dict) -> dict:
    """What a call's failure is fixed by: `{"head", "targets"}` (a Bash command's program and
    subcommand, and the paths or tests it names), or `{"head": "file: <path>"}`…"""
    if tool == "Bash":
        return _command_family(call.get("command") or "")
    if call.get("path"):
        return {"head": "file: " + call["path"], "targets": []}
    if tool == "Skill":
        name = (call.get("key") or "").partition(": ")[2]
        words = name.replace(":", " ").replace("-", " ").replace("_", " ").split()
        return {"head": "Skill", "targets": [], "words": words}
    return {"head": call.get("key") or tool, "targets": []}


def _program(word: str) -> str:
    name = word.rsplit("/", 1)[-1]
    return "python" if name.startswith("python") and name[6:].replace(".", "").isdigit() else name


def _words(segment: str) -> list[str]:
    """A command's words as the shell splits them (quotes and backslashes; no expansions)."""
    words: list[str] = []
    word, quote, escaped, started = "", "", False, False
    for char in segment:
        if escaped:
            word, escaped = word + char, False
        elif char == "\\" and quote != "'":
            escaped = started = True
        elif quote:
            if char == quote:
                quote = ""
            else:
                word += char
        elif char in "'\"":
            quote, started = char, True
        elif char.isspace():
            if started or word:
                words.append(word)
            word, started = "", False
        else:
            word += char
    if started or word:
        words.append(word)
    return words


def _command_family(command: str) -> dict:
    segments = [command]
    for sep in ("&&", "||", ";", "\n"):
        segments = [part for segment in segments for part in segment.split(sep)]
    # the last command that does work decides; of a pipeline, its first
    chosen: list[str] = []
    for segment in segments:
        words = _words(segment.split("|", 1)[0])
        while words and ("=" in words[0] and not words[0].startswith("-") or words[0] in _PREFIXES):
            words = words[1:]
        if words and _program(words[0]) not in _SHELL_ONLY:
            chosen = words
    if not chosen:
        return {"head": "Bash: " + " ".join(command.split()), "targets": []}
    words = [_program(chosen[0]), *chosen[1:]]
    for launcher, flag in _LAUNCHERS:
        if words[0] == launcher and (flag is None or words[1:2] == [flag]):
            words = words[(1 if flag is None else 2) :] or words
            if words:
                words = [_program(words[0]), *words[1:]]
            break
    head = [words[0]]
    rest = words[1:]
    if words[0] in _SUBCOMMANDS:
        while rest and rest[0].startswith("-"):  # `git -C dir status`: the option and its value
            rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
        if rest:
            head.append(rest[0])
            rest = rest[1:]
    targets = sorted({w.rstrip("/") for w in rest if not w.startswith("-") and _names_a_target(w)})
    return {"head": " ".join(head), "targets": targets}


def _names_a_target(word: str) -> bool:
    return "/" in word or "::" in word or ("." in word.strip(".") and " " not in word)


def fixes(failure: dict, tool: str, done: dict) -> bool:
    """True when a successful call (`done`, its family) fixes `failure`."""
    wanted = failure.get("family")
    if wanted is None:  # kept by an older kit: the exact command only
        return False
    if failure.get("tool") == "Skill":
        return tool == "Bash" and any(w in done["head"].split() for w in wanted.get("words", []))
    if failure.get("tool") == "agent":
        return tool == "Bash" and done["head"].split()[0] in wanted.get("words", [])
    if wanted["head"] != done["head"]:
        return False
    return not done["targets"] or set(wanted["targets"]) <= set(done["targets"])


def call_failed(failures: list, call: dict, call_id: str, text: str, at: str | None, line: int) -> None:
    """A call's failure; replaces an earlier failure of the same command."""
    tool = call["tool"]
    failure = {
        "key": call["key"],
        "call": call_id,
        "tool": tool,
        "command": call.get("command") or call["key"],
        "exit_code": exit_code_of(text),
        "error": redact(error_lines(text)),
        "line": call["line"],
        "result_line": line,
        "at": at or call.get("at"),
        "family": family(tool, call),
    }
    _keep(failures, failure)


def call_succeeded(failures: list, call: dict) -> list:
    """The failures still open after `call` succeeded."""
    if not failures:
        return failures
    done = family(call["tool"], call)
    return [f for f in failures if f["key"] != call["key"] and not fixes(f, call["tool"], done)]


def reported_failure(text: str) -> str | None:
    """The lines of an agent's answer that report a failure ("pytest failed: 1 test …"); None
    when it reports none ("5 passed, 0 failed" is no failure)."""
    lines = []
    for line in text.splitlines():
        low = line.lower()
        if any(word in low for word in _FAILURE_WORDS) and not any(neg in low for neg in _NEGATIONS):
            lines.append(line.strip())
    return clip("\n".join(lines[:6]), 800) if lines else None


def agent_reported(failures: list, agent: dict, text: str | None, line: int, at: str | None) -> list:
    """An agent's answer: its reported failure kept (keyed by the kind of agent), or a clean
    answer that fixes what the same kind of agent reported before."""
    key = f"agent: {agent.get('type')}"
    said = reported_failure(text) if text else None
    kept = [f for f in failures if f["key"] != key]
    if said is None:
        return kept
    words = sorted({w.strip(".,:;()`'\"").lower() for w in said.split() if len(w) > 2})
    failure = {
        "key": key,
        "call": agent.get("call"),
        "tool": "agent",
        "command": f'{agent.get("type")} agent "{agent.get("description")}" reported',
        "exit_code": None,
        "error": redact(said),
        "line": agent.get("line"),
        "result_line": line,
        "at": at,
        "family": {"head": key, "targets": [], "words": words},
    }
    _keep(kept, failure)
    return kept


def hook_blocked(failures: list, attachment: dict, line: int, at: str | None) -> None:
    """A hook's blocking feedback (`hook_blocking_error`): what it said, by the hook's name."""
    name = attachment.get("hookName") if isinstance(attachment.get("hookName"), str) else "hook"
    said = attachment.get("blockingError")
    if isinstance(said, dict):
        said = said.get("blockingError")
    if not isinstance(said, str):
        said = str(attachment.get("content") or attachment.get("stderr") or "")
    failure = {
        "key": f"hook: {name}",
        "call": attachment.get("toolUseID"),
        "tool": "hook",
        "command": f"{name} hook blocked",
        "exit_code": None,
        "error": redact(error_lines(said)),
        "line": line,
        "result_line": line,
        "at": at,
        "family": {"head": f"hook: {name}", "targets": []},
    }
    _keep(failures, failure)


def hook_succeeded(failures: list, name: object) -> list:
    return [f for f in failures if f["key"] != f"hook: {name}"]


def _keep(failures: list, failure: dict) -> None:
    failures[:] = [f for f in failures if f["key"] != failure["key"]]
    failures.append(failure)
    del failures[:-MAX_FAILURES]
