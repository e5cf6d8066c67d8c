"""A camera for the phone page's tests: the state section ``camera`` and the ``camera.*`` actions
on a running daemon's hub, as the camera service gives them (the contract in
docs/phone-page.md), and the two JPEG routes served to a phone by Playwright.

It keeps what the page sent (``sent``) and lets a test move the camera as the box would
(``ask``, ``card_learned``). The pictures are the vision renderer's own drawings of a pile."""

from __future__ import annotations

import copy
import functools
from typing import Any

from playwright.sync_api import Page, Route

from companion.app.camera.payloads import (
    AnswerPayload,
    DeckPayload,
    NoPayload,
    QuestionPayload,
    SwitchPayload,
)
from companion.app.hub import Hub
from companion.core.errors import ActionError
from companion.core.model import json_schema
from companion.vision.kinds import deck_faces

# The service's own declarations: a payload the box refuses, this double refuses too.
SCHEMAS = {
    "camera.answer": json_schema(AnswerPayload),
    "camera.dismiss": json_schema(QuestionPayload),
    "camera.enable": json_schema(SwitchPayload),
    "camera.teach_start": json_schema(DeckPayload),
    "camera.teach_skip": json_schema(NoPayload),
    "camera.teach_finish": json_schema(NoPayload),
    "camera.teach_cancel": json_schema(NoPayload),
}


@functools.cache
def pile_jpeg() -> bytes:
    """A 640x480 frame of a drawn pile topped by a red 7 (the renderer's drawing, no photo)."""
    import cv2

    from companion.vision.kinds import Card
    from companion.vision.render import still_set, styles

    still = still_set(1, 5, styles(1, 5), (Card("7", "red"),))[0]
    ok, data = cv2.imencode(".jpg", still.image)
    assert ok
    return bytes(data)


class FakeCamera:
    """The camera section and actions, changed on the hub thread as the camera service does."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.frames = 0  # live pictures fetched
        self.state: dict[str, Any] = {
            "configured": True,
            "enabled": True,
            "status": "ok",
            "last_read": None,
            "question": None,
            "waiting": [],
            "counts": [],
            "teach": None,
            "kept": 0,
            "sweeping": False,
        }
        self._deck: list[dict[str, str]] = []
        self.taken = False  # the open question already answered elsewhere (not yet told)
        hub.register_status("camera", lambda: copy.deepcopy(self.state))
        for name, schema in SCHEMAS.items():
            hub.register_action(name, schema, functools.partial(self._act, name), "camera")

    def set(self, **changes: Any) -> None:
        """Change the section as the box would, and tell every phone."""

        def change() -> None:
            self.state.update(changes)
            self.hub.changed("camera")

        self.hub.call(change).result(timeout=5)

    def ask(
        self,
        question_id: int,
        player: str,
        *candidates: tuple[str, str],
        waiting: tuple[tuple[str | None, str], ...] = (),
        needs: str = "card",
    ) -> None:
        """A question: "Which card?" with these candidates (none: a card laid it could not
        read), the cards seen since waiting behind it; or whose Coup Extrême (``needs``)."""
        self.set(
            question={
                "id": question_id,
                "needs": needs,
                "missed": needs == "card" and not candidates,
                "candidates": [{"kind": k, "colour": c} for k, c in candidates],
                "picture": f"/api/camera/pictures/{question_id}.jpg",
                "player": player,
            },
            waiting=[{"kind": k, "colour": c} for k, c in waiting],
        )

    def card_learned(self) -> None:
        """The box has the card the teach asked for: it dings and asks the next one."""

        def learned() -> None:
            teach = self.state["teach"]
            teach["done"] += 1
            self._deck.pop(0)
            teach["next"] = self._deck[0] if self._deck else None
            self.hub.changed("camera")

        self.hub.call(learned).result(timeout=5)

    def _act(self, name: str, payload: dict[str, Any]) -> None:
        self.sent.append((name, payload))
        state = self.state
        if name in ("camera.answer", "camera.dismiss") and self.taken:
            raise ActionError("answered", "that question was already answered", status=409)
        counts = [c for c in state["counts"] if c["id"] != payload.get("id")]
        if name in ("camera.answer", "camera.dismiss") and len(counts) < len(state["counts"]):
            state["counts"] = counts
            return
        if name == "camera.answer":
            question = state["question"]
            if question and question["id"] == payload["id"]:
                card = {"kind": payload["kind"], "colour": payload.get("colour", "")}
                state["question"] = None
                state["waiting"] = []
                state["kept"] += 1
                state["last_read"] = {
                    **card,
                    "confidence": 1.0,
                    "sure": True,
                    "at_ms": 0,
                    "picture": question["picture"],
                }
        elif name == "camera.dismiss":
            if state["question"] and state["question"]["id"] == payload["id"]:
                state["question"] = None
        elif name == "camera.enable":
            state["enabled"] = payload["on"]
            state["status"] = "ok" if payload["on"] else "off"
        elif name == "camera.teach_start":
            faces = deck_faces(payload["deck"])
            self._deck = [{"kind": f.kind, "colour": f.colour} for f in faces]
            state["teach"] = {
                "active": True,
                "next": self._deck[0],
                "done": 0,
                "total": len(faces),
                "deck": payload["deck"],
            }
        elif name == "camera.teach_skip":
            self._deck.append(self._deck.pop(0))  # asked again at the end
            state["teach"]["next"] = self._deck[0]
        elif name == "camera.teach_finish":
            state["teach"] = {**state["teach"], "active": False, "next": None}
        elif name == "camera.teach_cancel":
            state["teach"] = None

    def serve(self, page: Page) -> None:
        """The camera's two pictures, as the box serves them, for this phone."""

        def picture(route: Route) -> None:
            if "/live.jpg" in route.request.url:
                self.frames += 1
            route.fulfill(status=200, content_type="image/jpeg", body=pile_jpeg())

        page.route("**/api/camera/**", picture)
