"""Errors the core raises for input it cannot accept.

Each carries a catalog key (``errors.<name>`` in :mod:`companion.i18n`) and its parameters so the
page can show it in the table's language, plus an HTTP-like ``status`` (400 bad input, 404 unknown
thing, 409 conflicts with the current state). ``str()`` is a readable English sentence.
"""

from __future__ import annotations

from collections.abc import Mapping


class ActionError(ValueError):
    """Input the core refuses; nothing was changed."""

    def __init__(
        self,
        key: str,
        message: str,
        params: Mapping[str, str | int] | None = None,
        status: int = 400,
    ) -> None:
        super().__init__(message)
        self.key = key if "." in key else f"errors.{key}"  # bare names are core errors
        self.params = dict(params or {})
        self.status = status


class StoreFault(RuntimeError):
    """Something the box keeps (the score database) cannot be read or written.

    ``key`` is a catalog key naming the fault (disk full, read-only folder, locked, damaged);
    ``status`` is HTTP-like: 507 when the disk is full, 503 otherwise. ``str()`` is English."""

    key = "storage.unusable"
    status = 503
    problem = "unusable"

    def refusal(self) -> ActionError:
        """This fault as the answer to the action that met it (nothing was stored)."""
        return ActionError(self.key, str(self), {"problem": self.problem}, self.status)
