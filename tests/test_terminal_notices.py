"""What the simulation terminal says besides the table: the page QR code, a missing sound card."""

from __future__ import annotations

import segno

from companion.terminal import qr_text, render

STATE = {
    "table": {
        "direction": "left",
        "round": 1,
        "dealer": "Alice",
        "players": [],
        "active": None,
        "facing": None,
        "suspense": 0.0,
        "magazine": 80,
        "owed": [],
        "needs_reload": False,
        "round_over": False,
    },
    "device": {"turret_angle": 90.0, "voice": {"enabled": True, "volume": 7}},
}


def test_the_screen_shows_the_page_qr_code() -> None:
    qr = qr_text("http://192.168.1.23:8080/")
    size = segno.make("http://192.168.1.23:8080/", error="m", micro=False).symbol_size(border=2)
    assert len(qr.splitlines()) == (size[1] + 1) // 2  # two modules per line of text
    screen = render(STATE, [], "http://192.168.1.23:8080/", "", qr)
    # The address beside the code: in an 80 x 24 terminal the first line has scrolled away.
    below = screen.split(qr)[0].splitlines()[-1]
    assert below == "Scan to open the page on a phone, or go to http://192.168.1.23:8080/"


def test_a_hand_of_one_is_one_card() -> None:
    seats = [
        {"name": n, "seat": i, "hand": h, "eliminated": False, "uno": h == 1}
        for i, (n, h) in enumerate([("Ana", 1), ("Bo", 7)])
    ]
    screen = render({**STATE, "table": {**STATE["table"], "players": seats}}, [], None, "")
    assert "Ana               1 card " in screen and "Bo                7 cards" in screen
    assert "1 cards" not in screen


def test_a_missing_sound_card_is_said_on_the_screen() -> None:
    assert "sound card" not in render(STATE, [], None, "")
    silent = {**STATE, "device": {"voice": {"enabled": True, "sound_problem": "no card"}}}
    assert render(silent, [], None, "").count("No sound card") == 1
