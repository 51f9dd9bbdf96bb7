"""JSON for the hooks without importing `json`, which pulls in `re` (most of a hook's cost).

Owns: `loads` and `dumps` built straight on CPython's C accelerator `_json` (the same
scanner and string encoder `json` itself uses), for the small documents hooks read and write.
Where `_json` is missing (other Pythons), it falls back to `json`. Property-tested against
`json` in tests/state/test_fastjson.py.
"""

from __future__ import annotations

try:
    import _json
except ImportError:  # pragma: no cover - not CPython
    _json = None

if _json is not None:

    def _constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]

    class _Context:
        """The attributes `_json.make_scanner` reads from a `json.JSONDecoder`."""

        strict = True
        object_hook = None
        object_pairs_hook = None
        parse_float = float
        parse_int = int
        parse_constant = staticmethod(_constant)
        memo: dict[str, str] = {}

    _scan = _json.make_scanner(_Context())
    _quote = _json.encode_basestring  # keeps non-ASCII as it is, like ensure_ascii=False

    def loads(data: bytes | str) -> object:
        """Parse one JSON document; ValueError when it is not one."""
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
        start = len(text) - len(text.lstrip(" \t\n\r\ufeff"))
        try:
            value, end = _scan(text, start)
        except StopIteration as exc:
            raise ValueError(f"not JSON at offset {exc.value}") from None
        except SystemError:
            # Some errors (an unterminated string) make `_json` look up `json.decoder`'s error
            # class; where `json` was never imported it fails that way instead (seen in hooks).
            raise ValueError("not JSON (cut short?)") from None
        if text[end:].strip(" \t\n\r"):
            raise ValueError(f"extra data after JSON at offset {end}")
        return value

    def dumps(value: object, *, indent: int | None = None, sort_keys: bool = False) -> str:
        """Serialise dicts, lists, strings, numbers, booleans and None."""
        parts: list[str] = []
        _write(value, parts, indent, sort_keys, 0)
        return "".join(parts)

    def _write(value: object, out: list[str], indent: int | None, sort_keys: bool, depth: int) -> None:
        if isinstance(value, str):
            out.append(_quote(value))
        elif value is None:
            out.append("null")
        elif value is True:
            out.append("true")
        elif value is False:
            out.append("false")
        elif isinstance(value, int):
            out.append(int.__repr__(value))
        elif isinstance(value, float):
            if type(value) is not float:  # a number that keeps its source text (settings: `1e400`)
                out.append(repr(value))
            elif value != value or value in (float("inf"), float("-inf")):
                out.append("NaN" if value != value else ("Infinity" if value > 0 else "-Infinity"))
            else:
                out.append(float.__repr__(value))
        elif isinstance(value, dict):
            items = sorted(value.items()) if sort_keys else list(value.items())
            if not items:
                out.append("{}")
                return
            inner, sep, close = _layout(indent, depth)
            out.append("{" + inner)
            for i, (key, item) in enumerate(items):
                if i:
                    out.append(sep)
                if not isinstance(key, str):
                    raise TypeError(f"keys must be str, not {type(key).__name__}")
                out.append(_quote(key) + ": ")
                _write(item, out, indent, sort_keys, depth + 1)
            out.append(close + "}")
        elif isinstance(value, (list, tuple)):
            if not value:
                out.append("[]")
                return
            inner, sep, close = _layout(indent, depth)
            out.append("[" + inner)
            for i, item in enumerate(value):
                if i:
                    out.append(sep)
                _write(item, out, indent, sort_keys, depth + 1)
            out.append(close + "]")
        else:
            raise TypeError(f"cannot serialise {type(value).__name__} as JSON")

    def _layout(indent: int | None, depth: int) -> tuple[str, str, str]:
        if indent is None:
            return "", ", ", ""
        pad = "\n" + " " * (indent * (depth + 1))
        return pad, "," + pad, "\n" + " " * (indent * depth)

else:  # pragma: no cover
    import json

    def loads(data: bytes | str) -> object:
        return json.loads(data)

    def dumps(value: object, *, indent: int | None = None, sort_keys: bool = False) -> str:
        return json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=sort_keys)
