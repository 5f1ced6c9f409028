"""The review's pages (cogs.reviews.review_pages) for SPLIT and TEN in the four languages:
within Discord's limits, every differing decision on its page with both moves worded, the
position as the player saw it (their own view, never another seat's), and the paging."""

from __future__ import annotations

import pytest

from bench.review_cpu import machine_game
from bot.records.session import Seat, Session, Status
from bot.reviews.analysis import review_player
from bot.reviews.model import Review, differing
from cogs.game_ui import GameUI
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.discord_limits import EMBED_TOTAL, FIELD_VALUE
from cogs.rendering.replay_pages import step_session
from cogs.replay_cache import BuiltReplay
from cogs.reviews.review_pages import _position, pages, review_render
from cogs.split.ui import SplitUI
from cogs.ten.ui import TenUI
from game.registry import engines, replay_export


def built_and_review(game: str) -> tuple[GameUI, BuiltReplay, Review]:
    export = machine_game(game, 3, seed=5)
    replay = replay_export(export)
    session = Session(id=export.session_id, guild_id=1, channel_id=2, game=game,
                      status=Status.FINISHED, host_id=export.players[0],
                      seats=tuple(Seat(player_id=s.player_id, display_name=s.display_name)
                                  for s in export.seats),
                      state=replay.final_state(), version=len(export.actions))
    ui: GameUI = SplitUI(engines()["split"]) if game == "split" else TenUI(engines()["ten"])
    return ui, BuiltReplay(session, export, replay), review_player(export, export.players[0], 4.0)


@pytest.fixture(scope="module", params=["split", "ten"])
def reviewed(request: pytest.FixtureRequest) -> tuple[GameUI, BuiltReplay, Review]:
    return built_and_review(str(request.param))


@pytest.mark.parametrize("language", list(Language))
def test_every_page_fits_discords_limits(reviewed: tuple[GameUI, BuiltReplay, Review],
                                         language: Language) -> None:
    ui, built, review = reviewed
    words = words_for(language)
    last = pages(review) - 1
    assert last == len(differing(review))
    for page in range(last + 1):
        render = review_render(ui, built, review, page, words)
        (embed,) = render.embeds
        assert len(embed) <= EMBED_TOTAL
        assert all(len(str(field.value)) <= FIELD_VALUE for field in embed.fields)
        ids = [item.custom_id for item in render.view.children]  # type: ignore[union-attr]
        assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids)
        if page:
            assert len(embed.fields) == 3


def test_a_decision_page_shows_the_players_own_view_only(
    reviewed: tuple[GameUI, BuiltReplay, Review]
) -> None:
    ui, built, review = reviewed
    words = words_for(Language.EN)
    assert differing(review), "the seeded game has a decision to show"
    for number, decision in enumerate(differing(review), start=1):
        page = review_render(ui, built, review, number, words).embeds[0]
        before = step_session(built, built.replay.step(decision.step - 1))
        mine = _position(ui, before, review.player, words)
        assert page.description == mine
        for other in built.session.seats[1:]:
            theirs = _position(ui, before, other.player_id, words)
            assert theirs != mine  # another seat's view holds its own hand
            assert theirs not in (page.description or "")
        assert page.fields[0].value and page.fields[1].value
        assert page.fields[0].value != page.fields[1].value or decision.played != \
            decision.expert


def test_the_summary_page_says_accuracy_cost_and_how_sure(
    reviewed: tuple[GameUI, BuiltReplay, Review]
) -> None:
    ui, built, review = reviewed
    text = review_render(ui, built, review, 0, words_for(Language.EN)).embeds[0].description
    assert text is not None
    assert "**Accuracy:**" in text and "**How sure:**" in text and "Mean cost" in text


def test_the_summary_page_says_how_many_moves_the_machine_made_for_the_player(
    reviewed: tuple[GameUI, BuiltReplay, Review]
) -> None:
    ui, built, review = reviewed
    for language in Language:
        words = words_for(language)
        plain = review_render(ui, built, review, 0, words).embeds[0].description or ""
        marked = review.model_copy(update={"machine": 2})
        text = review_render(ui, built, marked, 0, words).embeds[0].description or ""
        said = words.ngettext("{count} move the turn clock or a bot made for you is left out.",
                              "{count} moves the turn clock or a bot made for you are left out.",
                              2)
        assert said not in plain and said in text
