"""The motion lane's queue: the movements waiting, merged the way the real launcher's motor
runs on (see :mod:`.launcher`'s docstring). Not thread-safe: its owner holds a lock around
every call."""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import replace
from typing import Any

from companion.core.commands import Eject
from companion.core.limits import MAX_HAND

logger = logging.getLogger("companion.devices.launcher")

MAX_PENDING = 16  # movements waiting on the motion lane, at most
MAX_EJECTION = MAX_HAND  # cards in one ejection, merged ones included: a whole deck
Job = tuple[str, Any]  # ("home", None), ("turn", Turn) or ("eject", Eject)


class MotionQueue:
    """Movements waiting for the motion lane, oldest first, bounded by :data:`MAX_PENDING`."""

    def __init__(self) -> None:
        self.jobs: deque[Job] = deque()
        self.coalesced = 0  # movements merged into a waiting one
        self.aim: int | None = None  # the seat of the latest turn asked: where to rest

    def __len__(self) -> int:
        return len(self.jobs)

    def put(self, job: Job) -> None:
        """Queue ``job``, or merge it into a waiting movement."""
        if job[0] == "turn":
            self.aim = job[1].seat
        if not self._coalesce(job):
            self.jobs.append(job)

    def take(self) -> Job:
        return self.jobs.popleft()

    def clear(self) -> None:
        self.jobs.clear()

    def waiting(self) -> list[tuple[str, int]]:
        """Each movement as it will run: ``("home", 0)``, ``("turn", seat)`` or
        ``("eject", cards)`` (merged ones as one)."""
        return [(kind, _movement_number(kind, command)) for kind, command in self.jobs]

    def _coalesce(self, job: tuple[str, Any]) -> bool:
        """Merge ``job`` into a waiting movement when the real launcher would; True if
        merged."""
        kind, command = job
        pending = self.jobs
        if kind == "home" or not pending:
            return False
        last_kind, last = pending[-1]
        if kind == "turn" and last_kind == "turn":
            pending[-1] = job  # the latest target only
        elif (
            kind == "eject"
            and last_kind == "eject"
            and last.seat == command.seat
            and last.cards < MAX_EJECTION
        ):
            # The motor runs on, up to a deck; the rest waits as an ejection of its own.
            merged = min(MAX_EJECTION, last.cards + command.cards)
            pending[-1] = ("eject", replace(last, cards=merged))
            rest = last.cards + command.cards - merged
            if rest:
                self._enqueue_rest(replace(command, cards=rest))
        elif len(pending) < MAX_PENDING:
            return False
        elif kind == "eject":
            if _last_index(pending, "eject") is None:
                return False  # only turns wait: the bound below still holds (one per turn)
            # Into the latest waiting ejections that have room, each up to a deck.
            rest = command.cards
            for at in range(len(pending) - 1, -1, -1):
                waiting_kind, waiting = pending[at]
                if rest and waiting_kind == "eject" and waiting.cards < MAX_EJECTION:
                    merged = min(MAX_EJECTION, waiting.cards + rest)
                    rest -= merged - waiting.cards
                    pending[at] = ("eject", replace(waiting, cards=merged))
            if rest:
                logger.warning("launcher: %d card(s) past the waiting decks dropped", rest)
        else:
            index = _last_index(pending, "turn")
            if index is None:
                return False
            pending[index] = job
        self.coalesced += 1
        return True

    def _enqueue_rest(self, eject: Eject) -> None:
        """Cards past a full ejection: their own movement, or merged as the bound allows."""
        if len(self.jobs) < MAX_PENDING:
            self.jobs.append(("eject", eject))
        else:
            self._coalesce(("eject", eject))


def _movement_number(kind: str, command: Any) -> int:
    """The seat of a turn, the cards of an ejection, 0 for homing."""
    if kind == "turn":
        return int(command.seat)
    if kind == "eject":
        return int(command.cards)
    return 0


def _last_index(pending: deque[Job], kind: str) -> int | None:
    for index in range(len(pending) - 1, -1, -1):
        if pending[index][0] == kind:
            return index
    return None
