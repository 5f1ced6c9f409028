"""A TEN table for cog tests (real manager, TEN engine, TenUI, publisher, turn pings), a
deterministic player policy, and the click router that plays a chosen action through the
rendered controls. Also the unit tests of the TEN text helpers."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.records.change import Change
from bot.records.session import Session, Status
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from cogs.commands.game_commands import GameCog
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.listeners.table_publisher import TablePublisher
from cogs.listeners.turn_ping import TurnPing
from cogs.ten import TenUI
from cogs.ten import text as ten_text
from cogs.ten.colour_words import card_name
from game.action_codes import action_code
from game.base import Event
from game.ten import TenEngine, payment_options
from game.ten.cards import sort_key
from game.ten.scoring import score_notes
from game.ten.state import Bid, Buy, Draw, Pass, Pay, Skip, Stop, TenAction, TenState
from game.ten.view import PlayerView, RunView
from tests.cogs.conftest import ANA, BEN, CY, DEE
from tests.fakes import (
    FakeChannel,
    FakeClient,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    Sent,
    invoke,
)
from tests.fakes import click as fake_click

ENGLISH_WORDS = words_for(Language.EN)

ENGINE = TenEngine()
USERS = {str(user.id): user for user in (ANA, BEN, CY, DEE)}


class TenTable:
    """One fake channel with the real manager and every TEN-relevant listener."""

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        self.client = FakeClient(manager, {"ten": TenUI(ENGINE)})
        self.channel: FakeChannel = self.client.channel(100)
        self.cog: GameCog = self.client.cog
        self.changes: list[Change] = []
        self.pings_before: list[int] = []  # channel messages posted up to each change
        manager.subscribe(TablePublisher(self.client, self.client.services).on_change)  # type: ignore[arg-type]
        manager.subscribe(TurnPing(self.client, self.client.services).on_change)  # type: ignore[arg-type]
        manager.subscribe(self._record)
        self.table_message: FakeMessage | None = None
        self.sid = 0

    async def _record(self, change: Change) -> None:  # subscribed after the turn ping
        self.changes.append(change)
        self.pings_before.append(len(self.channel.sent))

    @property
    def events(self) -> list[Event]:
        return [event for change in self.changes for event in change.events]

    def interaction(self, user: FakeUser, message: FakeMessage | None = None,
                    **kwargs: Any) -> FakeInteraction:
        return FakeInteraction(self.client, user=user, channel=self.channel, message=message,
                               **kwargs)

    async def press(self, user: FakeUser, message: FakeMessage | None, custom_id: str,
                    values: list[str] | None = None, **kwargs: Any) -> Sent:
        ia = self.interaction(user, message, **kwargs)
        await fake_click(ia, custom_id, values)
        assert len(ia.sent) == 1
        return ia.last

    @property
    def session(self) -> Session:
        session = self.manager.get(self.sid)
        assert session is not None
        return session

    @property
    def state(self) -> TenState:
        return self.session.state  # type: ignore[no-any-return]

    @property
    def table(self) -> Sent:
        """The table message as it looks now (its last edit)."""
        assert self.table_message is not None
        return self.table_message.edits[-1]

    async def start(self, *users: FakeUser) -> None:
        host, *others = users
        ia = self.interaction(host)
        await invoke(GameCog.new, self.cog, ia, game="ten")
        assert ia.last.message is not None
        self.table_message = ia.last.message
        session = self.manager.in_channel(100)
        assert session is not None
        self.sid = session.id
        for user in others:
            await self.press(user, self.table_message, f"tb:lobby:join:{self.sid}")
        await self.press(host, self.table_message, f"tb:lobby:start:{self.sid}")

    def awaited_user(self) -> FakeUser:
        [player] = ENGINE.awaiting(self.state)
        return USERS[player]


async def open_table(path: Path, seed: int) -> tuple[TenTable, Store]:
    store = await open_store(path)
    return TenTable(SessionManager(store, {"ten": ENGINE}, seed_source=lambda: seed)), store


# --- the policy: the engine's greedy bot, except that a buy pays with bust tokens and chosen
# collection cards whenever such a payment exists ---------------------------------------------


def collection_notes(state: TenState, player: str) -> list[str]:
    from game.ten.cards import NOTATION

    seat = state.players.index(player)
    return sorted((NOTATION[card] for card in state.collections[seat]), key=sort_key)


def decide(state: TenState, player: str) -> TenAction:
    if state.phase == "pay" and state.pay_for == "card":
        options = payment_options(state, player, state.pay_price, cards_allowed=True)
        mixed = [o for o in options if o.b and o.cards and not o.overpay]
        if mixed:
            option = mixed[0]
            # not the suggested cards: the last ones in display order
            picked = collection_notes(state, player)[-len(option.cards):]
            return Pay(c=option.c, b=option.b, cards="".join(picked))
    action: TenAction = ENGINE.bot_action(state, player, "normal", random.Random(0))
    return action


# --- routing an action through the rendered controls -----------------------------------------


def item(sent: Sent, suffix: str) -> Any:
    """The component of ``sent`` whose custom_id payload is ``suffix``."""
    assert sent.view is not None
    found = [c for c in sent.view.children if str(getattr(c, "custom_id", "")).endswith(
        ":" + suffix)]
    assert found, f"no control {suffix!r} in {sent.custom_ids}"
    return found[0]


def button(sent: Sent, label: str) -> Any:
    """The button of ``sent`` whose label starts with ``label``."""
    assert sent.view is not None
    found = [c for c in sent.view.children
             if (getattr(c, "label", None) or "").startswith(label)
             and not getattr(c, "options", None)]
    assert found, f"no button {label!r} in {sent.custom_ids}"
    return found[0]


def option_with(sent: Sent, prefix: str, label: str) -> tuple[Any, str]:
    """The select (payload ``prefix``...) offering an option labelled ``label``..., and that
    option's value."""
    assert sent.view is not None
    for child in sent.view.children:
        cid = str(getattr(child, "custom_id", ""))
        if not cid.split(":", 4)[-1].startswith(prefix):
            continue
        for option in getattr(child, "options", []):
            if option.label.startswith(label):
                return child, option.value
    raise AssertionError(f"no {prefix} select offers {label!r}")


