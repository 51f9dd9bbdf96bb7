"""The person's requests in the working memory: the first, the latest, and every standing
instruction of every request.

Owns: the memory's `requests` (`record`'s shape): the first request, the latest
`RECENT_REQUESTS`, and `constraints`: each sentence of any request that reads as a standing
instruction (never / always / don't / do not / must / only / avoid …), kept across all
requests, so "never edit anything under migrations/" said an hour ago survives however many
requests follow. The kit's own slash commands are not requests (`text.kit_command`, the one
rule). Pasted text (code fences, indented or long lines) gives no constraints. Standard
library only. Does not decide what a request is (`transcript.entries.request_text`) or word
the restore (`restore`).
"""

from __future__ import annotations

from session_kit.memory.text import clip, excerpt

MAX_REQUEST = 6000
RECENT_REQUESTS = 5
MAX_CONSTRAINTS = 40
MAX_CONSTRAINT = 300
# Words that make a sentence a standing instruction (lower case, apostrophes straightened).
_WORDS = frozenset(
    {
        "never",
        "always",
        "must",
        "mustn't",
        "only",
        "avoid",
        "don't",
        "dont",
        "shouldn't",
        "cannot",
        "can't",
        "forbidden",
        "prohibited",
    }
)
_PAIRS = frozenset({("do", "not"), ("must", "not"), ("should", "not"), ("make", "sure"), ("no", "longer")})
_ENDS = ".!?;\n"


def keep_request(requests: dict, text: str, line: int, at: str | None) -> None:
    """One request of the person's, already redacted: first, latest, and its constraints."""
    item = {"text": excerpt(text, MAX_REQUEST), "line": line, "at": at}
    if requests.get("first") is None:
        requests["first"] = item
    recent = requests.setdefault("recent", [])
    if not recent or recent[-1]["text"] != item["text"]:
        recent.append(item)
        del recent[:-RECENT_REQUESTS]
    kept = requests.setdefault("constraints", [])
    known = {_norm(c["text"]) for c in kept}
    for sentence in constraints_in(text):
        norm = _norm(sentence)
        if norm not in known:
            known.add(norm)
            kept.append({"text": sentence, "line": line})
    del kept[:-MAX_CONSTRAINTS]


def constraints_in(text: str) -> list[str]:
    """The sentences of `text` that read as standing instructions, outside pasted text."""
    found = []
    fenced = False
    for raw in text.splitlines():
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or (raw[:1] in (" ", "\t") and raw.lstrip()[:2] not in ("- ", "* ")) or len(raw) > 2000:
            continue  # pasted code, logs, or a wall of text
        for sentence in _sentences(raw.strip().lstrip("-*> ").strip()):
            if _is_constraint(sentence):
                found.append(clip(" ".join(sentence.split()), MAX_CONSTRAINT))
    return found


def _sentences(line: str) -> list[str]:
    out, start = [], 0
    for i, char in enumerate(line):
        # a dot inside a word (a path, a version, "e.g.") does not end a sentence
        if char in _ENDS and (i + 1 == len(line) or line[i + 1] == " "):
            out.append(line[start : i + 1].strip())
            start = i + 1
    out.append(line[start:].strip())
    return [s for s in out if len(s) > 3]


def _is_constraint(sentence: str) -> bool:
    words = [w.strip("\"'`()[]{},:") for w in sentence.lower().replace("\u2019", "'").split()]
    if any(w in _WORDS for w in words):
        return True
    return any(pair in _PAIRS for pair in zip(words, words[1:]))


def _norm(text: str) -> str:
    return " ".join(text.lower().split())
