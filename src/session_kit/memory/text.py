"""Reading meaning out of the texts of entries, for the memory: no regular expressions.

Owns: the text of a tool result, the lines of an error that tell what went wrong (the
end of a traceback, the lines that say "error"), a failed command's exit code, the paths an
`rm` removed; and, loaded on first use, the kit's one redactor, its one rule of what a request
is (`transcript.entries.request_text`) and its one reading of what lines say about agents
(`transcript.agent_signals`). Standard library only,
and cheap to import: the hooks load it.
"""

from __future__ import annotations

_ERROR_WORDS = (
    "error",
    "fail",
    "fatal",
    "panic",
    "exception",
    "denied",
    "not found",
    "no such",
    "cannot",
    "can't",
    "unable",
    "invalid",
    "refused",
    "timed out",
    "traceback",
    "assert",
)
MAX_ERROR = 1200


def redact(text: str) -> str:
    """`text` through the kit's one redactor."""
    if len(text) < 8:
        return text
    from session_kit.redaction.engine import redact as _redact

    return _redact(text)


def person_request(entry: dict, line: int = 0) -> str | None:
    """The text the person typed, if this user entry is such a request: the kit's one rule
    (`transcript.entries.request_text`), loaded on first use like the redactor (captures run
    beside the client, not in the hook it waits for)."""
    from session_kit.transcript.entries import Entry, request_text

    return request_text(Entry.from_raw(line, entry))


def kit_command(request: str) -> bool:
    """The kit's own slash command (`transcript.slash_commands.is_kit_command`): not the person's work."""
    if not request.startswith("/"):
        return False
    from session_kit.base.slash_commands import is_kit_command

    return is_kit_command(request)


def agent_signals():
    """The kit's one reading of what lines say about agents (`transcript.agent_signals`):
    loaded on first use, like the redactor, when a line says something about an agent."""
    from session_kit.transcript import agent_signals

    return agent_signals


def parse_time(at: object):
    """An entry's time, by the kit's one rule (`transcript.entries.parse_timestamp`)."""
    if at is None or not isinstance(at, (str, int, float)):
        return at  # None, or a time already
    from session_kit.transcript.entries import parse_timestamp

    return parse_timestamp(at)


def seconds_between_times(start: object, end: object) -> float | None:
    """Seconds from one time (ISO text or datetime) to another; None when either is unknown."""
    from session_kit.transcript.entries import seconds_between

    return seconds_between(parse_time(start), parse_time(end))


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"… [cut: {len(text)} chars]"


def excerpt(text: str, size: int) -> str:
    """`text` within about `size` characters: its start and its end, the middle named."""
    if len(text) <= size:
        return text
    room = max(0, size - 40)
    head, tail = text[: room * 2 // 3], text[len(text) - room // 3 :] if room // 3 else ""
    return f"{head}\n[… {len(text) - len(head) - len(tail)} characters left out …]\n{tail}"


def result_text(content: object) -> str:
    """A tool result's content as text (a string, or the text of its blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def exit_code_of(text: str) -> int | None:
    """The N of a failed Bash result's `Exit code N` (at most 9 digits are read)."""
    for prefix in ("Exit code ", "Error: Exit code "):
        if text.startswith(prefix):
            digits = ""
            for char in text[len(prefix) : len(prefix) + 10]:
                if not char.isdigit():
                    break
                digits += char
            return int(digits) if digits and len(digits) <= 9 else None
    return None


def _strip_wrapper(text: str) -> str:
    if "<" not in text:
        return text
    from session_kit.transcript.entries import tagged  # loaded on first use, like the redactor

    for tag in ("tool_use_error", "error"):
        inner = tagged(text, tag)
        if inner is not None:
            return inner
    return text


def error_lines(text: str, *, limit: int = MAX_ERROR) -> str:
    """The lines that say what went wrong: a traceback's last frames and message, else the
    lines that read as errors (the latest), else the last lines."""
    lines = [line.rstrip() for line in _strip_wrapper(text).splitlines()]
    if lines and lines[0].startswith(("Exit code ", "Error: Exit code ")):
        lines = lines[1:]
    start = max((i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")), default=-1)
    if start >= 0:
        trace = lines[start:]
        frames = [i for i, line in enumerate(trace) if line.lstrip().startswith('File "')]
        if frames:
            last = frames[-1]
            code = last + 1 if last + 1 < len(trace) and trace[last + 1].startswith("    ") else last
            message = [line for line in trace[code + 1 :] if line.strip()][:6]
            kept_frames = trace[frames[-2] if len(frames) > 1 else last : code + 1]
            chosen = [trace[0], *(["  …"] if len(frames) > 2 else []), *kept_frames, *message]
            return _clip_lines(chosen, limit)
    nonempty = [line for line in lines if line.strip()]
    telling = [line for line in nonempty if _reads_as_error(line)]
    return _clip_lines(telling[-8:] if telling else nonempty[-6:], limit)


def _reads_as_error(line: str) -> bool:
    low = line.lower()
    return any(word in low for word in _ERROR_WORDS) or line.startswith("E   ")


LINE_CHARS = 400  # of one line of an error


def _clip_lines(lines: list[str], limit: int) -> str:
    """The lines redacted, then each cut to LINE_CHARS and the whole to its last `limit`
    characters: redacted before any cut, which would leave a piece of a secret unfound."""
    from session_kit.redaction.engine import REACH

    text = redact("\n".join(line[: LINE_CHARS + REACH] for line in lines))
    lines = [line if len(line) <= LINE_CHARS else line[:LINE_CHARS] + "…" for line in text.split("\n")]
    text = "\n".join(lines)
    return text if len(text) <= limit else "…" + text[-limit:]


def removed_paths(command: str) -> list[str]:
    """The paths a plain `rm …` / `git rm …` removes (none for anything with shell syntax)."""
    if any(char in command for char in "|;&$`<>(){}*?\"'\\\n"):
        return []
    words = command.split()
    if words[:2] == ["git", "rm"]:
        words = words[1:]
    if not words or words[0] != "rm":
        return []
    return [word for word in words[1:] if not word.startswith("-")]


def call_key(name: str, tool_input: dict) -> str:
    """What makes two calls 'the same command': a later success of it fixes a failure."""
    if name == "Bash":
        return "Bash: " + " ".join(str(tool_input.get("command") or "").split())
    path = tool_input.get("file_path") or tool_input.get("notebook_path") or tool_input.get("path")
    if isinstance(path, str):
        return f"{name}: {path}"
    for field in ("pattern", "url", "query", "skill", "description"):
        if isinstance(tool_input.get(field), str):
            return f"{name}: {tool_input[field][:300]}"
    return name


def content_blocks(content: object) -> list[dict]:
    """A message content's blocks (none for a string content)."""
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []


def clip_tail(text: str, limit: int) -> str:
    """The end of `text`, at most `limit` characters, saying how long it was when cut."""
    return text if len(text) <= limit else f"[cut: {len(text)} chars] …" + text[-limit:]
