"""The "My review" button: a player's private, paged review of a finished game by the expert.

From the final post or a replay page, a player of the game opens their own review
(``bot.reviews``): page 0 sums it up (accuracy, mean cost, how sure), then one page per
decision where their move differs from the expert's, each with the position as they saw it
(their own private view of the state before the move, never another seat's), the move
played, the expert's move and the estimated cost. Anyone else is refused. The positions are
drawn from the game's replay (``cogs.rendering.replay_pages``, cached), in the clicker's
language. A review not stored yet is queued; the ephemeral answer says so and is edited
when the review is stored, while the interaction's token is valid.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from bot.records.errors import Refusal
from bot.records.session import Session, Status
from bot.reviews.model import Review, ReviewedDecision, differing, summary
from bot.reviews.reviewer import BUSY, DONE, PENDING, Stored
from bot.sessions.export import NO_SUCH_GAME
from cogs.click_context import context_of
from cogs.client_services import Interaction, player_id, refuse
from cogs.game_ui import (
    POINTS_UNIT,
    WORDS_DECISIONS,
    GameUI,
    Render,
    able,
    private_in,
)
from cogs.i18n.button_names import button_names
from cogs.i18n.interaction import user_words
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.custom_ids import Item, ReplayTag, ReviewButton
from cogs.kit.discord_limits import FIELD_VALUE, clip, fit_embeds
from cogs.kit.page_controls import NOT_THIS_MESSAGE, on_own_page
from cogs.kit.places import place_id
from cogs.rendering.replay_pages import (
    OTHER_SERVER,
    load_replay,
    may_show,
    step_session,
)
from cogs.replay_cache import BuiltReplay

log = logging.getLogger(__name__)

# Refusals (``Refusal(TEXT)``, said in the clicker's words).
NOT_A_PLAYER = N_("Only the game's own players have a review of it, each their own.").text
NOT_FINISHED = N_("Only a game played to its end has a review.").text
NO_REVIEW_MESSAGE = N_("Your review of that game could not be made: its log does not replay"
                       " with this version of the bot.")
NO_REVIEW = NO_REVIEW_MESSAGE.text
PAGE_GONE = N_("That page is not part of your review.").text

# The position of a decision: the player's own view, in at most this many characters.
POSITION_CHARS = 1500
# How long the answer waits for a review that is not ready: an interaction's token lets the
# bot edit its answer for 15 minutes.
READY_WAIT = 14 * 60.0

_waits: set[asyncio.Task[None]] = set()  # answers waiting for their review


def _percent(words: Words, share: float) -> str:
    return words.decimal(100 * share, 0)


def cost_text(decision: ReviewedDecision, unit: str, words: Words) -> str:
    """The estimated cost of a differing move, with what it rests on."""
    if decision.cost is None:
        return words.gettext("Not measured: the expert compares only a few of the possible"
                             " bids, payments and purchases, and yours was not among them.")
    if decision.cost <= 0:
        cost = words.gettext("No measurable cost: the expert kept its move, but yours did as"
                             " well on the same deals.")
    elif unit == POINTS_UNIT:
        cost = words.gettext("About {points} points by the round's end.",
                             points=words.decimal(decision.cost, 1))
    else:
        cost = words.gettext("About {percent} % of a win.",
                             percent=_percent(words, decision.cost))
    worlds = words.ngettext("Compared on {count} sampled deal.",
                            "Compared on {count} sampled deals.", decision.worlds)
    if decision.dropped_early:
        worlds += " " + words.gettext("Your move left the search early, so this rests on"
                                      " fewer deals.")
    return f"{cost}\n{worlds}"


def _position(ui: GameUI, before: Session, player: str, words: Words) -> str:
    """The player's own view of the state before the decision, as text."""
    parts: list[str] = []
    for embed in private_in(ui, before, player, words).embeds:
        if embed.description:
            parts.append(embed.description)
        parts.extend(f"**{field.name}**\n{field.value}" for field in embed.fields)
    return clip("\n".join(parts), POSITION_CHARS)


def _move(ui: GameUI, before: Session, player: str, action: object, words: Words) -> str:
    wording = able(ui, WORDS_DECISIONS)
    if wording is not None:
        return clip(wording.move_words(before, player, action, words), FIELD_VALUE)
    return clip(str(action), FIELD_VALUE)


def _unit(ui: GameUI, built: BuiltReplay, decision: ReviewedDecision) -> str:
    """The cost's unit at ``decision`` (from the step's marker: no state is rebuilt)."""
    wording = able(ui, WORDS_DECISIONS)
    if wording is None:
        return POINTS_UNIT
    return wording.cost_unit(built.replay.markers[decision.step - 1])


