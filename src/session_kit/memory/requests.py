"""The person's requests in the working memory: the first, the latest, and every standing
instruction of every request.

Owns: the memory's `requests` (`record`'s shape): the first request, the latest
`RECENT_REQUESTS`, and `constraints`: each sentence of any request that reads as a lasting
direction (a clause opening with never / always / don't / avoid / only / must, "I don't want",
"we don't need", "make sure", "keep it …", "must stay …", "use X, not Y", or the same in
Chinese or Japanese; a choice "X, not Y" said beside one of them, whatever its verb), kept
across all requests, so "never edit anything under migrations/" said an hour ago survives
however many requests follow. A question (unless a polite request), a
description ("there's only …"), "never mind" and pasted text (code fences, indented lines,
the IDE's selection, everything after the first paragraph of a long request) give none; a
long request is kept with each paste as its first lines and size (`pastes_excerpted`). The
kit's own slash commands are not requests (`text.kit_command`, the one rule). Standard
library only. Does not decide what a request is (`transcript.entries.request_text`) or word
the restore (`restore`).
"""

from __future__ import annotations

from session_kit.memory.text import clip, excerpt

MAX_REQUEST = 6000
RECENT_REQUESTS = 5
MAX_CONSTRAINTS = 40
MAX_CONSTRAINT = 300
# A request longer than this is mostly pasted (a log, a HAR file, a page of documentation):
# only its first paragraph, the person's own words before the paste, gives constraints.
LONG_REQUEST = 1200
# Words that open a standing instruction (its clause's first word, after "please", "and" …).
_OPENERS = frozenset({"never", "always", "avoid", "don't", "dont", "only", "must", "mustn't"})
_FILLERS = frozenset({"please", "and", "but", "also", "so", "just", "ok", "okay", "then", "clear", "note", "remember"})
# Word runs that make a sentence one, wherever they are (lower case, apostrophes straightened).
_RUNS = (
    ("do", "not"),
    ("make", "sure"),
    ("i", "don't", "want"),
    ("i", "do", "not", "want"),
    ("we", "don't", "need"),
    ("we", "don't", "want"),
    ("we", "do", "not", "need"),
    ("we", "do", "not", "want"),
    ("we", "shouldn't"),
    ("you", "shouldn't"),
    ("should", "not"),
    ("must", "not"),
    ("we", "must"),
    ("you", "must"),
    ("we", "never"),
    ("we", "always"),
    ("we", "no", "longer"),
    ("we're", "not", "doing"),
    ("we", "are", "not", "doing"),
    ("we", "won't"),
    ("we", "will", "not"),
    ("keep", "it"),
    ("keeping", "it"),
    ("i", "prefer"),
    ("i'd", "prefer"),
    ("not", "allowed"),
    ("must", "stay"),
    ("must", "remain"),
    ("must", "be", "kept"),
    ("has", "to", "stay"),
    ("needs", "to", "stay"),
)
_SPACED_RUNS = tuple(f" {' '.join(run)} " for run in _RUNS)
_WORDS = frozenset({"forbidden", "prohibited", "mustn't"})
# A decision between two ways: "use a token bucket, not a sliding window".
_CHOOSING = frozenset({"use", "using", "prefer", "pick", "choose"})
_AGAINST = (", not ", " instead of ", " rather than ")
# The same in Chinese and Japanese (no spaces between words: found as substrings).
_CJK = (
    "不要",
    "别",
    "必须",
    "务必",
    "总是",
    "始终",
    "永远",
    "绝不",
    "禁止",
    "不能",
    "不许",
    "只用",
    "只能",
    "不得",
    "しないで",
    "ないでください",
    "必ず",
    "絶対",
    "常に",
    "だけを使",
    "禁止",
)
_CJK_QUESTION = ("要不要", "吗", "么？", "か？")
_POLITE = (("can", "you"), ("could", "you"), ("would", "you"), ("will", "you"), ("please",))
_ENDS = ".!?;\n。！？；"
_PASTE_TAGS = ("ide_selection", "ide_opened_file", "ide_diagnostics", "system-reminder")


