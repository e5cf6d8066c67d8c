"""A small JSON-schema check run on every action before it reaches the hub.

The hub validates actions itself; this check is a second fence at the door so that wrong types,
unknown fields and huge strings get a clear 400 even if a schema keyword is missed downstream.
It understands the subset the action schemas use (type, properties, required,
additionalProperties, enum, minimum/maximum, minLength/maxLength, items, min/maxItems, anyOf,
oneOf) and ignores other keywords. Strings are capped at :data:`MAX_STRING` characters and
nesting at :data:`MAX_DEPTH` whatever the schema says.
"""

from __future__ import annotations

from typing import Any

MAX_STRING = 200
MAX_DEPTH = 8
MAX_ITEMS = 200

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
    "number": (int, float),
    "integer": (int,),
}


class SchemaProblem(ValueError):
    """``field`` (a dotted path) is wrong; ``problem`` says how (English, for logs)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field or 'payload'}: {problem}")
        self.field = field or "payload"
        self.problem = problem


def _is_type(value: Any, name: str) -> bool:
    if name in ("number", "integer") and isinstance(value, bool):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES.get(name, (object,)))


def check(value: Any, schema: dict[str, Any], path: str = "", depth: int = 0) -> None:
    """Raise :class:`SchemaProblem` for the first way ``value`` breaks ``schema``."""
    if depth > MAX_DEPTH:
        raise SchemaProblem(path, "nested too deeply")
    for combiner in ("anyOf", "oneOf"):
        options = schema.get(combiner)
        if isinstance(options, list) and options:
            errors = []
            for option in options:
                try:
                    check(value, option, path, depth + 1)
                    break
                except SchemaProblem as exc:
                    errors.append(exc)
            else:
                raise errors[0]
    expected = schema.get("type")
    if expected is not None:
        names = expected if isinstance(expected, list) else [expected]
        if not any(_is_type(value, n) for n in names):
            raise SchemaProblem(path, f"expected {' or '.join(map(str, names))}")
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaProblem(path, f"not one of {', '.join(map(str, schema['enum']))}")
    if "const" in schema and value != schema["const"]:
        raise SchemaProblem(path, f"must be {schema['const']!r}")
    if isinstance(value, str):
        if len(value) > min(schema.get("maxLength", MAX_STRING), MAX_STRING):
            raise SchemaProblem(path, "too long")
        if len(value) < schema.get("minLength", 0):
            raise SchemaProblem(path, "too short")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise SchemaProblem(path, f"below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise SchemaProblem(path, f"above {schema['maximum']}")
    elif isinstance(value, list):
        if len(value) > min(schema.get("maxItems", MAX_ITEMS), MAX_ITEMS):
            raise SchemaProblem(path, "too many items")
        if len(value) < schema.get("minItems", 0):
            raise SchemaProblem(path, "too few items")
        items = schema.get("items")
        for index, item in enumerate(value):
            check(item, items if isinstance(items, dict) else {}, f"{path}[{index}]", depth + 1)
    elif isinstance(value, dict):
        _check_object(value, schema, path, depth)


def _check_object(value: dict[str, Any], schema: dict[str, Any], path: str, depth: int) -> None:
    if len(value) > MAX_ITEMS:
        raise SchemaProblem(path, "too many fields")
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if value.get(name) is None:
            raise SchemaProblem(_join(path, name), "missing")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        where = _join(path, str(name))
        if len(str(name)) > MAX_STRING:
            raise SchemaProblem(path, "field name too long")
        if name in properties:
            if item is not None:  # the hub reads a null field as "not given"
                check(item, properties[name], where, depth + 1)
        elif extra is False:
            raise SchemaProblem(where, "unknown field")
        else:
            check(item, extra if isinstance(extra, dict) else {}, where, depth + 1)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name
