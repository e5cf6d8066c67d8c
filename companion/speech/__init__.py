"""The voice of the table: spoken reminders and sound cues that never delay a press.

- :class:`Voice` is what the daemon uses: ``voice.handle(command)`` for ``Say`` and ``Cue``.
- :class:`SpeechWorker` owns the one pyttsx3/espeak-ng engine in a child process.
- :class:`AudioOutput` plays speech and cues one sound at a time, through ``aplay`` run by a
  :class:`PlayerProcess` of its own.
- :class:`SpeechConfig` is the ``[speech]`` section of the configuration file.
"""

from __future__ import annotations

from .config import SpeechConfig
from .output import AplayPlayer, AudioOutput, Player, PlayerError
from .player_process import PlayerProcess
from .sounds import CueSounds, render_steps, wav_duration
from .voice import Voice
from .worker import SpeechStats, SpeechWorker

__all__ = [
    "AplayPlayer",
    "AudioOutput",
    "CueSounds",
    "Player",
    "PlayerError",
    "PlayerProcess",
    "SpeechConfig",
    "SpeechStats",
    "SpeechWorker",
    "Voice",
    "render_steps",
    "wav_duration",
]
