"""The key that signs the phones' session cookies, kept in the state folder.

A phone's session then outlives a restart of the box: its CSRF token stays valid and the
``Idempotency-Key`` of an action it resends after the restart is found with the change it made
(the receipts are kept per session). The PIN is asked again all the same (the web's guard
starts a new generation each start). The file is readable by the service's user only.
"""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger(__name__)

SECRET_NAME = "session.key"
SECRET_BYTES = 32


def session_secret(state_dir: str | os.PathLike[str]) -> bytes | None:
    """The session key kept in ``state_dir`` (made on first use); None when it can be neither
    read nor written (each start then has a key of its own)."""
    path = Path(state_dir) / SECRET_NAME
    try:
        kept = path.read_bytes()
        if len(kept) == SECRET_BYTES:
            return kept
    except FileNotFoundError:
        pass
    except OSError as error:
        log.warning("session key %s cannot be read (%s): sessions end at each restart", path, error)
        return None
    key = secrets.token_bytes(SECRET_BYTES)
    fresh = path.with_name(f".{SECRET_NAME}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh.unlink(missing_ok=True)
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key)
            file.flush()
            os.fsync(file.fileno())
        fresh.replace(path)
    except OSError as error:
        log.warning("session key %s cannot be kept (%s): sessions end at each restart", path, error)
        return None
    return key
