"""``TablePlay``: simulated users play one game at the real bot, clicking what they see.

Whose turn it is comes from the oracle (``Replica``, rebuilt from the bot's stored seed and
actions); what the player does is read off the messages the stand-in shows them:

1. their private view, if it is current (its controls carry the session's current version);
2. else the game controls on the public table (TEN's Flip / Stop);
3. else they open their private view from the table (TEN's "Bid or pass — Name" panel button,
   or "My hand" / "My view") and use that.

The bot answers a click first and posts afterwards (the table edit, pings, round summaries go
out from its publish queue). So after a move, ``TablePlay`` waits for the table edit it makes
and for the registered ``waits`` (e.g. SPLIT's round summaries) before the checks run: every
text is checked against the state it was drawn for.

After every interaction the registered checks run (hidden information, consistency).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import FakeChannel, FakeUser, InteractionRecord, StoredMessage
from game.base import Engine, PlayerId
from tests.e2e.players import (
    HAND_ID,
    Choice,
    GameDb,
    Replica,
    SessionRow,
    Strategy,
    choices_on,
    use,
)

EDIT_MESSAGE = 7
DEFERRED_UPDATE = 6
PING_MARK = "your turn in"  # the words of every turn ping
CAUGHT_UP = "catch-up after the start done"  # logged once the redraws (and pings) after a start
POSTS_TIMEOUT = 20.0  # seconds the bot may take to post what a move calls for
Check = Callable[[], None]
Wait = Callable[[], bool]


class TablePlay:
    def __init__(
        self,
        fd: FakeDiscord,
        bot: BotProcess,
        channel: FakeChannel,
        engine: Engine[Any, Any],
        strategy: Strategy,
        *,
        via_ping: bool = False,
    ) -> None:
        """``via_ping``: an awaited player acts from the live turn ping (its controls, or the
        view it opens) before they look at the table."""
        self.fd = fd
        self.via_ping = via_ping
        self.bot = bot
        self.channel = channel
        self.engine = engine
        self.strategy = strategy
        self.db = GameDb(bot.database_path)
        self.users: dict[PlayerId, FakeUser] = {}
        self.session_id = 0
        self.replica: Replica | None = None
        self.private: dict[PlayerId, int] = {}  # the latest private view message of a player
        self.checks: list[Check] = []
        self.waits: list[Wait] = []  # true once the bot posted what the game so far calls for
        self.steps = 0
        self.openings = 0

    # --- setting the table up ------------------------------------------------------------------

    async def open(self, game: str, host: FakeUser, *others: FakeUser,
                   thread: bool = False, level: str | None = None,
                   turn_minutes: int = 0) -> StoredMessage:
        """``/game new`` by ``host`` (with a bot of ``level`` seated), Join by ``others``,
        Start by ``host``; returns the table. ``thread``: ``/game new thread:true``; the game
        is then played in the new thread (``self.channel`` becomes it)."""
        options: dict[str, Any] = {"game": game, "turn_minutes": turn_minutes}
        if thread:
            options["thread"] = True
        if level is not None:
            options["level"] = level
        opened = await self.fd.slash(host, self.channel, "game new", **options)
        assert opened.callback_type == 4 and not opened.ephemeral, opened.callback_data
        assert opened.original_message_id is not None
        lobby = self.fd.message(opened.original_message_id)
        if thread:
            parent = self.channel
            await self.bot.wait_until(
                lambda: any(self.fd.public(t) for t in self.fd.threads_of(parent)),
                POSTS_TIMEOUT, "the lobby in a new thread",
            )
            [self.channel] = self.fd.threads_of(parent)
            assert self.channel.id == lobby.id  # started from the command's answer
            lobby = self.fd.public(self.channel)[0]
        # The bot stores its lobby message's id after answering; a click before that would
        # make it post the table afresh.
        await self.poll(
            lambda: self.db.session_in(self.channel.id).table_message_id == lobby.id,
            POSTS_TIMEOUT, "the lobby message's id to be stored",
        )
        for user in (host, *others):
            self.users[str(user.id)] = user
        for user in others:
            joined = await self.fd.click_label(user, lobby, "Join")
            assert joined.callback_type == EDIT_MESSAGE, joined.callback_data
        started = await self.fd.click_label(host, lobby, "Start")
        assert started.callback_type == EDIT_MESSAGE, started.callback_data
        row = self.row()
        assert row.status == "active" and row.table_message_id == lobby.id
        self.session_id = row.id
        self.replica = Replica.from_row(self.engine, row)
        assert self.replica.matches_stored(row), "the dealt state is not the seed's deal"
        self.run_checks()
        return self.fd.message(lobby.id)

    def row(self) -> SessionRow:
        return self.db.session_in(self.channel.id)

    @property
    def oracle(self) -> Replica:
        assert self.replica is not None, "open() the table first"
        return self.replica

    def table(self) -> StoredMessage:
        table_id, _ = self.db.table_in(self.channel.id)
        assert table_id is not None
        return self.fd.message(table_id)

    def version(self) -> int:
        """The session's version (``row().version`` without decoding the stored state)."""
        return self.db.table_in(self.channel.id)[1]

    def pings(self) -> list[StoredMessage]:
        """The turn pings in the channel now (deleted ones left out)."""
        return [m for m in self.fd.public(self.channel) if PING_MARK in m.content]

    def run_checks(self) -> None:
        for check in self.checks:
            check()

    # --- playing ----------------------------------------------------------------------------------

    def current_choices(self, message: StoredMessage, version: int) -> list[Choice]:
        return [
            choice for choice in self.strategy.usable(choices_on(message))
            if choice.version == version
        ]

    def public_choices(self) -> list[Choice]:
        """The game controls on the public table that are current now."""
        return self.current_choices(self.table(), self.version())

    async def choices_for(self, player: PlayerId) -> list[Choice]:
        """What the awaited ``player`` can use now, opening their private view if needed."""
        version = self.version()
        private = self.private.get(player)
        if private is not None:
            found = self.current_choices(self.fd.message(private), version)
            if found:
                return found
        user = self.users[player]
        if self.via_ping:
            shown_ping = await self._from_ping(player, user, version)
            if shown_ping:
                return shown_ping
        table = self.table()
        # A panel button opens every choice; the shortcuts beside it (TEN's Pass, Skip) are
        # only some of them, so a player with a panel opens it.
        found = [] if _panel_on(table) else self.current_choices(table, version)
        if found:
            return found
        openers = [c for c in choices_on(table) if c.payload == "panel"] or [
            c for c in choices_on(table) if HAND_ID.fullmatch(c.custom_id)
        ]
        assert openers, f"the table offers {user.name} no way to play: {table.text}"
        shown = await use(self.fd, user, openers[0])
        self.openings += 1
        assert shown.ephemeral and shown.original_message_id is not None, shown.callback_data
        self.private[player] = shown.original_message_id
        self.run_checks()
        # The view is drawn from the bot's live game when the click comes in: a move stored
        # just before (a machine seat's) may not be live yet, and the view shows the turn before
        # it. It follows the game (cogs.listeners.view_follow): its controls come with an edit.
        view_id = shown.original_message_id
        await self.bot.wait_until(
            lambda: self.current_choices(self.fd.message(view_id), version), POSTS_TIMEOUT,
            f"{user.name}'s private view to show their controls (opened as"
            f" {self.fd.message(view_id).text!r})")
        self.run_checks()
        return self.current_choices(self.fd.message(view_id), version)

    async def _from_ping(self, player: PlayerId, user: FakeUser, version: int) -> list[Choice]:
        """The ping's controls for ``player``, or the private view its My hand / panel opens
        (none when no live ping mentions them)."""
        await self.bot.wait_until(
            lambda: any(user.id in m.mentions for m in self.pings()), POSTS_TIMEOUT,
            f"the turn ping of {user.name}",
        )
        [ping] = [m for m in self.pings() if user.id in m.mentions]
        found = [] if _panel_on(ping) else self.current_choices(ping, version)
        if found:
            return found
        openers = [c for c in choices_on(ping) if c.payload == "panel"] or [
            c for c in choices_on(ping) if HAND_ID.fullmatch(c.custom_id)
        ]
        if not openers:
            return []
        shown = await use(self.fd, user, openers[0])
        self.openings += 1
        assert shown.ephemeral and shown.original_message_id is not None, shown.callback_data
        self.private[player] = shown.original_message_id
        self.run_checks()
        return self.current_choices(self.fd.message(shown.original_message_id), version)

    async def machine_moves(self, timeout: float = POSTS_TIMEOUT) -> int:
        """Wait while the game waits for a seat no user plays (a bot seat); the number of
        moves the machines made meanwhile (the oracle replays them)."""
        made = 0

        def humans_turn() -> bool:
            nonlocal made
            made += self.oracle.sync(self.db, self.session_id)
            return self.oracle.over or self.oracle.awaiting()[0] in self.users

        await self.poll(humans_turn, timeout, "the bot seats' moves")
        return made

    async def poll(self, predicate: Wait, timeout: float, what: str) -> None:
        """Wait for ``predicate``, looking every 20 ms (for what the bot stores without a
        request to the stand-in, which ``wait_until`` waits for)."""
        async with asyncio.timeout(timeout):
            while not predicate():
                await self.bot.wait_until(lambda: True, 1.0, what)  # fails if the bot exited
                await asyncio.sleep(0.02)

    def _awaited(self) -> tuple[PlayerId, FakeUser]:
        awaiting = self.oracle.awaiting()
        assert awaiting, "the game is over"
        return awaiting[0], self.users[awaiting[0]]

    async def step(self, *, quick_runs: bool = False) -> InteractionRecord:
        """The awaited player uses one control; the oracle catches up with the stored actions.

        ``quick_runs``: a player who used their private view and is still awaited goes on at
        once, like a person clicking through the steps of their turn, instead of waiting for
        the public table's edit (the bot may coalesce those edits); the step that ends the run
        still waits for it."""
        player, user = self._awaited()
        choice = self.strategy.choose(await self.choices_for(player))
        table = self.table()
        table_versions = len(table.versions)
        record = await use(self.fd, user, choice)
        on_ping = PING_MARK in self.fd.message(choice.message_id).content
        # A move on the ping that ends the turn is only acknowledged: the ping goes.
        assert record.callback_type == EDIT_MESSAGE or (
            on_ping and record.callback_type == DEFERRED_UPDATE), (
            f"{user.name} used {choice.label!r}: answered {record.callback_type}"
            f" {record.callback_data}"
        )
        if self.fd.message(choice.message_id).ephemeral:
            self.private[player] = choice.message_id
        self.oracle.sync(self.db, self.session_id)
        in_run = (
            quick_runs
            and self.private.get(player) == choice.message_id
            and player in self.oracle.awaiting()
        )
        if not in_run:
            await self.posted(table.id, table_versions)
        self.steps += 1
        if not in_run:
            await self.checks_hold()
        return record

    async def checks_hold(self) -> None:
        """The registered checks hold once the move's edits have landed. The table's new
        version :meth:`posted` saw may be the edit of an earlier step of a quick run (the bot
        coalesces the table's edits, and one can land after the next click): a check that
        fails is given until the posts' timeout to hold, then fails with its own message."""
        def holding() -> bool:
            try:
                self.run_checks()
            except AssertionError:
                return False
            return True

        if holding():
            return
        try:
            await self.bot.wait_until(holding, POSTS_TIMEOUT, "the checks to hold after a move")
        except TimeoutError:
            self.run_checks()  # still failing: its assertion says why
            raise

    async def posted(self, table_id: int, table_versions: int) -> None:
        """Wait until the bot has posted what the last move calls for: the table has a new
        version (the click's own answer, when it was on the table, else the bot's edit), and
        every registered wait holds."""
        await self.bot.wait_until(
            lambda: len(self.fd.message(table_id).versions) > table_versions
            or self.db.table_in(self.channel.id)[0] != table_id,  # posted anew at the bottom
            POSTS_TIMEOUT, "the table edit after a move",
        )
        for wait in self.waits:
            await self.bot.wait_until(wait, POSTS_TIMEOUT, "the bot's posts after a move")

    async def crash_during_step(self) -> InteractionRecord:
        """The awaited player clicks and the bot is SIGKILLed before (or while) it answers;
        then it starts again. The click may or may not have been stored."""
        player, user = self._awaited()
        choices = await self.choices_for(player)
        before = self.strategy.rng.getstate()
        choice = self.strategy.choose(choices)
        if choice.values is None:
            record = await self.fd.click(user, choice.message_id, choice.custom_id, wait=False)
        else:
            record = await self.fd.select(
                user, choice.message_id, choice.custom_id, list(choice.values), wait=False
            )
        await self.bot.kill()
        seq = self.oracle.seq
        await self.restart_checked()
        if self.oracle.seq == seq:
            # The click was lost: the player makes the same choice again, so a seeded game
            # takes the same course as one without the crash.
            self.strategy.rng.setstate(before)
        return record

    async def restart_checked(self, *, hard: bool = True) -> None:
        """Start the bot again (after a SIGKILL, or a SIGTERM when not ``hard``); the stored
        game must be exactly the replayed one. After an unexpected stop the awaited player is
        pinged again once the table is redrawn; after a clean stop nobody is."""
        table = self.table()
        table_versions = len(table.versions)
        pings_before = self._restart_pings()
        caught_up_before = self.bot.log_text().count(CAUGHT_UP)
        if self.bot.running:
            await (self.bot.kill() if hard else self.bot.terminate())
        await self.bot.start()
        self.oracle.sync(self.db, self.session_id)
        row = self.row()
        assert row.status in ("active", "finished")
        assert self.oracle.matches_stored(row), "the stored state differs from the replay"
        self.run_checks()
        if row.status != "active":
            return
        await self.bot.wait_until(
            lambda: len(self.fd.message(table.id).versions) > table_versions,
            POSTS_TIMEOUT, "the table redraw after a restart",
        )
        awaited = set(self.oracle.awaiting())
        if hard:
            await self.bot.wait_until(
                lambda: all(self._restart_pings()[p] > pings_before[p] for p in awaited),
                POSTS_TIMEOUT, "the awaited players' ping after an unexpected stop",
            )
            expected = {p: count + (p in awaited) for p, count in pings_before.items()}
            assert self._restart_pings() == expected
        else:
            # The catch-up would ping right after its redraw, before it logs that it is done.
            await self.bot.wait_until(
                lambda: self.bot.log_text().count(CAUGHT_UP) > caught_up_before,
                POSTS_TIMEOUT, "the catch-up after a clean restart",
            )
            assert self._restart_pings() == pings_before, (
                f"a clean restart pinged again\n{self.bot.log_text()}")

    def _restart_pings(self) -> dict[PlayerId, int]:
        """Per player: the pings posted that say the table is back after an unexpected stop
        (deleted ones included: a ping goes when the turn passes)."""
        return {
            player: sum("back after an unexpected stop" in m.content
                        for m in self.fd.world.messages.values()
                        if user.id in m.mentions and not m.ephemeral)
            for player, user in self.users.items()
        }

    async def play_to_end(self, *, limit: int = 2000,
                          at_step: dict[int, Callable[[], Any]] | None = None,
                          quick_runs: bool = False) -> None:
        """Step until the game is over; ``at_step[n]`` (an async callable) runs before step n.
        ``quick_runs``: see :meth:`step`."""
        hooks = dict(at_step or {})
        while not self.oracle.over:
            assert self.steps < limit, f"no end after {limit} steps"
            hook = hooks.pop(self.steps, None)
            if hook is not None:
                await hook()
                if self.oracle.over:
                    break
            await self.step(quick_runs=quick_runs)


def _panel_on(message: StoredMessage) -> bool:
    """Whether ``message`` has a button that opens the awaited player's private controls."""
    return any(c.payload == "panel" for c in choices_on(message))
