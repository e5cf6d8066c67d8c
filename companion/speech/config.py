"""The ``[speech]`` section as the voice reads it: declared and checked with the rest of the
configuration in :mod:`companion.config.speech`."""

from companion.config.speech import AUDIO_OUTPUTS, TURN_ANNOUNCEMENTS, SpeechConfig

__all__ = ["AUDIO_OUTPUTS", "TURN_ANNOUNCEMENTS", "SpeechConfig"]
