"""/leaderboard, /stats and /history, and the leaderboard's Previous/Next buttons.

The leaderboard is public (it is the server's table); /stats and /history answer only the
person who asked. Players appear as mentions, which never ping inside embeds. The page buttons
are DynamicItems whose custom_id carries guild, game, period and page
(``tb:lb:{guild}:{game}:{period}:{page}:{p|n}``), so they keep working after a restart; a
click re-queries, so an old page shows current numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord
from discord import app_commands
from discord.ext import commands

from bot.rankings.leaderboard import (
    Board,
    FinishedGame,
    Leaderboards,
    PastGame,
    Period,
    Standing,
)
from bot.rankings.seasons import (
    DEFAULT_SEASON_KIND,
    SEASON_KINDS,
    Season,
    ended_seasons,
    parse_season,
)
from bot.records import errors
from cogs.client_services import Interaction, player_id, refuse, send_private
from cogs.commands.game_option import GameOption, game_choices
from cogs.features import Feature, StatsField
from cogs.game_ui import Render
from cogs.i18n.catalogs import words_for
from cogs.i18n.command_mentions import command_fields
from cogs.i18n.commands import L_
from cogs.i18n.common_words import GAMES, NEXT, PREVIOUS, WINS
from cogs.i18n.interaction import channel_words, user_words
from cogs.i18n.language import DEFAULT_LANGUAGE
from cogs.i18n.messages import N_, NP_, Message
from cogs.i18n.words import Words
from cogs.kit.custom_ids import (
    DIRECTION,
    GAME,
    PAGE,
    ControlKind,
    Part,
    ReplayButton,
    ReplayTag,
    button_control,
    snowflake,
)
from cogs.kit.page_controls import NOT_THIS_MESSAGE, is_game_message, on_own_page
from cogs.kit.server_settings import server_settings
from cogs.table_services import TableServices

PAGE_SIZE = 10
HISTORY_GAMES = 10
RECENT_GAMES = 5
PERIOD_NAMES: dict[str, Message] = {
    "all": NP_("period", "all time"),
    "month": NP_("period", "this month"),
    "week": NP_("period", "this week"),
}
ENGLISH = words_for(DEFAULT_LANGUAGE)


OTHER_SERVER = N_("This leaderboard belongs to another server.")
NOT_A_SEASON = N_("That is not a season: write a month like 2026-11 or a quarter like"
                  " 2026-Q4.")
SEASON_NOT_OVER = N_("Season {season} is not over yet; {leaderboard_command} shows the"
                     " standings so far.")
MAX_TITLES = 24  # season titles listed by /stats (newest first)
NO_SUCH_MEMBER = N_("That member could not be found. Please choose them again.")
PERIOD_CHOICES = [
    app_commands.Choice(name=L_("choice-name", "all time"), value="all"),
    app_commands.Choice(name=L_("choice-name", "this month"), value="month"),
    app_commands.Choice(name=L_("choice-name", "this week"), value="week"),
]


def _period(value: str) -> Period:
    return "month" if value == "month" else "week" if value == "week" else "all"


def leaderboards(interaction: Interaction) -> Leaderboards:
    """The bot's :class:`Leaderboards` (made in ``TableBot.setup_hook``)."""
    return interaction.client.leaderboards


def game_titles(interaction: Interaction) -> dict[str, str]:
    return {key: engine.title for key, engine in interaction.client.manager.engines.items()}


def page_id(board: Board, page: int, direction: str) -> str:
    return LeaderboardPageButton.build(board.guild_id, board.game, board.period, page,
                                       direction)


# --- rendering ----------------------------------------------------------------------------------


def _percent(words: Words, part: int, whole: int) -> str:
    return words.gettext("{percent}%", percent=words.number(round(100 * part / whole))) \
        if whole else "–"


def _maybe(words: Words, value: int | None) -> str:
    return "–" if value is None else words.number(value)


def _date(words: Words, moment: datetime) -> str:
    return words.date(moment.date())


