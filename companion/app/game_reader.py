"""Game files read in a process of their own, never in the daemon.

A phone's game file (JSON or a CSV score sheet, up to 5 MB) is read, checked and replayed by
``python -m companion.app.game_reader``: the file goes in on the reader's standard input, and out
comes the game as the box's own data (its setup and its log) or the refusal saying why. The
daemon only builds the game from that answer, which is never larger than the box keeps
(:data:`~companion.core.limits.MAX_GAME_ROUNDS` rounds,
:data:`~companion.core.limits.MAX_GAME_ENTRIES` log entries: checked again on this side). So a
file of any size or shape costs the daemon neither its memory nor a long step: the reader runs at
a lower priority with its memory capped (:data:`READER_MEMORY`) and its time bounded
(:data:`READER_SECONDS`); if it fails or is killed, the phone is told the file could not be read
and nothing changed.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.scoring import (
    GameSetup,
    LogEntry,
    Ruleset,
    ScoreBook,
    ScoringError,
    game_from_csv,
    game_from_json,
)
from companion.core.scoring.errors import ENGLISH
from companion.core.scoring.size import check_game_size

log = logging.getLogger(__name__)

READER_SECONDS = 30.0  # a file still being read after this is given up (the reader killed)
READER_MEMORY = 512 * 1024 * 1024  # the reader's address space, at most (bytes)
READER_NICENESS = 10  # below the daemon: the table's own work goes first
# The reader's answer, at most: the largest game the box keeps, written out (bytes).
ANSWER_LIMIT = 64 * 1024 * 1024


@dataclass(frozen=True)
class GameFile:
    """A game file as a phone sent it. A CSV sheet without settings of its own is named
    ``name`` and counted with ``ruleset``; its settings may name one of ``rulesets``."""

    text: str
    format: str  # "json" or "csv"
    name: str
    ruleset: Ruleset
    rulesets: tuple[Ruleset, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "format": self.format,
            "name": self.name,
            "ruleset": self.ruleset.to_dict(),
            "rulesets": [r.to_dict() for r in self.rulesets],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameFile:
        return cls(
            text=data["text"],
            format=data["format"],
            name=data["name"],
            ruleset=Ruleset.from_dict(data["ruleset"]),
            rulesets=tuple(Ruleset.from_dict(r) for r in data["rulesets"]),
        )


def read_game_file(file: GameFile) -> ScoreBook:
    """The game in ``file``, read, checked and replayed here (in this process)."""
    if file.format == "json":
        return game_from_json(file.text)
    return game_from_csv(file.text, name=file.name, ruleset=file.ruleset, rulesets=file.rulesets)


def read_apart(
    file: GameFile,
    *,
    pause: Callable[[], None] | None = None,
    seconds: float = READER_SECONDS,
    command: Sequence[str] = (),
) -> ScoreBook:
    """The game in ``file``, read in a reader process (see the module; ``command`` runs
    another), ``pause()`` now and then while it is built here; raises the
    :class:`ScoringError` saying why the file was refused, or that it could not be read."""
    request = json.dumps(file.to_dict(), ensure_ascii=False).encode()
    try:
        done = subprocess.run(
            list(command) or [sys.executable, "-m", __name__],
            input=request,
            capture_output=True,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ScoringError(
            "import_unreadable", problem=f"still not read after {seconds:g} s"
        ) from None
    except OSError as error:
        raise ScoringError("import_unreadable", problem=f"no reader: {error.strerror}") from None
    if done.returncode != 0:
        why = done.stderr[-2000:].decode(errors="replace")
        log.warning("game reader: exit %s: %s", done.returncode, why)
        raise ScoringError("import_unreadable", problem=_stopped(done.returncode))
    if len(done.stdout) > ANSWER_LIMIT:
        raise ScoringError("import_unreadable", problem="the reader's answer is too long")
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        raise ScoringError("import_unreadable", problem="the reader's answer is not JSON") from None
    return game_of(answer, pause)


def _stopped(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"the reader was stopped ({name})"
    return f"the reader failed (exit {returncode})"


def game_of(answer: Any, pause: Callable[[], None] | None = None) -> ScoreBook:
    """The game in a reader's answer, checked again: at most the box's limits, each entry
    well formed, the final standings whole (the reader replayed every entry already)."""
    if not isinstance(answer, Mapping):
        raise ScoringError("import_unreadable", problem="the reader's answer is not a game")
    refusal = answer.get("refused")
    if isinstance(refusal, Mapping):
        key, params = refusal.get("key"), refusal.get("params")
        if isinstance(key, str) and key in ENGLISH and isinstance(params, Mapping):
            raise ScoringError(key, **params)
        raise ScoringError("import_unreadable", problem="the reader's answer is not a game")
    entries = answer.get("log")
    if not isinstance(entries, list):
        raise ScoringError("import_unreadable", problem="the reader's answer has no log")
    check_game_size(entries)
    setup = GameSetup.from_dict(answer.get("game"), "game")
    return ScoreBook(
        setup,
        [LogEntry.from_dict(item, f"log[{i}]") for i, item in enumerate(entries, start=1)],
        verify=False,
        pause=pause,
    )


def answer_of(file: GameFile) -> dict[str, Any]:
    """What the reader writes back for ``file``: the game, or the refusal saying why."""
    try:
        book = read_game_file(file)
    except ScoringError as error:
        return {"refused": {"key": error.key, "params": error.params}}
    except MemoryError:
        return _refused("too large to read")
    return {"game": book.setup.to_dict(), "log": [entry.to_dict() for entry in book.entries]}


def _refused(problem: str) -> dict[str, Any]:
    return {"refused": {"key": "import_unreadable", "params": {"problem": problem}}}


def _bounded(memory: int, niceness: int) -> None:
    """This process below the daemon, its memory capped."""
    os.nice(niceness)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def main() -> int:
    """The reader: a :class:`GameFile` as JSON on standard input, its answer on standard
    output (see the module)."""
    _bounded(READER_MEMORY, READER_NICENESS)
    try:
        file = GameFile.from_dict(json.loads(sys.stdin.buffer.read()))
    except (ValueError, KeyError, TypeError):
        answer = _refused("the request is not a game file")
    except MemoryError:
        answer = _refused("too large to read")
    else:
        answer = answer_of(file)
    sys.stdout.write(json.dumps(answer, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
