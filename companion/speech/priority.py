"""Lower scheduling priority for speech work, so it never slows the press path.

Synthesis (espeak-ng) is CPU-heavy and the Pi has few cores: the synthesis process runs under
``SCHED_IDLE`` (only when a core has nothing else to do) at nice 19, and ``aplay`` at nice 19
(it needs little CPU but must keep its buffer fed, so it stays in the normal class).
On Linux both settings belong to a *thread*, not a process: espeak-ng synthesises on a thread of
its own, so :func:`lower_process_priority` lowers every thread the process has.
Failures are ignored: a process that keeps its priority still speaks.
"""

from __future__ import annotations

import contextlib
import os

NICEST = 19
TASKS = "/proc/self/task"


def lower_priority(pid: int = 0, *, idle: bool = False) -> None:
    """Nice thread or process ``pid`` (0: the calling thread) to 19 and, with ``idle``, move it
    to ``SCHED_IDLE``."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, pid, NICEST)
    if idle:
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))


def lower_process_priority(*, idle: bool = False) -> None:
    """:func:`lower_priority` for every thread of this process (threads started later inherit
    it from the thread that starts them)."""
    try:
        threads = [int(tid) for tid in os.listdir(TASKS)]
    except OSError:
        threads = [0]
    for tid in threads:
        lower_priority(tid, idle=idle)
