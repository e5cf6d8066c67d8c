"""Which sound card speaks: chosen in the configuration (``speech.audio_output``), not the unit.

The ALSA cards are read from ``/proc/asound/cards`` and sorted into kinds:

- ``usb``: a USB sound card or speaker (driver ``USB-Audio``);
- ``hat``: an I2S speaker HAT or bonnet (MAX98357, HiFiBerry, WM8960...). These use GPIO 18–21,
  so no part of the launcher may be wired there (:data:`AUDIO_PINS`);
- ``jack``: the 3.5 mm jack of a Pi 3 or 4 (``bcm2835 Headphones``); the Pi 5, Pi 400 and
  Zero 2 W have none;
- ``hdmi``: the sound of an HDMI screen.

``auto`` picks a USB card or a HAT when one is present, else the jack, else HDMI: whatever the
maker added on purpose wins over what the board has built in. ``none`` keeps the box silent.
The result is an ALSA device name for ``aplay -D`` (``default:CARD=Device``), which a system
service can use without any desktop sound server. This module only reads files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.config.speech import AUDIO_OUTPUTS

# Kinds in the order ``auto`` prefers them.
AUTO_ORDER = ("usb", "hat", "jack", "hdmi")
# GPIO lines each kind of output takes on the header (I2S: clock, frame, data in, data out).
AUDIO_PINS: dict[str, frozenset[int]] = {
    "usb": frozenset(),
    "hat": frozenset({18, 19, 20, 21}),
    "jack": frozenset(),
    "hdmi": frozenset(),
    "none": frozenset(),
}
CARDS_FILE = Path("/proc/asound/cards")

# " 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones"
_CARD_LINE = re.compile(r"^\s*(\d+)\s+\[(\S+)\s*\]:\s*(\S+)\s+-\s+(.*)$")


@dataclass(frozen=True)
class SoundCard:
    """One ALSA card: its index, id (``Headphones``), driver and long name."""

    index: int
    id: str
    driver: str
    name: str

    @property
    def kind(self) -> str:
        text = f"{self.id} {self.driver} {self.name}".lower()
        if "usb" in self.driver.lower():
            return "usb"
        if "hdmi" in text:
            return "hdmi"
        if "headphones" in text or "bcm2835" in text:
            return "jack"
        return "hat"

    @property
    def device(self) -> str:
        """The ALSA device for ``aplay -D``; the card's ``default`` PCM converts formats (the
        Pi's HDMI only accepts IEC958 frames, which ``plughw`` cannot produce)."""
        return f"default:CARD={self.id}"


@dataclass(frozen=True)
class AudioChoice:
    """What ``speech.audio_output`` resolved to: a card (or None) and why, in plain words."""

    output: str
    card: SoundCard | None
    reason: str

    @property
    def device(self) -> str:
        return self.card.device if self.card else ""

    @property
    def pins(self) -> frozenset[int]:
        return AUDIO_PINS[self.card.kind] if self.card else frozenset()


def parse_cards(text: str) -> list[SoundCard]:
    """The cards listed in the text of ``/proc/asound/cards`` (each has a second, indented line)."""
    cards = []
    for line in text.splitlines():
        match = _CARD_LINE.match(line)
        if match:
            index, card_id, driver, name = match.groups()
            cards.append(SoundCard(int(index), card_id, driver, name.strip()))
    return cards


def read_cards(path: Path = CARDS_FILE) -> list[SoundCard]:
    """The ALSA cards present; none when the file is missing (no sound support at all)."""
    try:
        return parse_cards(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []


def choose_audio(output: str, cards: list[SoundCard]) -> AudioChoice:
    """The card ``output`` (one of :data:`AUDIO_OUTPUTS`) names among ``cards``."""
    if output not in AUDIO_OUTPUTS:
        raise ValueError(f"unknown audio output {output!r}: use {', '.join(AUDIO_OUTPUTS)}")
    if output == "none":
        return AudioChoice(output, None, "the box is set to stay silent (audio_output = none)")
    found = ", ".join(f"{c.id} ({c.kind})" for c in cards) or "no sound card"
    wanted = AUTO_ORDER if output == "auto" else (output,)
    for kind in wanted:
        for card in cards:
            if card.kind == kind:
                return AudioChoice(output, card, f"{kind} output {card.id} ({card.name})")
    return AudioChoice(output, None, f"no {' or '.join(wanted)} output found; found: {found}")


def audio_device(configured_device: str, output: str, cards_file: Path = CARDS_FILE) -> str:
    """The ALSA device to play on: ``speech.audio_device`` when set (an explicit override),
    else the card ``speech.audio_output`` picks; empty (ALSA's default) when none matches."""
    if configured_device:
        return configured_device
    return choose_audio(output, read_cards(cards_file)).device