def summary_embed(ui: GameUI, built: BuiltReplay, review: Review, words: Words) -> discord.Embed:
    figures = summary(review, lambda d: _unit(ui, built, d))
    lines = []
    if figures.accuracy is not None:
        lines.append(words.ngettext(
            "**Accuracy:** your move is the expert's in {matched} of {count} decision"
            " ({percent} %).",
            "**Accuracy:** your move is the expert's in {matched} of {count} decisions"
            " ({percent} %).",
            figures.assessed, matched=figures.matched,
            percent=_percent(words, figures.accuracy)))
    for unit, mean in sorted(figures.mean_cost.items()):
        # SPLIT measures points until its last round, then a share of the win: two means.
        if unit == POINTS_UNIT:
            lines.append(words.ngettext(
                "**Mean cost per decision:** about {points} points by the round's end"
                " (over {count} decision).",
                "**Mean cost per decision:** about {points} points by the round's end"
                " (over {count} decisions).",
                figures.costed[unit], points=words.decimal(mean, 2)))
        else:
            lines.append(words.ngettext(
                "**Mean cost per decision:** about {percent} % of a win (over {count}"
                " decision).",
                "**Mean cost per decision:** about {percent} % of a win (over {count}"
                " decisions).",
                figures.costed[unit], percent=words.decimal(100 * mean, 1)))
    if figures.least_simulations:
        lines.append(words.gettext(
            "**How sure:** {mean} simulations per decision on average, at least {least}.",
            mean=words.decimal(figures.mean_simulations, 0),
            least=words.number(figures.least_simulations)))
    if figures.not_assessed:
        lines.append(words.ngettext(
            "{count} decision was not assessed: the review's computing time ran out.",
            "{count} decisions were not assessed: the review's computing time ran out.",
            figures.not_assessed))
    if review.forced:
        lines.append(words.ngettext(
            "{count} move with a single choice is left out.",
            "{count} moves with a single choice are left out.", review.forced))
    if review.machine:
        lines.append(words.ngettext(
            "{count} move the turn clock or a bot made for you is left out.",
            "{count} moves the turn clock or a bot made for you are left out.", review.machine))
    if figures.differing:
        lines.append(words.ngettext(
            "In {count} decision your move differs from the expert's: see the next page.",
            "In {count} decisions your move differs from the expert's: see the next pages.",
            figures.differing))
    elif figures.assessed:
        lines.append(words.gettext("In every decision assessed, your move is the expert's."))
    else:
        lines.append(words.gettext("You had no decision with more than one choice."))
    embed = discord.Embed(title=words.gettext("Your review · {game}", game=ui.title),
                          description="\n".join(lines))
    embed.set_footer(text=words.gettext(
        "Accuracy: the share of your decisions where you made the expert's move. Cost: how"
        " much better the expert's move did than yours on the same sampled deals. The expert"
        " searched each position knowing only what you knew."))
    return embed


def decision_embed(ui: GameUI, built: BuiltReplay, review: Review, decision: ReviewedDecision,
                   number: int, count: int, words: Words) -> discord.Embed:
    player = review.player
    before = step_session(built, built.replay.step(decision.step - 1))
    engine = built.replay.engine
    marker = built.replay.markers[decision.step - 1]
    where = []
    if marker.round is not None:
        where.append(words.gettext("round {round}", round=marker.round))
    if marker.turn is not None:
        where.append(words.gettext("turn {turn}", turn=marker.turn))
    title = words.gettext("Decision {number} of {count}", number=number, count=count)
    if where:
        title += " · " + ", ".join(where)
    embed = discord.Embed(title=title, description=_position(ui, before, player, words))
    embed.add_field(name=words.gettext("You played"), inline=False,
                    value=_move(ui, before, player, engine.parse_action(decision.played), words))
    embed.add_field(name=words.gettext("The expert plays"), inline=False,
                    value=_move(ui, before, player, engine.parse_action(decision.expert), words))
    embed.add_field(name=words.gettext("Estimated cost"), inline=False,
                    value=clip(cost_text(decision, _unit(ui, built, decision), words),
                               FIELD_VALUE))
    embed.set_footer(text=words.ngettext(
        "{count} simulation for this decision.", "{count} simulations for this decision.",
        decision.simulations))
    return embed


def _nav(session_id: int, page: int, last: int) -> list[Item]:
    return [
        ReviewButton(session_id, 0, ReplayTag.FIRST, label="⏮", disabled=page == 0),
        ReviewButton(session_id, max(0, page - 1), ReplayTag.PREVIOUS, label="◀",
                     disabled=page == 0),
        ReviewButton(session_id, min(last, page + 1), ReplayTag.NEXT, label="▶",
                     disabled=page == last),
        ReviewButton(session_id, last, ReplayTag.LAST, label="⏭", disabled=page == last),
    ]


def pages(review: Review) -> int:
    """The number of pages: the summary, then one per differing decision."""
    return 1 + len(differing(review))


