"""No message assumes a player's gender: every text the box speaks or shows, in French and in
English, names a player without a gendered pronoun ("a-t-il fini ?", "she") standing for them.

French pronouns remain where they stand for a thing (la boîte, la tourelle, les cartes) or make
an impersonal phrase (il faut, il manque, il n'y a): those messages are listed with the noun the
pronoun stands for, and the test checks that noun is in the message.
"""

from __future__ import annotations

import re

import pytest

from companion.i18n import LANGUAGES, Catalog

CATALOG = Catalog.load()
GENDERED = {
    "fr": re.compile(
        r"\b(il|elle|ils|elles|lui-même|elle-même|eux-mêmes|elles-mêmes|celui|celle)\b"
        r"|-t-(il|elle)\b",
        re.IGNORECASE,
    ),
    "en": re.compile(r"\b(he|she|him|his|hers?|himself|herself)\b", re.IGNORECASE),
}
# A participle agreeing with a named player: "{player} est éliminé".
AGREEING = re.compile(
    r"\{(player|name|winner|culprit)\}[^.?!]{0,12}\b(est|sera|était|a été) [a-zà-ÿ]+é\b(?!·)"
)
IMPERSONAL = re.compile(r"\bil (faut|manque|n['’]y a|y a|reste)\b", re.IGNORECASE)
# Messages whose pronoun stands for a thing, with that thing.
THINGS = {
    ("fr", "errors.stopping"): "boîtier",
    ("fr", "scoring.last_card_draw"): "cartes",
    ("fr", "web.cam_sweeping"): "tourelle",
    ("fr", "web.cam_teach_help"): "boîte",
}


def gendered(lang: str, text: str) -> list[str]:
    found = [m.group(0) for m in GENDERED[lang].finditer(IMPERSONAL.sub("", text))]
    return found + [m.group(0) for m in AGREEING.finditer(text)] if lang == "fr" else found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_gives_a_player_a_gender(lang: str) -> None:
    messages = CATALOG.messages(lang)
    assert len(messages) > 500  # every catalog, not an empty one
    found = {}
    for key, text in messages.items():
        words = gendered(lang, text)
        thing = THINGS.get((lang, key))
        if words and not (thing and thing in text):
            found[key] = (words, text)
    assert not found


def test_the_check_catches_a_gendered_message() -> None:
    assert gendered("fr", "La boîte compte 7 cartes à Maëlle : a-t-il vraiment fini ?") == ["-t-il"]
    assert gendered("fr", "{player} a joué le Lotso : il ne montre pas de carte.") == ["il"]
    assert gendered("en", "did he really go out?") == ["he"]
    assert gendered("fr", "{player} est éliminé.") == ["{player} est éliminé"]
    assert gendered("fr", "Il faut un nom de joueur.") == []
    assert gendered("en", "did they really go out?") == []


def test_the_win_the_box_doubts_is_asked_in_neutral_words() -> None:
    text = CATALOG.text("web.confirm_win", "fr", {"player": "Maëlle", "count": 7})
    assert text == (
        "La boîte compte encore 7 cartes à Maëlle : est-ce vraiment la fin de la manche ?"
        " Cette main passera à 0."
    )
