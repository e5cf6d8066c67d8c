"""The camera as a table input: its own thread reads frames, only decided plays cross the door.

A card the camera is sure of plays for the player whose turn it is (source ``camera``); one it
is unsure of, could not read, or whose target the table must name is asked on the phones, and
the cards seen after it wait behind it, in order (:mod:`.questions`). See :mod:`.service`.
"""

from .cards import card_read, face_of, play_event, play_payload
from .pictures import KEPT, Pictures
from .service import CameraService
from .watch import Camera, Frame, Sighting

__all__ = [
    "KEPT",
    "Camera",
    "CameraService",
    "Frame",
    "Pictures",
    "Sighting",
    "card_read",
    "face_of",
    "play_event",
    "play_payload",
]
