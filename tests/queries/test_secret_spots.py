"""Secrets in a file's text by its form, and the text scrubbed at their length."""

from __future__ import annotations

import json

from session_kit.queries.scrub import scrub_bytes
from session_kit.queries.secret_spots import JSON, JSONL, TEXT, fitted, form_of, scrubbed, spots

KEY = "sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyuiop"
TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"


def _jsonl(*values: object) -> str:
    return "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in values)


def test_a_secret_after_an_escaped_newline_is_found_as_the_kit_shows_the_text():
    text = _jsonl({"stdout": f"[default]\n{KEY}\n"}, {"text": "nothing"}, {"text": f"\t{TOKEN}"})
    assert [(s.line, s.kind) for s in spots(text, JSONL)] == [(0, "anthropic-api-key"), (2, "github-token")]


def test_scrubbed_json_lines_keep_their_length_their_shape_and_every_other_byte():
    text = _jsonl(
        {"type": "user", "message": {"content": f"use {KEY} now"}, "toolUseResult": {"stdout": KEY}},
        {"type": "assistant", "n": 3, "text": "plain"},
        {"text": f'quoted "{TOKEN}" and é'},
    )
    out, done, left = scrubbed(text, JSONL)
    assert (done, left) == (3, 0)
    assert len(out.encode()) == len(text.encode()) and KEY not in out and TOKEN not in out
    for old, new in zip(text.splitlines(), out.splitlines()):
        a, b = json.loads(old), json.loads(new)
        assert a.keys() == b.keys()
    assert out.splitlines()[1] == text.splitlines()[1]
    assert json.loads(out.splitlines()[0])["message"]["content"] == f"use {fitted('anthropic-api-key', len(KEY))} now"


def test_a_line_that_is_not_json_is_scrubbed_where_the_secret_is():
    text = '{"half": "written ' + KEY + "\n"
    out, done, _ = scrubbed(text, JSONL)
    assert done == 1 and out == '{"half": "written ' + fitted("anthropic-api-key", len(KEY)) + "\n"


def test_plain_text_and_json_documents():
    snapshot = f"# snapshot\nexport PATH=/bin\nexport GH={TOKEN}\n"
    assert [(s.line, s.kind) for s in spots(snapshot, TEXT)] == [(2, "github-token")]
    out, done, _ = scrubbed(snapshot, TEXT)
    assert done == 1 and out == f"# snapshot\nexport PATH=/bin\nexport GH={fitted('github-token', len(TOKEN))}\n"
    meta = json.dumps({"agentType": "general-purpose", "description": f"Push with {TOKEN}"})
    assert [s.kind for s in spots(meta, JSON)] == ["github-token"]
    assert (
        TOKEN not in scrubbed(meta, JSON)[0] and json.loads(scrubbed(meta, JSON)[0]).keys() == json.loads(meta).keys()
    )
    assert [s.kind for s in spots("{damaged " + TOKEN, JSON)] == ["github-token"]
    assert (form_of("a.jsonl"), form_of("agent-1.meta.json"), form_of("toolu_1.txt")) == (JSONL, JSON, TEXT)


def test_a_secret_written_with_other_escapes_is_left_and_counted():
    line = '{"text": "' + "".join(f"\\u{ord(c):04x}" if c == "s" else c for c in KEY) + '"}\n'
    assert [s.kind for s in spots(line, JSONL)] == ["anthropic-api-key"]
    out, done, left = scrubbed(line, JSONL)
    assert (out, done, left) == (line, 0, 1)


def test_only_the_lines_asked_for_are_scrubbed():
    text = _jsonl({"display": KEY}, {"display": KEY})
    out, done, _ = scrubbed(text, JSONL, only={2})
    assert done == 1 and out.splitlines()[0] == text.splitlines()[0] and KEY not in out.splitlines()[1]


def test_invalid_utf8_around_a_secret_is_kept_byte_for_byte():
    data = b"\xff\xfe junk " + KEY.encode() + b" \xc3(\n"
    out, done, _ = scrub_bytes(data, TEXT)
    assert done == 1 and len(out) == len(data)
    assert out.startswith(b"\xff\xfe junk [REDACTED:anthropic-api-key]") and out.endswith(b" \xc3(\n")


def test_a_marker_fits_any_length():
    assert fitted("github-token", 40) == "[REDACTED:github-token]" + "*" * 17
    assert fitted("anthropic-api-key", 12) == "[REDACTED]**"
    assert fitted("password", 6) == "******"
