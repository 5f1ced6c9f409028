"""A render's controls are written as payloads (``cogs.kit.control_payloads``, issue 42's
fifth pass) and players see byte for byte what the ``discord.ui`` objects sent before.

The oracle is the builder the controls were made with before: the same renders drawn with
each kind's ``payload`` factory building the kind's ``DynamicItem`` itself
(``ActButton(...)``: a ``discord.ui.Button`` inside), their items then placed by a
``discord.ui.View`` in the order they were added, and the card written by
``tests.cogs.test_card_payload.reference_card`` (discord.py's ``Container``/``ActionRow``).
Every table, private view (every page of controls, the card step, the Hint button), turn
ping and lobby of seeded TEN and SPLIT games, in all four languages, is compared as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import interaction_message_response_params

from bench.table_size import sessions
from bot.records.session import HINTS, Session, Status
from cogs.game_ui import Render
from cogs.hints.hint_button import hint_buttons
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.card_layout import Card, card_view
from cogs.kit.control_payloads import ButtonPayload, OptionPayload, Rows, SelectPayload, as_rows
from cogs.kit.custom_ids import ActButton, ActSelect, HandButton, HintButton, InfoButton, InfoKind
from cogs.kit.discord_limits import fit_content, fit_embeds
from cogs.rendering.table_renders import lobby_render, with_clock
from cogs.split import SplitUI
from cogs.split.hand import private_render
from cogs.ten import TenUI
from cogs.ten import controls as ten_controls
from game.registry import engines
from tests.cogs.payload_oracle import as_view, discord_objects
from tests.cogs.test_card_payload import reference_card


def dump(components: Any) -> str:
    return json.dumps(components, ensure_ascii=False)


def assert_same(draw: Callable[[], Render | Rows]) -> None:
    """``draw()`` writes the same components (as a plain message and as a card) with payloads
    as with discord.py's objects."""
    made = draw()
    with discord_objects():
        old = draw()
    made_rows = made.view if isinstance(made, Render) else made
    old_rows = old.view if isinstance(old, Render) else old
    assert isinstance(made_rows, Rows | None)
    reference = as_view(old_rows)
    assert dump(made_rows.to_components() if made_rows else None) == dump(
        reference.to_components() if reference else None)
    if isinstance(made, Render) and isinstance(old, Render):
        content, embeds = fit_content(made.content), fit_embeds(made.embeds)
        assert dump(card_view(content, embeds, [], made_rows).to_components()) == dump(
            reference_card(content, embeds, [], reference).to_components())


def hint(session: Session, viewer: str, words: Any) -> Callable[[], list[Any]]:
    hinted = replace(session, options={**session.options, HINTS: True})
    return lambda: hint_buttons(hinted, viewer, words)


def ten_renders(ui: TenUI, session: Session, words: Any) -> Iterator[Callable[[], Any]]:
    yield lambda: ui.table_in(session, words)
    yield lambda: Rows(ui.ping_controls(session, [], words))
    for seat in session.seats:
        viewer = seat.player_id
        yield lambda viewer=viewer: ui.private_in(session, viewer, words,  # type: ignore[misc]
                                                  hint(session, viewer, words))
        legal = ui.engine.legal_actions(session.state, viewer) \
            if viewer in ui.engine.awaiting(session.state) else []
        for pay in [pay for pay in ten_controls.pays_in(legal) if pay.cards][:2]:
            yield lambda viewer=viewer, pay=pay: ui._card_step(  # type: ignore[misc]
                session, viewer, pay, words)


def split_renders(ui: SplitUI, session: Session, words: Any) -> Iterator[Callable[[], Any]]:
    yield lambda: ui.table_in(session, words)
    for seat in session.seats:
        viewer = seat.player_id
        for page in range(4):  # past the last page: the last again
            yield lambda viewer=viewer, page=page: private_render(  # type: ignore[misc]
                ui.engine, session, viewer, words, page=page,
                extra=hint(session, viewer, words), views=ui.views)


