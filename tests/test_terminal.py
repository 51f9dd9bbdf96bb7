"""The one rule for characters a transcript must not send to a reader raw (`terminal.safe`)."""

from __future__ import annotations

import io
import json

from hypothesis import given
from hypothesis import strategies as st

from session_kit.terminal import UNSAFE, SafeStream, safe


def test_escape_sequences_are_written_out():
    assert safe("\x1b]0;title\x07\x1b[2J\x9b1m") == "\\u001b]0;title\\u0007\\u001b[2J\\u009b1m"


def test_tab_and_newline_are_kept():
    assert safe("a\tb\nc") == "a\tb\nc"


def test_bidi_and_invisible_characters_are_marked():
    assert safe("\u202egnp.exe") == "\\u202egnp.exe"
    assert safe("a\u200bb\ufeff") == "a\\u200bb\\ufeff"
    assert safe("\U000e0041") == "\\udb40\\udc41"  # a tag character, as JSON would escape it


def test_a_joiner_between_two_emoji_is_kept_and_elsewhere_marked():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert safe(family) == family
    assert safe("a\u200db") == "a\\u200db"


def test_ordinary_text_is_the_same_object():
    text = "naïve café — 東京\nline two\twith a tab, and\u00a0a no-break space"
    assert safe(text) is text


@given(st.text())
def test_json_decodes_what_safe_made_of_a_document_back_to_the_same_values(text: str):
    document = json.dumps({"t": text}, ensure_ascii=False)
    assert json.loads(safe(document)) == {"t": text}


@given(st.text())
def test_nothing_unsafe_is_left(text: str):
    out = safe(text)
    family_joiners = out.count("\u200d")
    assert not [c for c in out if c in UNSAFE and c != "\u200d"]
    assert family_joiners <= text.count("\u200d")


def test_a_safe_stream_keeps_only_its_own_sequences():
    out = io.StringIO()
    stream = SafeStream(out, ("\x1b[31m", "\x1b[0m"))
    stream.write("\x1b[31mfailed\x1b[0m \x1b[32mgreen\x1b]0;t\x07")
    assert out.getvalue() == "\x1b[31mfailed\x1b[0m \\u001b[32mgreen\\u001b]0;t\\u0007"


def test_a_safe_stream_keeps_a_leading_carriage_return_only_when_asked():
    out = io.StringIO()
    SafeStream(out, ("\x1b[K",), keep_leading_cr=True).write("\r\x1b[Ksearched 1/2 \r files")
    assert out.getvalue() == "\r\x1b[Ksearched 1/2 \\u000d files"


def test_invisible_characters_that_python_counts_printable_are_escaped_too():
    # The grapheme joiner, Khmer and Mongolian invisible marks and the Hangul fillers are
    # "printable" to str.isprintable, yet show nothing on a terminal.
    for char in "\u034f\u115f\u1160\u17b4\u17b5\u180b\u3164\uffa0":
        assert safe(f"a{char}b") == f"a\\u{ord(char):04x}b"
