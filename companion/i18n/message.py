"""ICU-style messages: ``{name}``, ``{count, plural, one {# carte} other {# cartes}}`` and
``{kind, select, a {...} other {...}}``, with plural categories from Babel's CLDR rules.

The page formats the same messages with the browser's ``Intl.PluralRules``
(``companion/web/static/js/message.js``, the same grammar). What is supported:

- ``{name}``: the argument as text; ``{name!r}`` quotes it (an error message shows a bad value);
- ``{name, plural, =0 {...} one {...} other {...}}``: an exact ``=N`` case first, then the
  language's category for the number (French: one for 0 and 1, many for millions; English: one
  for 1); ``#`` in a case is the number; ``other`` is required;
- ``{name, select, key {...} other {...}}``: the case named by the argument, else ``other``;
  a select on ``X_elision`` when no such argument is given reads ``X``: ``vowel`` when ``X``
  starts with a vowel sound's letter (a, e, i, o, u, accented or not) or an h (French names
  take the mute h's elision: d'Hélène, d'Hugo), else ``other``. French uses it for elision:
  ``Au tour {player_elision, select, vowel {d''{player}} other {de {player}}}``;
- ``{name, list}``: a list of texts joined as the language joins them, by CLDR's list patterns
  (Babel): "a, b et c", "a, b and c" (British English, as the catalog's: no comma before and);
- apostrophes as ICU's: ``''`` is one apostrophe; an apostrophe before ``{``, ``}`` (or ``#``
  in a plural case) quotes up to the next single apostrophe; any other apostrophe is itself.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass


class MessageError(ValueError):
    """A message that does not parse, or an argument it needs is missing or not a number."""


@dataclass(frozen=True)
class Arg:
    name: str
    quoted: bool = False


@dataclass(frozen=True)
class Choice:
    """A plural or select argument: its cases, each a message."""

    name: str
    kind: str  # "plural" or "select"
    cases: tuple[tuple[str, Message], ...]
    offset: int = 0

    def case(self, key: str) -> Message | None:
        return next((m for k, m in self.cases if k == key), None)


@dataclass(frozen=True)
class ListArg:
    """``{name, list}``: texts joined with the language's "and"."""

    name: str


class Hash:
    """``#`` inside a plural case: the number."""