def review_render(ui: GameUI, built: BuiltReplay, review: Review, page: int,
                  words: Words) -> Render:
    """Page ``page`` (0 .. pages - 1) of ``review``, in ``words`` (the clicker's)."""
    decisions = differing(review)
    if page == 0:
        embed = summary_embed(ui, built, review, words)
    else:
        embed = decision_embed(ui, built, review, decisions[page - 1], page, len(decisions),
                               words)
    view = discord.ui.View(timeout=None)
    if decisions:
        for item in _nav(built.session.id, page, len(decisions)):
            view.add_item(item)
    return Render(embeds=fit_embeds([embed]), view=view)


async def _player_of(interaction: Interaction, session_id: int) -> str:
    """The clicker's id when they may open a review of ``session_id`` (else Refusal)."""
    session = await interaction.client.manager.store.load_session(session_id)
    if session is None:
        raise Refusal(NO_SUCH_GAME)
    if session.guild_id != place_id(interaction):
        raise Refusal(OTHER_SERVER)
    await may_show(interaction, session)  # today's daily: its moves stay unseen today
    me = player_id(interaction.user)
    seat = next((s for s in session.seats if s.player_id == me), None)
    if seat is None or seat.is_bot:
        raise Refusal(NOT_A_PLAYER)
    if session.status is not Status.FINISHED:
        raise Refusal(NOT_FINISHED)
    return me


async def _shown(interaction: Interaction, session_id: int, review: Review, page: int) -> Render:
    built = await load_replay(interaction, session_id)
    ui = context_of(interaction).services.uis.ui(built.session.game)
    return review_render(ui, built, review, page, await user_words(interaction))


def _busy_text(words: Words) -> str:
    """The backlog of reviews is full (``REVIEW_BACKLOG``): nothing was queued."""
    return words.gettext(
        "The expert has too many reviews to prepare right now, so yours was not started:"
        " press {my_review_button} again in a few minutes.", **button_names(words))


async def review_click(interaction: Interaction, session_id: int, page: int,
                       fresh: bool) -> None:
    """Open (``fresh``: a new private message) or page the clicker's review of
    ``session_id`` (paging only on that review's own message)."""
    if not fresh and not on_own_page(
        interaction.message, (ReviewButton.__discord_ui_compiled_template__,),
        ephemeral=True,
        belongs=lambda match: match["sid"] == str(session_id) and match["tag"] != "o",
    ):
        await refuse(interaction, NOT_THIS_MESSAGE)
        return
    reviews = interaction.client.reviews
    try:
        me = await _player_of(interaction, session_id)
        stored = await reviews.request(session_id, me)
        if stored.status == BUSY:
            await interaction.response.send_message(
                _busy_text(await user_words(interaction)), ephemeral=True)
            return
        if stored.status not in (DONE, PENDING) or (
                stored.status == DONE and stored.review is None):
            raise Refusal(NO_REVIEW)
        if stored.review is not None and not 0 <= page < pages(stored.review):
            raise Refusal(PAGE_GONE)
        render = await _shown(interaction, session_id, stored.review, page) \
            if stored.review is not None else None
    except Refusal as err:
        await refuse(interaction, err)
        return
    if render is None:  # pending: say so, and show it when it is stored
        words = await user_words(interaction)
        await interaction.response.send_message(words.gettext(
            "Your review of this game is being prepared: the expert is looking at each of"
            " your decisions. This message shows it when it is ready."), ephemeral=True)
        task = asyncio.create_task(_when_ready(interaction, session_id, me),
                                   name=f"review-answer-{session_id}")
        _waits.add(task)
        task.add_done_callback(_waits.discard)
        return
    if fresh:
        await interaction.response.send_message(ephemeral=True, **render.send_kwargs())
    else:
        await interaction.response.edit_message(**render.edit_kwargs())


async def _when_ready(interaction: Interaction, session_id: int, me: str) -> None:
    """Edit the "being prepared" answer into the review once it is stored."""
    words = await user_words(interaction)
    try:
        stored: Stored = await asyncio.wait_for(
            interaction.client.reviews.wait(session_id, me), READY_WAIT)
    except TimeoutError:
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(content=words.gettext(
                "Your review is not ready yet: press {my_review_button} again later.",
                **button_names(words)))
        return
    except asyncio.CancelledError:  # the bot stops: the review stays queued for the next start
        return
    try:
        if stored.status == BUSY:  # the backlog filled up before it was queued
            await interaction.edit_original_response(content=_busy_text(words))
            return
        if stored.review is None:
            await interaction.edit_original_response(content=words.text(NO_REVIEW_MESSAGE))
            return
        render = await _shown(interaction, session_id, stored.review, 0)
        await interaction.edit_original_response(**render.edit_kwargs())
    except Refusal as err:
        log.info("review of session %s not shown: %s", session_id, err)
    except discord.HTTPException:
        log.warning("could not show the review of session %s (the answer is gone)", session_id)
