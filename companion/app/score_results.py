"""What the box says of the scores: who won the round (and the game), who is out, the standings.

Built from the game's book as :class:`~companion.core.commands.Say` commands, which the keeper
hands to the hub's listeners (the voice speaks them while it is on).
"""

from __future__ import annotations

from companion.core.commands import Priority, Say
from companion.core.scoring import ScoreBook


def round_results(book: ScoreBook) -> list[Say]:
    """After a recorded round: its winner and their points (or the leader), each player it
    eliminated, and the game's winner once it is over."""
    history = book.history()
    if not history:
        return []
    last = history[-1]
    standings = book.standings()
    says: list[Say] = []
    setup = book.setup
    if setup.mode == "winner_takes":
        party = next(p for p, _ in last.credited) if len(last.credited) == 1 else None
        party = party or " & ".join(setup.team_of(last.winner))
        points = dict(last.credited).get(party, 0)
        total = dict(last.totals).get(party, 0)
        key = "results.round_winner_team" if setup.teams else "results.round_winner_total"
        says.append(
            Say(
                key,
                {"player": last.winner, "team": party, "points": points, "total": total},
                Priority.RESULT,
            )
        )
    elif standings.rows:
        leader = standings.rows[0]
        says.append(
            Say(
                "results.standings_leader",
                {"player": leader.party, "points": leader.total},
                Priority.RESULT,
            )
        )
    for player in last.eliminated:
        says.append(
            Say(
                "results.eliminated_points",
                {"player": player, "points": standings.total(player)},
                Priority.RESULT,
            )
        )
    if standings.finished and standings.winners:
        winner = standings.winners[0]
        key = {
            "lowest_wins": "results.game_winner_lowest",
        }.get(setup.mode, "results.game_winner_team" if setup.teams else "results.game_winner")
        says.append(
            Say(
                key,
                {"player": winner, "team": winner, "points": standings.total(winner)},
                Priority.RESULT,
            )
        )
    return says


def standings_said(book: ScoreBook) -> Say:
    """The standings, best first (a button on the page)."""
    params: dict[str, str | int] = {}
    for i, row in enumerate(book.standings().rows, start=1):
        params[f"player{i}"] = row.party
        params[f"points{i}"] = row.total
    return Say("results.standings", params, Priority.INFO)
