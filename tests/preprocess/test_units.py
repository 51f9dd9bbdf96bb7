"""Format-neutral units: the text guarantee and replacing texts in document order."""

from __future__ import annotations

from session_kit.preprocess.units import REPLACEMENT, Element, Omitted, clean, replace_texts, texts


def _unit():
    return [
        Element(
            "assistant",
            {"line": 1},
            [
                Element("text", None, ["one"]),
                Element("image"),
                Element("tool_use", {}, [Element("param", {"name": "p"}, ["two"])]),
            ],
        ),
        Element("tool_result", {"line": 2}, ["three", Omitted(4), "four"]),
    ]


def test_texts_come_depth_first_in_document_order():
    assert list(texts(_unit())) == ["one", "two", "three", "four"]


def test_replacing_texts_keeps_the_shape():
    unit = _unit()
    replace_texts(unit, iter(["1", "2", "3", "4"]))
    assert list(texts(unit)) == ["1", "2", "3", "4"]
    assert unit[1].children[1] == Omitted(4) and unit[0].children[1] == Element("image")


def test_clean_replaces_what_no_output_may_carry_and_keeps_the_rest():
    assert clean("tab\tnl\ncr\r ok é 😀") == "tab\tnl\ncr\r ok é 😀"
    assert (
        clean("a\x00b\x07c\x1bd\ud83de\ufffe")
        == "a" + REPLACEMENT + "b" + REPLACEMENT + "c" + REPLACEMENT + "d" + REPLACEMENT + "e" + REPLACEMENT
    )
    assert clean("a\x00b", keep_nul=True) == "a\x00b"
