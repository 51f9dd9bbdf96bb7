"""XML text and attributes from any string: always well-formed, always read back."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from session_kit.preprocess.render.xmlwriter import REPLACEMENT, attrs, clean, element, escape_text, text_element

# Everything Python strings can hold, lone surrogates and control characters included.
any_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=60)


def _allowed(c: str) -> bool:
    o = ord(c)
    return c in "\t\n\r" or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or o >= 0x10000


def _expected(text: str) -> str:
    # A parser reads a bare carriage return in content as a newline (end-of-line handling).
    cleaned = "".join(c if _allowed(c) else REPLACEMENT for c in text)
    return cleaned.replace("\r\n", "\n").replace("\r", "\n")


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_any_text_is_well_formed_content_and_reads_back(text: str):
    doc = f"<a>{escape_text(text)}</a>".encode()
    assert (ET.fromstring(doc).text or "") == _expected(text)


@settings(max_examples=300, deadline=None)
@given(any_text, any_text)
def test_any_attribute_value_reads_back_exactly(value: str, other: str):
    doc = element("a", {"x": value, "y": other, "n": None, "i": 3}).encode("utf-8")
    parsed = ET.fromstring(doc)
    cleaned = "".join(c if _allowed(c) else REPLACEMENT for c in value)
    assert parsed.get("x") == cleaned
    assert parsed.get("i") == "3" and "n" not in parsed.attrib


def test_forbidden_characters_become_the_replacement_character():
    assert clean("a\x00b\x1bc\ud800d\uffff") == f"a{REPLACEMENT}b{REPLACEMENT}c{REPLACEMENT}d{REPLACEMENT}"
    assert clean("tab\tnew\nline\r") == "tab\tnew\nline\r"
    assert clean("a\x00b", keep_nul=True) == "a\x00b"


def test_markup_in_text_is_escaped_not_interpreted():
    doc = text_element("t", {"k": 'say "hi"'}, "</t><evil/> & ]]>")
    parsed = ET.fromstring(doc)
    assert parsed.text == "</t><evil/> & ]]>" and len(parsed) == 0
    assert parsed.get("k") == 'say "hi"'


def test_empty_elements_are_self_closing():
    assert element("omitted", {"lines": 4}) == '<omitted lines="4"/>'
    assert attrs({"a": True, "b": False}) == ' a="true" b="false"'


# --- the renderer ----------------------------------------------------------------------------

from session_kit.conversation.items import Element, Omitted  # noqa: E402
from session_kit.preprocess.render.base import renderer_for  # noqa: E402

XML = renderer_for("xml")


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(any_text, min_size=1, max_size=4), value=any_text)
def test_any_unit_renders_as_well_formed_xml_that_reads_back(texts: list[str], value: str):
    cleaned = [clean(t) for t in texts]  # what units hold (`convert` cleans every text)
    unit = [Element("tool_result", {"tool": value, "lines": 9}, [cleaned[0], Omitted(3), *cleaned[1:]])]
    text = XML.open("session", {"id": value}) + XML.unit(unit) + XML.close("session")
    root = ET.fromstring(text.encode("utf-8"))
    (result,) = root
    assert root.get("id") == clean(value) and result.get("tool") == clean(value) and result.get("lines") == "9"
    assert result.find("omitted").get("lines") == "3"
    assert (result.text or "") == _expected(cleaned[0] + "\n")  # a last CR and the layout newline read as one


def test_layout_one_unit_a_line_children_on_their_own_lines_parameters_on_one():
    unit = [
        Element(
            "assistant",
            {"line": 3},
            [
                Element("text", None, ["a < b"]),
                Element(
                    "tool_use",
                    {"id": "t1", "name": "Bash"},
                    [
                        Element("param", {"name": "command"}, ["ls"]),
                        Element("param", {"name": "description"}, [""]),
                    ],
                ),
                Element("image"),
            ],
        ),
        Element("tool_result", {"line": 4, "status": None}, ["head", Omitted(2), ""]),
    ]
    assert XML.unit(unit) == (
        '<assistant line="3"><text>a &lt; b</text>\n'
        '<tool_use id="t1" name="Bash"><param name="command">ls</param><param name="description"></param></tool_use>\n'
        "<image/></assistant>"
        '<tool_result line="4">head\n<omitted lines="2"/>\n</tool_result>\n'
    )


def test_documents_have_one_declaration_and_nested_sections_none():
    assert (
        XML.open("session", {"id": "s", "part": 1})
        == '<?xml version="1.0" encoding="UTF-8"?>\n<session id="s" part="1">\n'
    )
    assert XML.open("agent", {"id": "a"}, nested=True) == '<agent id="a">\n'
    assert XML.close("agent") == "</agent>\n" and XML.extension == "xml"
