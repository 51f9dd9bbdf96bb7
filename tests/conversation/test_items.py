"""Format-neutral units: the text guarantee and replacing texts in document order."""

from __future__ import annotations

from session_kit.conversation.items import REPLACEMENT, Element, Omitted, clean, replace_texts, texts


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


# --- the kinds and their roles ---------------------------------------------------------------

from session_kit.conversation import items  # noqa: E402


def _kinds(element: Element) -> set[str]:
    found = {element.name}
    for child in element.children or ():
        if isinstance(child, Element):
            found |= _kinds(child)
    return found


def test_every_item_kind_the_converter_makes_has_a_role(tmp_path):
    from session_kit.conversation import steps
    from session_kit.conversation.convert import ConvertOptions, LogConverter
    from session_kit.transcript.reader import ReadStats
    from tests.support import dialects

    paths = [dialects.every_type_2_1_330(tmp_path).path, dialects.inline_1_0(tmp_path).path]
    paths.append(dialects.subagents_2_1(tmp_path).path)
    made: set[str] = set()
    for path in paths:
        options = ConvertOptions(session_id=None, filtering=False, thinking=True)
        converter = LogConverter(path, options, reduction=steps.Reduction(), read=ReadStats(), redactor=None)
        for unit in converter.units():
            for element in unit:
                made |= _kinds(element)
    assert made - set(items.ROLES) == set()
    assert {items.USER, items.ASSISTANT, items.TOOL_USE, items.TOOL_RESULT, items.COMPACT_BOUNDARY} <= made


def test_a_kind_nobody_made_is_a_note_and_a_summary_line_a_title():
    assert items.role("hologram") == items.ROLE_NOTE
    assert items.role(items.SUMMARY) == items.ROLE_TITLE


def test_the_conversation_model_imports_neither_of_its_consumers():
    import ast
    from pathlib import Path

    folder = Path(items.__file__).parent
    imported = {
        node.module or ""
        for path in folder.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom)
    }
    assert not {m for m in imported if m.startswith(("session_kit.preprocess", "session_kit.view", "session_kit.cli"))}
