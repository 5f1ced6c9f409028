"""Skill ratings: OpenSkill's Plackett–Luce model, ranked by the conservative ordinal.

Ratings follow from the append-only results rows (one rated game after another, in
``finished_at`` order). The store keeps them as derived rows, moved on in the transaction that
writes a game's results (``bot.records.period_standings``). :data:`MODEL_ID` names the model; when
it changes (other parameters, another openskill release) the store rebuilds the derived rows from
the results when it opens, and ``python -m bot.rankings.rebuild_ratings`` does it on demand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import version

from openskill.models import PlackettLuce, PlackettLuceRating

from game.base import PlayerId

# Change the first part when the model or its parameters change: stored ratings are rebuilt.
MODEL_ID = f"plackett-luce-defaults/openskill-{version('openskill')}"


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate: mean ``mu``, uncertainty ``sigma``; higher ordinal is better."""

    mu: float
    sigma: float
    ordinal: float


class RatingBook:
    """The ratings of one table of players, updated one finished game at a time."""

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model or PlackettLuce()
        self._ratings: dict[PlayerId, PlackettLuceRating] = {}

    def record(self, placements: Sequence[tuple[PlayerId, int]]) -> None:
        """Rate one game: ``(player, placement)`` pairs; equal placements are a tie."""
        if len(placements) < 2:
            return
        teams = [[self._ratings.get(player) or self.model.rating()] for player, _ in placements]
        rated = self.model.rate(teams, ranks=[float(place) for _, place in placements])
        for (player, _), (new,) in zip(placements, rated, strict=True):
            self._ratings[player] = new

    def seed(self, player: PlayerId, mu: float, sigma: float) -> None:
        """Start ``player`` from a stored rating (the numbers :meth:`get` gave)."""
        self._ratings[player] = self.model.rating(mu=mu, sigma=sigma)

    def get(self, player: PlayerId) -> Rating | None:
        raw = self._ratings.get(player)
        if raw is None:
            return None
        return Rating(mu=raw.mu, sigma=raw.sigma, ordinal=raw.ordinal())

    def all(self) -> Mapping[PlayerId, Rating]:
        return {player: rating for player in self._ratings if (rating := self.get(player))}

    def __len__(self) -> int:
        return len(self._ratings)


_MODEL = PlackettLuce()


def stored_rating(mu: float, sigma: float) -> Rating:
    """The rating a book holding (``mu``, ``sigma``) reports (its ordinal as the model
    computes it)."""
    raw = _MODEL.rating(mu=mu, sigma=sigma)
    return Rating(mu=raw.mu, sigma=raw.sigma, ordinal=raw.ordinal())


def replay(games: Iterable[Sequence[tuple[PlayerId, int]]],
           model: PlackettLuce | None = None) -> RatingBook:
    """A fresh book after rating ``games`` in the given order."""
    book = RatingBook(model)
    for game in games:
        book.record(game)
    return book
