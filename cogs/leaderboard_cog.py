"""/leaderboard, /stats and /history, and the leaderboard's Previous/Next buttons.

The leaderboard is public (it is the server's table); /stats and /history answer only the
person who asked. Players appear as mentions, which never ping inside embeds. The page buttons
are DynamicItems whose custom_id carries guild, game, period and page
(``tb:lb:{guild}:{game}:{period}:{page}:{p|n}``), so they keep working after a restart; a
click re-queries, so an old page shows current numbers.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal, Self, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.leaderboard import (
    Board,
    FinishedGame,
    Leaderboards,
    PastGame,
    Period,
    Standing,
)
from cogs.choices import GameOption, game_choices
from cogs.context import Interaction, player_id, refuse, send_private
from cogs.game_ui import Render
from cogs.ids import Control, Item, ReplayButton, ReplayTag, checked_id

PAGE_SIZE = 10
HISTORY_GAMES = 10
RECENT_GAMES = 5
PAGE_TEMPLATE = (
    r"tb:lb:(?P<guild>[0-9]+):(?P<game>[a-z0-9_]+):(?P<period>all|month|week)"
    r":(?P<page>[0-9]+):(?P<dir>[pn])"
)
PERIOD_NAMES: dict[str, str] = {"all": "all time", "month": "this month", "week": "this week"}


def leaderboards(interaction: Interaction) -> Leaderboards:
    """The bot's :class:`Leaderboards` (made in ``TableBot.setup_hook``)."""
    return interaction.client.leaderboards


def game_titles(interaction: Interaction) -> dict[str, str]:
    return {key: engine.title for key, engine in interaction.client.manager.engines.items()}


def page_id(board: Board, page: int, direction: str) -> str:
    return LeaderboardPageButton.build(board.guild_id, board.game, board.period, page,
                                       direction)


