"""The client's project-folder name for a path: every rule, and properties over any text."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from session_kit.base.encoding import encode_project_dir


def test_every_non_alphanumeric_character_becomes_a_dash():
    assert encode_project_dir("/tmp/enc/My Project_v2.0") == "-tmp-enc-My-Project-v2-0"


def test_non_ascii_counts_in_utf16_units():
    assert encode_project_dir("/a/ü") == "-a--"  # one unit
    assert encode_project_dir("/a/😀") == "-a---"  # a surrogate pair: two units


def test_long_names_get_a_prefix_and_a_java_hash_suffix():
    path = "/tmp/enc/" + "a" * 120 + "/" + "b" * 120
    encoded = encode_project_dir(path)
    assert encoded == "-tmp-enc-" + "a" * 120 + "-" + "b" * 70 + "-er1hu5"
    assert len(encoded[: encoded.rindex("-")]) == 200


def test_a_name_of_exactly_200_is_not_cut():
    path = "/" + "x" * 199
    assert encode_project_dir(path) == "-" + "x" * 199


@settings(max_examples=300)
@given(st.text(min_size=1, max_size=400))
def test_encoding_is_plain_ascii_and_keeps_alphanumerics(path: str):
    encoded = encode_project_dir(path)
    assert re.fullmatch(r"[A-Za-z0-9-]+", encoded)
    units = len(path.encode("utf-16-le", "surrogatepass")) // 2
    if units <= 200:
        assert len(encoded) == units
        ascii_alnum = [c for c in path if c.isascii() and c.isalnum()]
        assert [c for c in encoded if c != "-"] == ascii_alnum
    else:
        prefix, suffix = encoded[:200], encoded[201:]
        assert encoded[200] == "-"
        assert re.fullmatch(r"[0-9a-z]+", suffix)
        assert prefix == encode_project_dir(path)[:200]


@given(st.text(min_size=201, max_size=300))
def test_long_names_differ_when_paths_differ_only_past_the_cut(tail: str):
    a = encode_project_dir("/p/" + "q" * 250 + tail)
    b = encode_project_dir("/p/" + "q" * 250 + tail + "z")
    assert a[:200] == b[:200]
    assert a != b  # the hash suffix tells them apart (31*h + unit changes with the last unit)
