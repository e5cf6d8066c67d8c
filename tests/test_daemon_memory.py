"""The daemon holds glibc's allocator to two arenas, so its many threads do not each keep an
arena of free memory (the creep ``make soak`` measures over an evening)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# Six threads that each allocate and stay alive, then the number of arenas glibc reports.
CHILD = r"""
import ctypes, sys, tempfile, threading
from companion.cli.run import limit_malloc_arenas
limited = limit_malloc_arenas() if sys.argv[1] == "limit" else None
libc = ctypes.CDLL(None)
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
libc.fclose.argtypes = [ctypes.c_void_p]
go = threading.Event()
def work():
    kept = [bytes(100_000) for _ in range(3)]
    go.wait()
threads = [threading.Thread(target=work) for _ in range(6)]
for thread in threads:
    thread.start()
with tempfile.NamedTemporaryFile("r") as report:
    out = libc.fopen(report.name.encode(), b"w")
    libc.malloc_info(0, out)
    libc.fclose(out)
    print(limited, report.read().count("<heap nr="))
go.set()
"""


def arenas(mode: str, **env: str) -> tuple[str, int]:
    environment = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode],
        capture_output=True,
        text=True,
        env={**environment, **env},
        timeout=30,
        check=True,
    )
    limited, count = done.stdout.split()
    return limited, int(count)


def test_the_daemon_keeps_two_allocator_arenas() -> None:
    assert arenas("limit") == ("True", 2)
    assert arenas("free")[1] > 2  # what six threads get without the limit
    assert arenas("limit", MALLOC_ARENA_MAX="3") == ("False", 3)  # the environment wins