def _record(words: Words, standing: Standing) -> str:
    line = standing.line
    return words.gettext(
        "{games} · {wins} ({percent}) · best {best} · avg {average}",
        games=words.plural(GAMES, line.games), wins=words.plural(WINS, line.wins),
        percent=_percent(words, line.wins, line.games), best=_maybe(words, line.best),
        average=words.decimal(line.average),
    )


def _period_note(words: Words, board: Board) -> str:
    if board.season is not None:
        return season_span(words, board.season)
    if board.since is None:
        return words.text(PERIOD_NAMES["all"])
    start = f"{_date(words, board.since)}, {board.since:%H:%M} UTC"
    if board.period == "month":
        return words.gettext("Month: since {start}", start=start)
    return words.gettext("Week (from Monday): since {start}", start=start)


def season_span(words: Words, season: Season) -> str:
    """``Season 2026-11: 1 Nov 2026 to 1 Dec 2026, 00:00 UTC`` in the reader's words."""
    return words.gettext("Season {season}: from {start} to {end}, 00:00 UTC",
                         season=season.name, start=_date(words, season.start),
                         end=_date(words, season.end))


def board_render(board: Board, page: int, title: str, words: Words = ENGLISH) -> Render:
    """Page ``page`` (clamped) of ``board`` with Previous/Next buttons; a past season's board
    shows its first page (its top 10), without buttons."""
    pages = board.page_count(PAGE_SIZE)
    page, standings = board.page(page, PAGE_SIZE)
    lines: list[str] = []
    unranked_heading = False
    for standing in standings:
        mention = f"<@{standing.line.user_id}>"
        if standing.rank is not None:
            assert standing.rating is not None
            lines.append(words.gettext(
                "**{rank}.** {player} · **{rating}** · {record}", rank=standing.rank,
                player=mention, rating=words.decimal(standing.rating.ordinal),
                record=_record(words, standing),
            ))
            continue
        if not unranked_heading:
            unranked_heading = True
            lines.append(words.ngettext(
                "*Fewer than {count} rated game (not ranked yet):*",
                "*Fewer than {count} rated games (not ranked yet):*", board.min_games,
            ))
        lines.append(words.gettext(
            "– {player} · {rated} rated · {record}", player=mention,
            rated=words.number(standing.line.rated_games), record=_record(words, standing),
        ))
    if not lines:
        lines.append(words.gettext("No finished games here for this period yet."))
    if board.season is not None:
        heading = words.gettext("{game} leaderboard · season {season}", game=title,
                                season=board.season.name)
    else:
        heading = words.gettext("{game} leaderboard · {period}", game=title,
                                period=words.text(PERIOD_NAMES[board.period]))
    embed = discord.Embed(title=heading, description="\n".join(lines))
    embed.set_footer(text=words.gettext(
        "Page {page} of {pages} · rating = OpenSkill Plackett–Luce ordinal (μ − 3σ);"
        " games with bot seats are not rated · {period}",
        page=words.number(page + 1), pages=words.number(pages),
        period=_period_note(words, board),
    ))
    if board.season is not None:
        return Render(embeds=[embed])
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardPageButton(
        board.guild_id, board.game, board.period, max(page - 1, 0), "p",
        label=words.text(PREVIOUS), disabled=page <= 0,
    ))
    view.add_item(LeaderboardPageButton(
        board.guild_id, board.game, board.period, min(page + 1, pages - 1), "n",
        label=words.text(NEXT), disabled=page >= pages - 1,
    ))
    return Render(embeds=[embed], view=view)


def stats_field(board: Board, user_id: str, words: Words = ENGLISH) -> str:
    standing = board.find(user_id)
    if standing is None:
        return words.gettext("No finished games yet.")
    line = standing.line
    text = words.gettext(
        "{games} · {wins} ({percent})\nbest {best} · average {average}",
        games=words.plural(GAMES, line.games), wins=words.plural(WINS, line.wins),
        percent=_percent(words, line.wins, line.games), best=_maybe(words, line.best),
        average=words.decimal(line.average),
    ) + "\n"
    rating = standing.rating
    if standing.rank is not None and rating is not None:
        text += words.gettext(
            "rating **{rating}** (μ {mu}, σ {sigma}) · rank **{rank}** of {ranked}",
            rating=words.decimal(rating.ordinal), mu=words.decimal(rating.mu),
            sigma=words.decimal(rating.sigma), rank=words.number(standing.rank),
            ranked=words.number(board.ranked_count),
        )
    elif rating is not None:
        text += words.gettext(
            "not ranked yet: {rated} of {needed} rated games (rating {rating})",
            rated=words.number(line.rated_games), needed=words.number(board.min_games),
            rating=words.decimal(rating.ordinal),
        )
    else:
        text += words.gettext(
            "not ranked yet: {rated} of {needed} rated games",
            rated=words.number(line.rated_games), needed=words.number(board.min_games),
        )
    return text


