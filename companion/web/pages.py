"""The page itself: one HTML shell, its script, style sheet, icons and web app manifest."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory

MAIN_SCRIPT = '<script type="module" src="/static/js/main.js"></script>'


def page_shell(static: Path) -> str:
    """``index.html`` with a ``modulepreload`` link for each of the page's modules: a phone
    fetches them all at once instead of discovering them import by import (three round trips
    on the box's Wi-Fi otherwise)."""
    html = (static / "index.html").read_text(encoding="utf-8")
    modules = sorted(p.relative_to(static).as_posix() for p in (static / "js").rglob("*.js"))
    links = "".join(
        f'<link rel="modulepreload" href="/static/{m}">\n' for m in modules if m != "js/main.js"
    )
    return html.replace(MAIN_SCRIPT, MAIN_SCRIPT + "\n" + links.rstrip("\n"), 1)


def create_pages(static: Path) -> Blueprint:
    pages = Blueprint("pages", __name__)
    shell = page_shell(static)  # read once: the page's files do not change while it runs

    @pages.get("/")
    def index() -> Response:
        """The phone page."""
        response = Response(shell, mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache"
        return response

    @pages.get("/manifest.webmanifest")
    def manifest() -> Response:
        """Lets a phone add the page to its home screen."""
        return _static("manifest.webmanifest", "application/manifest+json")

    @pages.get("/favicon.ico")
    def favicon() -> Response:
        return _static("icon.svg", "image/svg+xml")

    return pages


def _static(name: str, mimetype: str) -> Response:
    folder = current_app.static_folder
    assert folder is not None  # create_app always sets it
    return send_from_directory(folder, name, mimetype=mimetype)
