"""A private key read with the Read tool: the client numbers each line (`     1→…`), so the key
is matched with the numbers taken out; what is shown keeps every line's number, and `secrets`
finds it and `--scrub` leaves none of its body."""

from __future__ import annotations

import base64
import json
import random

from session_kit.queries.secret_spots import JSONL, scrubbed, spots
from session_kit.redaction.engine import find_secrets, redact


def numbered_key() -> tuple[str, list[str]]:
    rng = random.Random(38)
    der = b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01" + bytes(rng.randrange(256) for _ in range(600))
    body = base64.b64encode(der).decode()
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    lines = ["-----BEGIN RSA PRIVATE KEY-----", *rows, "-----END RSA PRIVATE KEY-----", "after the key"]
    return "\n".join(f"{n:>6}→{line}" for n, line in enumerate(lines, 1)), rows


def test_a_key_read_with_numbered_lines_is_redacted_and_keeps_the_numbers() -> None:
    text, rows = numbered_key()
    out = redact(text)
    assert [row for row in rows if row in out] == []
    assert "[REDACTED:private-key]" in out
    assert [line.split("→")[0] for line in out.split("\n")] == [line.split("→")[0] for line in text.split("\n")]
    assert out.endswith("→after the key")


def test_secrets_finds_a_numbered_key_and_the_scrub_leaves_none_of_it() -> None:
    text, rows = numbered_key()
    assert [f.kind for f in find_secrets(text)] == ["private-key"]
    entry = {"type": "user", "message": {"content": [{"type": "tool_result", "content": text}]}}
    line = json.dumps(entry, ensure_ascii=False)  # as the client writes it
    assert [s.kind for s in spots(line, JSONL)] == ["private-key"]
    clean, _, _ = scrubbed(line, JSONL)
    assert [row for row in rows if row in clean] == []
    assert spots(clean, JSONL) == []


def test_a_key_block_with_no_end_line_hides_nothing_after_its_body() -> None:
    _, rows = numbered_key()
    text = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(rows[:3]) + "\nthen the prose that follows it\nls -la\n"
    out = redact(text)
    assert [row for row in rows[:3] if row in out] == []
    assert out.endswith("\nthen the prose that follows it\nls -la\n")
