"""The camera on the phone page (Debian's Chromium through Playwright, the real daemon in
simulation with the camera's state section and actions given by tests/camera_double.py):
"Which card?" on two phones and the table display, Poser Tout's count, the Camera screen with
its live picture and the guided teach, the last read on the Device screen."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from companion.daemon import Daemon
from companion.vision.kinds import deck_faces

pytest.register_assert_rewrite("tests.browser", "tests.camera_double")
from tests.browser import Api, axe_check, screenshot_schemes, seat_four, shot, tab  # noqa: E402
from tests.camera_double import FakeCamera  # noqa: E402
from tests.test_browser_layout import SIZES, check_screen, turn_faults  # noqa: E402

pytest_plugins = ["tests.browser"]  # the daemon, api, browser, phones fixtures


def test_which_card_is_asked_on_every_phone_and_one_tap_settles_it(
    phones: tuple[Page, Page], api: Api, daemon: Daemon
) -> None:
    cam = FakeCamera(daemon.hub)
    for phone in phones:
        cam.serve(phone)
    seat_four(api)
    player, display = phones
    player.set_viewport_size(SIZES[0])  # 320 x 640
    expect(player.locator("#actor-name")).to_have_text("Chloé")
    display.click("#open-display")
    cam.ask(
        1,
        "Chloé",
        ("7", "red"),
        ("1", "red"),
        ("7", "yellow"),
        waiting=(("wild", ""), ("8", "green")),
    )
    question, shown = player.locator("#cam-question"), display.locator("#display-cam-question")
    expect(question.locator(".cam-title")).to_have_text("Quelle carte\u00a0?")
    expect(question.locator(".cam-who")).to_have_text("Au tour de Chloé")
    # The cards seen since wait behind the question, named; no percentages to puzzle over.
    expect(question.locator(".cam-waiting")).to_have_text(
        "2 cartes en attente de la réponse\u00a0: Joker et 8 vert"
    )
    expect(question.locator(".cam-card")).to_have_text(["7 rouge", "1 rouge", "7 jaune"])
    expect(shown.locator(".cam-card")).to_have_count(3)
    expect(shown.locator(".cam-waiting")).to_contain_text("2 cartes en attente")
    seen = question.locator("img.cam-seen")
    expect(seen).to_have_attribute("src", "/api/camera/pictures/1.jpg")
    # At 320 px the picture is as wide as the question (a 4 told from a 7); a tap enlarges it.
    box = seen.bounding_box()
    assert box and box["width"] >= 0.8 * 320 and box["height"] >= 100, box
    question.locator(".cam-seen-button").click()
    big = question.locator(".cam-seen-button.enlarged img").bounding_box()
    assert big and big["width"] >= 319, big
    question.locator(".cam-seen-button").click()
    expect(question.locator(".cam-seen-button.enlarged")).to_have_count(0)
    # With the question up, HIT, who acts and the candidates stay on one screen.
    faults = turn_faults(player, "which-card", ("hit", "actor"))
    for size in SIZES:
        player.set_viewport_size(size)
        box = question.locator(".cam-candidates").bounding_box()
        hit = player.locator("#hit").bounding_box()
        assert box and hit and box["y"] > 0 and box["y"] + box["height"] < hit["y"], (size, box)
    faults += check_screen(player, "whichcard-fr")  # thumb-sized, nothing wider, no raw key
    assert faults == [], "\n".join(faults)
    player.set_viewport_size(SIZES[0])
    for size in SIZES if screenshot_schemes() else ():
        display.set_viewport_size({"width": size["height"], "height": size["width"]})
        shot(display, f"camera-display-{size['width']}", full_page=False)
    # One tap on either phone settles it for all.
    question.locator(".cam-card").first.click()
    expect(question).to_be_hidden()
    expect(shown).to_be_hidden()
    assert cam.sent == [("camera.answer", {"id": 1, "kind": "7", "colour": "red"})]
    # A card laid it could not read: the title says so and the card pad is open at once.
    cam.ask(2, "Alice")
    expect(shown.locator(".cam-title")).to_have_text("Une carte a été posée\u00a0: laquelle\u00a0?")
    shown.locator('.cam-pad [data-colour="green"]').click()
    shown.locator('.cam-pad [data-value="4"]').click()
    expect(question).to_be_hidden()
    # A card it did not offer: from the card pad; or nothing was played.
    cam.ask(3, "Alice", ("wild", ""), ("draw4", ""))
    expect(question.locator(".cam-card").first).to_have_text("Joker rouge")  # with its colour
    question.locator(".cam-nothing").click()
    expect(shown).to_be_hidden()
    assert cam.sent[1:] == [
        ("camera.answer", {"id": 2, "kind": "4", "colour": "green"}),
        ("camera.dismiss", {"id": 3}),
    ]
    # Answered on another phone first: this one is told, and nothing is played twice.
    cam.ask(4, "Bruno", ("5", "blue"))
    cam.taken = True
    question.locator(".cam-card").first.click()
    expect(player.locator("#toast")).to_contain_text("déjà eu sa réponse")
    cam.taken = False
    cam.set(question=None, waiting=[])
    # The camera saw a Poser Tout: how many cards left the hand is asked until answered.
    cam.set(
        counts=[{"id": 5, "seq": 9, "player": "Chloé", "picture": "/api/camera/pictures/5.jpg"}]
    )
    ask = player.locator("#cam-asks")
    expect(ask.locator(".cam-title")).to_have_text("Combien de cartes\u00a0?")
    expect(ask.locator(".cam-count-question")).to_contain_text("Poser Tout de Chloé")
    ask.locator('[data-count="3"]').click()
    expect(ask).to_be_hidden()
    assert cam.sent[-1] == ("camera.answer", {"id": 5, "count": 3})
    # A Coup Extrême read: the turret sweeps, or a tap names the target.
    cam.ask(6, "Chloé", ("coup_extreme", ""), needs="target")
    cam.set(sweeping=True)
    expect(question.locator(".cam-title")).to_have_text("Qui vise le Coup Extrême\u00a0?")
    picker = question.locator(".cam-target")
    expect(picker).to_contain_text("Coup Extrême de Chloé")
    expect(picker.locator("[data-target]")).to_have_count(3)  # not the attacker
    picker.locator('[data-target="Alice"]').click()
    expect(question).to_be_hidden()
    assert cam.sent[-1] == ("camera.answer", {"id": 6, "kind": "coup_extreme", "target": "Alice"})


def test_the_camera_screen_shows_the_live_picture_and_teaches_a_deck(
    phone: Page, api: Api, daemon: Daemon
) -> None:
    cam = FakeCamera(daemon.hub)
    cam.serve(phone)
    cam.set(
        last_read={
            "kind": "7",
            "colour": "red",
            "confidence": 0.97,
            "sure": True,
            "at_ms": 0,
            "picture": "/api/camera/pictures/1.jpg",
        },
        kept=12,
    )
    seat_four(api)
    tab(phone, "device")
    expect(phone.locator("#cam-how")).to_be_hidden()
    expect(phone.locator("#cam-device-read")).to_have_text("Dernière carte lue : 7 rouge (97 %)")
    expect(phone.locator("#sim-read text")).to_have_text("7")
    shot(phone, "camera-device")
    phone.click("#open-camera")
    expect(phone.locator("#cam-status")).to_have_text("La caméra voit la pile")
    expect(phone.locator("#cam-kept")).to_have_text("12 photos de lecture gardées pour apprendre")
    # The live picture is fetched again and again while the screen is open.
    expect(phone.locator("#cam-live")).to_have_js_property("naturalWidth", 640)
    deadline = time.monotonic() + 3
    while cam.frames < 3 and time.monotonic() < deadline:
        phone.wait_for_timeout(50)
    assert cam.frames >= 3
    phone.select_option("#cam-deck", "extreme")
    phone.click("#cam-teach-start")
    faces = [f"{f.kind} {f.colour}" for f in deck_faces("extreme")]
    names = {"red": "rouge", "yellow": "jaune", "green": "vert", "blue": "bleu"}
    said = [re.sub(r"\w+$", lambda m: names.get(m[0], m[0]), f) for f in faces]
    card = phone.locator("#cam-teach-card")
    expect(card).to_have_text(said[0])
    expect(phone.locator("#cam-teach-count")).to_have_text(f"0 sur {len(faces)}")
    cam.card_learned()  # the box dings: the next card
    expect(card).to_have_text(said[1])
    expect(phone.locator("#cam-teach-count")).to_have_text(f"1 sur {len(faces)}")
    phone.evaluate("window.scrollTo(0, 0)")
    faults = check_screen(phone, "camera-fr")
    assert faults == [], "\n".join(faults)
    assert axe_check(phone) == []
    for size in SIZES:
        phone.set_viewport_size(size)
        for scheme in screenshot_schemes():
            phone.emulate_media(color_scheme=scheme)
            shot(phone, f"camera-screen-{size['width']}-{scheme}", full_page=False)
    phone.emulate_media(color_scheme="light")
    phone.click("#cam-teach-skip")
    expect(card).to_have_text(said[2])
    phone.click("#cam-teach-finish")
    expect(phone.locator("#cam-teach-active")).to_be_hidden()
    expect(phone.locator("#cam-teach-result")).to_have_text("1 carte apprise")
    assert [name for name, _ in cam.sent] == [
        "camera.teach_start",
        "camera.teach_skip",
        "camera.teach_finish",
    ]
    assert cam.sent[0][1] == {"deck": "extreme"}
    # Once the screen is left no picture is asked any more (one may be on its way).
    phone.click("#cam-close")
    expect(phone.locator("#screen-device")).to_be_visible()
    seen = cam.frames
    phone.wait_for_timeout(3 * 250)  # three frames' time
    assert cam.frames <= seen + 1
    phone.click("#open-camera")
    phone.click("#cam-on")
    expect(phone.locator("#cam-status")).to_have_text("Caméra éteinte")
    assert cam.sent[-1] == ("camera.enable", {"on": False})
    expect(phone.locator("#cam-live")).to_be_hidden()
    # A box without a camera: only the line saying how to add one.
    cam.set(configured=False, enabled=False, status="off")
    expect(phone.locator("#cam-none")).to_be_visible()
    expect(phone.locator("#cam-teach")).to_be_hidden()
    phone.click("#cam-close")
    expect(phone.locator("#cam-how")).to_contain_text("[camera]")
    expect(phone.locator("#open-camera")).to_be_hidden()
    expect(phone.locator("#sim-read")).to_be_hidden()
