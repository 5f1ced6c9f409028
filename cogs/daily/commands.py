"""/daily: the daily deal (``bot.daily``) in Discord.

``/daily play game:`` deals today's deal at a private table (``cogs.rendering.private_table``:
one ephemeral message, no channel noise), resumes it, or refuses a second try with the time of
the next deal. Once the game ends its message shows the score, the server's board of the day,
the best score across every server, the streak, and a Share button
(``tb:dshare:{session}``) that posts a summary without cards to the channel, once.
``/daily board game:`` shows the server's board of the day; ``/daily replay game: day:`` opens a
past day's deal as a replay (the replay pages), never today's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.daily.deal import day_ends_at
from bot.daily.service import (
    AlreadyPlayed,
    DailyDeals,
    OpenElsewhere,
    ShareRefusal,
    ShareRefused,
    Summary,
    yesterday,
)
from bot.process.client import TableBot
from bot.records import errors
from bot.records.daily_play import DailyPlay
from bot.records.session import Session, SessionKind, Status
from cogs.click_context import enter
from cogs.client_services import Interaction, Refusable, player_id, refuse, seat_for
from cogs.commands.game_option import GameOption, game_choices
from cogs.features import Feature, Place, PrivateExtras, StatsField
from cogs.i18n.commands import L_
from cogs.i18n.interaction import channel_words, user_words
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Shown
from cogs.kit.custom_ids import ControlKind, button_control, number
from cogs.kit.places import CONTEXTS, INSTALLS, place_id
from cogs.rendering.private_table import send_private_table
from cogs.rendering.replay_pages import OTHER_SERVER, replay_click
from cogs.table_services import TableServices
from game.base import PlayerId

Item = Shown
OTHER_SERVER_TABLE = N_("Your daily deal of today was dealt in another server: run the command"
                        " there to go on with it.")
NOT_FINISHED = N_("Your daily deal is not finished yet.")
SHARED_ALREADY = N_("You have shared this deal already.")
NOT_YOURS = N_("That button belongs to another player's daily deal.")
BAD_DAY = N_("Write the day as YYYY-MM-DD, for example 2026-12-01.")
NOBODY_HERE = N_("Nobody in this server finished the daily {game} deal of {day}.")
DAY_FORMAT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
DAY_MAX = 10
# A daily deal's replay, export and review wait for the end of its day (every player gets its
# cards today): raised as a Refusal by the table's replays (``Feature.sealed``).
DEAL_NOT_OVER = N_("That daily deal can be replayed or exported once its day is over.").text


def titles_of(client: TableBot) -> dict[str, str]:
    return {key: engine.title for key, engine in client.manager.engines.items()}


def relative(moment: datetime) -> str:
    """A Discord timestamp that every reader sees in their own time ("in 5 hours")."""
    return discord.utils.format_dt(moment, "R")


def played_already(words: Words, error: AlreadyPlayed) -> str:
    return words.gettext("You have played today's deal. The next one starts {when}.",
                         when=relative(error.next_at))


def board_lines(words: Words, board: list[DailyPlay], me: PlayerId | None = None) -> str:
    """The board as lines: place, player (a mention: it never pings in an embed), score."""
    if not board:
        return words.gettext("Nobody has finished today's deal here yet.")
    lines = []
    place = 0
    for index, play in enumerate(board):
        if index == 0 or play.score != board[index - 1].score:
            place = index + 1
        mark = " ◀" if play.user_id == me else ""
        lines.append(words.gettext("{place}. <@{player}> · {score}",
                                   place=words.number(place), player=play.user_id,
                                   score=words.number(play.score or 0)) + mark)
    return "\n".join(lines)


def streak_text(words: Words, current: int, best: int) -> str:
    return words.ngettext("{count} day in a row (best {best})",
                          "{count} days in a row (best {best})", current,
                          best=words.number(best))


def summary_embed(words: Words, title: str, summary: Summary,
                  next_at: datetime) -> discord.Embed:
    play = summary.play
    embed = discord.Embed(
        title=words.gettext("Daily deal · {game} · {day}", game=title, day=words.date(play.day)),
        description="\n".join((
            words.gettext("Your score: **{score}**", score=words.number(play.score or 0)),
            words.gettext("Best score across all servers: **{score}**",
                          score=words.number(summary.best)),
            words.gettext("Your streak: {streak}", streak=streak_text(
                words, summary.streak.current, summary.streak.best)),
            words.gettext("The next deal starts {when}.", when=relative(next_at)),
        )),
    )
    embed.add_field(name=words.gettext("This server's board"),
                    value=board_lines(words, summary.board, play.user_id), inline=False)
    return embed


SHARE: ControlKind[int] = ControlKind(
    "dshare", (number("sid", 2**63 - 1),), NOT_YOURS, label="Share",
    style=discord.ButtonStyle.success)
ShareButton = button_control("ShareButton", SHARE)
# What a refused Share says (the rules are DailyDeals.share's).
SHARE_REFUSALS: dict[ShareRefusal, Refusable] = {
    ShareRefusal.NO_PLAY: errors.Refusal(errors.NO_GAME),
    ShareRefusal.NOT_YOURS: NOT_YOURS,
    ShareRefusal.OTHER_SERVER: OTHER_SERVER,
    ShareRefusal.NOT_FINISHED: NOT_FINISHED,
    ShareRefusal.SHARED_ALREADY: SHARED_ALREADY,
}


def parse_day(text: str | None, today: date) -> date | None:
    """The day a user wrote (YYYY-MM-DD), yesterday when empty; None when it is not a day."""
    if text is None:
        return yesterday(today)
    text = text.strip()
    if DAY_FORMAT.fullmatch(text) is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


class DailyCog(commands.Cog):
    """``/daily play``, ``/daily board``, ``/daily replay``; the Share button, the daily's
    add-on to its private table and the scoring of a finished daily, registered with the table
    (:meth:`cog_load`)."""

    def __init__(self, table: TableServices, daily: DailyDeals) -> None:
        self.table = table
        self.deals = daily

    def feature(self) -> Feature:
        return Feature(
            "daily",
            controls={ShareButton: lambda ia, parts, _: self.share_click(ia, *parts)},
            listeners={Place.DAILY_SCORES: self.deals.on_change},
            private={SessionKind.DAILY: self.addon},
            sealed={SessionKind.DAILY: self.sealed},
            stats=self.streaks,
        )

    async def streaks(self, guild_id: int, player: PlayerId, games: Mapping[str, str],
                      words: Words) -> StatsField | None:
        """/stats: the person's daily streak in each of ``games`` they have played a daily of
        (streaks count every server's plays: the deal is the same everywhere)."""
        lines = []
        for key, title in games.items():
            streak = await self.deals.streak(player, key)
            if streak.best > 0:
                lines.append(words.ngettext(
                    "{game}: {count} day in a row (best {best})",
                    "{game}: {count} days in a row (best {best})", streak.current,
                    game=title, best=words.number(streak.best)))
        if not lines:
            return None
        return StatsField(words.gettext("Daily deal streaks"), "\n".join(lines))

    async def sealed(self, session: Session) -> str | None:
        """A daily deal stays unseen until its day is over (``DailyDeals.deal_is_over``)."""
        return None if await self.deals.deal_is_over(session) else DEAL_NOT_OVER

    async def cog_load(self) -> None:
        self.table.features.register(self.feature())

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every command of the cog starts with its context (``cogs.click_context``)."""
        enter(interaction, self.table)
        return True

    async def addon(self, session: Session, viewer: PlayerId, words: Words) -> PrivateExtras:
        """What a daily's private message shows below the table once the game is over."""
        if session.status is not Status.FINISHED:
            return PrivateExtras()
        summary = await self.deals.summary(session)
        title = self.deals.manager.engines[session.game].title
        if summary is None:
            late = discord.Embed(description=words.gettext(
                "This game ended after its day was over, so it does not count."))
            return PrivateExtras(below=[late])
        items: list[Item] = []
        if summary.play.shared_at is None:
            items.append(ShareButton.payload(session.id, label=words.gettext("Share"),
                                             style=discord.ButtonStyle.success))
        return PrivateExtras(
            below=[summary_embed(words, title, summary, self.deals.next_deal_at())], items=items)

    async def share_click(self, interaction: Interaction, session_id: int) -> None:
        """Share: the finished daily's summary (score, streak; no card) in the channel,
        once."""
        try:
            shared = await self.deals.share(session_id, player_id(interaction.user),
                                            place_id(interaction))
        except ShareRefused as refused:
            await refuse(interaction, SHARE_REFUSALS[refused.reason])
            return
        play = shared.play
        words = await channel_words(interaction)  # a public post: the server's language
        title = titles_of(interaction.client).get(play.game, play.game)
        text = words.gettext(
            "{player} played the daily {game} deal of {day}: **{score}** points · streak:"
            " {streak}.",
            player=interaction.user.mention, game=title, day=words.date(play.day),
            score=words.number(play.score or 0),
            streak=streak_text(words, shared.streak.current, shared.streak.best))
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none())

    daily = app_commands.Group(
        name=L_("command-name", "daily"),
        description=L_("command-description", "The daily deal: the same cards for everyone"),
        allowed_contexts=CONTEXTS, allowed_installs=INSTALLS,
    )

    @daily.command(name=L_("command-name", "play"),
                   description=L_("command-description",
                                  "Play today's deal, once a day (only you see it)"))
    @app_commands.describe(game=L_("parameter-description", "Which game"))
    @app_commands.rename(game=L_("parameter-name", "game"))
    async def play(self, interaction: Interaction, game: GameOption) -> None:
        if game not in titles_of(interaction.client):
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        daily = self.deals
        try:
            opened = await daily.open(place_id(interaction), interaction.channel_id or 0,
                                      game, seat_for(interaction.user))
        except AlreadyPlayed as played:
            words = await user_words(interaction)
            await refuse(interaction, played_already(words, played))
            return
        except OpenElsewhere:
            await refuse(interaction, OTHER_SERVER_TABLE)
            return
        except errors.TableError as err:
            await refuse(interaction, err)
            return
        await send_private_table(interaction, opened.session)

    @daily.command(name=L_("command-name", "board"),
                   description=L_("command-description",
                                  "Today's daily deal scores in this server"))
    @app_commands.describe(game=L_("parameter-description", "Which game"))
    @app_commands.rename(game=L_("parameter-name", "game"))
    async def board(self, interaction: Interaction, game: GameOption) -> None:
        titles = titles_of(interaction.client)
        if game not in titles:
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        daily = self.deals
        day = daily.today()
        board = await daily.board(place_id(interaction), game, day)
        best = await daily.store.daily_best(game, day)
        words = await channel_words(interaction)
        embed = discord.Embed(
            title=words.gettext("Daily deal · {game} · {day}", game=titles[game],
                                day=words.date(day)),
            description=board_lines(words, board))
        if best is not None:
            embed.add_field(name=words.gettext("Best score across all servers"),
                            value=words.number(best), inline=False)
        embed.set_footer(text=words.gettext("Not rated; one try per player and day (UTC)."))
        await interaction.response.send_message(embed=embed)

    @daily.command(name=L_("command-name", "replay"),
                   description=L_("command-description",
                                  "Replay a past day's deal (yesterday by default)"))
    @app_commands.describe(game=L_("parameter-description", "Which game"),
                           day=L_("parameter-description",
                                  "The day, like 2026-12-01 (UTC; yesterday when empty)"))
    @app_commands.rename(game=L_("parameter-name", "game"), day=L_("parameter-name", "day"))
    async def replay(self, interaction: Interaction, game: GameOption,
                     day: app_commands.Range[str, 1, DAY_MAX] | None = None) -> None:
        titles = titles_of(interaction.client)
        if game not in titles:
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        daily = self.deals
        chosen = parse_day(day, daily.today())
        if chosen is None:
            await refuse(interaction, BAD_DAY)
            return
        if not daily.is_over(chosen):
            words = await user_words(interaction)
            await refuse(interaction, not_over_text(words, chosen))
            return
        session_id = await daily.replay_of(place_id(interaction), game, chosen,
                                           player_id(interaction.user))
        if session_id is None:
            words = await user_words(interaction)
            await refuse(interaction, words.text(NOBODY_HERE, game=titles[game],
                                                 day=words.date(chosen)))
            return
        await replay_click(interaction, session_id, 0, True)

    @play.autocomplete("game")
    @board.autocomplete("game")
    @replay.autocomplete("game")
    async def _game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(titles_of(interaction.client), current)


def not_over_text(words: Words, day: date) -> str:
    return words.gettext("The deal of {day} can be replayed once its day is over, {when}.",
                         day=words.date(day), when=relative(day_ends_at(day)))