Part = str | Arg | ListArg | Choice | Hash
Message = tuple[Part, ...]
ELISION = "_elision"
# An h elides too: the names a table sees start with a mute h (Hélène, Hugo), not an aspirated one.
ELIDING = frozenset("aeiouæœh")
# The catalog's English is British, so its lists are too ("a, b and c").
LIST_LOCALES = {"en": "en_GB"}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, why: str) -> MessageError:
        return MessageError(f"{why} at {self.at} in {self.text!r}")

    def message(self, in_plural: bool, nested: bool) -> Message:
        parts: list[Part] = []
        buf: list[str] = []
        text = self.text
        while self.at < len(text):
            c = text[self.at]
            if c == "'":
                nxt = text[self.at + 1 : self.at + 2]
                if nxt == "'":
                    buf.append("'")
                    self.at += 2
                elif nxt in ("{", "}") or (in_plural and nxt == "#"):
                    end = self.at + 1
                    while True:
                        end = text.find("'", end)
                        if end < 0:
                            raise self.fail("unclosed quote")
                        if text[end + 1 : end + 2] == "'":
                            end += 2
                            continue
                        break
                    buf.append(text[self.at + 1 : end].replace("''", "'"))
                    self.at = end + 1
                else:
                    buf.append("'")
                    self.at += 1
            elif c == "{":
                if buf:
                    parts.append("".join(buf))
                    buf = []
                self.at += 1
                parts.append(self.argument())
            elif c == "}":
                if not nested:
                    raise self.fail("unmatched }")
                break
            elif c == "#" and in_plural:
                if buf:
                    parts.append("".join(buf))
                    buf = []
                parts.append(Hash())
                self.at += 1
            else:
                buf.append(c)
                self.at += 1
        if buf:
            parts.append("".join(buf))
        return tuple(parts)

    def skip_space(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def word(self) -> str:
        self.skip_space()
        start = self.at
        while self.at < len(self.text) and (
            self.text[self.at].isalnum() or self.text[self.at] in "_=-:"
        ):
            self.at += 1
        if start == self.at:
            raise self.fail("a name is missing")
        return self.text[start : self.at]

    def expect(self, char: str) -> None:
        self.skip_space()
        if self.text[self.at : self.at + 1] != char:
            raise self.fail(f"{char!r} expected")
        self.at += 1

    def argument(self) -> Part:
        name = self.word()
        quoted = self.text.startswith("!r", self.at)
        if quoted:
            self.at += 2
        self.skip_space()
        if self.text[self.at : self.at + 1] == "}":
            self.at += 1
            return Arg(name, quoted)
        self.expect(",")
        kind = self.word()
        if kind == "list":
            self.expect("}")
            return ListArg(name)
        if kind not in ("plural", "select"):
            raise self.fail(f"unknown argument type {kind!r}")
        self.expect(",")
        offset = 0
        cases: list[tuple[str, Message]] = []
        while True:
            self.skip_space()
            if self.text[self.at : self.at + 1] == "}":
                self.at += 1
                break
            key = self.word()
            if kind == "plural" and key.startswith("offset:"):
                offset = int(key.removeprefix("offset:"))
                continue
            self.expect("{")
            cases.append((key, self.message(kind == "plural", nested=True)))
            self.expect("}")
        if not any(k == "other" for k, _ in cases):
            raise self.fail(f"{name}: an 'other' case is needed")
        return Choice(name, kind, tuple(cases), offset)


@functools.cache
def parse(text: str) -> Message:
    """The parts of ``text`` (kept per text: the catalog's messages are few and reused)."""
    return _Parser(text).message(in_plural=False, nested=False)


@functools.cache
def plural_category(lang: str, number: int) -> str:
    """The CLDR plural category of ``number`` in ``lang`` (Babel's rules). Babel is loaded on
    the first plural: the Pi's install plan runs on the system's bare Python and formats none."""
    from babel import Locale

    return str(Locale.parse(lang).plural_form(abs(number)))


def elision(word: object) -> str:
    """``vowel`` when ``word`` starts with a vowel's letter or an h (accents aside), else
    ``other``."""
    text = unicodedata.normalize("NFD", str(word).strip()).casefold()
    return "vowel" if text[:1] in ELIDING else "other"


def joined(items: object, lang: str) -> str:
    """``items`` (a list of texts) joined with ``lang``'s "and" (CLDR's list patterns)."""
    from babel.lists import format_list

    if isinstance(items, str) or not isinstance(items, list | tuple):
        raise MessageError(f"a list is needed, not {items!r}")
    return format_list([str(item) for item in items], locale=LIST_LOCALES.get(lang, lang))


def format_message(text: str, lang: str, params: Mapping[str, object] | None = None) -> str:
    """``text`` with ``params`` put in, in ``lang``'s plural rules."""
    return _format(parse(text), lang, params or {}, None)


def _format(parts: Message, lang: str, params: Mapping[str, object], number: int | None) -> str:
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Hash):
            out.append(str(number))
        elif isinstance(part, Arg):
            if part.name not in params:
                raise MessageError(f"argument {part.name!r} missing")
            value = params[part.name]
            out.append(repr(value) if part.quoted else str(value))
        elif isinstance(part, ListArg):
            if part.name not in params:
                raise MessageError(f"argument {part.name!r} missing")
            out.append(joined(params[part.name], lang))
        else:
            out.append(_choose(part, lang, params))
    return "".join(out)


def _choose(choice: Choice, lang: str, params: Mapping[str, object]) -> str:
    name = choice.name
    if choice.kind == "select":
        if name in params:
            key = str(params[name])
        elif name.endswith(ELISION) and name.removesuffix(ELISION) in params:
            key = elision(params[name.removesuffix(ELISION)])
        else:
            raise MessageError(f"argument {name!r} missing")
        case = choice.case(key) or choice.case("other")
        assert case is not None  # the parser requires "other"
        return _format(case, lang, params, None)
    value = params.get(name)
    if isinstance(value, str) and value.lstrip("-").isdigit():
        value = int(value)  # a count that came as text (a form field, a stored setting)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MessageError(f"argument {name!r} must be a whole number, not {value!r}")
    number = value - choice.offset
    case = choice.case(f"={value}") or choice.case(plural_category(lang, number))
    case = case or choice.case("other")
    assert case is not None
    return _format(case, lang, params, number)


def arguments(parts: Message) -> dict[str, str]:
    """Every argument a message reads, with its kind (``text``, ``list``, ``plural``,
    ``select``)."""
    found: dict[str, str] = {}
    for part in parts:
        if isinstance(part, Arg):
            found.setdefault(part.name, "text")
        elif isinstance(part, ListArg):
            found[part.name] = "list"
        elif isinstance(part, Choice):
            found[part.name] = part.kind
            for _, case in part.cases:
                for name, kind in arguments(case).items():
                    found.setdefault(name, kind)
    return found