def keep_request(requests: dict, text: str, line: int, at: str | None, *, shown: str | None = None) -> None:
    """One request of the person's, already redacted: first, latest, and its constraints.
    `shown` is the request as kept (its pastes excerpted, `pastes_excerpted`), `text` the
    request its constraints are read from."""
    item = {"text": excerpt(text if shown is None else shown, MAX_REQUEST), "line": line, "at": at}
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


def pastes_excerpted(text: str) -> str:
    """A long request with each paste (a fenced block, a paragraph of many or very long lines,
    pasted paragraphs in a row taken as one) shown as a few lines with its size:
    `[pasted 14.2 KB, 310 lines: first lines …]`, the first lines indented under it; the
    person's own words around it (a short line ending in ":" that opens the paragraph, a
    question that ends it) kept verbatim. A request under LONG_REQUEST is kept whole."""
    if len(text) <= LONG_REQUEST:
        return text
    blocks: list[tuple[bool, list[str]]] = []  # (pasted, lines), blank lines kept in words
    for pasted, lines in _paragraphs(text.split("\n")):
        if pasted and blocks and blocks[-1][0]:
            blocks[-1][1].extend(lines)
        elif pasted and len(blocks) > 1 and blocks[-2][0] and not "".join(blocks[-1][1]).strip():
            blocks.pop()
            blocks[-1][1].extend(["", *lines])
        else:
            blocks.append((pasted, lines))
    out: list[str] = []
    for pasted, lines in blocks:
        out.extend(_paste(lines) if pasted else lines)
    return "\n".join(out)


# A paragraph is pasted when it has this many lines and characters, or more than one line and
# this many characters (one line alone is the person's, however long: it is excerpted whole).
PASTE_LINES, PASTE_CHARS, PASTE_LONG = 6, 500, 1500
PASTE_SHOWN_LINES, PASTE_LINE_CHARS = 3, 160


def _paragraphs(lines: list[str]):
    """(pasted, lines) of each paragraph and each fenced block; blank lines on their own."""
    current: list[str] = []
    fenced = False
    for line in lines:
        if line.lstrip().startswith("```"):
            if not fenced and current:
                yield _judged(current)
                current = []
            current.append(line)
            fenced = not fenced
            if not fenced:
                yield True, current
                current = []
        elif fenced or line.strip():
            current.append(line)
        else:
            if current:
                yield _judged(current)
                current = []
            yield False, [line]
    if current:
        yield (True, current) if fenced else _judged(current)


def _judged(lines: list[str]) -> tuple[bool, list[str]]:
    size = sum(len(line) + 1 for line in lines)
    return (len(lines) >= PASTE_LINES and size >= PASTE_CHARS) or (len(lines) > 1 and size >= PASTE_LONG), lines


def _paste(lines: list[str]) -> list[str]:
    """A pasted block as its size and first lines, the person's words around it kept."""
    head: list[str] = []
    while len(lines) > 1 and len(head) < 2 and lines[0].rstrip().endswith(":") and len(lines[0]) < 300:
        head.append(lines.pop(0))
    tail: list[str] = []
    if len(lines) > 1 and lines[-1].rstrip().endswith("?") and len(lines[-1]) < 300 and lines[-1][:1] not in " \t":
        tail.append(lines.pop())
    while lines and not lines[-1].strip():
        lines.pop()
    size = len("\n".join(lines).encode("utf-8", "replace")) / 1024
    first = [line for line in lines if line.strip()][:PASTE_SHOWN_LINES]
    shown = ["    " + (line if len(line) <= PASTE_LINE_CHARS else line[: PASTE_LINE_CHARS - 1] + "…") for line in first]
    return [
        *head,
        f"[pasted {size:.1f} KB, {len(lines)} line{'' if len(lines) == 1 else 's'}: first lines …]",
        *shown,
        *tail,
    ]


