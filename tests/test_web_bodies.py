"""A large JSON body read in pieces gives what ``json.loads`` gives, whatever falls on the cut
between two slices (an escape, a ``\\uXXXX``, half of an emoji), and stands aside between them."""

from __future__ import annotations

import json
import random

import pytest

from companion.web.bodies import SLICE, loads_in_pieces

PIECES = ['"', "\\", "\n", "é", "😀", "\u2028", "a", "{", "}", " ", "\t", "\x01", "ok"]


def long_text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(length))


@pytest.mark.parametrize("seed", range(6))
def test_a_body_with_long_strings_reads_as_json_loads_reads_it(seed: int) -> None:
    rng = random.Random(seed)
    inner = json.dumps({"rounds": [long_text(rng, 50) for _ in range(rng.randint(500, 9000))]})
    body = {"payload": {"text": inner, "format": "json"}, "revision": seed}
    for ascii_only in (True, False):
        text = json.dumps(body, ensure_ascii=ascii_only)
        pauses: list[int] = []
        assert loads_in_pieces(text, lambda pauses=pauses: pauses.append(1)) == body
        assert len(pauses) >= len(text) // SLICE - 1  # it stood aside between the slices


def test_every_cut_through_an_escape_or_an_emoji_decodes_whole() -> None:
    for shift in range(12):  # the slice's end lands on each character of the escapes in turn
        value = "x" * (SLICE - 8 + shift) + '😀\\"é\n' * 4 + "y" * (2 * SLICE)
        text = json.dumps({"text": value})
        assert loads_in_pieces(text, lambda: None) == {"text": value}


@pytest.mark.parametrize(
    "text",
    [
        '{"text": "' + "a" * (3 * SLICE),  # unterminated
        '{"text": "' + "a" * (3 * SLICE) + '"',  # no closing brace
        '{"text": "' + "a" * (3 * SLICE) + '"} extra',
        '{text: "' + "a" * (3 * SLICE) + '"}',
        '{"text": "' + "a" * (3 * SLICE) + '\\q"}',  # a bad escape
        '{"text": "' + "a" * (3 * SLICE) + '", "x": "abc',  # a short string left open at the end
    ],
)
def test_a_bad_body_is_refused_as_json_loads_refuses_it(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        loads_in_pieces(text, lambda: None)
