"""waitress shared fairly between the phones: no client holds the others.

waitress runs each request on one of a fixed number of threads and reads and writes sockets on
one loop. With waitress alone, a few clients can take it all:

- a phone that asks for a large answer and does not read it, then asks again on the same
  connection (pipelining), holds a thread until it reads: 32 such connections hold every thread,
  and ``/api/state`` and HIT wait for everyone;
- a connection that sends its headers a line every few seconds is never closed, and 500 of them
  (the connection limit) keep every new phone out.

Here:

- **An answer the phone has not read does not hold a thread.** The next request of that
  connection waits, without a thread, until the phone has read the answer before it (down to the
  output buffer, 64 KB); then it is run. A connection that reads nothing for ``idle_seconds`` is
  closed, waiting requests or not.
- **A stream the phone does not read** (an answer written in pieces, the live updates) holds its
  thread at most ``idle_seconds``: then the connection is closed and the thread is free.
- **Threads per address.** One address runs at most ``streams_per_client +
  requests_per_client`` requests at once; more wait their turn, without a thread, and run as its
  earlier ones end.
- **Headers on time.** A request's headers must arrive within ``header_seconds`` of its first
  byte, its body at :data:`BODY_RATE` at least after them; a request that takes longer has its
  connection closed.
- **Connections shared.** One address holds ``per_client_connections`` at most (more are closed
  at once). At ``connection_limit`` the box still accepts a new phone: it closes a connection that
  runs nothing of the address holding the most (its longest idle first), instead of refusing
  everyone new as waitress does.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections import defaultdict, deque
from typing import Any, cast

from waitress.adjustments import Adjustments
from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher

ACCEPT_AT_ONCE = 64  # connections taken in one pass of the loop, at most
BODY_RATE = 16 * 1024  # bytes a second a request body must come in at least, after its headers


class Limits:
    """What one address may hold, in one place for the channels of a server."""

    def __init__(
        self,
        *,
        connections: int,
        running: int,
        header_seconds: float,
        send_seconds: float,
    ) -> None:
        self.connections = connections
        self.running = running
        self.header_seconds = header_seconds
        self.send_seconds = send_seconds
        self._lock = threading.Lock()
        self._running: dict[str, int] = defaultdict(int)
        self._waiting: dict[str, deque[FairChannel]] = defaultdict(deque)

    def enter(self, channel: FairChannel) -> bool:
        """Count a request of ``channel`` as running; False (and queued) if its address runs
        as many as it may: :meth:`leave` hands it to a thread once one of them ends."""
        with self._lock:
            client = channel.client
            if self._running[client] >= self.running:
                self._waiting[client].append(channel)
                return False
            self._running[client] += 1
            return True

    def leave(self, channel: FairChannel) -> FairChannel | None:
        """A request of ``channel`` ended; the channel of that address waiting first, if any."""
        with self._lock:
            client = channel.client
            self._running[client] -= 1
            if self._running[client] <= 0:
                del self._running[client]
            waiting = self._waiting.get(client)
            if not waiting:
                return None
            resumed = waiting.popleft()
            if not waiting:
                del self._waiting[client]
            return resumed


class FairChannel(HTTPChannel):
    """A waitress connection that frees its thread while its phone is slow (module's doc)."""

    limits: Limits  # set on the subclass a server makes (see channel_class)

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        self.client = str(addr[0]) if isinstance(addr, tuple) else str(addr)
        held = sum(
            1
            for channel in list(server.active_channels.values())
            if getattr(channel, "client", None) == self.client and not channel.will_close
        )
        super().__init__(server, sock, addr, adj, map)
        self.parked = False  # a request waits for the phone to read the answer before it
        self.last_sent = self.creation_time
        self.reading: object | None = None  # the request being read and when it began
        self.reading_since = self.creation_time
        self.writing = False  # a worker thread is writing an answer (see write_soon)
        self.shut = False  # being closed (see close_soon)
        if held >= self.limits.connections:
            self.will_close = True  # closed on the loop's next pass, before any reading

    # ------------------------------------------------------------- the loop's thread

    def received(self, data: bytes) -> bool:
        result = bool(super().received(data))
        if self.request is not self.reading:  # a new request began in this data
            self.reading = self.request
            self.reading_since = time.time()
        return result

    def handle_write(self) -> None:
        super().handle_write()
        self.resume_if_read()

    def resume_if_read(self) -> None:
        """Run the parked request once the phone has read the answer before it."""
        if not self.parked:
            return
        with self.outbuf_lock:
            ready = self.parked and (
                not self.connected or self.total_outbufs_len <= self.adj.outbuf_high_watermark
            )
            if ready:
                self.parked = False
        if ready:
            self.server.add_task(self)  # type: ignore[arg-type]  # a channel is its task

    def close_soon(self) -> None:
        """Close on the loop's next pass. Marking it (as waitress does) is not enough: a socket
        whose phone reads nothing never becomes writable, and waitress closes a marked one when
        it writes. Shut down, it is ready at once; its own event closes it (closing it here
        would free its descriptor for a new connection while the loop still has events of the
        old one to hand out)."""
        self.will_close = True
        self.shut = True
        if self.socket is not None:
            with contextlib.suppress(OSError):
                self.socket.shutdown(socket.SHUT_RDWR)

    def late(self, now: float) -> bool:
        """Whether the request being read has taken longer than its headers and body may."""
        request = self.request
        if request is None or getattr(request, "completed", False):
            return False
        allowed = self.limits.header_seconds
        if request.headers_finished:  # a chunked body says no length: as long as the largest
            length = self.adj.max_request_body_size if request.chunked else request.content_length
            allowed += (length or 0) / BODY_RATE
        return now - self.reading_since > allowed

    def stalled(self, now: float) -> bool:
        """Whether the phone has read nothing of what waits for it for ``send_seconds`` (a
        stream's thread may be waiting for it, or between two events)."""
        return bool(self.total_outbufs_len) and now - self.last_sent > self.limits.send_seconds

    def idle(self, now: float, timeout: float) -> bool:
        """Whether nothing moved for ``timeout`` and no thread runs a request of it."""
        return (not self.requests or self.parked) and self.last_activity < now - timeout

    def _flush_some(self, do_close: bool = True) -> bool:
        sent = bool(super()._flush_some(do_close=do_close))  # type: ignore[misc]
        if sent:
            self.last_sent = time.time()
        return sent

    # ------------------------------------------------------------- a worker thread

    def service(self) -> None:
        with self.outbuf_lock:
            if self.connected and self.total_outbufs_len > self.adj.outbuf_high_watermark:
                # The phone has not read the last answer: wait for it without a thread.
                self.parked = True
                self.server.pull_trigger()
                return
        limits = self.limits
        if not limits.enter(self):
            return  # its address runs as many as it may: resumed by the one that ends
        try:
            super().service()
        finally:
            resumed = limits.leave(self)
            if resumed is not None:
                self.server.add_task(resumed)  # type: ignore[arg-type]

    def write_soon(self, data: bytes) -> int:
        if data and not self.total_outbufs_len:
            self.last_sent = time.time()  # waiting for the phone to read starts now
        self.writing = True
        try:
            return int(super().write_soon(data))
        finally:
            self.writing = False

    def _flush_outbufs_below_high_watermark(self) -> None:
        """Within an answer (written in pieces, a stream): wait for the phone to read, at most
        ``send_seconds`` without a byte going out, then close; the thread goes back. Between two
        requests: wait for nothing, the next one parks (:meth:`service`)."""
        if not self.writing or self.total_outbufs_len <= self.adj.outbuf_high_watermark:
            return
        with self.outbuf_lock:
            _, failed = self._flush_exception(  # type: ignore[attr-defined]
                self._flush_some, do_close=False
            )
            if failed:
                self.server.pull_trigger()
                self.outbuf_lock.wait()
                return
            while self.connected and self.total_outbufs_len > self.adj.outbuf_high_watermark:
                if time.time() - self.last_sent > self.limits.send_seconds:
                    self.will_close = True
                    self.connected = False  # write_soon raises ClientDisconnected
                    self.server.pull_trigger()
                    raise ClientDisconnected
                self.server.pull_trigger()
                self.outbuf_lock.wait(1.0)


class FairServer(TcpWSGIServer):
    """waitress's TCP server with :class:`FairChannel` connections and fair limits."""

    channel_class: type[FairChannel]

    def readable(self) -> bool:
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = int(now + self.adj.cleanup_interval)
            self.maintenance(now)
        return bool(self.accepting)  # at the limit a connection is closed to make room

    def maintenance(self, now: float) -> None:
        timeout = self.adj.channel_timeout
        for channel in self._channels():
            if not isinstance(channel, FairChannel) or channel.shut:
                continue
            given_up = channel.will_close and not channel.connected  # its thread gave up on it
            if given_up or channel.idle(now, timeout) or channel.late(now) or channel.stalled(now):
                channel.close_soon()

    def _channels(self) -> list[Any]:
        # (waitress's type stubs call active_channels a channel: it is a dict of them)
        return list(cast(dict[int, Any], self.active_channels).values())

    def handle_accept(self) -> None:
        # Every connection waiting, not one per pass of the loop: each pass goes through every
        # open connection, and 500 phones reconnecting at once cost 500 passes.
        channels = cast(dict[int, Any], self.active_channels)
        for _ in range(ACCEPT_AT_ONCE):
            before = len(channels)
            super().handle_accept()
            if len(channels) == before:
                return  # none waiting (or a socket gone before it was taken)
            self._make_room()

    def _make_room(self) -> None:
        open_ = [c for c in self._channels() if not c.will_close and not getattr(c, "shut", False)]
        if len(open_) > self.adj.connection_limit:
            victim = _least_needed(open_)
            if victim is not None:
                victim.close_soon()


def _least_needed(channels: list[Any]) -> Any:
    """The connection to close at the limit: one that runs nothing (a request being read, an
    idle keep-alive, one waiting for its phone to read), of the address holding the most,
    the longest idle of them; None if every connection runs something."""
    held: dict[str, int] = defaultdict(int)
    for channel in channels:
        held[getattr(channel, "client", "")] += 1
    candidates = [
        c
        for c in channels
        if (not c.requests or getattr(c, "parked", False)) and not getattr(c, "shut", False)
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda c: (held[getattr(c, "client", "")], -c.last_activity))


def fair_server(
    app: Any,
    limits: Limits,
    error_task: type[ErrorTask],
    **adjustments: Any,
) -> FairServer:
    """A listening :class:`FairServer` for ``app`` with waitress ``adjustments``."""
    adj = Adjustments(**adjustments)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    channel = type(
        "FairChannelOfServer",
        (FairChannel,),
        {"limits": limits, "error_task_class": error_task},
    )
    server = FairServer(
        app, {}, True, None, dispatcher=dispatcher, adj=adj, sockinfo=cast(Any, adj.listen)[0]
    )
    server.channel_class = channel
    return server
