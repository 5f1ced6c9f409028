"""Where a game's public messages are written: through an interaction's token while one can
carry the write, else through the channel, inside the process's share of Discord's global limit.

Discord's global limit (50 requests per second per bot token) counts every channel post, edit
and deletion, and not the interaction endpoints: the answer to an interaction, its follow-ups
and the edits and deletions made with its token
(https://discord.com/developers/docs/topics/rate-limits, "Global Rate Limit"). An interaction's
token serves for 15 minutes: it sends follow-ups (new messages, public unless flagged
ephemeral) and edits or deletes the messages it made, its original response included, which
for a button or select is the message the component is on once the click was answered by
updating it or deferring the update
(https://discord.com/developers/docs/interactions/receiving-and-responding, "Followup
Messages", "Edit Original Interaction Response", "Edit Followup Message", "Delete Followup
Message"). So:

* a change a person's click made (:class:`Cause`, the manager's ``Change.origin``) sends its new
  messages (the next turn ping, round summaries, the final post, a table posted anew) as
  follow-ups of that click, once the click is answered;
* every public message is edited and deleted with the token that made it (or whose click it
  carried) while that token is valid (:meth:`MessageRoutes.hold`): the table, the ping;
* what has no such token (a machine seat's move, the turn clock, a restart, a token past its
  lifetime, less a margin) goes through the channel, in its turn in the budget
  (:class:`bot.ops.request_budget.RequestBudget`); an edit of one message waiting there is
  replaced by a newer edit of it.

A token that Discord refuses (expired: 401/50027, or an unknown webhook) is forgotten and the
write falls back to the channel at once, so nothing is lost. The token writes go through the
client's :attr:`TableBot.token_writes` (``bot.process.token_writes``: the bot's own HTTP/1.1
wire with discord.py's webhook adapter's guarantees, no message object made of the answers; a
follow-up gives its id).

**A table the bot cannot reach through its channel** (``Session.tokens_only``: a group DM, a DM,
a server where only a user installed the app; ``cogs.kit.places``) is never written through
the channel: Discord answers those routes 403 Missing Access there. Every write rides on a
token: a new message is a follow-up of the change's click, else of the freshest token that
holds one of the game's messages; an edit or a deletion uses the token that holds the message.
Such a token sends at most :data:`USER_APP_FOLLOWUPS` follow-ups ("Apps are limited to 5
followup messages per interaction if it was initiated from a user-installed app and isn't
installed in the server":
https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages),
counted on the interaction itself. When no token can carry a write (a machine seat's move
after a long pause, the turn clock, a restart: every token is past its 15 minutes), the write
is skipped and the table is marked behind (:meth:`MessageRoutes.behind`); the move is stored,
and what could not be written is owed to the channel (:meth:`MessageRoutes.owe`: the table,
the ping, the clock's notice, the final post). The next click there, once answered, carries it
as its follow-ups (:meth:`MessageRoutes.pay`, called by ``cogs.click_context``'s dispatcher),
which brings the table up to date. A new message that cannot be sent raises
:class:`Unreachable`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
from discord.abc import Snowflake

from bot.ops.request_budget import RequestBudget, budget_for_share
from bot.process.client import TableBot
from bot.records.change import Change, Click, Origin
from bot.records.session import Session

log = logging.getLogger(__name__)

Interaction = discord.Interaction[TableBot]
Result = TypeVar("Result")

TOKEN_LIFETIME = 15 * 60.0  # seconds Discord accepts an interaction token for
MARGIN = 30.0  # a write is not started with a token this close to its end
RENEW_AFTER = 10 * 60.0  # a table held by an older token is posted anew by the next click
ANSWER_WAIT = 3.5  # seconds a follow-up waits for its click's answer (Discord allows 3)
ANSWER_POLL = 0.01
TOKEN_REFUSED = (50027, 10015)  # Invalid Webhook Token, Unknown Webhook
USER_APP_FOLLOWUPS = 5  # follow-ups per interaction where only a user installed the app
OWED_KEPT = 4096  # channels whose owed writes are kept (the oldest are dropped past it)
FOLLOWUPS_SPENT = 40094  # "This interaction has hit the maximum number of follow up messages"
FOLLOWUPS = "tablebot.followups"  # Interaction.extras: the follow-ups its token sent
UPDATED = (
    discord.InteractionResponseType.message_update,
    discord.InteractionResponseType.deferred_message_update,
)

# What the counts say (tests and figures): a write through a token or through the channel.
TOKEN, CHANNEL = "token", "channel"


@dataclass(eq=False)
class Cause(Click):
    """The click (or command) a change came from, as the cogs pass it to the manager
    (``Change.origin``): the public or private message clicked (None for a command) and the
    interaction, whose token can carry what the change makes. ``at``: when it came in (its
    token's start, on the routes' clock)."""

    interaction: Interaction
    at: float = field(default_factory=time.monotonic)


def cause_of(origin: Origin) -> Cause | None:
    """The click that made a change, with its interaction (the cogs pass only Causes)."""
    return origin if isinstance(origin, Cause) else None


@dataclass
class Holder:
    """A token that can write one public message: its ``interaction``'s original response
    (``original``) or one of its follow-ups."""

    interaction: Interaction
    original: bool
    at: float  # the token's start
    session_id: int  # the game the message belongs to


def token_refused(error: discord.HTTPException) -> bool:
    return error.status == 401 or error.code in TOKEN_REFUSED


Owed = Callable[["Cause"], Awaitable[object]]


class Unreachable(discord.HTTPException):
    """A new message of a tokens-only table that no token can carry now (nothing was sent)."""

    def __init__(self, session_id: int, *, where: str | None = None) -> None:
        # No HTTP response: nothing was requested.
        where = where or f"the place of session {session_id}"
        Exception.__init__(self, f"no token can write in {where}")
        self.status = 0
        self.code = 0
        self.text = str(self)


def followups_left(interaction: Interaction) -> bool:
    """Whether ``interaction``'s token may send another follow-up where only a user installed
    the app (:data:`USER_APP_FOLLOWUPS` each)."""
    return int(interaction.extras.get(FOLLOWUPS, 0)) < USER_APP_FOLLOWUPS


def spent_followup(interaction: Interaction, *, all_of_them: bool = False) -> None:
    used = int(interaction.extras.get(FOLLOWUPS, 0))
    interaction.extras[FOLLOWUPS] = USER_APP_FOLLOWUPS if all_of_them else used + 1


class MessageRoutes:
    """The tokens that can write each public message of a live game, and the writes."""

    def __init__(self, budget: RequestBudget | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 lifetime: float = TOKEN_LIFETIME) -> None:
        self.budget = budget if budget is not None else budget_for_share(1.0)
        self._clock = clock
        self._lifetime = lifetime
        self._renew_after = RENEW_AFTER * lifetime / TOKEN_LIFETIME  # two thirds of its life
        self._holders: dict[int, Holder] = {}  # public message id -> who can write it
        self._held: deque[tuple[float, int]] = deque()  # (since, message id), oldest first
        self.counts: Counter[str] = Counter()  # TOKEN / CHANNEL writes made
        self._behind: set[int] = set()  # tokens-only sessions whose table missed a write
        # Writes owed to a tokens-only channel, carried by its next click: channel id ->
        # (what, e.g. "table" or "final") -> the write, given the click's cause.
        self._owed: OrderedDict[int, dict[str, Owed]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._holders)

    # --- tokens -------------------------------------------------------------------------------

    def cause(self, interaction: Interaction) -> Cause:
        """The origin a click handler passes to the manager."""
        message = interaction.message
        return Cause(message.id if message is not None else None, interaction, self._clock())

    def hold(self, session_id: int, message_id: int, interaction: Interaction, *,
             original: bool, at: float | None = None) -> None:
        """``interaction``'s token can write public message ``message_id`` of game
        ``session_id`` from now on (a newer token replaces an older one)."""
        at = self._clock() if at is None else at
        held = self._holders.get(message_id)
        if held is None or held.at <= at:
            self._holders[message_id] = Holder(interaction, original, at, session_id)
            self._held.append((at, message_id))
        self._prune()

    def owe(self, channel_id: int, what: str, write: Owed) -> None:
        """A write no token could carry in tokens-only ``channel_id`` (a newer one of the same
        ``what`` replaces it): the next click there carries it (:meth:`pay`)."""
        self._owed.setdefault(channel_id, {})[what] = write
        self._owed.move_to_end(channel_id)
        log.info("channel %s: the %s waits for the next click there (no token can carry it)",
                 channel_id, what)
        while len(self._owed) > OWED_KEPT:  # a chat nobody clicks in again: memory stays flat
            self._owed.popitem(last=False)

    async def pay(self, channel_id: int, cause: Cause) -> int:
        """Carry the writes owed to ``channel_id`` with ``cause``'s token (after the click's own
        answer); how many were made."""
        owed = self._owed.pop(channel_id, {})
        for what, write in owed.items():
            try:
                await write(cause)
            except Unreachable:  # the click's follow-ups ran out: the next click carries it
                if what not in self._owed.get(channel_id, {}):  # unless a newer one is owed
                    self.owe(channel_id, what, write)
            except Exception as error:
                log.warning("a write owed to channel %s failed (%s)", channel_id,
                            getattr(error, "status", type(error).__name__))
        return len(owed)

    def caught_up(self, session_id: int) -> None:
        """Game ``session_id``'s table was written anew: it shows the game as it is."""
        self._behind.discard(session_id)

    def behind(self, session_id: int) -> bool:
        """Whether a write of tokens-only game ``session_id`` found no token (its table waits
        for the next click to be brought up to date)."""
        return session_id in self._behind

    def ended(self, session_id: int) -> None:
        """Forget the tokens of game ``session_id``'s messages: it is over, nothing of it is
        written again."""
        self._behind.discard(session_id)
        for message_id in [m for m, held in self._holders.items()
                           if held.session_id == session_id]:
            del self._holders[message_id]

    async def on_change(self, change: Change) -> None:
        """A manager listener, after every other that writes a game's messages: a game that
        is over has its tokens forgotten (memory stays flat however many games are played)."""
        if not change.session.is_live:
            self.ended(change.session.id)

    def _prune(self) -> None:
        """Drop the tokens past their lifetime (memory stays flat: a message nobody writes
        again, such as a final post, is not held longer than its token lives)."""
        now = self._clock()
        while self._held and now - self._held[0][0] > self._lifetime - MARGIN:
            at, message_id = self._held.popleft()
            held = self._holders.get(message_id)
            if held is not None and held.at <= at:
                del self._holders[message_id]

    def took(self, cause: Cause | None, session_id: int) -> None:
        """After ``cause``'s click was answered by updating its public message (or deferring
        that), its token can write that message: hold it."""
        if cause is None or cause.message_id is None:
            return
        interaction = cause.interaction
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return
        if interaction.response.type in UPDATED:
            self.hold(session_id, cause.message_id, interaction, original=True, at=cause.at)

    async def adopt(self, cause: Cause | None, session: Session) -> None:
        """Once ``cause``'s click is answered, :meth:`took` it."""
        if await self.usable(cause, session) is not None:
            self.took(cause, session.id)

    def holder(self, message_id: int) -> Holder | None:
        """Who can write ``message_id`` now (a token within its lifetime less the margin); an
        aged token is dropped."""
        held = self._holders.get(message_id)
        if held is None:
            return None
        if self._clock() - held.at > self._lifetime - MARGIN:
            del self._holders[message_id]
            return None
        return held

    def renew_due(self, message_id: int) -> bool:
        """Whether no token holds ``message_id`` or the one that does is older than
        :data:`RENEW_AFTER` (a message that must stay editable is then posted anew with a
        newer token while the old one can still delete it)."""
        held = self.holder(message_id)
        return held is None or self._clock() - held.at > self._renew_after

    def forget(self, message_id: int) -> None:
        self._holders.pop(message_id, None)

    async def usable(self, cause: Cause | None, session: Session) -> Interaction | None:
        """``cause``'s interaction once it is answered, when its token can still send in
        ``session``'s channel; None otherwise (no cause, too old, not answered in time)."""
        if cause is None:
            return None
        interaction = cause.interaction
        if interaction.channel_id != session.channel_id:
            return None
        if self._clock() - cause.at > self._lifetime - MARGIN:
            return None
        waited = 0.0
        while not interaction.response.is_done():
            if waited >= ANSWER_WAIT:
                return None
            await asyncio.sleep(ANSWER_POLL)
            waited += ANSWER_POLL
        return interaction

    # --- writes -------------------------------------------------------------------------------

    async def send(self, client: TableBot, session: Session, cause: Cause | None,
                   **kwargs: Any) -> Snowflake:
        """A new public message in ``session``'s channel: a follow-up of ``cause`` when it can
        carry it, else a channel post in its turn (a tokens-only table: a follow-up of another
        of its tokens, else :class:`Unreachable`). What is returned has the new message's
        ``id`` and nothing else is read of it (a follow-up's answer is not made a message)."""
        interaction = await self.usable(cause, session)
        if interaction is not None and cause is not None:
            followed = await self._followup(session, interaction, cause.at, kwargs)
            if followed is not None:
                return followed
        if session.tokens_only:
            return await self._send_held(session, kwargs)
        channel = client.get_partial_messageable(session.channel_id)
        sent: Snowflake = await self._channel(lambda: channel.send(**kwargs))
        return sent

    async def _followup(self, session: Session, interaction: Interaction, at: float,
                        kwargs: dict[str, Any]) -> Snowflake | None:
        """A follow-up of ``interaction`` (None: its token was refused or, in a tokens-only
        place, has no follow-up left)."""
        if session.tokens_only and not followups_left(interaction):
            return None
        try:
            message = await interaction.client.token_writes.send_followup(interaction, **kwargs)
        except discord.HTTPException as error:
            if error.code == FOLLOWUPS_SPENT:
                spent_followup(interaction, all_of_them=True)
                return None
            if not token_refused(error):
                raise
            log.info("session %s: a token was refused (%s); %s", session.id, error.code,
                     "another token" if session.tokens_only else "posting in the channel")
            return None
        if session.tokens_only:
            spent_followup(interaction)
        self.counts[TOKEN] += 1
        self.hold(session.id, message.id, interaction, original=False, at=at)
        return message

    async def _send_held(self, session: Session, kwargs: dict[str, Any]) -> Snowflake:
        """A new message of tokens-only ``session``, as a follow-up of the freshest token that
        holds one of its messages and may still send one; :class:`Unreachable` when none can."""
        self._prune()
        tried: set[int] = set()
        for held in sorted(self._holders.values(), key=lambda h: h.at, reverse=True):
            interaction = held.interaction
            if held.session_id != session.id or interaction.id in tried:
                continue
            tried.add(interaction.id)
            if interaction.channel_id != session.channel_id or \
                    self._clock() - held.at > self._lifetime - MARGIN:
                continue
            sent = await self._followup(session, interaction, held.at, kwargs)
            if sent is not None:
                return sent
        self._behind.add(session.id)
        raise Unreachable(session.id)

    async def follow_up(self, channel_id: int, cause: Cause, **kwargs: Any) -> Snowflake:
        """A public message of no game (the end of a chat's season) as a follow-up of
        ``cause``, a click in tokens-only ``channel_id`` whose owed writes it carries
        (:meth:`pay`); :class:`Unreachable` when that click's token cannot send it (too old,
        no follow-up left)."""
        interaction = cause.interaction
        fresh = self._clock() - cause.at <= self._lifetime - MARGIN
        if interaction.channel_id != channel_id or not fresh or not followups_left(interaction):
            raise Unreachable(0, where=f"channel {channel_id}")
        waited = 0.0
        while not interaction.response.is_done():
            if waited >= ANSWER_WAIT:
                raise Unreachable(0, where=f"channel {channel_id}")
            await asyncio.sleep(ANSWER_POLL)
            waited += ANSWER_POLL
        try:
            message = await interaction.client.token_writes.send_followup(interaction, **kwargs)
        except discord.HTTPException as error:
            if token_refused(error):  # the token died early: the next click carries it
                raise Unreachable(0, where=f"channel {channel_id}") from error
            if error.code != FOLLOWUPS_SPENT:
                raise
            spent_followup(interaction, all_of_them=True)
            raise Unreachable(0, where=f"channel {channel_id}") from error
        spent_followup(interaction)
        self.counts[TOKEN] += 1
        return message

    async def edit(self, client: TableBot, session: Session, message_id: int, *,
                   in_slot: bool = False, **kwargs: Any) -> None:
        """Edit public message ``message_id`` with the token that holds it, else through the
        channel in the budget's turn (``in_slot``: the caller holds a slot of the budget
        already, the edit goes at once)."""
        held = self.holder(message_id)
        if held is not None:
            interaction = held.interaction
            writes = interaction.client.token_writes
            try:
                if held.original:
                    await writes.edit_original(interaction, **kwargs)
                else:
                    await writes.edit_followup(interaction, message_id, **kwargs)
            except discord.HTTPException as error:
                if not token_refused(error):
                    raise
                self.forget(message_id)
            else:
                self.counts[TOKEN] += 1
                return
        if session.tokens_only:
            self._behind.add(session.id)  # shown as it is until the next click
            return
        message = client.get_partial_messageable(session.channel_id).get_partial_message(
            message_id)

        async def call() -> object:
            return await message.edit(**kwargs)

        if in_slot:
            self.counts[CHANNEL] += 1
            await call()
            return
        await self._channel(call, key=("edit", message_id))

    async def delete(self, client: TableBot, session: Session, message_id: int) -> None:
        """Delete public message ``message_id`` with the token that holds it, else through the
        channel. Raises NotFound when it is gone already."""
        held = self.holder(message_id)
        self.forget(message_id)
        if held is not None:
            interaction = held.interaction
            writes = interaction.client.token_writes
            try:
                if held.original:
                    await writes.delete_original(interaction)
                else:
                    await writes.delete_followup(interaction, message_id)
            except discord.HTTPException as error:
                if not token_refused(error):
                    raise
            else:
                self.counts[TOKEN] += 1
                return
        if session.tokens_only:
            return  # no token can reach it any more: it stays, as the game's older message
        message = client.get_partial_messageable(session.channel_id).get_partial_message(
            message_id)
        await self._channel(message.delete)

    async def _channel(self, call: Callable[[], Awaitable[Result]], *,
                       key: Hashable | None = None) -> Result:
        self.counts[CHANNEL] += 1
        return await self.budget.run(call, key=key)
