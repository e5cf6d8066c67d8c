"""What the blueprints share, kept on ``app.extensions`` (never in module globals)."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from flask import Flask, current_app, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from companion.i18n import LANGUAGES, Catalog
from companion.web.config import WebConfig
from companion.web.idempotency import Remembered
from companion.web.ports import Hub
from companion.web.security import Guard

EXTENSION = "uno_web"


class CameraPictures(Protocol):
    """What the page shows of the camera: its latest frame and the pictures it kept (JPEG)."""

    def live_jpeg(self) -> bytes | None: ...

    def picture(self, number: int) -> bytes | None: ...


@dataclass
class WebContext:
    hub: Hub
    config: WebConfig
    catalog: Catalog
    guard: Guard
    camera: CameraPictures | None = None  # no camera: its pictures are 404
    # Set when the server stops, so open event streams end at once instead of at the next notice.
    stopping: threading.Event = field(default_factory=threading.Event)
    streams: int = 0
    streams_lock: threading.Lock = field(default_factory=threading.Lock)
    streams_by_client: dict[str, int] = field(default_factory=dict)
    # The Idempotency-Keys of the last writes and their first answers.
    remembered: Remembered = field(default_factory=Remembered)
    # The last state sent on the live streams, encoded once for every phone (see state_event).
    _sent: tuple[object, bytes] = field(default=(None, b""), init=False, repr=False)
    _sent_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    # Each part of the last state encoded (by the part's identity): see state_json.
    _parts: dict[str, tuple[object, bytes]] = field(default_factory=dict, init=False, repr=False)
    _parts_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    # The API's description (see api.get_openapi): the actions it describes, its JSON, ETag.
    described: tuple[frozenset[str], bytes, str] | None = None
    # The last charts drawn, by (game, revision, language, colours): see api.get_chart.
    charts: Drawn = field(default_factory=lambda: Drawn(8))

    def init_app(self, app: Flask) -> None:
        app.extensions[EXTENSION] = self

    def open_stream(self, client: str) -> str | None:
        """Count one more live stream for address ``client``; what is full if it cannot be had:
        ``"phone"`` (this address holds ``streams_per_client``) or ``"table"`` (every stream
        thread is taken)."""
        with self.streams_lock:
            held = self.streams_by_client.get(client, 0)
            if held >= self.config.streams_per_client:
                return "phone"
            if self.streams >= self.config.max_streams:
                return "table"
            self.streams += 1
            self.streams_by_client[client] = held + 1
            return None

    def close_stream(self, client: str) -> None:
        with self.streams_lock:
            self.streams -= 1
            held = self.streams_by_client.get(client, 0) - 1
            if held > 0:
                self.streams_by_client[client] = held
            else:
                self.streams_by_client.pop(client, None)

    def state_event(self, encode: Callable[[dict[str, Any]], bytes]) -> bytes:
        """The live-stream event of the hub's state now, made by ``encode`` once per state for
        all the phones: at a change every open stream sends the same bytes, so twenty phones
        cost one encoding, not twenty (and far fewer large buffers for the allocator to juggle).
        """
        state = self.hub.state()  # the same object until the next change (the hub caches it)
        with self._sent_lock:
            sent_state, event = self._sent
            if sent_state is not state:
                event = encode(state)
                self._sent = (state, event)
            return event

    def state_json(self, state: dict[str, Any]) -> bytes:
        """``state`` as compact JSON, each part encoded once while it is the same object: the
        hub keeps a part that did not change (the score), so a press's answer re-encodes the
        table, not the score sheet."""
        pieces = []
        with self._parts_lock:
            for key, value in state.items():
                cached = self._parts.get(key)
                if cached is not None and cached[0] is value:
                    encoded = cached[1]
                else:
                    encoded = _dumps(value)
                    self._parts[key] = (value, encoded)
                pieces.append(_dumps(key) + b":" + encoded)
        return b"{" + b",".join(pieces) + b"}"

    def table_language(self) -> str:
        try:
            settings = self.hub.state().get("settings", {})
        except Exception:  # the language of an error message must never cause another error
            return LANGUAGES[0]
        language = settings.get("language") if isinstance(settings, dict) else None
        return language if language in LANGUAGES else LANGUAGES[0]

    def language(self) -> str:
        """The language for this request: ``?lang=``, then Accept-Language, then the table's."""
        return self.language_for(request.args.get("lang"), request.headers.get("Accept-Language"))

    def language_for(self, asked: str | None, accept_language: str | None) -> str:
        """The language for a request asking ``?lang=asked`` with this Accept-Language header
        (also for the requests the server refuses before the app sees them)."""
        if asked in LANGUAGES:
            return str(asked)
        best = parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES)
        return best if best else self.table_language()

    def text(self, key: str, params: dict[str, Any] | None = None, lang: str | None = None) -> str:
        return self.catalog.text(key, lang or self.language(), params)


class Drawn:
    """The last ``size`` pictures made, by key (thread-safe; the oldest is forgotten first)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._made: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            made = self._made.get(key)
            if made is not None:
                self._made.move_to_end(key)
            return made

    def put(self, key: Hashable, picture: str) -> None:
        with self._lock:
            self._made[key] = picture
            self._made.move_to_end(key)
            while len(self._made) > self._size:
                self._made.popitem(last=False)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def web() -> WebContext:
    """The :class:`WebContext` of the app handling the current request."""
    return context_of(current_app)


def context_of(app: Flask) -> WebContext:
    """The :class:`WebContext` of ``app`` (outside a request too)."""
    return cast(WebContext, app.extensions[EXTENSION])
