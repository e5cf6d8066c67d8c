"""gzip for the page's text: its modules, style sheet, texts, card table and state.

The box talks to phones over its Wi-Fi, often a Pi Zero's: the page's first load is about 150 KB
of text, about 65 KB gzipped (``make bench``, headers included). A response is compressed when
the phone accepts gzip, it is text (JavaScript, CSS, JSON, SVG, HTML) of at least
:data:`MIN_SIZE` bytes, and complete: the event stream is never touched (it must reach the
phones as each state is written). Files served with an ETag (the static files) are compressed
once and kept in :class:`CompressedFiles`.
"""

from __future__ import annotations

import gzip
from collections import OrderedDict

from flask import Request, Response

MIN_SIZE = 1024  # below this the gzip header and the CPU are not worth it
LEVEL = 6  # zlib's default: nearly the smallest output at a fraction of level 9's time
TEXT_TYPES = (
    "text/",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
)


class CompressedFiles:
    """gzip bodies of files by ETag, the newest :data:`limit` kept (the page has about 20)."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self._bodies: OrderedDict[str, bytes] = OrderedDict()

    def body(self, etag: str, data: bytes) -> bytes:
        found = self._bodies.get(etag)
        if found is None:
            found = gzip.compress(data, LEVEL, mtime=0)
            self._bodies[etag] = found
            while len(self._bodies) > self.limit:
                self._bodies.popitem(last=False)
        else:
            self._bodies.move_to_end(etag)
        return found


def compress(request: Request, response: Response, files: CompressedFiles) -> Response:
    """``response`` gzipped for ``request`` when that is worth it (see the module's doc)."""
    response.vary.add("Accept-Encoding")
    if (
        response.status_code != 200
        or response.mimetype == "text/event-stream"
        or (response.is_streamed and not response.direct_passthrough)  # a file is streamed too
        or "Content-Encoding" in response.headers
        or not request.accept_encodings["gzip"]  # its quality; 0 when not accepted
        or not (response.mimetype or "").startswith(TEXT_TYPES)
    ):
        return response
    response.direct_passthrough = False  # a static file: read it to compress it
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    etag, weak = response.get_etag()
    packed = files.body(etag, data) if etag and not weak else gzip.compress(data, LEVEL, mtime=0)
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    if etag:  # as nginx does: the gzipped body is weakly the same file, and a phone's
        response.set_etag(etag, weak=True)  # If-None-Match still gets a 304
    return response
