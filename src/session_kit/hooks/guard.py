"""The secret guard: the `PostToolUse` hook that keeps secrets a tool printed out of the
conversation. Standard library only; the kit's one redactor (`session_kit.redaction.engine`) is loaded
only when the output may hold a secret (`redaction.screen`).

Owns: whether the guard is on for this hook (the installer writes the hook only when asked;
the plugin always declares it, and its `guard_secrets` option turns it on), walking the
tool's output (`tool_response`: a string, or an object of strings like Bash's
`stdout`/`stderr`), redacting each string in place, and the hook's answer: nothing when
nothing was found, else `hookSpecificOutput.updatedToolOutput` of the same shape (and, for
MCP tools, `updatedMCPToolOutput`, what clients before 2.1.121 read) with a one-line
`systemMessage` to the person. At most `SCAN_LIMIT` characters are scanned; the rest goes
through as it was, and the notice says so. An event without `tool_response` is logged and
left alone; on any fault the output goes through as it was (`main`: logged, one stderr line,
exit 0). `run.py` starts `main` without the other hooks' handlers (their import is a third
of this hook's budget).
Does not decide what a secret is (that is `redact`).
"""

from __future__ import annotations

from session_kit.base import fastjson
from session_kit.base.hook_events import GUARD_OPTION_ENV
from session_kit.hooks.hookio import HookEvent, run
from session_kit.redaction.screen import may_hold_secret
from session_kit.state import root as state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

SCAN_LIMIT = 2 * 1024 * 1024  # characters of the output scanned; the rest goes through as it was
MCP_PREFIX = "mcp__"
# Words of the redactor's kinds as a person reads them.
_WORDS = {
    "aws": "AWS",
    "github": "GitHub",
    "gitlab": "GitLab",
    "url": "URL",
    "jwt": "JWT",
    "api": "API",
    "ssh": "SSH",
    "sas": "SAS",
    "oauth": "OAuth",
    "npm": "npm",
    "pypi": "PyPI",
}


def guard_on(env: Mapping[str, str]) -> bool:
    """On unless this is the plugin's hook with its `guard_secrets` option off."""
    if env.get("CLAUDE_PLUGIN_ROOT"):
        return env.get(GUARD_OPTION_ENV, "").strip().lower() in ("true", "1", "yes", "on")
    return True


def kind_label(kind: str) -> str:
    """A redactor's kind (`aws-access-key`) as a person reads it (`AWS access key`)."""
    return " ".join(_WORDS.get(word, word) for word in kind.split("-"))


class _Walk:
    """Maps every string of a JSON value through `fn`, within the scan bound."""

    __slots__ = ("fn", "left", "skipped")

    def __init__(self, fn: Callable[[str], str]) -> None:
        self.fn = fn
        self.left = SCAN_LIMIT
        self.skipped = 0  # characters past the bound

    def __call__(self, value: object) -> object:
        if isinstance(value, str):
            if self.left <= 0:
                self.skipped += len(value)
                return value
            if len(value) > self.left:
                head, tail = value[: self.left], value[self.left :]
                self.skipped += len(tail)
                self.left = 0
                return self.fn(head) + tail
            self.left -= len(value)
            return self.fn(value)
        if isinstance(value, dict):
            return {key: self(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self(item) for item in value]
        return value


def _suspect(value: object) -> tuple[bool, int]:
    """Whether the redactor must look at the output, and how many characters lie past the bound."""
    flagged = []

    def screen(text: str) -> str:
        if not flagged and may_hold_secret(text):
            flagged.append(True)
        return text

    walk = _Walk(screen)
    walk(value)
    return bool(flagged), walk.skipped


def _redacted(value: object, redactor: Callable[[str], str]) -> object:
    """`value` with each of its strings (within the bound) redacted, all in one pass (a `Glob`
    of 20,000 names is one text to the redactor, not 20,000)."""
    texts: list[str] = []

    def take(text: str) -> str:
        texts.append(text)
        return text

    _Walk(take)(value)
    batch = [text for text in texts if "\x00" not in text]
    redacted = iter(redactor.many(batch) if len(batch) > 1 else [redactor(text) for text in batch])  # type: ignore[attr-defined]
    done = iter([next(redacted) if "\x00" not in text else redactor(text) for text in texts])
    return _Walk(lambda _text: next(done))(value)


def _notice(counts: Mapping[str, int], skipped: int) -> str:
    parts = []
    total = sum(counts.values())
    if total:
        kinds = ", ".join(kind_label(kind) for kind in sorted(counts, key=kind_label))
        parts.append(f"{total} secret{'s' if total != 1 else ''} kept out of the conversation: {kinds}")
    if skipped:
        parts.append(
            f"only the first {SCAN_LIMIT // (1024 * 1024)} MB of the tool's output were checked for secrets; "
            f"the other {skipped:,} characters went through as they were"
        )
    return "session-kit: " + "; ".join(parts)


def post_tool_use(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    if not guard_on(env):
        return ""
    tool = event.tool_name or "?"
    if not event.has_tool_response:
        state.log(root, f"hook post-tool-use: no tool_response in the event of {tool}; left alone")
        return ""
    output = event.tool_response
    suspect, skipped = _suspect(output)
    # the command is the context of what it printed (`kubectl get secret … | base64 -d`)
    command = event.command
    suspect = suspect or (command is not None and may_hold_secret(command))
    counts: Mapping[str, int] = {}
    updated = output
    if suspect:
        from session_kit.redaction.engine import Redactor
        from session_kit.redaction.printed import context_of, redact_output

        redactor = Redactor()
        if command is not None and context_of({"command": command}) is not None:
            # what a command that prints secrets printed: each text read after its command line
            updated = _Walk(lambda text: redact_output(text, command, redactor))(output)
        else:
            updated = _redacted(output, redactor)
        counts = redactor.counts
    if not sum(counts.values()) and not skipped:
        return ""
    answer: dict[str, object] = {"systemMessage": _notice(counts, skipped)}
    if sum(counts.values()):
        specific: dict[str, object] = {"hookEventName": "PostToolUse", "updatedToolOutput": updated}
        if tool.startswith(MCP_PREFIX):
            specific["updatedMCPToolOutput"] = updated
        answer["hookSpecificOutput"] = specific
    return fastjson.dumps(answer) + "\n"


# By the hook's argument (`base.hook_events.OPT_IN_EVENTS`): the hook `hooks.start` starts here.
HOOKS = {"post-tool-use": post_tool_use}


def main(argv: list[str], *, stdin: object = None, env: Mapping[str, str] | None = None) -> int:
    """Run the guard on the event on stdin; always returns 0 (`hookio.run`)."""
    return run(argv[0] if argv else "post-tool-use", HOOKS, stdin=stdin, env=env)