def payload_ids(sent: Sent) -> list[str]:
    return [cid.split(":", 4)[4] for cid in sent.custom_ids if cid.startswith(("tb:act", "tb:sel"))]


def select_with(sent: Sent, prefix: str, value: str) -> Any:
    assert sent.view is not None
    for child in sent.view.children:
        cid = str(getattr(child, "custom_id", ""))
        if cid.split(":", 4)[-1].startswith(prefix) and any(
            o.value == value for o in getattr(child, "options", [])
        ):
            return child
    raise AssertionError(f"no {prefix} select offers {value!r}")


def values_for(select: Any, notes: Sequence[str]) -> list[str]:
    wanted = Counter(notes)
    values = []
    for option in select.options:
        note = option.value.split(".", 1)[0]
        if wanted[note]:
            wanted[note] -= 1
            values.append(option.value)
    assert not +wanted, f"cannot pick {notes} from {[o.value for o in select.options]}"
    return values


class Router:
    """Plays one action of the awaited player by clicking what the table and their private
    view show; records what it saw along the way."""

    def __init__(self, table: TenTable) -> None:
        self.table = table
        self.seen: Counter[str] = Counter()
        self.samples: dict[str, str] = {}

    async def panel(self, user: FakeUser) -> Sent:
        table = self.table
        if table.state.phase == "pay":  # the winner / buyer uses My view here
            opened = await table.press(user, table.table_message, f"tb:hand:{table.sid}")
        else:
            opened = await table.press(user, table.table_message,
                                       item(table.table, "panel").custom_id)
        assert opened.ephemeral and opened.kind == "send_message"
        return opened

    async def play(self, action: TenAction) -> None:
        table = self.table
        user = table.awaited_user()
        if isinstance(action, Draw | Stop):
            label = "Flip" if isinstance(action, Draw) else f"Stop — take {action.take}"
            sent = await table.press(user, table.table_message,
                                     button(table.table, label).custom_id)
            assert sent.kind == "edit_message" and sent.message is table.table_message
            return
        panel = await self.panel(user)
        await self._in_panel(user, panel, action)

    async def _in_panel(self, user: FakeUser, panel: Sent, action: TenAction) -> None:
        table = self.table
        message = panel.message
        if isinstance(action, Pass | Skip):
            await table.press(user, message, button(
                panel, "Pass" if isinstance(action, Pass) else "Skip — buy nothing").custom_id)
        elif isinstance(action, Bid):
            select, value = option_with(panel, "s:bid:", f"Bid {action.amount}")
            assert select.options[0].label.startswith("Bid ")
            await table.press(user, message, select.custom_id, [value])
            self.seen["bid"] += 1
        elif isinstance(action, Buy):
            label = f"{card_name(action.card, ENGLISH_WORDS)} — price"
            select, value = option_with(panel, "s:buy:", label)
            after = await table.press(user, message, select.custom_id, [value])
            assert after.kind == "edit_message" and after.message is message  # in place
            self.samples.setdefault("pay_panel", after.text)
            self.seen["buy"] += 1
            # the private view now shows the payment; pay from it
            next_action = decide(table.state, str(user.id))
            await self._in_panel(user, after, next_action)
        elif isinstance(action, Pay):
            await self._pay(user, panel, action)
        else:
            raise AssertionError(f"no route for {action!r}")

    async def _pay(self, user: FakeUser, panel: Sent, action: Pay) -> None:
        table = self.table
        state = table.state
        options = payment_options(state, str(user.id), state.pay_price,
                                  cards_allowed=state.pay_for == "card")
        notes = [action.cards[i:i + 2] for i in range(0, len(action.cards), 2)]
        [index] = [i for i, o in enumerate(options)
                   if (o.c, o.b, len(o.cards)) == (action.c, action.b, len(notes))]
        option = options[index]
        code = action_code(option.action())  # the payment's code (cogs.kit.control_menus)
        message = panel.message
        if index == 0 and Counter(option.cards) == Counter(notes):
            await table.press(user, message, item(panel, f"y:{code}").custom_id)
            self.seen["pay_suggested"] += 1
            return
        if index > 0:
            select = select_with(panel, "yo:pay:", code)
            step = await table.press(user, message, select.custom_id, [code])
            if not option.cards:
                self.seen["pay_other_split"] += 1
                return
            assert step.kind == "edit_message" and "choose the cards" in step.text
            self.samples.setdefault("card_step", step.text)
            panel = step
        if Counter(option.cards) == Counter(notes):
            await table.press(user, message, item(panel, f"y:{code}").custom_id)
            return
        picker = item(panel, f"yc:{option.c}:{option.b}")
        assert picker.min_values == picker.max_values == len(notes)
        assert Counter(o.value.split(".")[0] for o in picker.options if o.default) == Counter(
            option.cards)
        await table.press(user, message, picker.custom_id, values_for(picker, notes))
        self.seen["pay_chosen_cards"] += 1


