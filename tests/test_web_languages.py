"""Every refusal in the phone's language: each error the code can raise has its phrase in French
and English, and the page says the one that fits (a read behind the PIN is not "to change")."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import ActionError
from companion.core.scoring.errors import ENGLISH
from companion.i18n import LANGUAGES, Catalog
from companion.web import WebConfig, create_app
from tests.test_web_api import csrf, make_hub

ROOT = Path(__file__).resolve().parents[1]
CATALOG = Catalog.load()
# What the code raises with a catalog key as its first argument.
REFUSALS = ("ActionError", "ApiError", "AccessDenied", "KeyProblem", "_Refused")


def raised_keys() -> dict[str, str]:
    """Every catalog key the program raises (literal first arguments), with where."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "companion").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):  # a fault's key: ``key = "storage.full"``
                for line in node.body:
                    if (
                        isinstance(line, ast.Assign)
                        and [getattr(t, "id", None) for t in line.targets] == ["key"]
                        and isinstance(line.value, ast.Constant)
                        and isinstance(line.value.value, str)
                    ):
                        found.setdefault(
                            line.value.value, f"{path.relative_to(ROOT)}:{line.lineno}"
                        )
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            first = node.args[0]
            if name not in REFUSALS or not isinstance(first, ast.Constant):
                continue
            if not isinstance(first.value, str):
                continue
            key = first.value
            if name == "ActionError" and "." not in key:
                key = f"errors.{key}"  # as ActionError names a core error
            found.setdefault(key, f"{path.relative_to(ROOT)}:{node.lineno}")
    for key in ENGLISH:  # the score book's refusals
        found.setdefault(f"scoring.error.{key}", "companion/core/scoring/errors.py")
    return found


def test_every_error_the_program_raises_has_its_phrase_in_both_languages() -> None:
    keys = raised_keys()
    assert len(keys) > 50  # the scan sees the program's refusals
    missing = [
        f"{key} ({lang}, raised at {where})"
        for key, where in sorted(keys.items())
        for lang in LANGUAGES
        if key not in CATALOG.keys(lang)
    ]
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_camera_refusal_is_said_in_the_phones_language(lang: str) -> None:
    hub = make_hub()

    def no_camera(payload: dict[str, Any]) -> None:
        raise ActionError("no_camera", "no camera is configured ([camera] in the settings)")

    hub.register_action("camera.teach_start", {"type": "object"}, no_camera, "camera")
    client = create_app(hub, WebConfig(), CATALOG).test_client()
    answer = client.post(
        f"/api/actions/camera.teach_start?lang={lang}", json={"payload": {}}, headers=csrf(client)
    )
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["key"] == "errors.no_camera"
    assert error["message"] == CATALOG.text("errors.no_camera", lang)
    assert error["message"] != "errors.no_camera"


class Pictures:
    def live_jpeg(self) -> bytes | None:
        return b"\xff\xd8 a frame"

    def picture(self, number: int) -> bytes | None:
        return b"\xff\xd8 a kept picture"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_camera_picture_behind_the_pin_says_it_is_needed_to_see(lang: str) -> None:
    app = create_app(make_hub(), WebConfig(pin="4321"), CATALOG, camera=Pictures())
    answer = app.test_client().get(f"/api/camera/pictures/3.jpg?lang={lang}")
    assert answer.status_code == 401
    error = answer.get_json()["error"]
    assert error["key"] == "web.error_pin_to_see"
    assert error["message"] == CATALOG.text("web.error_pin_to_see", lang)
    assert error["message"] != CATALOG.text("web.error_pin_needed", lang)  # not "to change"