def season_titles_text(won: list[tuple[str, str]], titles: dict[str, str],
                       words: Words = ENGLISH) -> str | None:
    """A player's season titles, newest first (None when there are none)."""
    seasons = sorted(((season, game) for name, game in won
                      if (season := parse_season(name)) is not None),
                     key=lambda pair: (pair[0].end, pair[0].start, pair[1]), reverse=True)
    if not seasons:
        return None
    lines = [words.gettext("🏆 {season} · {game} champion", season=season.name,
                           game=titles.get(game, game))
             for season, game in seasons[:MAX_TITLES]]
    if len(seasons) > MAX_TITLES:
        lines.append(words.ngettext("… and {count} more", "… and {count} more",
                                    len(seasons) - MAX_TITLES))
    return "\n".join(lines)


def stats_render(
    user: discord.abc.User, boards: list[tuple[str, Board]], recent: list[PastGame],
    titles: dict[str, str], words: Words = ENGLISH, won: list[tuple[str, str]] | None = None,
    fields: Sequence[StatsField] = (),
) -> Render:
    """``fields``: what the features add (``Feature.stats``), after the season titles."""
    me = player_id(user)
    mention = f"<@{me}>"
    embed = discord.Embed(title=words.gettext("{name} in this server", name=user.display_name),
                          description=words.gettext("{player} · all time", player=mention))
    for title, board in boards:
        embed.add_field(name=title, value=stats_field(board, me, words), inline=False)
    champion = season_titles_text(won or [], titles, words)
    if champion is not None:
        embed.add_field(name=words.gettext("Season titles"), value=champion, inline=False)
    for field in fields:
        embed.add_field(name=field.name, value=field.value, inline=False)
    heading = words.gettext("Last games")
    if recent:
        embed.add_field(name=heading, inline=False, value="\n".join(
            words.gettext(
                "{date} · {game} · #{place} of {players} · {score}",
                date=_date(words, game.finished_at), game=titles.get(game.game, game.game),
                place=words.number(game.placement), players=words.number(game.players),
                score=words.number(game.score),
            )
            for game in recent
        ))
    else:
        embed.add_field(name=heading, value=words.gettext("No finished games yet."),
                        inline=False)
    return Render(embeds=[embed])