async def play_until(table: TenTable, router: Router, until: Callable[[TenState], bool],
                     limit: int = 400) -> None:
    """Play the policy's moves through the controls until ``until(state)`` holds."""
    for _ in range(limit):
        if until(table.state):
            return
        await router.play(decide(table.state, str(table.awaited_user().id)))
    raise AssertionError("the state never came")


# --- unit tests of the text helpers -----------------------------------------------------------


def _player(notes: list[str]) -> PlayerView:
    score = score_notes(notes)
    return PlayerView(
        player="1", currency=4, bust_tokens=1, collection=sorted(notes, key=sort_key),
        runs=[RunView(colour=r.colour, start=r.start, end=r.end, points=r.points,
                      cards=list(r.cards)) for r in score.runs],
        wild_assignment=list(score.assignment), score=score.total,
    )


def test_runs_show_each_wild_in_its_place_and_spare_cards() -> None:
    # spec example 5: red 3, 4, 6, a red colour wild and the number wild 7 -> run 3-7
    player = _player(["R3", "R4", "R6", "R#", "W7", "B1", "B1"])
    lines = ten_text.collection_lines(player)
    assert lines[0] == "🟥 red 3 4 #→5 6 🌈7 (5)"
    assert lines[1] == "🟦 blue 1 (1)"
    assert lines[2] == "spare: 🟦1 blue"
    assert ten_text.tokens_line(player) == "💰 4 currency · 💥 1 bust"


def test_empty_collection_and_market() -> None:
    assert ten_text.collection_lines(_player([])) == ["no cards yet"]
    assert ten_text.market_lines({"R": [], "B": []}) == ["empty"]


def test_full_wild_shows_its_place() -> None:
    player = _player(["G1", "G2", "G3", "G4", "G5", "G6", "G8", "G9", "W#"])
    assert ten_text.collection_lines(player) == ["🟩 green 1 2 3 4 5 6 🌈#→7 8 9 (10)"]


def test_discord_limits_hold_for_select_labels() -> None:
    from cogs.kit.control_menus import LEGAL, MAX_OPTIONS, Group, Look

    session = Session(id=1, guild_id=1, channel_id=1, game="ten", status=Status.ACTIVE,
                      host_id="1", seats=())
    bids = [Bid(amount=n) for n in range(60)]
    looks = [Look(str(n), group="bid") for n in range(60)]
    controls = LEGAL.controls(session, bids, looks, [Group("bid", "Bid", max_selects=2)])
    assert [len(select.options) for select in controls.selects] == [MAX_OPTIONS, MAX_OPTIONS]
