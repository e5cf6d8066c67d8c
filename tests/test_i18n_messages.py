"""Every message the box speaks or shows, in French and English: it parses as an ICU-style
message, its plurals have the forms Babel's CLDR rules ask for in its language, and it formats
with sample arguments leaving no placeholder behind. Elision and plurals read as a person would
write them."""

from __future__ import annotations

import itertools
import re

import pytest
from babel import Locale

from companion.i18n import LANGUAGES, Catalog
from companion.i18n.message import (
    Choice,
    MessageError,
    arguments,
    format_message,
    parse,
    plural_category,
)

CATALOG = Catalog.load()
COUNTS = (0, 1, 2, 5, 21, 1_000_000)
NAMES = ("Ana", "Bruno", "Élodie", "Yann", "Hélène", "Hugo")


def choices(parts: tuple[object, ...]) -> list[Choice]:
    found = []
    for part in parts:
        if isinstance(part, Choice):
            found.append(part)
            for _, case in part.cases:
                found += choices(case)
    return found


def samples(message: str) -> list[dict[str, object]]:
    """Arguments to format ``message`` with: every count of COUNTS, every name of NAMES, every
    case of each select and one it does not name, lists of one to four names."""
    args = arguments(parse(message))
    select_keys = {c.name: [k for k, _ in c.cases] + ["zzz"] for c in choices(parse(message))}
    runs = []
    for count, name in itertools.product(COUNTS, NAMES):
        for i in range(max([1, *(len(v) for v in select_keys.values())])):
            params: dict[str, object] = {}
            for arg, kind in args.items():
                if kind == "plural":
                    params[arg] = count
                elif kind == "list":
                    params[arg] = list(NAMES[: 1 + COUNTS.index(count) % 4])
                elif kind == "select" and not arg.endswith("_elision"):
                    keys = select_keys[arg]
                    params[arg] = keys[i % len(keys)]
                elif kind == "text":
                    params[arg] = name
            runs.append(params)
    return runs


