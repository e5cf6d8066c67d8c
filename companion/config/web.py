"""The ``[web]`` section of the configuration file.

Example::

    [web]
    host = "0.0.0.0"   # every network interface: phones on the table's Wi-Fi can reach it
    port = 8080
    threads = 32       # each open phone holds one thread for its live updates: phones + 4
    pin = "4321"       # empty: anyone on the Wi-Fi may change things
    allowed_hosts = ["uno.example.lan"]  # more names the page answers to
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.model import option


@dataclass(frozen=True)
class WebConfig:
    host: str = option("0.0.0.0", "address to listen on (0.0.0.0: every interface)")
    port: int = option(8080, "TCP port of the phone page", min=1, max=65535)
    threads: int = option(
        32,
        "worker threads; each live stream holds one (four stay for other requests): 32 keep "
        "live updates for 28 phones",
        min=6,
        max=256,
    )
    streams_per_client: int = option(
        3,
        "live streams one address may hold (a phone with two tabs open uses two); a phone "
        "beyond them reads the table every few seconds instead",
        min=1,
        max=64,
    )
    pin: str = option("", "table PIN needed to change anything (empty: no PIN)", max_length=64)
    lockout_attempts: int = option(
        5, "bad PINs in a row before a phone is locked out", min=1, max=100
    )
    lockout_seconds: int = option(
        60,
        "how long a locked-out phone must wait (twice as long at each new lock-out of its "
        "address, up to an hour)",
        min=1,
        max=86400,
    )
    lockout_total_attempts: int = option(
        20,
        "bad PINs from all phones together, within lockout_seconds, after which each bad PIN "
        "locks its address out at once (a guesser changing address gets one guess per "
        "address); a right PIN never waits for it",
        min=1,
        max=10000,
    )
    remote_press: bool = option(
        False,
        "on real hardware, let the page press the launcher remotely (its HIT button), test fire "
        "it and turn it to face a seat",
    )
    keepalive_seconds: float = option(
        15.0, "seconds between keep-alive comments on the live stream", min=0.05, max=300.0
    )
    allowed_hosts: list[str] = option(
        [],
        "more names the page answers to (the box's own names, localhost and IP addresses "
        "always work); any other Host header is refused, so a web site cannot reach the box "
        "through a name of its own (DNS rebinding)",
    )
    idle_seconds: int = option(
        30,
        "a connection that sends nothing for this long is closed, and one whose phone reads "
        "nothing of what waits for it (a live stream stays open while its phone reads it: it "
        "sends keep-alives); raised to twice keepalive_seconds if lower",
        min=5,
        max=600,
    )
    connection_limit: int = option(
        500,
        "open connections at once; past it a new phone still gets in: the box closes an idle "
        "connection of the address holding the most",
        min=20,
        max=4000,
    )
    per_client_connections: int = option(
        32, "open connections one address may hold (a phone uses 2 to 7)", min=4, max=4000
    )
    requests_per_client: int = option(
        6,
        "requests one address may have running at once besides its live streams (a browser "
        "asks up to 6 at a time); more wait their turn without holding a thread",
        min=1,
        max=256,
    )
    header_seconds: int = option(
        10,
        "a request's headers must arrive within this many seconds of its first byte (its body "
        "at 16 KB/s at least after them), or its connection is closed",
        min=1,
        max=300,
    )

    @property
    def max_streams(self) -> int:
        """Live streams allowed at once: four threads stay free for ordinary requests."""
        return self.threads - 4

    def check(self, where: str) -> list[str]:
        """What a key's declaration cannot say: a PIN one can type, host names without ports."""
        problems = []
        if any(not ch.isprintable() for ch in self.pin):
            problems.append(f"{where}.pin: use at most 64 printable characters")
        for name in self.allowed_hosts:
            if not name or any(c in name for c in "/ @:"):
                problems.append(
                    f"{where}.allowed_hosts: {name!r} is not a host name (no port, no scheme)"
                )
        return problems
