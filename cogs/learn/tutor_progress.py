"""The tutor of each running /learn game, rebuilt from the stored seed and action log.

What the learner has met is derived data (``game.tutor``): nothing is stored for it, so a
resumed or restarted game knows it from its log. This cache keeps the newest tutors per
process so that a render after a click only follows the new actions.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from bot.records.session import Session
from bot.store import Store
from cogs.kit.keyed_locks import Turns
from game.base import Engine, PlayerId
from game.registry import teachers
from game.tutor import Tutor

CACHE_SIZE = 64


class TutorCache:
    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        # (session, learner) -> (the session's version, the last action row followed, tutor)
        self._turns = Turns()
        self._tutors: OrderedDict[tuple[int, PlayerId], tuple[int, int, Tutor]] = OrderedDict()

    async def tutor(
        self, store: Store, engine: Engine[Any, Any], session: Session, learner: PlayerId
    ) -> Tutor:
        """The tutor of ``session`` at its stored version (one caller at a time per game:
        the command's answer and a machine run's redraw may draw the message together)."""
        key = (session.id, learner)
        async with self._turns.of(key):
            return await self._follow(key, store, engine, session, learner)

    async def _follow(
        self, key: tuple[int, PlayerId], store: Store, engine: Engine[Any, Any],
        session: Session, learner: PlayerId,
    ) -> Tutor:
        cached = self._tutors.get(key)
        if cached is not None and cached[0] == session.version:
            self._tutors.move_to_end(key)
            return cached[2]
        rows = [row for row in await store.actions(session.id) if row.seq <= session.version]
        older = cached is not None and cached[0] > session.version  # a late redraw
        if cached is None or older:
            seen = -1
            tutor = Tutor.start(engine, teachers()[session.game], session.player_ids,
                                session.state.seed, learner, session.options)
        else:
            _, seen, tutor = cached
        for row in rows:
            if row.seq > seen:
                tutor.step(row.user_id, row.action)
                seen = row.seq
        if older:
            return tutor  # the newer one stays cached
        self._tutors[key] = (session.version, seen, tutor)
        self._tutors.move_to_end(key)
        while len(self._tutors) > self._size:
            self._tutors.popitem(last=False)
        return tutor