@pytest.mark.parametrize("key", ["ten", "split"])
@pytest.mark.parametrize("language", list(Language))
def test_every_view_of_a_game_is_written_as_discord_py_wrote_it(key: str,
                                                                  language: Language) -> None:
    words = words_for(language)
    ui: Any = TenUI(engines()["ten"]) if key == "ten" else SplitUI(engines()["split"])
    draws = ten_renders if key == "ten" else split_renders
    compared = 0
    for session in sessions(key, 3, 11):
        for draw in draws(ui, session, words):
            assert_same(draw)
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("language", list(Language))
def test_lobbies_clocks_and_full_views_are_written_alike(language: Language) -> None:
    words = words_for(language)
    session = next(sessions("ten", 3, 5))
    lobby = replace(session, status=Status.LOBBY, options={HINTS: True}, state=None)
    for levels in (("easy", "normal", "expert"), ("normal",)):
        assert_same(lambda levels=levels: lobby_render(  # type: ignore[misc]
            lobby, "TEN", 2, 5, words, levels, hints=True))
    away = replace(session, seats=(session.seats[0].model_copy(update={"away": True}),
                                   *session.seats[1:]))
    ui = TenUI(engines()["ten"])
    assert_same(lambda: with_clock(away, ui.table_in(away, words), words))

    def full() -> Rows:  # 25 items, then one that fits nowhere: refused as View refuses it
        rows = Rows()
        for index in range(25):
            rows.add_item(ActButton.payload(1, 2, f"a:{index}", label=str(index)))
        with pytest.raises(ValueError):
            rows.add_item(HandButton.payload(1, label="x"))
        return rows

    assert_same(full)

    def crowded() -> Rows:  # a select takes a whole row (the first with room: its own row
        # is not read through a DynamicItem); a button's row is kept, or refused when full
        rows = Rows([ActButton.payload(1, 2, "a:x", label="x", row=1),
                     ActSelect.payload(1, 2, "s:y:0", options=[
                         discord.SelectOption(label="y", value="y")], placeholder="p"),
                     InfoButton.payload(1, InfoKind.LOG, label="Log", emoji="📜"),
                     ActSelect.payload(1, 2, "s:z:0", options=[
                         discord.SelectOption(label="z", value="z")], row=1)])
        for index in range(3):  # row 1: x, Log (the first row with room after the select)
            rows.add_item(ActButton.payload(1, 2, f"a:{index}", label=str(index), row=1))
        with pytest.raises(ValueError):
            rows.add_item(ActButton.payload(1, 2, "a:5", label="5", row=1))
        return rows

    assert_same(crowded)


def test_a_payload_view_is_what_discord_py_writes_of_a_view() -> None:
    """discord.py's message builders read ``to_components`` and ``has_components_v2`` of it
    and send the same body as for the ``discord.ui.View`` of the same controls; nothing is
    stored for it (finished), as for a card."""
    items = [HintButton.payload(3, 4, label="Hint", emoji="💡"),
             HandButton.payload(3, label="My hand")]
    rows = Rows(items)
    with discord_objects():
        view = as_view(Rows([HintButton.payload(3, 4, label="Hint", emoji="💡"),
                             HandButton.payload(3, label="My hand")]))
    assert hasattr(rows, "__discord_ui_view__")
    assert rows.is_finished() and not rows.is_dispatchable() and rows.timeout is None
    with handle_message_parameters(content="x", view=rows) as made, \
            handle_message_parameters(content="x", view=view) as old:
        assert made.payload == old.payload
    made_params = interaction_message_response_params(type=7, content="x", view=rows)
    old_params = interaction_message_response_params(type=7, content="x", view=view)
    assert made_params.payload == old_params.payload
    card = card_view("x", [], [], rows)
    assert isinstance(card, Card) and card.is_finished() and card.has_components_v2()
    with handle_message_parameters(view=card) as sent:
        assert sent.payload is not None
        assert sent.payload["flags"] & discord.MessageFlags(components_v2=True).value
        assert sent.payload["components"] is card.to_components()
    assert as_rows(None).children == [] and as_rows(rows) is rows
    assert as_rows(view).to_components() == rows.to_components()
    assert handle_message_parameters is not MISSING


