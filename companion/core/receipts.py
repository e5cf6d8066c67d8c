"""A phone's ``Idempotency-Key``, kept with the change its action made.

The web adapter hands the key of an action to the hub; while the action runs, every store it
writes to keeps a :class:`Receipt` in the same transaction as the change. A retry of the same
key (after the answer was lost, the box restarted, or a thousand other keys went by) then finds
the receipt and is answered, not done again.

How many receipts are kept is counted, never timed: a clock set wrong (a box without a real-time
clock comes back hours ahead) would otherwise drop the receipt of a round a phone is retrying.
Each phone session has its own budget, :data:`KEEP_PER_SESSION` (its newest receipts: a phone
flooding keys pushes out only its own), and the stores keep the :data:`KEEP_SESSIONS` sessions
that wrote last; the order is a sequence the stores number, which cannot jump.
"""

from __future__ import annotations

from dataclasses import dataclass

KEEP_PER_SESSION = 100  # a phone retries its last few actions, the page one at a time
KEEP_SESSIONS = 100  # sessions that wrote, newest first: far more than a table's phones


@dataclass(frozen=True)
class Receipt:
    """``key`` sent by the phone whose session is ``scope``, for the request ``fingerprint``
    (its path and body hashed: the same key with another request is refused)."""

    scope: str
    key: str
    fingerprint: str
