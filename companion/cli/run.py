"""``uno-companion run``: the daemon on the box (``simulate`` runs the same on mock pins)."""

from __future__ import annotations

import argparse
import ctypes
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from companion.config import Config

from .common import (
    add_config_argument,
    add_state_dir_argument,
    choose_seed,
    load_or_exit,
    print_qr,
    state_dir_or_exit,
)

log = logging.getLogger("companion.daemon")

# glibc gives a thread that meets another in the allocator an arena of its own, up to 8 per core.
# The daemon runs some forty threads (one waitress thread per live stream): their large buffers,
# made by one thread and freed by another, end up spread over a dozen arenas that each keep
# their own free memory, and the box's memory creeps up all evening. Two arenas keep it flat
# under `make soak` (see docs/robustness.md), with no measurable cost in latency.
MALLOC_ARENAS = 2
M_ARENA_MAX = -8  # mallopt's parameter number, from glibc's malloc.h


def add_daemon_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    add_state_dir_argument(parser)
    parser.add_argument("--host", default=None, help="address of the phone page (web.host)")
    parser.add_argument("--port", type=int, default=None, help="port of the phone page (web.port)")
    parser.add_argument("--no-voice", action="store_true", help="no speech or speaker cues")
    parser.add_argument("--no-web", action="store_true", help="no phone page")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("run", help="run the table on the Raspberry Pi")
    add_daemon_arguments(parser)
    parser.add_argument(
        "--backend",
        choices=("auto", "pigpio", "lgpio", "rpigpio", "mock"),
        default=None,
        help="GPIO library (default: hardware.backend)",
    )
    parser.add_argument("--seed", type=int, default=None, help="launcher random seed")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return run_daemon(load_or_exit(args.config), args, simulate=False)


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Hold this process to ``arenas`` glibc allocator arenas; ``False`` when not on glibc or
    when ``MALLOC_ARENA_MAX`` is set (the environment wins: glibc has read it already)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):  # (raises ValueError on macOS)
            return False
        return bool(ctypes.CDLL(None).mallopt(M_ARENA_MAX, arenas))
    except (ValueError, OSError, AttributeError):
        return False


THREADS_REFUSED = (
    "cannot start its threads: the memory or process limit is too low (ulimit -v / ulimit -u, "
    "or the service's MemoryMax= / TasksMax=); raise it to 1 GB of address space and 64 tasks "
    "or more, then start again"
)


def run_daemon(config: Config, args: argparse.Namespace, *, simulate: bool) -> int:
    """``run`` and ``simulate``: start the daemon, serve until a signal, stop cleanly."""
    from companion.daemon import Daemon, DaemonOptions, StartupError  # pulls in every adapter

    options = DaemonOptions(
        simulate=simulate,
        backend=getattr(args, "backend", None),
        state_dir=state_dir_or_exit(args.state_dir, config, simulate=simulate),
        seed=choose_seed(config, getattr(args, "seed", None)),
        web=not args.no_web,
        voice=not args.no_voice,
        host=args.host,
        port=args.port,
    )
    frames = getattr(args, "camera_frames", None)
    if frames is not None:
        options.camera_source = f"folder:{frames}"
    if not simulate:
        wait_after_quick_restarts()
    limit_malloc_arenas()  # before the daemon's threads start
    daemon = Daemon(config, options)
    try:
        daemon.start()
    except StartupError as exc:
        log.error("%s", exc)
        print(f"uno-companion: {exc}")
        return 2
    except (RuntimeError, MemoryError) as exc:
        if isinstance(exc, RuntimeError) and "thread" not in str(exc):
            raise
        # ``ulimit -v`` or a service's MemoryMax=/TasksMax= too low: each thread reserves its
        # stack; what is to be done is said, not a traceback.
        log.error("cannot start: %s", exc)
        print(f"uno-companion: {THREADS_REFUSED} ({exc})", file=sys.stderr)
        return 2
    daemon.install_signal_handlers()
    try:
        if simulate:
            from companion.terminal import TerminalTable

            TerminalTable(daemon).run()
        else:
            log.info("table ready at %s", " or ".join(daemon.urls) or "(no page)")
            if sys.stdout.isatty():  # started by hand: the first phone scans the terminal
                print_qr(daemon.urls)
            daemon.wait()
    finally:
        daemon.stop()
    return 0


def wait_after_quick_restarts() -> None:
    """Under systemd, slow a crash loop down (see :mod:`companion.app.restarts`)."""
    runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if not runtime:
        return
    from companion.app.restarts import restart_delay

    delay = restart_delay(Path(runtime), time.time())
    if delay:
        log.warning("started again soon after a failure: waiting %.0f s first", delay)
        time.sleep(delay)
