"""The ``[web]`` section as the phone page reads it (declared and checked with the rest of the
configuration in :mod:`companion.config.web`), and the page's own limits on a request."""

from companion.config.web import WebConfig

MAX_BODY = 64 * 1024  # the largest action but a game file (a whole round of hands) is a few KB
MAX_UPLOAD = 8 * 1024 * 1024  # a game file; waitress refuses anything larger before reading it

__all__ = ["MAX_BODY", "MAX_UPLOAD", "WebConfig"]
