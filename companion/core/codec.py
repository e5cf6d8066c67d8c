"""Dataclasses to JSON data and back, read from their type hints.

The table's memory is the engine's own state dataclasses written as they are, so a field added to
:class:`~companion.core.table.TableState` (or to the dataclasses it holds) is saved and restored
with no change here. Reading is forgiving the way a stored file must be: a field missing from the
data takes its default (data written before the field existed), a field the class no longer has
is ignored; a value of the wrong type raises :class:`CodecError`.

Handled: dataclasses, ``list``/``tuple``/``set``/``frozenset``/``dict`` (string, integer or enum
keys), ``X | None`` and other unions, enums, ``Literal``, ``Any`` and the JSON scalars.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any


class CodecError(ValueError):
    """Data that does not fit the type it is read as."""


def to_data(value: Any) -> Any:
    """``value`` as JSON-ready data (dataclasses become objects keyed by field name)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return to_data(value.value)
    if isinstance(value, list | tuple):
        return [to_data(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted((to_data(item) for item in value), key=repr)
    if isinstance(value, dict):
        pairs = [(to_data(k), to_data(v)) for k, v in value.items()]
        if all(isinstance(k, str) for k, _ in pairs):
            return dict(pairs)
        return [list(pair) for pair in pairs]  # integer keys: JSON objects only have strings
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise CodecError(f"cannot store a {type(value).__name__}")


def from_data(kind: Any, data: Any, where: str = "") -> Any:
    """Read ``data`` (from :func:`to_data`) as type ``kind``."""
    if kind is Any or kind is object:
        return data
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass(kind, data, where)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(data)
        except ValueError as exc:
            raise CodecError(f"{where}: {data!r} is not a {kind.__name__}") from exc
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return _union(args, data, where)
    if origin is typing.Literal:
        if data not in args:
            raise CodecError(f"{where}: {data!r} is not one of {args}")
        return data
    if origin in (list, tuple, set, frozenset, dict):
        return _container(origin, args, data, where)
    if kind in (bool, int, float, str, type(None)):
        return _scalar(kind, data, where)
    raise CodecError(f"{where}: cannot read a {kind!r}")


def _scalar(kind: type, data: Any, where: str) -> Any:
    if kind is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if kind is int and isinstance(data, bool):
        raise CodecError(f"{where}: expected int, got {data!r}")
    if not isinstance(data, kind):
        raise CodecError(f"{where}: expected {kind.__name__}, got {data!r}")
    return data


def _union(args: tuple[Any, ...], data: Any, where: str) -> Any:
    if data is None and type(None) in args:
        return None
    problems = []
    for option in args:
        if option is type(None):
            continue
        try:
            return from_data(option, data, where)
        except CodecError as exc:
            problems.append(str(exc))
    raise CodecError("; ".join(problems) or f"{where}: {data!r}")


def _container(origin: Any, args: tuple[Any, ...], data: Any, where: str) -> Any:
    if origin is dict:
        key_kind, value_kind = args or (Any, Any)
        if isinstance(data, dict):
            pairs = list(data.items())
        elif isinstance(data, list):
            pairs = [_pair(item, f"{where}[{i}]") for i, item in enumerate(data)]
        else:
            raise CodecError(f"{where}: expected an object, got {type(data).__name__}")
        return {
            from_data(key_kind, k, where): from_data(value_kind, v, f"{where}.{k}")
            for k, v in pairs
        }
    if not isinstance(data, list):
        raise CodecError(f"{where}: expected a list, got {type(data).__name__}")
    if origin is tuple and args and args[-1] is not Ellipsis:
        if len(args) != len(data):
            raise CodecError(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(
            from_data(a, d, f"{where}[{i}]")
            for i, (a, d) in enumerate(zip(args, data, strict=True))
        )
    item_kind = args[0] if args else Any  # list[X], set[X], tuple[X, ...]
    items = [from_data(item_kind, d, f"{where}[{i}]") for i, d in enumerate(data)]
    return origin(items)


def _pair(item: Any, where: str) -> tuple[Any, Any]:
    if not isinstance(item, list) or len(item) != 2:
        raise CodecError(f"{where}: expected a [key, value] pair")
    return item[0], item[1]


def _dataclass(kind: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise CodecError(f"{where}: expected an object for {kind.__name__}")
    hints = _hints(kind)
    values = {}
    for field in dataclasses.fields(kind):
        if field.name in data and field.init:
            values[field.name] = from_data(
                hints[field.name], data[field.name], f"{where}.{field.name}".lstrip(".")
            )
    try:
        return kind(**values)
    except TypeError as exc:  # a required field missing
        raise CodecError(f"{where or kind.__name__}: {exc}") from exc


@cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)
