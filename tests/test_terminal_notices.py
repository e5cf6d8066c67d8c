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
    assert "Scan to open the page on a phone:" in screen and qr in screen


def test_a_missing_sound_card_is_said_on_the_screen() -> None:
    assert "sound card" not in render(STATE, [], None, "")
    silent = {**STATE, "device": {"voice": {"enabled": True, "sound_problem": "no card"}}}
    assert render(silent, [], None, "").count("No sound card") == 1