def history_render(games: list[FinishedGame], titles: dict[str, str],
                   words: Words = ENGLISH) -> Render:
    """The channel's last games, numbered, each with its Replay button (up to 10: two rows)."""
    embed = discord.Embed(title=words.gettext("Recent games in this channel"))
    if not games:
        embed.description = words.gettext("No finished games in this channel yet.")
    view = discord.ui.View(timeout=None) if games else None
    for number, game in enumerate(games, start=1):
        players = []
        for line in game.lines:
            if line.is_bot:
                who = words.gettext("{name} (bot)", name=line.name)
            else:
                who = f"<@{line.user_id}>"
            if line.left:
                who = words.gettext("{player} (left)", player=who)
            players.append(words.gettext("{place}. {player} · {score}", place=line.placement,
                                         player=who, score=words.number(line.score)))
        rated = words.gettext("rated") if game.rated else words.gettext("unrated")
        embed.add_field(
            name=words.gettext("{number}. {game} · {date} · {rated}", number=number,
                               game=titles.get(game.game, game.game),
                               date=_date(words, game.finished_at), rated=rated),
            value="\n".join(players),
            inline=False,
        )
        if view is not None and number <= HISTORY_GAMES:
            view.add_item(ReplayButton(game.session_id, 0, ReplayTag.OPEN,
                                       label=words.gettext("Replay {number}", number=number),
                                       row=(number - 1) // 5))
    return Render(embeds=[embed], view=view)


# --- commands -----------------------------------------------------------------------------------


class LeaderboardCog(commands.Cog):
    """Server leaderboards, player records and channel history; the page buttons registered
    with the table (:meth:`cog_load`). /stats shows what the features add
    (``Feature.stats``)."""

    def __init__(self, table: TableServices) -> None:
        self.table = table

    def feature(self) -> Feature:
        return Feature("leaderboard", controls={
            LeaderboardPageButton: lambda ia, parts, _: page_click(ia, *parts[:4])})

    async def cog_load(self) -> None:
        self.table.features.register(self.feature())

    @app_commands.command(
        name=L_("command-name", "leaderboard"),
        description=L_("command-description", "This server's players, by rating"),
    )
    @app_commands.describe(
        game=L_("parameter-description", "Which game"),
        period=L_("parameter-description", "All time, this month or this week (UTC)"),
        season=L_("parameter-description",
                  "A past season's final board, e.g. 2026-11 or 2026-Q4 (instead of a period)"),
    )
    @app_commands.rename(game=L_("parameter-name", "game"),
                         period=L_("parameter-name", "period"),
                         season=L_("parameter-name", "season"))
    @app_commands.choices(period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: Interaction, game: GameOption,
        period: app_commands.Choice[str] | None = None,
        season: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        titles = game_titles(interaction)
        if game not in titles:
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        if season is not None:
            await self._season_board(interaction, game, season, titles[game])
            return
        chosen = _period(period.value if period is not None else "all")
        service = leaderboards(interaction)
        guild_id = interaction.guild_id or 0
        min_games = (await server_settings(interaction.client, guild_id)).leaderboard_min_games
        words = await channel_words(interaction)
        if not service.is_cached(guild_id, game, chosen):
            await interaction.response.defer(thinking=True)  # a full replay may take a second
        board = await service.board(guild_id, game, chosen, min_games=min_games)
        render = board_render(board, 0, titles[game], words)
        kwargs = {"allowed_mentions": discord.AllowedMentions.none(), **render.send_kwargs()}
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    async def _season_board(self, interaction: Interaction, game: str, name: object,
                            title: str) -> None:
        parsed = parse_season(name) if isinstance(name, str) else None
        if parsed is None:
            await refuse(interaction, NOT_A_SEASON)
            return
        service = leaderboards(interaction)
        if parsed.end > service.clock():
            reader = await user_words(interaction)
            await refuse(interaction, reader.text(SEASON_NOT_OVER, season=parsed.name,
                                                  **command_fields(reader)))
            return
        guild_id = interaction.guild_id or 0
        min_games = (await server_settings(interaction.client, guild_id)).leaderboard_min_games
        words = await channel_words(interaction)
        await interaction.response.defer(thinking=True)  # a replay of the season's results
        board = await service.season_board(guild_id, game, parsed, min_games=min_games)
        render = board_render(board, 0, title, words)
        await interaction.followup.send(allowed_mentions=discord.AllowedMentions.none(),
                                        **render.send_kwargs())

    @app_commands.command(
        name=L_("command-name", "stats"),
        description=L_("command-description", "A player's record in this server (only you)"),
    )
    @app_commands.describe(
        user=L_("parameter-description", "Whose record (you when empty)"),
        game=L_("parameter-description", "One game (all when empty)"),
    )
    @app_commands.rename(user=L_("parameter-name", "user"), game=L_("parameter-name", "game"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: Interaction, user: discord.User | None = None,
        game: GameOption | None = None,
    ) -> None:
        titles = game_titles(interaction)
        if game is not None and game not in titles:
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        if user is not None and not isinstance(getattr(user, "display_name", None), str):
            # An id Discord did not resolve (a forged command; cogs.commands.option_check refuses it
            # first): nobody to show.
            await refuse(interaction, NO_SUCH_MEMBER)
            return
        target = user or interaction.user
        guild_id = interaction.guild_id or 0
        service = leaderboards(interaction)
        games = [game] if game is not None else list(titles)
        min_games = (await server_settings(interaction.client, guild_id)).leaderboard_min_games
        words = await user_words(interaction)
        if not all(service.is_cached(guild_id, key) for key in games):
            await interaction.response.defer(ephemeral=True, thinking=True)
        boards = [(titles[key], await service.board(guild_id, key, "all", min_games=min_games))
                  for key in games]
        if game is None:  # only the games this player has played, unless there are none
            boards = [
                (title, board) for title, board in boards
                if board.find(player_id(target)) is not None
            ] or boards
        recent = await service.recent_games(guild_id, games, player_id(target), RECENT_GAMES)
        won = [(season, key) for season, key in
               await service.season_titles(guild_id, player_id(target)) if key in games]
        fields = await self.table.features.stats_fields(
            player_id(target), {key: titles[key] for key in games}, words)
        render = stats_render(target, boards, recent, titles, words, won, fields)
        await send_private(interaction, render)

    @app_commands.command(
        name=L_("command-name", "history"),
        description=L_("command-description", "The last finished games in this channel"),
    )
    @app_commands.guild_only()
    async def history(self, interaction: Interaction) -> None:
        games = await leaderboards(interaction).channel_history(
            interaction.channel_id or 0, HISTORY_GAMES
        )
        render = history_render(games, game_titles(interaction), await user_words(interaction))
        await interaction.response.send_message(ephemeral=True, **render.send_kwargs())

    @leaderboard.autocomplete("season")
    async def _season_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The server's ended seasons since its first game, newest first."""
        service = leaderboards(interaction)
        guild_id = interaction.guild_id or 0
        first = await service.first_game_at(guild_id)
        if first is None:
            return []
        kind = (await server_settings(interaction.client, guild_id)).season
        kinds = [kind] if kind in SEASON_KINDS else [DEFAULT_SEASON_KIND]
        wanted = current.strip().upper()
        names = [season.name for chosen in kinds
                 for season in ended_seasons(chosen, first, service.clock())]
        return [app_commands.Choice(name=name, value=name)
                for name in names if name.startswith(wanted)][:25]

    @leaderboard.autocomplete("game")
    @stats.autocomplete("game")
    async def _game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(game_titles(interaction), current)


async def page_click(interaction: Interaction, guild_id: int, game: str, period: Period,
                     page: int) -> None:
    """Previous/Next on a leaderboard: re-query and edit the message in place (refused on
    any message but a leaderboard)."""
    # The message's own controls first: a store read only for what passes that.
    if not on_own_page(
        interaction.message, (LeaderboardPageButton.__discord_ui_compiled_template__,),
        ephemeral=False,
    ) or await is_game_message(interaction):
        await refuse(interaction, NOT_THIS_MESSAGE)
        return
    titles = game_titles(interaction)
    if game not in titles:
        await refuse(interaction, errors.unknown_game_refusal(game))
        return
    if guild_id != interaction.guild_id:
        await refuse(interaction, OTHER_SERVER)
        return
    service = leaderboards(interaction)
    min_games = (await server_settings(interaction.client, guild_id)).leaderboard_min_games
    words = await channel_words(interaction)
    if not service.is_cached(guild_id, game, period):  # after a restart, or a new week
        await interaction.response.defer()
    board = await service.board(guild_id, game, period, min_games=min_games)
    render = board_render(board, page, titles[game], words)
    if interaction.response.is_done():
        await interaction.edit_original_response(**render.edit_kwargs())
    else:
        await interaction.response.edit_message(**render.edit_kwargs())


# ``tb:lb:{guild}:{game}:{period}:{page}:{p|n}``.
PAGE_BUTTON: ControlKind[int, str, Period, int, str] = ControlKind(
    "lb", (snowflake("guild"), GAME, Part("period", "all|month|week"), PAGE, DIRECTION),
    OTHER_SERVER, label="")
LeaderboardPageButton = button_control("LeaderboardPageButton", PAGE_BUTTON)

