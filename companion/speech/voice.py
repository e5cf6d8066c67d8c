"""The voice of the table: what the daemon hands ``Say`` and ``Cue`` commands to.

:class:`Voice` turns a ``Say`` into a sentence from the message catalog in the table's language,
decides whether it is worth saying (turn announcements follow ``speech.turn_announcements``) and
files it with the :class:`~companion.speech.worker.SpeechWorker`; a ``Cue`` becomes a short WAV
on the same :class:`~companion.speech.output.AudioOutput`. Nothing here waits for the speaker,
and nothing raises into the caller: a press is never delayed or lost because of the voice.

:meth:`Voice.handle` runs on the hub thread, between the launcher being told and the press's
buzzer and ejector threads taking the interpreter: it only hands the command over. The voice's
own thread, at the lowest priority, turns it into a line or a cue a moment later
(``HANDOVER_DELAY``), once the press's outputs have had their turn: a spoken line lasts a
second or more, two milliseconds more are not heard.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Mapping
from dataclasses import replace

from companion.core.commands import Cue, Priority, Say
from companion.i18n import LANGUAGES, Catalog

from .audio import audio_device
from .config import SpeechConfig
from .engine import DEFAULT_ENGINE
from .output import AudioOutput, Player
from .player_process import PlayerProcess
from .priority import lower_priority
from .sounds import CueSounds
from .worker import SpeechStats, SpeechWorker

log = logging.getLogger(__name__)

TURN_KEY = "table.turn"
TURN_REASONS_REVERSE_SKIP = frozenset({"reverse", "skip"})
STANDINGS_KEY = "results.standings"
STANDINGS_ENTRY_KEY = "results.standings_entry"
# Lines about the same subject: a newer one replaces a queued one (see ``slot_for``).
SLOT_GROUPS: Mapping[str, str] = {
    # Who acts next: a press prompt is superseded by the turn that follows it.
    "table.turn": "next",
    "table.press_owed": "next",
    "table.press_owed_one": "next",
    "table.press_until_fire": "next",
    "table.colour_red": "colour",
    "table.colour_yellow": "colour",
    "table.colour_green": "colour",
    "table.colour_blue": "colour",
    "table.magazine_low": "magazine",
    "table.reload_needed": "magazine",
    "table.reloaded": "magazine",
}
# Lines about one player: replaced only by a newer one about the same player.
PER_PLAYER_KEYS = frozenset({"table.uno", "table.uno_reminder", "table.fired"})
# Results are worth hearing a little late; everything else is dropped after ``stale_after``.
RESULT_AGE_FACTOR = 5.0
# How long a handed-over command waits before the voice's thread acts on it: past the press's
# first pin change (p99 under a millisecond, ``make bench ARGS=daemon``), far below what an ear
# notices in a sentence or in a speaker cue that follows the buzzer's.
HANDOVER_DELAY = 0.002


def render(catalog: Catalog, say: Say, language: str) -> str:
    """The sentence for ``say`` in ``language``.

    ``results.standings`` takes flat params ``player1``, ``points1``, ``player2``, ``points2``...
    (best first) and lists them with ``results.standings_entry``.
    """
    params: Mapping[str, object] = say.params
    if say.key == STANDINGS_KEY:
        entries = []
        rank = 1
        while f"player{rank}" in say.params:
            entry_params = {
                "rank": rank,
                "player": say.params[f"player{rank}"],
                "points": say.params.get(f"points{rank}", 0),
            }
            entries.append(catalog.text(STANDINGS_ENTRY_KEY, language, entry_params))
            rank += 1
        params = {**say.params, "standings": ", ".join(entries)}
    return catalog.text(say.key, language, params)


def slot_for(say: Say) -> str | None:
    """What a line is about, so a newer line on the same subject replaces a queued one.

    Penalties and results are events, each must be heard: no slot. Other lines describe the
    current state (whose turn, presses owed, magazine level): only the newest matters.
    """
    if say.priority >= Priority.PENALTY:
        return None
    if say.key in PER_PLAYER_KEYS:
        return f"{say.key}:{say.params.get('player', '')}"
    return SLOT_GROUPS.get(say.key, say.key)


class Voice:
    """Speech and speaker cues for the daemon.

    ``language`` is ``"fr"`` or ``"en"``. ``player`` plays WAV bytes (default: ``aplay`` on
    the device ``speech.audio_output`` picks); ``engine_factory`` names the speech engine
    (tests use fakes).
    Call :meth:`close` when the daemon stops.
    """

    def __init__(
        self,
        config: SpeechConfig,
        catalog: Catalog,
        language: str,
        *,
        player: Player | None = None,
        engine_factory: str = DEFAULT_ENGINE,
    ) -> None:
        self.config = config
        self.catalog = catalog
        self.language = language if language in LANGUAGES else LANGUAGES[0]
        self.cues = CueSounds(config.cue_volume)
        self._render_cues(self.cues)
        speaker = (
            player
            if player is not None
            else PlayerProcess(audio_device(config.audio_device, config.audio_output))
        )
        self.output = AudioOutput(speaker)
        self.worker = SpeechWorker(config, self.output.play_speech, engine_factory=engine_factory)
        self._errors_logged: set[str] = set()
        # Commands handed over with the language of the moment, a ``threading.Event`` to mark
        # a point reached (:meth:`wait_idle`), or None to stop.
        self._inbox: queue.SimpleQueue[tuple[object, str] | threading.Event | None] = (
            queue.SimpleQueue()
        )
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def handle(self, command: object) -> None:
        """Hand a ``Say`` or ``Cue`` command over to the voice's thread (anything else is
        ignored); returns at once and never raises. Lines keep the language of the moment."""
        if isinstance(command, Say | Cue) and not self._closed:
            self._inbox.put((command, self.language))

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every command handed over so far was acted on and nothing is queued or
        being spoken; True if so within ``timeout`` seconds."""
        if self._closed:
            return self.worker.wait_idle(timeout)
        deadline = time.monotonic() + timeout
        reached = threading.Event()
        self._inbox.put(reached)
        if not reached.wait(timeout):
            return False
        return self.worker.wait_idle(max(0.0, deadline - time.monotonic()))

    def _run(self) -> None:
        lower_priority()  # this thread: a line may wait a moment, a press may not
        while (item := self._inbox.get()) is not None:
            time.sleep(HANDOVER_DELAY)  # the press that handed it over goes first
            while item is not None:
                if isinstance(item, threading.Event):
                    item.set()
                else:
                    self._act(*item)
                try:
                    item = self._inbox.get_nowait()
                except queue.Empty:
                    break
            if item is None:
                return

    def _act(self, command: object, language: str) -> None:
        try:
            if isinstance(command, Say):
                self._say(command, language)
            elif isinstance(command, Cue) and self.config.cues_enabled:
                self.output.play_cue(self.cues.wav(command.name, command.level))
        except Exception as exc:  # the voice must never break: log once, go on
            message = f"{type(exc).__name__}: {exc}"
            if message not in self._errors_logged:
                self._errors_logged.add(message)
                log.exception("voice could not handle %r", command)

    def wants(self, say: Say) -> bool:
        """Whether ``say`` should be spoken under the turn-announcement setting."""
        if say.key != TURN_KEY:
            return True
        mode = self.config.turn_announcements
        if mode == "off":
            return False
        if mode == "reverse_skip":
            return say.params.get("reason") in TURN_REASONS_REVERSE_SKIP
        return True

    def set_volume(self, level: float) -> None:
        """Loudness 0..1 of speech and cues from now on (the page's slider)."""
        level = min(1.0, max(0.0, level))
        self.worker.config = replace(self.worker.config, volume=self.config.volume * level)
        self._render_cues(CueSounds(self.config.cue_volume * level))

    def _render_cues(self, cues: CueSounds) -> None:
        """Render ``cues`` on a thread of their own, then play them: a press only ever picks
        a ready WAV (until then, the cues already in use go on playing)."""
        self._wanted_cues = cues

        def render() -> None:
            cues.render_all()
            if self._wanted_cues is cues:  # not replaced by a newer volume meanwhile
                self.cues = cues

        threading.Thread(target=render, name="cue-render", daemon=True).start()

    def set_language(self, language: str) -> None:
        """Speak ``"fr"`` or ``"en"`` from now on (lines already queued keep theirs)."""
        if language in LANGUAGES:
            self.language = language
        else:
            log.warning("voice: unknown language %r, keeping %s", language, self.language)

    def voice_id(self, language: str | None = None) -> str:
        """The espeak-ng voice configured for ``language`` (default: the table's)."""
        return self.config.voice_en if (language or self.language) == "en" else self.config.voice_fr

    def stats(self) -> SpeechStats:
        return self.worker.stats()

    def close(self) -> None:
        """Stop speaking: drop queued lines and sounds, stop the engine process."""
        self._closed = True
        self._inbox.put(None)
        self._thread.join(2.0)
        try:
            self.output.close()
            self.worker.close()
        except Exception:
            log.exception("voice did not close cleanly")

    def _say(self, say: Say, language: str) -> None:
        if not self.config.enabled or not self.wants(say):
            return
        text = render(self.catalog, say, language)
        max_age = self.config.stale_after
        if say.priority >= Priority.RESULT:
            max_age *= RESULT_AGE_FACTOR
        self.worker.submit(
            text, say.priority, slot_for(say), voice=self.voice_id(language), max_age=max_age
        )
