"""Failures in the working memory: which are still open at the compaction.

Owns: the memory's `failures` list (`record`'s shape) and the rule that a failure is fixed:
a later successful call of the same tool on the same target, where "the same" is a command
family, not the same bytes: the same file for the file tools (an Edit that failed is fixed by
a Write of that file); for Bash, the same program and subcommand (`git add` and `git add -f`,
`pytest` and `python -m pytest`) whose targets (the words that name a file, a folder or a
test) cover the failure's, or that names no target at all (the whole suite ran); a program
the kit does not know by name keeps up to two subcommand words (`erk exec setup-impl` is not
fixed by `erk exec impl-signal`); a failed Skill is fixed by a Bash command any of whose steps
runs its name (`commit` and `git commit`). It also keeps failures no call result shows: those
an agent's answer reports, one per failing test (its id), else per file the failure lines name,
else one for the rest (each fixed by a later clean answer of the same kind of agent, the rest
also by a successful run of a program the report names), and those a hook's feedback reports
(`hook_blocking_error`; fixed by a later success of the same hook).
Standard library only. Does not read lines (`fold`) or word the restore (`restore`).
"""

from __future__ import annotations

import re

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
# A test's id in an agent's report (`test_x`, `Class::test_x`), never a test file's name.
_TEST_ID = re.compile(r"(?<![\w/.-])((?:\w+::)*test_\w+)(?![\w-]|\.[A-Za-z])")
_PATH = re.compile(r"(?<![\w])((?:/|\.{0,2}/|\w[\w.-]*/)[\w./-]*\w\.\w+)")
_NAMES_AND_QUOTES = re.compile(r"`[^`]*`|\"[^\"]*\"|\S*(?:_|::)\S*")
# Agents that only read and search: what their answers say of errors describes code, not a run.
READ_ONLY_AGENTS = frozenset({"Explore", "Plan", "claude-code-guide", "statusline-setup"})
_SUBWORD = re.compile(r"^[a-z][a-z0-9-]*$")


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


def steps(command: str) -> list[list[str]]:
    """The words of each command that does work, in order; of a pipeline, its first. A
    here-document's body is no command."""
    if "<<" in command:
        command = command.split("<<", 1)[0]
    segments = [command]
    for sep in ("&&", "||", ";", "\n", "$("):
        segments = [part for segment in segments for part in segment.split(sep)]
    found = []
    for segment in segments:
        words = _words(segment.split("|", 1)[0])
        while words and ("=" in words[0] and not words[0].startswith("-") or words[0] in _PREFIXES):
            words = words[1:]
        if words and _program(words[0]) not in _SHELL_ONLY:
            found.append(words)
    return found


def heads(command: str) -> list[str]:
    """The head (program and subcommand) of every step of a command."""
    return [_step_family(words)["head"] for words in steps(command)]


def _command_family(command: str) -> dict:
    done = steps(command)
    if not done:  # the last command that does work decides
        return {"head": "Bash: " + " ".join(command.split()), "targets": []}
    return _step_family(done[-1])


def _step_family(chosen: list[str]) -> dict:
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
    else:  # a program the kit does not know: its leading subcommand words (`erk exec setup-impl`)
        while rest and len(head) < 3 and _SUBWORD.match(rest[0]):
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
        ran = done.get("heads") or [done["head"]]
        return tool == "Bash" and any(w in head.split() for head in ran for w in wanted.get("words", []))
    if failure.get("tool") == "agent":
        ran = done.get("heads") or [done["head"]]
        run = tool == "Bash" and any(head.split()[0] in wanted.get("words", []) for head in ran)
        if wanted.get("specific"):  # a test or a file: a clean report, or a passing run that covers it
            named = wanted.get("targets") or []
            return run and (not done["targets"] or any(d in t or t in d for t in named for d in done["targets"]))
        return run
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


MAX_DECLINED = 10
_SAID = "the user said:"