# --- rendering ----------------------------------------------------------------------------------


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _ordinal_place(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _date(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d")


def _record(standing: Standing) -> str:
    line = standing.line
    return (
        f"{_plural(line.games, 'game')} · {_plural(line.wins, 'win')}"
        f" ({_percent(line.wins, line.games)}) · best {line.best} · avg {line.average:.1f}"
    )


def _period_note(board: Board) -> str:
    if board.since is None:
        return "All time"
    start = f"{board.since.day} {board.since:%b %Y, %H:%M} UTC"
    return f"{'Month' if board.period == 'month' else 'Week (from Monday)'}: since {start}"


def board_render(board: Board, page: int, title: str) -> Render:
    """Page ``page`` (clamped) of ``board`` with Previous/Next buttons."""
    pages = board.page_count(PAGE_SIZE)
    page, standings = board.page(page, PAGE_SIZE)
    lines: list[str] = []
    for standing in standings:
        mention = f"<@{standing.line.user_id}>"
        if standing.rank is not None:
            assert standing.rating is not None
            lines.append(
                f"**{standing.rank}.** {mention} · **{standing.rating.ordinal:.1f}** · "
                + _record(standing)
            )
            continue
        if not lines or lines[-1].startswith("**"):
            lines.append(f"*Fewer than {board.min_games} rated games (not ranked yet):*")
        rated = standing.line.rated_games
        lines.append(f"– {mention} · {rated} rated · " + _record(standing))
    if not lines:
        lines.append("No finished games here for this period yet.")
    embed = discord.Embed(
        title=f"{title} leaderboard · {PERIOD_NAMES[board.period]}",
        description="\n".join(lines),
    )
    embed.set_footer(
        text=f"Page {page + 1} of {pages} · rating = OpenSkill Plackett–Luce ordinal (μ − 3σ);"
        f" games with bot seats are not rated · {_period_note(board)}"
    )
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardPageButton(
        board.guild_id, board.game, board.period, max(page - 1, 0), "p", label="Previous",
        disabled=page <= 0,
    ))
    view.add_item(LeaderboardPageButton(
        board.guild_id, board.game, board.period, min(page + 1, pages - 1), "n", label="Next",
        disabled=page >= pages - 1,
    ))
    return Render(embeds=[embed], view=view)


def stats_field(board: Board, user_id: str) -> str:
    standing = board.find(user_id)
    if standing is None:
        return "No finished games yet."
    line = standing.line
    text = (
        f"{_plural(line.games, 'game')} · {_plural(line.wins, 'win')}"
        f" ({_percent(line.wins, line.games)})\nbest {line.best} · average {line.average:.1f}\n"
    )
    rating = standing.rating
    if standing.rank is not None and rating is not None:
        text += (
            f"rating **{rating.ordinal:.1f}** (μ {rating.mu:.1f}, σ {rating.sigma:.1f})"
            f" · rank **{standing.rank}** of {board.ranked_count}"
        )
    else:
        text += (
            f"not ranked yet: {line.rated_games} of {board.min_games} rated games"
            + (f" (rating {rating.ordinal:.1f})" if rating is not None else "")
        )
    return text


def stats_render(
    user: discord.abc.User, boards: list[tuple[str, Board]], recent: list[PastGame],
    titles: dict[str, str],
) -> Render:
    me = player_id(user)
    embed = discord.Embed(title=f"{user.display_name} in this server",
                          description=f"<@{me}> · all time")
    for title, board in boards:
        embed.add_field(name=title, value=stats_field(board, me), inline=False)
    if recent:
        embed.add_field(name="Last games", inline=False, value="\n".join(
            f"{_date(game.finished_at)} · {titles.get(game.game, game.game)} · "
            f"{_ordinal_place(game.placement)} of {game.players} · {game.score}"
            for game in recent
        ))
    else:
        embed.add_field(name="Last games", value="No finished games yet.", inline=False)
    return Render(embeds=[embed])


def history_render(games: list[FinishedGame], titles: dict[str, str]) -> Render:
    """The channel's last games, numbered, each with its Replay button (up to 10: two rows)."""
    embed = discord.Embed(title="Recent games in this channel")
    if not games:
        embed.description = "No finished games in this channel yet."
    view = discord.ui.View(timeout=None) if games else None
    for number, game in enumerate(games, start=1):
        players = []
        for line in game.lines:
            who = f"{line.name} (bot)" if line.is_bot else f"<@{line.user_id}>"
            note = " (left)" if line.left else ""
            players.append(f"{line.placement}. {who}{note} · {line.score}")
        embed.add_field(
            name=f"{number}. {titles.get(game.game, game.game)} · {_date(game.finished_at)}"
            f" · {'rated' if game.rated else 'unrated'}",
            value="\n".join(players),
            inline=False,
        )
        if view is not None and number <= HISTORY_GAMES:
            view.add_item(ReplayButton(game.session_id, 0, ReplayTag.OPEN,
                                       label=f"Replay {number}", row=(number - 1) // 5))
    return Render(embeds=[embed], view=view)


# --- commands -----------------------------------------------------------------------------------


class LeaderboardCog(commands.Cog):
    """Server leaderboards, player records and channel history."""

    @app_commands.command(name="leaderboard", description="This server's players, by rating")
    @app_commands.describe(game="Which game", period="All time, this month or this week (UTC)")
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: Interaction, game: GameOption,
        period: Literal["all", "month", "week"] = "all",
    ) -> None:
        titles = game_titles(interaction)
        if game not in titles:
            await refuse(interaction, errors.unknown_game(game))
            return
        service = leaderboards(interaction)
        guild_id = interaction.guild_id or 0
        if not service.is_cached(guild_id, game, period):
            await interaction.response.defer(thinking=True)  # a full replay may take a second
        board = await service.board(guild_id, game, period)
        render = board_render(board, 0, titles[game])
        kwargs = {"allowed_mentions": discord.AllowedMentions.none(), **render.send_kwargs()}
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    @app_commands.command(name="stats", description="A player's record in this server (only you)")
    @app_commands.describe(user="Whose record (you when empty)", game="One game (all when empty)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: Interaction, user: discord.User | None = None,
        game: GameOption | None = None,
    ) -> None:
        titles = game_titles(interaction)
        if game is not None and game not in titles:
            await refuse(interaction, errors.unknown_game(game))
            return
        target = user or interaction.user
        guild_id = interaction.guild_id or 0
        service = leaderboards(interaction)
        games = [game] if game is not None else list(titles)
        if not all(service.is_cached(guild_id, key) for key in games):
            await interaction.response.defer(ephemeral=True, thinking=True)
        boards = [(titles[key], await service.board(guild_id, key, "all")) for key in games]
        if game is None:  # only the games this player has played, unless there are none
            boards = [
                (title, board) for title, board in boards
                if board.find(player_id(target)) is not None
            ] or boards
        recent = await service.recent_games(guild_id, games, player_id(target), RECENT_GAMES)
        render = stats_render(target, boards, recent, titles)
        await send_private(interaction, render)

    @app_commands.command(name="history", description="The last finished games in this channel")
    @app_commands.guild_only()
    async def history(self, interaction: Interaction) -> None:
        games = await leaderboards(interaction).channel_history(
            interaction.channel_id or 0, HISTORY_GAMES
        )
        render = history_render(games, game_titles(interaction))
        await interaction.response.send_message(ephemeral=True, **render.send_kwargs())

    @leaderboard.autocomplete("game")
    @stats.autocomplete("game")
    async def _game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(game_titles(interaction), current)


async def page_click(interaction: Interaction, guild_id: int, game: str, period: Period,
                     page: int) -> None:
    """Previous/Next on a leaderboard: re-query and edit the message in place."""
    titles = game_titles(interaction)
    if game not in titles:
        await refuse(interaction, errors.unknown_game(game))
        return
    if guild_id != interaction.guild_id:
        await refuse(interaction, "This leaderboard belongs to another server.")
        return
    service = leaderboards(interaction)
    if not service.is_cached(guild_id, game, period):  # after a restart, or a new week
        await interaction.response.defer()
    board = await service.board(guild_id, game, period)
    render = board_render(board, page, titles[game])
    if interaction.response.is_done():
        await interaction.edit_original_response(**render.edit_kwargs())
    else:
        await interaction.response.edit_message(**render.edit_kwargs())


class LeaderboardPageButton(Control, template=PAGE_TEMPLATE):
    """``tb:lb:{guild}:{game}:{period}:{page}:{p|n}``: template, build, parse and click."""

    def __init__(self, guild_id: int, game: str, period: Period, page: int, direction: str, *,
                 label: str = "", disabled: bool = False, item: Item | None = None) -> None:
        super().__init__(item or discord.ui.Button(
            custom_id=self.build(guild_id, game, period, page, direction), label=label,
            disabled=disabled,
        ))
        self.guild_id, self.game, self.period, self.page = guild_id, game, period, page

    @staticmethod
    def build(guild_id: int, game: str, period: Period, page: int, direction: str) -> str:
        return checked_id(f"tb:lb:{guild_id}:{game}:{period}:{page}:{direction}")

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Item, match: re.Match[str], /
    ) -> Self:
        period = cast(Period, match["period"])  # the template admits only periods
        return cls(int(match["guild"]), match["game"], period, int(match["page"]), match["dir"],
                   item=item)

    async def run(self, interaction: Interaction) -> None:
        await page_click(interaction, self.guild_id, self.game, self.period, self.page)


LEADERBOARD_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LeaderboardPageButton,)

