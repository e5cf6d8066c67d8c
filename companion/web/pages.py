"""The page itself: one HTML shell, its script, style sheet, icons and web app manifest."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, send_from_directory


def create_pages() -> Blueprint:
    pages = Blueprint("pages", __name__)

    @pages.get("/")
    def index() -> Response:
        """The phone page."""
        response = _static("index.html", "text/html")
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
