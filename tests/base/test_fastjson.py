"""The hooks' small JSON: the same text and values as the json module, without importing it."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from session_kit.base import fastjson

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=25,
)


@given(values)
def test_dumps_matches_json(value):
    assert fastjson.dumps(value) == json.dumps(value, ensure_ascii=False)
    assert fastjson.dumps(value, indent=1, sort_keys=True) == json.dumps(
        value, ensure_ascii=False, indent=1, sort_keys=True
    )


@given(values)
def test_loads_matches_json(value):
    text = json.dumps(value)
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads(("  " + text + "\n").encode()) == json.loads(text)


@pytest.mark.parametrize("bad", ["", "{", '{"a":1} x', "[1,]", "nul", b"\xff"])
def test_loads_rejects_what_json_rejects(bad):
    with pytest.raises(ValueError):
        json.loads(bad)
    with pytest.raises(ValueError):
        fastjson.loads(bad)


def test_nan_and_infinity_are_read_as_json_reads_them():
    assert math.isnan(fastjson.loads("NaN"))
    assert fastjson.loads('{"a": [1.5e3, -Infinity]}') == {"a": [1500.0, float("-inf")]}


def test_a_non_string_key_is_refused():
    with pytest.raises(TypeError):
        fastjson.dumps({1: "x"})


def test_an_object_json_cannot_write_is_refused():
    with pytest.raises(TypeError):
        fastjson.dumps(object())


def test_an_unterminated_string_is_a_value_error_even_where_json_was_never_imported():
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from session_kit.base import fastjson\n"
        "try:\n    fastjson.loads(b'{\"a\": \"cut')\nexcept ValueError:\n    print('ValueError')\n"
    )
    src = str(Path(fastjson.__file__).parents[2])
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code, src], capture_output=True, text=True, timeout=30)
    assert done.stdout == "ValueError\n", done.stderr
