"""``uno-companion say "…"``: speak one line, to check the voice on a new box.

The line goes through the same speech engine process and audio output as the daemon's voice.
``--to-wav FILE`` writes the speech to a file instead of playing it (no speaker needed).
Exit status 1, with the reason, when there is no speech engine or the sound could not be played.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from companion.core.commands import Priority
from companion.i18n import LANGUAGES
from companion.speech import (
    AplayPlayer,
    AudioOutput,
    SpeechConfig,
    SpeechWorker,
    wav_duration,
)
from companion.speech.audio import audio_device
from companion.speech.worker import STARTUP_TIMEOUT

from .common import add_command, load_or_exit


def register(subparsers: Any) -> None:
    summary = "speak a line (checks the speech engine and the speaker)"
    parser = add_command(subparsers, "say", summary, __doc__, handler=run, config=True)
    parser.add_argument("text", help="what to say")
    parser.add_argument("--lang", choices=LANGUAGES, help="language (default: the table's)")
    parser.add_argument("--voice", help="espeak-ng voice (default: speech.voice_fr / voice_en)")
    parser.add_argument("--device", help="ALSA device (default: the one speech.audio_output picks)")
    parser.add_argument("--to-wav", type=Path, metavar="FILE", help="write a WAV file instead")


def speech_settings(args: argparse.Namespace) -> tuple[SpeechConfig, str]:
    """The ``[speech]`` section and the table language, or a clear message and exit 2."""
    config = load_or_exit(args.config)
    return config.speech, config.table.language


def run(args: argparse.Namespace) -> int:
    speech, table_language = speech_settings(args)
    if not speech.enabled:
        print("note: speech is disabled in the configuration (speech.enabled = false)")
    speech = dataclasses.replace(speech, enabled=True)
    language = args.lang or table_language
    voice = args.voice or (speech.voice_en if language == "en" else speech.voice_fr)
    device = (
        audio_device(speech.audio_device, speech.audio_output)
        if args.device is None
        else args.device
    )
    heard: list[bytes] = []
    output: AudioOutput | None = None

    if args.to_wav is not None:
        target: Path = args.to_wav

        def play(wav: bytes) -> bool:
            target.write_bytes(wav)
            heard.append(wav)
            return True

    else:
        output = AudioOutput(AplayPlayer(device))

        def play(wav: bytes) -> bool:
            assert output is not None
            if output.play_speech(wav):
                heard.append(wav)
                return True
            return False

    worker = SpeechWorker(speech, play)
    try:
        worker.submit(args.text, Priority.RESULT, voice=voice, max_age=3600.0)
        worker.wait_idle(STARTUP_TIMEOUT + speech.timeout + 120.0)
        stats = worker.stats()
    except OSError as exc:
        print(f"uno-companion say: cannot write {args.to_wav}: {exc}", file=sys.stderr)
        return 1
    finally:
        worker.close()
        if output is not None:
            output.close()
    if stats.available is False:
        print(
            f"uno-companion say: no speech engine ({worker.unavailable_reason}).\n"
            "Install it with: sudo apt install espeak-ng alsa-utils; pip install pyttsx3",
            file=sys.stderr,
        )
        return 1
    if stats.errors or stats.restarts or not stats.spoken:
        print("uno-companion say: the speech engine failed on this line (see the log)")
        return 1
    if not heard:
        reason = output.last_error if output is not None else "unknown error"
        print(
            f"uno-companion say: could not play on ALSA device {device or 'default'}: {reason}\n"
            "List devices with `aplay -L`; set speech.audio_output or speech.audio_device, or "
            "try --to-wav FILE to check the voice alone.",
            file=sys.stderr,
        )
        return 1
    seconds = wav_duration(heard[0])
    where = f"wrote {args.to_wav}" if args.to_wav is not None else f"said on {device or 'default'}"
    print(f"{where}: {seconds:.1f} s, {language} voice {voice}")
    return 0
