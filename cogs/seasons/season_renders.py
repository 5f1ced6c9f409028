"""The end-of-season post: each played game's champion and final top 10 (one embed per game,
mentions that never ping: embeds do not notify)."""

from __future__ import annotations

import discord

from bot.automation.season_watcher import TOP, SeasonEnd
from cogs.game_ui import Render
from cogs.i18n.common_words import GAMES, WINS
from cogs.i18n.words import Words


def season_end_render(end: SeasonEnd, titles: dict[str, str], words: Words) -> Render:
    """What the season's channel reads once ``end.season`` is over."""
    embeds: list[discord.Embed] = []
    start, stop = words.date(end.season.start.date()), words.date(end.season.end.date())
    for board in end.boards:
        title = titles.get(board.game, board.game)
        champion = end.champions.get(board.game)
        crowned = f"<@{champion}>"
        lines = [
            words.gettext("🏆 Champion: {player}", player=crowned) if champion
            else words.ngettext(
                "No champion: nobody played the {count} rated game needed to be ranked.",
                "No champion: nobody played the {count} rated games needed to be ranked.",
                board.min_games,
            ),
        ]
        ranked = [standing for standing in board.standings if standing.rank is not None]
        for standing in ranked[:TOP]:
            assert standing.rating is not None and standing.rank is not None
            mention = f"<@{standing.line.user_id}>"
            lines.append(words.gettext(
                "**{rank}.** {player} · **{rating}** · {games} · {wins}",
                rank=words.number(standing.rank), player=mention,
                rating=words.decimal(standing.rating.ordinal),
                games=words.plural(GAMES, standing.line.games),
                wins=words.plural(WINS, standing.line.wins),
            ))
        embed = discord.Embed(
            title=words.gettext("{game} · season {season} is over", game=title,
                                season=end.season.name),
            description="\n".join(lines),
        )
        embed.set_footer(text=words.gettext(
            "From {start} to {end}, 00:00 UTC · final top {count} by rating",
            start=start, end=stop, count=words.number(TOP),
        ))
        embeds.append(embed)
    return Render(embeds=embeds)
