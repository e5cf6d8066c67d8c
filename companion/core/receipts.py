"""A phone's ``Idempotency-Key``, kept with the change its action made.

The web adapter hands the key of an action to the hub; while the action runs, every store it
writes to keeps a :class:`Receipt` in the same transaction as the change. A retry of the same
key (after the answer was lost, the box restarted, or a thousand other keys went by) then finds
the receipt and is answered, not done again. How long receipts are kept is the stores' limit:
:data:`KEEP_SECONDS` and :data:`KEEP_RECEIPTS`, pruned in the same transactions.
"""

from __future__ import annotations

from dataclasses import dataclass

KEEP_SECONDS = 24 * 3600.0  # a retry comes within seconds; an evening is a few hours
KEEP_RECEIPTS = 10_000  # per store: far more than an evening's changes (each one writes one)


@dataclass(frozen=True)
class Receipt:
    """``key`` sent by the phone whose session is ``scope``, for the request ``fingerprint``
    (its path and body hashed: the same key with another request is refused)."""

    scope: str
    key: str
    fingerprint: str