def call_declined(declined: list, call: dict, text: str, line: int) -> None:
    """A call the person declined: their decision (`base.declines`), kept with what they said
    (newer clients' "the user said: …", or 2.0.x's typed feedback); replaces an earlier decline
    of the same call."""
    low = text.lower()
    if _SAID in low:
        said: str | None = text[low.index(_SAID) + len(_SAID) :].strip()
    elif text.startswith(("The user doesn't want", "[Request interrupted")):
        said = None
    else:
        said = text.strip()
    item = {
        "key": call["key"],
        "tool": call["tool"],
        "command": call.get("command") or call["key"],
        "said": clip(redact(said), 600) if said else None,
        "line": call["line"],
        "result_line": line,
    }
    declined[:] = [d for d in declined if d["key"] != item["key"]] + [item]
    del declined[:-MAX_DECLINED]


def call_succeeded(failures: list, call: dict) -> list:
    """The failures still open after `call` succeeded."""
    if not failures:
        return failures
    done = family(call["tool"], call)
    if call["tool"] == "Bash":
        done["heads"] = heads(call.get("command") or "")
    return [f for f in failures if f["key"] != call["key"] and not fixes(f, call["tool"], done)]


def reported_failure(text: str) -> str | None:
    """The lines of an agent's answer that report a failure ("pytest failed: 1 test …"); None
    when it reports none ("5 passed, 0 failed" is no failure)."""
    lines = []
    for line in text.splitlines():
        if line.lstrip().startswith("[Tool:"):  # a call the agent made, as a poll's output lists it
            continue
        low = _NAMES_AND_QUOTES.sub(" ", line).lower()  # `test_x_fails` and "an error case" say nothing
        if any(word in low for word in _FAILURE_WORDS) and not any(neg in low for neg in _NEGATIONS):
            lines.append(line.strip())
    return clip("\n".join(lines[:12]), 1600) if lines else None


def agent_reported(failures: list, agent: dict, text: str | None, line: int, at: str | None) -> list:
    """An agent's answer: each failure it reports kept (one per failing test, else per file its
    failure lines name, else one for the rest), or a clean answer that fixes what the same kind
    of agent reported before."""
    source = f"agent: {agent.get('type')}"
    said = reported_failure(text) if text and agent.get("type") not in READ_ONLY_AGENTS else None
    if said is None:  # a clean answer: what this kind of agent reported before is fixed
        return [f for f in failures if f.get("source", f["key"]) != source]
    kept = [f for f in failures if f["key"] != source]  # the rest of an earlier report is replaced
    what = f'{agent.get("type")} agent "{agent.get("description")}" reported'
    found: dict[str, list[str]] = {}
    rest: list[str] = []
    for said_line in (text or "").splitlines():  # the tests a failing report names, but those it says passed
        low = said_line.lower()
        if "pass" not in low and " ok" not in low:
            for test in _TEST_ID.findall(said_line):
                found.setdefault(f"test: {test.rsplit('::', 1)[-1]}", []).append(said_line.strip())
    for said_line in said.splitlines():
        tests = _TEST_ID.findall(said_line)
        paths = [] if tests else [p for p in _PATH.findall(said_line) if not p.endswith(".")]
        paths = [p for p in paths if not any(p.endswith(t.split(": ", 1)[1]) for t in found)]
        for key in [f"file: {p}" for p in paths]:
            if not any(key[6:].rsplit("/", 1)[-1].startswith("test_") and k.startswith("test: ") for k in found):
                found.setdefault(key, []).append(said_line)
        if not tests and not paths:
            rest.append(said_line)
    if rest and not found:  # the lines of a report that names no test or file: one failure
        found[source] = rest
    for key, lines in found.items():
        words = sorted({w.strip(".,:;()`'\"*|").lower() for w in " ".join(lines).split() if len(w) > 2})
        failure = {
            "key": key if key == source else f"{source} {key}",
            "source": source,
            "call": agent.get("call"),
            "tool": "agent",
            "command": what if key == source else f"{key.split(': ', 1)[1]} ({what})",
            "exit_code": None,
            "error": redact("\n".join(lines)),
            "line": agent.get("line"),
            "result_line": line,
            "at": at,
            "family": {"head": key, "targets": _paths_in(lines), "words": words, "specific": key != source},
        }
        _keep(kept, failure)
    return kept


def _paths_in(lines: list[str]) -> list[str]:
    return sorted({p.split("::", 1)[0] for line in lines for p in _PATH.findall(line)})


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
