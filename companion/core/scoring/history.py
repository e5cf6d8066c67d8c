"""A game's rounds as the page reads them: one line per round, with the tally the Score screen's
whole-game statistics come from, made again after every change from the history before it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.core.scoring.views import RoundView, same_start

HISTORY_MARK_EVERY = 256  # the history keeps its tally every this many rounds


class History(list[dict[str, Any]]):
    """A game's rounds as the page reads them (one dict per round, oldest first), with a tally
    of who held a hand in how many rounds and each player's costliest hand: the Score screen's
    statistics over the whole game, which the state carries instead of the rounds.

    Made again after every change (a history handed to the web thread never changes), but from
    the one before (:meth:`of` with ``previous``): the lines of the rounds before the first
    changed one are kept, and the tally starts again from the last mark (every
    :data:`HISTORY_MARK_EVERY` rounds) before it, so a recorded round costs one line and a
    corrected one the lines from it on."""

    def __init__(self) -> None:
        super().__init__()
        # How many rounds each set of hand holders played, and each player's costliest hand.
        self.holders: dict[tuple[str, ...], int] = {}
        self.costliest: dict[str, int] = {}
        self.views: list[RoundView] = []  # the rounds the lines were made from
        self.marks: list[tuple[dict[tuple[str, ...], int], dict[str, int]]] = [({}, {})]

    def _count(self, line: dict[str, Any]) -> None:
        hands = line.get("hands") or []
        holders = tuple(sorted(str(h["player"]) for h in hands))
        self.holders[holders] = self.holders.get(holders, 0) + 1
        for hand in hands:
            points = hand.get("points") or 0
            if points > self.costliest.get(hand["player"], 0):
                self.costliest[hand["player"]] = points
            else:
                self.costliest.setdefault(hand["player"], 0)

    def party_stats(self, members: Sequence[str]) -> dict[str, int]:
        """The rounds a party (one player, or a team's ``members``) held a hand in, and the
        most points left in one hand of its own."""
        return {
            "played": sum(n for held, n in self.holders.items() if any(m in held for m in members)),
            "costliest": max((self.costliest.get(m, 0) for m in members), default=0),
        }

    def page(self, before: int | None, limit: int) -> list[dict[str, Any]]:
        """At most ``limit`` rounds numbered below ``before`` (all: after the last), oldest
        first; rounds are numbered from 1 in order."""
        end = len(self) if before is None else max(0, min(before - 1, len(self)))
        return self[max(0, end - limit) : end]

    @classmethod
    def of(
        cls,
        views: Sequence[RoundView],
        pause: Callable[[], None] | None = None,
        previous: History | None = None,
    ) -> History:
        """The history of ``views``, ``pause()`` every few hundred rounds; ``previous``: the
        history of the same game before its last change (its unchanged lines are kept)."""
        history = cls()
        old = previous.views if previous is not None else []
        same = same_start(old, views)
        if previous is not None and same:
            # Rounds added after the last: the tally goes on; else it starts from the mark.
            going_on = same == len(old)
            kept = same if going_on else same // HISTORY_MARK_EVERY * HISTORY_MARK_EVERY
            history.extend(previous[:kept])
            history.views = old[:kept]
            history.marks = previous.marks[: kept // HISTORY_MARK_EVERY + 1]
            holders, costliest = (
                (previous.holders, previous.costliest) if going_on else history.marks[-1]
            )
            history.holders, history.costliest = dict(holders), dict(costliest)
        was = same  # where the round of that id was in ``old`` (both go by id)
        for number in range(len(history) + 1, len(views) + 1):
            if pause is not None and number % 256 == 0:
                pause()
            view = views[number - 1]
            if previous is not None and number <= same:
                line = previous[number - 1]
            else:  # a round after the change: its totals moved, its hands' lines may stand
                while was < len(old) and old[was].round_id < view.round_id:
                    was += 1
                alike = was < len(old) and old[was].round_id == view.round_id
                alike = alike and previous is not None and old[was].hands == view.hands
                line = view.to_dict(previous[was]["hands"] if alike and previous else None)
            history.append(line)
            history.views.append(view)
            history._count(line)
            if number % HISTORY_MARK_EVERY == 0:
                history.marks.append((dict(history.holders), dict(history.costliest)))
        return history
