"""systemd's notify protocol: READY, WATCHDOG, STOPPING; silent outside systemd."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class SystemdNotifier:
    """Sends ``sd_notify`` messages to ``$NOTIFY_SOCKET`` (a path, or ``@name`` abstract)."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        self.address = environ.get("NOTIFY_SOCKET") or None
        watchdog_usec = int(environ.get("WATCHDOG_USEC", "0") or 0)
        # systemd advises pinging at half the watchdog period.
        self.watchdog_interval: float | None = watchdog_usec / 2e6 if watchdog_usec else None

    def send(self, message: str) -> None:
        if not self.address:
            return
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(address)
                sock.sendall(message.encode())
        except OSError as exc:
            log.warning("could not notify systemd: %s", exc)