def needed_categories(lang: str) -> set[str]:
    """The plural categories of the counts a table can see (0 to 1000) in ``lang``."""
    return {plural_category(lang, n) for n in range(1001)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_parses_has_its_plural_forms_and_formats(lang: str) -> None:
    messages = CATALOG.messages(lang)
    assert len(messages) > 300
    needed = needed_categories(lang)
    assert needed == {"one", "other"}  # CLDR for fr and en; a change of rules shows here
    faults = []
    for key, message in sorted(messages.items()):
        try:
            parts = parse(message)
        except MessageError as exc:
            faults.append(f"{lang} {key}: {exc}")
            continue
        for choice in choices(parts):
            cases = {k for k, _ in choice.cases}
            if choice.kind == "plural" and not needed <= cases:
                faults.append(f"{lang} {key}: {choice.name} lacks {sorted(needed - cases)}")
        for params in samples(message):
            try:
                text = format_message(message, lang, params)
            except MessageError as exc:
                faults.append(f"{lang} {key} {params}: {exc}")
                break
            if re.search(r"[{}]", text):
                faults.append(f"{lang} {key}: placeholder left in {text!r}")
                break
    assert faults == [], "\n".join(faults)


def test_both_languages_have_every_message() -> None:
    fr, en = (set(CATALOG.messages(lang)) for lang in LANGUAGES)
    assert sorted(fr ^ en) == []


def test_plural_categories_come_from_babel() -> None:
    assert Locale("fr").plural_form(0) == "one" == plural_category("fr", 0)
    assert plural_category("en", 0) == "other"
    assert plural_category("fr", 1_000_000) == "many"


def test_french_elision_and_plurals_and_english_wording() -> None:
    text = CATALOG.text
    assert text("web.turn_of", "fr", {"player": "Ana"}) == "Au tour d'Ana"
    assert text("web.turn_of", "fr", {"player": "Élodie"}) == "Au tour d'Élodie"
    assert text("web.turn_of", "fr", {"player": "Bruno"}) == "Au tour de Bruno"
    assert text("web.turn_of", "fr", {"player": "Hélène"}) == "Au tour d'Hélène"
    assert text("web.turn_of", "fr", {"player": "Hugo"}) == "Au tour d'Hugo"
    assert text("web.turn_of", "fr", {"player": "Yann"}) == "Au tour de Yann"
    assert text("web.turn_of", "en", {"player": "Ana"}) == "Ana's turn"
    assert text("web.cards_count", "fr", {"count": 0}) == "0 carte"
    assert text("web.cards_count", "en", {"count": 0}) == "0 cards"
    assert text("web.cards_count", "en", {"count": 1}) == "1 card"
    wins = {"average": 3, "best": 9}
    assert text("web.stats_line", "en", {"wins": 1, **wins}).startswith("1 round won,")
    assert text("web.stats_line", "en", {"wins": 2, **wins}).startswith("2 rounds won,")
    assert text("web.stats_line", "fr", {"wins": 2, **wins}).startswith("2 manches gagnées,")


def test_a_card_is_named_by_one_message_as_each_language_says_it() -> None:
    def name(lang: str, card: str, colour_key: str) -> str:
        return CATALOG.text("web.card_in_colour", lang, {"card": card, "colour_key": colour_key})

    assert name("fr", "Passer", "red") == "Passer rouge"
    assert name("fr", "7", "red") == "7 rouge"
    assert name("fr", "+2", "green") == "+2 vert"
    assert name("fr", "Passer", "purple") == "Passer violet"
    assert name("en", "Skip", "red") == "red Skip"
    assert name("en", "7", "red") == "red 7"
    assert name("en", "Discard All", "teal") == "teal Discard All"


def test_the_launcher_faces_a_name_in_one_message() -> None:
    assert CATALOG.text("web.facing_name", "fr", {"name": "Hélène"}) == "Le lanceur vise Hélène"
    assert CATALOG.text("web.facing_name", "en", {"name": "Hugo"}) == "Launcher faces Hugo"


def test_a_list_is_joined_as_the_language_joins_it() -> None:
    ends = ["a", "b", "c"]
    assert format_message("{what, list}", "fr", {"what": ends}) == "a, b et c"
    assert format_message("{what, list}", "en", {"what": ends}) == "a, b and c"
    assert format_message("{what, list}", "fr", {"what": ("a", "b")}) == "a et b"
    assert format_message("{what, list}", "en", {"what": ["a"]}) == "a"
    assert arguments(parse("{what, list}!")) == {"what": "list"}
    two = {"what": ["la manche 2 s'arrête", "la partie change"]}
    assert CATALOG.text("web.confirm_ends", "fr", two) == (
        "Installer la table : la manche 2 s'arrête et la partie change. Continuer ?"
    )
    for bad in ("a, b", 3):
        with pytest.raises(MessageError):
            format_message("{what, list}", "fr", {"what": bad})
    with pytest.raises(MessageError):
        parse("{what, list, x {y} other {z}}")


def test_bad_messages_are_refused_and_quotes_follow_icu() -> None:
    for bad in ("{count, plural, one {x}}", "{a", "x}", "{n, number}", "'{unclosed"):
        with pytest.raises(MessageError):
            parse(bad)
    assert format_message("l''{x}", "fr", {"x": "a"}) == "l'a"
    assert format_message("'{x}' {x}", "fr", {"x": "a"}) == "{x} a"
    assert format_message("{n, plural, =0 {aucune} other {#}}", "fr", {"n": 0}) == "aucune"
    with pytest.raises(MessageError):
        format_message("{n, plural, other {#}}", "fr", {"n": "deux"})


def page_samples() -> list[tuple[str, str, dict[str, object], str]]:
    """Every message the page shows, in both languages, with sample arguments and the text the
    box makes of it: the page must make the same. A message that elides gets every name (Élodie,
    Hélène, Hugo elide; Bruno, Yann do not), the others one name per count."""
    out = []
    for lang in LANGUAGES:
        for key, message in sorted(CATALOG.messages(lang).items()):
            if key.startswith(("web.", "storage.")):
                step = 1 if "_elision" in message else len(NAMES)
                for params in samples(message)[::step]:
                    out.append((lang, message, params, format_message(message, lang, params)))
    return out


def test_undo_and_redo_are_never_called_cancel() -> None:
    """The page's buttons say Défaire / Refaire (Undo / Redo); every text about taking a
    change back says the same, never "annuler" / "cancel", which the page's Cancel means."""
    for lang, cancel in (("fr", "annul"), ("en", "cancel")):
        about = {
            key: text
            for key, text in CATALOG.messages(lang).items()
            if re.search(r"(^|[._])(undo|redo|undone|redone|nothing_to_(un|re)do)", key)
        }
        assert len(about) >= 8, about
        assert [key for key, text in about.items() if cancel in text.casefold()] == []
    assert CATALOG.text("web.undo", "fr") == "Défaire" != CATALOG.text("web.cancel", "fr")
