"""Where the bot is not in the channel (issue 39: a group DM, a DM, a server where only a user
installed the app), a game's messages ride on interaction tokens only
(``cogs.kit.message_routes``): never the channel; at most five follow-ups per token; a write no
token can carry makes the table wait for the next click, which carries what was owed."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.process.token_writes import DiscordWrites
from bot.records.session import REACH, TOKENS_ONLY, Seat, Session, Status
from cogs.kit.message_routes import (
    TOKEN_LIFETIME,
    USER_APP_FOLLOWUPS,
    Cause,
    MessageRoutes,
    Unreachable,
)

CHANNEL_ID = 500
_ids = itertools.count(9000)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class NoChannel:
    """The client: any channel route is a failure of the test (Discord answers 403 there)."""

    def get_partial_messageable(self, channel_id: int) -> Any:
        raise AssertionError(f"a channel route was used for channel {channel_id}")


class Sent:
    def __init__(self) -> None:
        self.id = next(_ids)


class Followup:
    def __init__(self, owner: Token, refuse_with: int | None) -> None:
        self.owner, self.refuse_with = owner, refuse_with

    async def send(self, **kwargs: Any) -> Sent:
        if self.refuse_with is not None:
            response = type("Response", (), {"status": 400, "reason": "Bad Request"})()
            raise discord.HTTPException(response, {"code": self.refuse_with, "message": "no"})
        message = Sent()
        self.owner.sent.append(message.id)
        return message

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        self.owner.edited.append(message_id)


class Response:
    type = discord.InteractionResponseType.message_update

    def is_done(self) -> bool:
        return True


class Token:
    """Enough of an answered interaction: its id, channel, extras, response and follow-ups."""

    def __init__(self, *, refuse_with: int | None = None) -> None:
        self.id = next(_ids)
        self.channel_id = CHANNEL_ID
        self.extras: dict[str, Any] = {}
        self.message = None
        self.response = Response()
        self.followup = Followup(self, refuse_with)
        self.sent: list[int] = []
        self.edited: list[int] = []
        self.client = SimpleNamespace(token_writes=DiscordWrites())  # discord.py's calls


def group_dm_session(session_id: int = 1) -> Session:
    return Session(id=session_id, guild_id=CHANNEL_ID, channel_id=CHANNEL_ID, game="count",
                   status=Status.ACTIVE, host_id="1", seats=(Seat(player_id="1",
                                                                  display_name="Ana"),),
                   options={REACH: TOKENS_ONLY}, table_message_id=77)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def routes(clock: Clock) -> MessageRoutes:
    return MessageRoutes(clock=clock)


async def test_a_new_message_no_token_can_carry_is_unreachable_never_a_channel_post(
    routes: MessageRoutes,
) -> None:
    session = group_dm_session()
    with pytest.raises(Unreachable):
        await routes.send(NoChannel(), session, None, content="ping")  # type: ignore[arg-type]
    assert routes.behind(session.id)


async def test_a_held_token_carries_five_follow_ups_then_the_next_token(
    routes: MessageRoutes, clock: Clock,
) -> None:
    session = group_dm_session()
    older, newer = Token(), Token()
    routes.hold(session.id, 77, older, original=True)  # type: ignore[arg-type]
    clock.now += 1
    routes.hold(session.id, 78, newer, original=True)  # type: ignore[arg-type]
    for _ in range(USER_APP_FOLLOWUPS + 2):
        await routes.send(NoChannel(), session, None, content="x")  # type: ignore[arg-type]
    assert len(newer.sent) == USER_APP_FOLLOWUPS and len(older.sent) == 2
    for _ in range(USER_APP_FOLLOWUPS - 2):
        await routes.send(NoChannel(), session, None, content="x")  # type: ignore[arg-type]
    with pytest.raises(Unreachable):  # every token spent its five
        await routes.send(NoChannel(), session, None, content="x")  # type: ignore[arg-type]


async def test_a_click_whose_follow_ups_discord_says_are_spent_hands_over(
    routes: MessageRoutes, clock: Clock,
) -> None:
    session = group_dm_session()
    spent, spare = Token(refuse_with=40094), Token()
    routes.hold(session.id, 78, spare, original=True)  # type: ignore[arg-type]
    clock.now += 1
    cause = Cause(None, spent, clock.now)  # type: ignore[arg-type]
    await routes.send(NoChannel(), session, cause, content="x")  # type: ignore[arg-type]
    assert len(spare.sent) == 1


async def test_tokens_past_their_life_carry_nothing_and_the_table_waits(
    routes: MessageRoutes, clock: Clock,
) -> None:
    session = group_dm_session()
    holder = Token()
    routes.hold(session.id, 77, holder, original=False)  # type: ignore[arg-type]
    clock.now += TOKEN_LIFETIME
    await routes.edit(NoChannel(), session, 77, content="table")  # type: ignore[arg-type]
    assert holder.edited == [] and routes.behind(session.id)
    await routes.delete(NoChannel(), session, 77)  # type: ignore[arg-type]
    with pytest.raises(Unreachable):
        await routes.send(NoChannel(), session, None, content="x")  # type: ignore[arg-type]


async def test_what_is_owed_rides_on_the_next_click_once(routes: MessageRoutes) -> None:
    carried: list[int] = []

    async def write(cause: Cause) -> None:
        carried.append(cause.interaction.id)

    routes.owe(CHANNEL_ID, "table", write)
    routes.owe(CHANNEL_ID, "table", write)  # a newer table write replaces the older
    click = Token()
    cause = Cause(None, click, 0.0)  # type: ignore[arg-type]
    assert await routes.pay(CHANNEL_ID, cause) == 1
    assert await routes.pay(CHANNEL_ID, cause) == 0
    assert carried == [click.id]


async def test_an_owed_write_past_the_clicks_five_follow_ups_waits_for_the_next_click(
    routes: MessageRoutes, clock: Clock,
) -> None:
    """A click carries what was owed as its follow-ups, five at most: what found none left is
    owed again (not dropped), unless a newer write of it was owed meanwhile."""
    session = group_dm_session()
    for what in ("table", "ping", "notice 1", "final 1", "summary", "last"):
        routes.owe(CHANNEL_ID, what, lambda cause, what=what: routes.send(
            NoChannel(), session, cause, content=what))  # type: ignore[arg-type]
    first = Token()
    assert await routes.pay(CHANNEL_ID, Cause(None, first, clock.now)) == 6  # type: ignore[arg-type]
    assert len(first.sent) == USER_APP_FOLLOWUPS
    clock.now += 1
    second = Token()
    assert await routes.pay(CHANNEL_ID, Cause(None, second, clock.now)) == 1  # type: ignore[arg-type]
    assert len(second.sent) == 1
    assert await routes.pay(CHANNEL_ID, Cause(None, Token(), clock.now)) == 0  # type: ignore[arg-type]


async def test_a_message_of_no_game_rides_on_the_clicks_follow_ups_only(
    routes: MessageRoutes, clock: Clock,
) -> None:
    """``follow_up`` (a chat's season end): a follow-up of the paying click, in its channel,
    while its token is fresh and has follow-ups left; else Unreachable, so it stays owed."""
    click = Token()
    cause = Cause(None, click, clock.now)  # type: ignore[arg-type]
    with pytest.raises(Unreachable):  # another channel's click
        await routes.follow_up(CHANNEL_ID + 1, cause, content="season")
    for _ in range(USER_APP_FOLLOWUPS):
        await routes.follow_up(CHANNEL_ID, cause, content="season")
    assert len(click.sent) == USER_APP_FOLLOWUPS
    with pytest.raises(Unreachable):
        await routes.follow_up(CHANNEL_ID, cause, content="season")
    clock.now += TOKEN_LIFETIME
    with pytest.raises(Unreachable):  # a lapsed token
        await routes.follow_up(CHANNEL_ID, Cause(None, Token(), 1000.0), content="season")  # type: ignore[arg-type]
    spent = Token(refuse_with=40094)  # Discord says this click's follow-ups are spent
    with pytest.raises(Unreachable):
        await routes.follow_up(CHANNEL_ID, Cause(None, spent, clock.now), content="season")  # type: ignore[arg-type]


async def test_a_message_of_no_game_whose_token_discord_refuses_stays_owed(
    routes: MessageRoutes, clock: Clock,
) -> None:
    """A click's token Discord no longer knows (10015 Unknown Webhook) carries nothing: the
    season's end stays owed to the next click instead of being lost; another owed write that
    fails for another reason does not take the rest down with it."""
    dead = Token(refuse_with=10015)
    written: list[str] = []

    async def season(cause: Cause) -> None:
        await routes.follow_up(CHANNEL_ID, cause, content="season")
        written.append("season")

    async def broken(cause: Cause) -> None:
        raise RuntimeError("not an HTTP error")

    routes.owe(CHANNEL_ID, "broken", broken)
    routes.owe(CHANNEL_ID, "season", season)
    await routes.pay(CHANNEL_ID, Cause(None, dead, clock.now))  # type: ignore[arg-type]
    assert written == []
    await routes.pay(CHANNEL_ID, Cause(None, Token(), clock.now))  # type: ignore[arg-type]
    assert written == ["season"]