def constraints_in(text: str) -> list[str]:
    """The sentences of `text` that read as standing instructions, outside pasted text."""
    text = _without_tags(text)
    if len(text) > LONG_REQUEST:
        text = _first_paragraph(text)
        if len(text) > LONG_REQUEST:
            return []
    found, decided = [], []
    fenced = False
    for raw in text.splitlines():
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or (raw[:1] in (" ", "\t") and raw.lstrip()[:2] not in ("- ", "* ")):
            continue  # pasted code or logs
        for sentence in _sentences(raw.strip().rstrip("\\").strip().lstrip("-*> ").strip()):
            if _is_constraint(sentence):
                found.append(clip(" ".join(sentence.split()), MAX_CONSTRAINT))
            elif _is_decision(sentence):
                decided.append((len(found), clip(" ".join(sentence.split()), MAX_CONSTRAINT)))
    if found:  # a choice said beside a constraint is the person's decision, kept with it
        for at, sentence in decided[::-1]:
            found.insert(at, sentence)
    return found


def _is_decision(sentence: str) -> bool:
    """A choice between two ways ("go with a token bucket, not a sliding window"), whatever its
    verb; a standing instruction only beside a constraint of the same request."""
    low = sentence.lower()
    return not low.rstrip(" \"')").endswith("?") and any(mark in low for mark in _AGAINST)


def _without_tags(text: str) -> str:
    """The request without what the client pasted around it (the IDE's selection, a reminder)."""
    for tag in _PASTE_TAGS:
        while f"<{tag}" in text:
            start = text.index(f"<{tag}")
            end = text.find(f"</{tag}>", start)
            if end < 0:
                break
            text = text[:start] + text[end + len(tag) + 3 :]
    return text.strip()


def _first_paragraph(text: str) -> str:
    lines = []
    for raw in text.strip().splitlines():
        if not raw.strip().rstrip("\\").strip():
            break
        lines.append(raw)
    return "\n".join(lines)


def _sentences(line: str) -> list[str]:
    out, start = [], 0
    for i, char in enumerate(line):
        # a dot inside a word (a path, a version, "e.g.") does not end a sentence
        if char in _ENDS and (i + 1 == len(line) or line[i + 1] == " " or char in "。！？；"):
            out.append(line[start : i + 1].strip())
            start = i + 1
    out.append(line[start:].strip())
    return [s for s in out if len(s) > 3]


def _is_constraint(sentence: str) -> bool:
    """A lasting direction: a clause that opens with never / always / don't / avoid / only /
    must, "we don't need", "I don't want", "make sure", "keep it …", "use X, not Y", or the
    same in Chinese or Japanese; never a question (unless a polite request), never "never
    mind", never a description ("there's only…", "they don't look…")."""
    low = sentence.lower().replace("\u2019", "'").replace("never mind", "")
    if any(mark in low for mark in _CJK):
        return not any(mark in low for mark in _CJK_QUESTION) and not low.rstrip().endswith(("?", "？"))
    words = [w.strip("\"'`()[]{},:—") for w in low.split()]
    words = [w for w in words if w]
    if low.rstrip(" \"')").endswith("?") and not any(tuple(words[: len(p)]) == p for p in _POLITE):
        return False
    if any(w in _WORDS for w in words):
        return True
    for clause in _clauses(low):
        lead = [w for w in clause if w not in _FILLERS][:1] if clause and clause[0] in _FILLERS else clause[:1]
        if lead and lead[0] in _OPENERS:
            return True
    spaced = f" {' '.join(words)} "
    if any(run in spaced for run in _SPACED_RUNS):
        return True
    return any(w in _CHOOSING for w in words) and any(mark in low for mark in _AGAINST)


def _clauses(low: str) -> list[list[str]]:
    out = []
    for part in low.replace(";", ",").replace(":", ",").replace(" — ", ",").replace(" - ", ",").split(","):
        words = [w.strip("\"'`()[]{}") for w in part.split()]
        if words:
            out.append([w for w in words if w])
    return out


def _norm(text: str) -> str:
    return " ".join(text.lower().split())
