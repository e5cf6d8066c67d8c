"""``uno-companion sounds``: play every sound cue, to check the speaker on a new box.

Each cue is played once, in turn, through ``aplay`` on the configured output; the suspense cue
is played calm, halfway and at the brink. ``--to-dir DIR`` writes one WAV per cue instead.
Exit status 1, with the reason, when the sound could not be played.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from companion.core.commands import CueName
from companion.core.cues import CUE_NAMES
from companion.speech import AplayPlayer, CueSounds, PlayerError, wav_duration
from companion.speech.audio import audio_device

from .common import add_command, add_config_argument
from .say import speech_settings


def cue_list() -> list[tuple[str, CueName, float]]:
    """``(label, cue, level)`` for every cue, the suspense cue at three tempos."""
    cues: list[tuple[str, CueName, float]] = []
    for name in CUE_NAMES:
        if name == "suspense":
            cues += [(f"suspense-{level:.1f}", name, level) for level in (0.0, 0.5, 1.0)]
        else:
            cues.append((name, name, 0.0))
    return cues


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "sounds", "play every sound cue (checks the speaker)", __doc__)
    add_config_argument(parser)
    parser.add_argument("--device", help="ALSA device (default: the one speech.audio_output picks)")
    parser.add_argument("--to-dir", type=Path, metavar="DIR", help="write WAV files instead")
    parser.add_argument(
        "--gap", type=float, default=0.4, metavar="SECONDS", help="silence between cues (0.4)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    speech, _ = speech_settings(args)
    sounds = CueSounds(speech.cue_volume)
    device = (
        audio_device(speech.audio_device, speech.audio_output)
        if args.device is None
        else args.device
    )
    player = AplayPlayer(device)
    if args.to_dir is not None:
        try:
            args.to_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"uno-companion sounds: cannot create {args.to_dir}: {exc}", file=sys.stderr)
            return 1
    for label, name, level in cue_list():
        wav = sounds.wav(name, level)
        print(f"{label:<13} {wav_duration(wav):.2f} s", flush=True)
        try:
            if args.to_dir is not None:
                (args.to_dir / f"{label}.wav").write_bytes(wav)
            else:
                player.play(wav)
                time.sleep(max(0.0, args.gap))  # so each cue is heard on its own
        except PlayerError as exc:
            print(
                f"uno-companion sounds: could not play on ALSA device {device or 'default'}: "
                f"{exc}\nList devices with `aplay -L`; set speech.audio_output "
                "or speech.audio_device, or use --to-dir DIR to check the sounds elsewhere.",
                file=sys.stderr,
            )
            return 1
        except OSError as exc:
            print(f"uno-companion sounds: cannot write: {exc}", file=sys.stderr)
            return 1
    return 0