def test_payload_items_say_what_their_discord_py_items_say() -> None:
    button = ActButton.payload(1, 2, "a:draw", label="Flip", emoji="🃏",
                               style=discord.ButtonStyle.primary, disabled=True)
    select = ActSelect.payload(1, 2, "s:bid:0", options=[
        discord.SelectOption(label="Bid 3", value="bid:3", description="d")],
        placeholder="Bid", min_values=1, max_values=1)
    assert isinstance(button, ButtonPayload) and isinstance(select, SelectPayload)
    old_button = ActButton(1, 2, "a:draw", label="Flip", emoji="🃏",
                           style=discord.ButtonStyle.primary, disabled=True)
    old_select = ActSelect(1, 2, "s:bid:0", options=[
        discord.SelectOption(label="Bid 3", value="bid:3", description="d")],
        placeholder="Bid", min_values=1, max_values=1)
    for made, old in ((button, old_button), (select, old_select)):
        assert dump(made.to_component_dict()) == dump(old.to_component_dict())
        assert made.custom_id == old.custom_id and made.width == old.width
        assert old.template.fullmatch(made.custom_id)  # the click is served as before
    assert (button.label, button.style, button.disabled, str(button.emoji)) == (
        old_button.label, old_button.style, old_button.disabled, str(old_button.emoji))
    assert (select.placeholder, select.min_values, select.max_values) == (
        old_select.placeholder, old_select.min_values, old_select.max_values)


def test_the_table_controls_are_built_once_per_version_and_handed_out_as_copies() -> None:
    """The table and the turn ping of one version draw the awaited player's controls once
    (``TenUI.table_controls``); each send gets its own copies (a send sets their rows and
    emojis), and a new version, another language or another ``Session`` object of the same
    version (a replay step) builds them again."""
    ui = TenUI(engines()["ten"])
    english, spanish = words_for(Language.EN), words_for(Language.ES)
    session = next(sessions("ten", 3, 11))
    table = ui.table_in(session, english)
    ping = ui.ping_controls(session, [], english)
    assert ui.table_controls.built == 1
    table_items = table.view.children if isinstance(table.view, Rows) else []
    shared = [item for item in ping if isinstance(item, ButtonPayload)][:-1]  # not My view
    assert shared and all(item not in table_items for item in shared)
    assert [item.custom_id for item in shared] == [
        item.custom_id for item in table_items[:len(shared)]]
    ui.ping_controls(session, [], spanish)
    ui.ping_controls(replace(session), [], english)
    assert ui.table_controls.built == 3
    later = replace(session, version=session.version + 1)
    assert ui.ping_controls(later, [], english)[0].custom_id != shared[0].custom_id
    assert ui.table_controls.built == 4


@pytest.mark.parametrize("description", [None, "", "Row position 2 of 3"])
@pytest.mark.parametrize("emoji", [None, "🃏", discord.PartialEmoji(name="c7", id=1234)])
@pytest.mark.parametrize("default", [False, True])
def test_an_option_is_written_as_discord_py_writes_a_select_option(
        description: str | None, emoji: str | discord.PartialEmoji | None,
        default: bool) -> None:
    """``OptionPayload`` (issue 42, round 2) against ``discord.SelectOption``, field for
    field, and its copy apart from it (the card emojis set a copy's emoji)."""
    theirs = discord.SelectOption(label="Bid 3", value="bid:3", description=description,
                                  emoji=emoji, default=default)
    ours = OptionPayload("Bid 3", "bid:3", description, theirs.emoji, default)
    assert dump(ours.to_dict()) == dump(theirs.to_dict())
    copied = ours.copy()
    copied.emoji = None
    assert dump(ours.to_dict()) == dump(theirs.to_dict())
    select = SelectPayload(ActSelect, (1, 2, "s:bid:0"), "tb:sel:1:2:s:bid:0", [ours], "p",
                           1, 1, None)
    again = select.copy()
    assert again.options[0] is not ours
    assert dump(again.to_component_dict()) == dump(select.to_component_dict())


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_ten_orders_in_one_list_are_each_actions_option_order(seats: int) -> None:
    """``cogs.ten.controls._orders`` (issue 42, round 2) against ``option_order``, for every
    seat's legal actions at every position of a seeded game."""
    engine = engines()["ten"]
    checked = 0
    for session in sessions("ten", seats, 7):
        for player in session.state.players:
            legal = engine.legal_actions(session.state, player)
            assert ten_controls._orders(legal) == [
                ten_controls.option_order(action) for action in legal]
            checked += len(legal)
    assert checked > 100
