"""Every game ends at the bottom of its channel: a final post with the standings, a Rematch
button and a My review button (each player's own review, ``cogs.reviews.review_pages``),
after the table's last edit, the last round summary and the ping's deletion (a manager
listener subscribed after those), a follow-up of the click that ended the game when it can
carry it (``cogs.kit.message_routes``).

:func:`final_post` builds it, in one place; the game's final picture
(``cogs.rendering.message_delivery.final_picture``: SPLIT's score progression, TEN's final
collections) is its image when the server shows pictures. The standings are the game UI's
(``cogs.game_ui.ShowsStandings``), else a list of ``engine.results``. Public: final results only,
which hide nothing.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord

from bot.process.client import TableBot
from bot.records.change import Change, ChangeKind
from bot.records.session import Session, Status
from cogs.client_services import release_view
from cogs.game_ui import SHOWS_STANDINGS, Attachment, Render, able, as_card
from cogs.i18n.button_names import button_names
from cogs.i18n.common_words import POINTS, REMATCH
from cogs.i18n.interaction import server_words
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Rows
from cogs.kit.custom_ids import RematchButton
from cogs.kit.discord_limits import clip
from cogs.kit.message_routes import Cause, Unreachable, cause_of
from cogs.pictures import text_only
from cogs.rendering.message_delivery import final_picture
from cogs.rendering.replay_pages import review_button
from cogs.table_services import TableServices
from cogs.ui_registry import GameUIs

log = logging.getLogger(__name__)

DESCRIPTION_LIMIT = 4096


def standings_embed(client: TableBot, session: Session, words: Words) -> discord.Embed:
    """Place, name and score of every seat, from the engine's results."""
    engine = client.manager.engine(session.game)
    names = session.names
    lines = [
        words.gettext("{place}. {name}: {points}", place=result.placement,
                      name=names.get(result.player, result.player),
                      points=words.plural(POINTS, result.score))
        for result in engine.results(session.state)
    ]
    return discord.Embed(
        title=words.gettext("{game}: final standings", game=engine.title),
        description=clip("\n".join(lines), DESCRIPTION_LIMIT),
    )


def final_post(client: TableBot, uis: GameUIs, session: Session, words: Words) -> Render:
    """The final post of finished ``session``: standings and the Rematch button."""
    standings = able(uis.ui(session.game), SHOWS_STANDINGS)
    embeds = (
        standings.final_embeds(session, words) if standings is not None
        else [standings_embed(client, session, words)]
    )
    if embeds:
        embeds[-1].set_footer(text=words.gettext(
            "{rematch_button} opens a new lobby with the same seats and options: each player"
            " takes their seat with it, then the host starts.", **button_names(words)
        ))
    view = Rows([RematchButton.payload(session.id, label=words.text(REMATCH))])
    review = review_button(session, words)
    if review is not None:
        view.add_item(review)
    return as_card(Render(embeds=embeds, view=view))


def with_final_picture(render: Render, picture: Attachment | None) -> Render:
    """The final post with ``picture`` as the image of its last embed."""
    if picture is None or not render.embeds:
        return render
    embeds = list(render.embeds)
    embeds[-1] = embeds[-1].copy().set_image(url=picture.url)
    return replace(render, embeds=embeds, files=[picture])


class FinalPost:
    def __init__(self, client: TableBot, services: TableServices) -> None:
        self._client = client
        self._services = services

    async def on_change(self, change: Change) -> None:
        session = change.session
        if change.kind != ChangeKind.FINISHED or session.status is not Status.FINISHED:
            return
        await self._post(session, cause_of(change.origin))

    async def _post(self, session: Session, cause: Cause | None) -> None:
        """The final post of ``session``, a follow-up of ``cause`` when it can carry it; where
        no token can (a tokens-only table after a long pause), owed to the next click there
        (``cogs.kit.message_routes``)."""
        words = await server_words(self._client, session.guild_id)
        picture = await final_picture(self._client, self._services, session)
        render = with_final_picture(
            final_post(self._client, self._services.uis, session, words), picture)
        if picture is None:  # the server's text-only mode: card names without their emojis
            render = text_only(render)
        routes = self._services.routes
        left = {session.table_message_id: "table"} if session.table_message_id else {}
        try:
            sent = await routes.send(self._client, session, cause, **render.send_kwargs())
        except Unreachable:
            log.info("session %s: no token to post its end with; the next click will",
                     session.id)
            routes.owe(session.channel_id, f"final {session.id}",
                       lambda later: self._post(session, later))
        except discord.HTTPException:
            log.warning("could not post the end of session %s", session.id)
        else:
            left[sent.id] = "post"
        finally:
            release_view(render.view)
        # Kept by id: a page control forged onto either is refused (cogs.kit.page_controls).
        if left:
            await self._client.manager.store.record_final_posts(
                session.id, left, at=self._client.manager.clock())
