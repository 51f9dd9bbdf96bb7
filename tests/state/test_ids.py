"""The one rule for ids the kit puts into paths and shell lines: 1 to 128 of [A-Za-z0-9._-],
starting with a letter or a digit, without `..`."""

from __future__ import annotations

import pytest

from session_kit.state import ids


@pytest.mark.parametrize(
    "good", ["a", "0f7e-11", "abc_DEF.1", "a" * 128, "Z9", "a.b-c_d", "266f5872-b716-4df1-b42b-7ca857a257ae"]
)
def test_plain_ids_pass(good: str):
    assert ids.check_session_id(good) == good
    assert ids.is_plain_id(good)


@pytest.mark.parametrize(
    "bad", ["", None, 5, "../x", "a/b", "a\\\\b", "x\x00", ".x", "-x", "a..b", "a b", "a" * 129, "é"]
)
def test_unsafe_ids_are_refused(bad):
    with pytest.raises(ids.InvalidSessionId):
        ids.check_session_id(bad)


@pytest.mark.parametrize("first", ["_", ".", "-"])
def test_an_id_must_start_with_a_letter_or_a_digit(first: str):
    assert not ids.is_plain_id(first + "abc")


def test_an_id_of_128_characters_is_plain():
    assert ids.is_plain_id("a" * ids.MAX_ID_LENGTH) and ids.MAX_ID_LENGTH == 128


def test_an_id_of_129_characters_is_refused_for_its_length():
    assert not ids.is_plain_id("a" * 129)
    with pytest.raises(ids.InvalidSessionId, match="longer than 128"):
        ids.check_session_id("a" * 129)


@pytest.mark.parametrize("value", ["..", "a..", "a..b", "x/../y"])
def test_a_double_dot_is_refused_anywhere(value: str):
    assert not ids.is_plain_id(value)


@pytest.mark.parametrize("value", ["é", "aé", "a\u200bb", "١٢٣", "ａｂｃ"])
def test_non_ascii_is_refused_even_when_it_is_a_letter_or_a_digit(value: str):
    assert not ids.is_plain_id(value)


def test_a_shorter_limit_can_be_asked_for():
    assert ids.is_plain_id("abcd", max_length=4) and not ids.is_plain_id("abcde", max_length=4)


def test_a_missing_id_is_named_so():
    with pytest.raises(ids.InvalidSessionId, match="missing session id"):
        ids.check_session_id("")


def test_the_refusal_is_a_value_error():
    assert issubclass(ids.InvalidSessionId, ValueError)
