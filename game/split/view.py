"""What a player may see of a SPLIT game, and words for events and action choices."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from game.base import Event
from game.fast import construct
from game.split.actions import (
    BonusDraw,
    Discard,
    Done,
    Draw,
    LayMatch,
    MakeMatch,
    Pick,
    Skip,
    SplitAction,
    Swap,
    Target,
    Upgrade,
)
from game.split.cards import (
    CARD_NAMES,
    FACE_OF,
    LEVEL_NAMES,
    RANKS,
    face_level,
    parse_face,
)
from game.split.rules import pair_name
from game.split.scoring import RANK_ROW_VALUES, negative_value
from game.split.state import ROUNDS, RoundSummary, SplitState
from game.split.vocabulary import EventKind, Level, RoundEnd, Step


class MatchView(BaseModel):
    id: int
    owner: str
    level: Level
    halves: list[str]
    covered: list[str]


class SheetView(BaseModel):
    player: str
    boxes: dict[str, int]  # rank -> boxes filled (every rank listed, A..K)
    row_values: dict[str, int]  # rank -> value of the row's first open box
    rank_total: int
    negatives: int
    negative_value: int
    total: int


class SplitView(BaseModel):
    game: str = "split"
    viewer: str | None
    players: list[str]
    round: int
    rounds: int
    step: Step
    dealer: str
    turn: str | None  # whose turn it is (None in the lay-down and when over)
    awaiting: list[str]
    hand: list[str] | None  # the viewer's own hand, sorted; None for spectators
    hand_counts: dict[str, int]
    pile_count: int
    row: list[str]  # the discard row, oldest first
    matches: list[MatchView]
    picked: str | None  # the card picked from the row this turn, still to be used
    bonus: Level | None  # while a bonus is being resolved
    bonus_match: int | None
    laydown_waiting: list[str]
    went_out: str | None
    sheets: list[SheetView]
    history: list[RoundSummary]  # what each player scored in each finished round


# The bonus being resolved in each step (None: no bonus).
BONUS_OF_STEP: dict[Step, Level | None] = {
    Step.TAKE: None,
    Step.MAIN: None,
    Step.BONUS_PERFECT: Level.PERFECT,
    Step.BONUS_STRONG: Level.STRONG,
    Step.BONUS_WEAK: Level.WEAK,
    Step.LAYDOWN: None,
    Step.GAME_OVER: None,
}


# The views are made with ``game.fast.construct`` from values the validated constructors would
# accept unchanged (strings, ints, enum members, ``None``, plain lists and dicts, these
# models): pydantic's validation was most of a view's cost (issue 42), and
# ``tests/engine/test_view_build.py`` compares every view of seeded games, field by field and as
# JSON, with the validated build.
_SHEET_FIELDS = frozenset(SheetView.model_fields)
_MATCH_FIELDS = frozenset(MatchView.model_fields)
# what the validated build marks as set: every field but ``game``, left to its default
_VIEW_FIELDS = frozenset(SplitView.model_fields) - {"game"}
_CARD_NAME = CARD_NAMES.__getitem__
_ROW_VALUE = RANK_ROW_VALUES.__getitem__  # scoring.rank_row_value, without a call per row


def sheet_view(state: SplitState, seat: int) -> SheetView:
    boxes = state.boxes[seat]
    values = dict(zip(RANKS, map(_ROW_VALUE, boxes), strict=False))
    rank_total = sum(values.values())
    negatives = state.negatives[seat]
    negative = negative_value(negatives)
    return construct(SheetView, {
        "player": state.players[seat],
        "boxes": dict(zip(RANKS, boxes, strict=False)),
        "row_values": values,
        "rank_total": rank_total,
        "negatives": negatives,
        "negative_value": negative,
        "total": rank_total - negative,
    }, _SHEET_FIELDS)


def match_level(state: SplitState, match_id: int) -> int:
    halves = state.matches[match_id].halves
    return face_level(FACE_OF[halves[0]], FACE_OF[halves[1]])


def _hand(state: SplitState, viewer: str | None) -> tuple[str | None, list[str] | None]:
    """(the viewer as the view names them, their hand): (None, None) for a spectator."""
    players = state.players
    if viewer not in players:
        return None, None
    return viewer, list(map(_CARD_NAME, sorted(state.hands[players.index(viewer)])))


def build_view(state: SplitState, viewer: str | None) -> SplitView:
    players = state.players
    shown, hand = _hand(state, viewer)
    step = state.step
    in_turn = step not in (Step.LAYDOWN, Step.GAME_OVER)
    if step == Step.GAME_OVER:
        waiting: list[str] = []
    elif step == Step.LAYDOWN:
        waiting = [players[s] for s in state.laydown_waiting]
    else:
        waiting = [players[state.turn]]
    return construct(SplitView, {
        "game": "split",
        "viewer": shown,
        "players": list(players),
        "round": state.round,
        "rounds": ROUNDS,
        "step": step,
        "dealer": players[state.dealer],
        "turn": players[state.turn] if in_turn else None,
        "awaiting": waiting,
        "hand": hand,
        "hand_counts": {p: len(state.hands[s]) for s, p in enumerate(players)},
        "pile_count": len(state.pile),
        "row": list(map(_CARD_NAME, state.row)),
        "matches": [
            construct(MatchView, {
                "id": i,
                "owner": players[m.owner],
                "level": LEVEL_NAMES[face_level(FACE_OF[m.halves[0]], FACE_OF[m.halves[1]])],
                "halves": list(map(_CARD_NAME, m.halves)),
                "covered": list(map(_CARD_NAME, m.covered)),
            }, _MATCH_FIELDS)
            for i, m in enumerate(state.matches)
        ],
        "picked": None if state.picked is None else CARD_NAMES[state.picked],
        "bonus": BONUS_OF_STEP[step],
        "bonus_match": state.bonus_match,
        "laydown_waiting": [players[s] for s in state.laydown_waiting],
        "went_out": None if state.went_out is None else players[state.went_out],
        "sheets": [sheet_view(state, s) for s in range(len(players))],
        "history": list(state.history),
    }, _VIEW_FIELDS)


def view_for(state: SplitState, view: SplitView, viewer: str | None) -> SplitView:
    """``viewer``'s view of ``state``, made from ``view`` (another viewer's view of it): only
    the viewer and their hand differ, the rest is shared, not built again."""
    shown, hand = _hand(state, viewer)
    return construct(SplitView, {**view.__dict__, "viewer": shown, "hand": hand},
                     view.model_fields_set)


def _name(names: Mapping[str, str], player: str | None) -> str:
    if player is None:
        return "?"
    return names.get(player, player)


def describe_event(event: Event, viewer: str | None, names: Mapping[str, str]) -> str:
    data = event.visible_to(viewer)
    who = _name(names, event.actor)
    kind = event.kind
    if kind == EventKind.ROUND_START:
        return (
            f"Round {data['round']}: {_name(names, data['dealer'])} deals; "
            f"{_name(names, data['first'])} goes first. The discard row starts with "
            f"{data['row'][0]}."
        )
    if kind in (EventKind.DRAW, EventKind.BONUS_DRAW):
        what = f"drew {data['card']}" if "card" in data else "drew a card"
        bonus = " (strong bonus)" if kind == EventKind.BONUS_DRAW else ""
        return f"{who} {what}{bonus}; {data['pile']} left in the draw pile."
    if kind == EventKind.PICK:
        taken = data["taken"]
        along = f", taking {' '.join(taken[1:])} along" if len(taken) > 1 else ""
        return f"{who} picked {data['card']} from the discard row{along}."
    if kind in (EventKind.MATCH, EventKind.LAY):
        return f"{who} laid the {data['level']} match {data['halves']}."
    if kind == EventKind.UPGRADE:
        owner = data["from_owner"]
        whose = "their own match" if owner == event.actor else f"{_name(names, owner)}'s match"
        return (
            f"{who} upgraded {whose} with {data['card']}, covering {data['covered']}: "
            f"now the {data['level']} match {data['halves']}, owned by {who}."
        )
    if kind == EventKind.MARK:
        return f"{who}'s perfect match: {_name(names, data['target'])} marks a negative box."
    if kind == EventKind.SKIP:
        return f"{who} skipped the {data['bonus']} bonus."
    if kind == EventKind.NO_SWAP:
        return f"{who} has no matches to swap: the weak bonus is skipped."
    if kind == EventKind.SWAP:
        return f"{who} swapped {data['gave']} for {_name(names, data['with'])}'s {data['got']}."
    if kind == EventKind.DISCARD:
        ending = " and went out!" if data["left"] == 0 else "."
        return f"{who} discarded {data['card']}{ending}"
    if kind == EventKind.LAYDOWN_START:
        waiting = ", ".join(_name(names, p) for p in data["players"])
        return f"{who} went out on their first turn: {waiting} may lay down matches."
    if kind == EventKind.DONE:
        return f"{who} is done laying down."
    if kind == EventKind.ROUND_END:
        how = (
            f"{_name(names, data['out'])} went out"
            if data["ended_by"] == RoundEnd.OUT
            else "the draw pile ran out"
        )
        scores = ", ".join(
            f"{_name(names, p['player'])} {p['gained']:+d} (total {p['score_after']})"
            for p in data["players"]
        )
        return f"Round {data['round']} is over: {how}. {scores}."
    if kind == EventKind.GAME_OVER:
        scores = ", ".join(f"{_name(names, p)} {s}" for p, s in data["scores"].items())
        return f"Game over: {scores}."
    return f"{who}: {kind}."


def describe_action(state: SplitState, action: SplitAction, names: Mapping[str, str]) -> str:
    """A short button / menu label for an action the UI offers (e.g. the level a match makes,
    and for an upgrade the resulting level and whose match it takes)."""
    if isinstance(action, Draw):
        return "Draw a card"
    if isinstance(action, Pick):
        count = len(state.row) - action.pos if action.pos is not None else 1
        along = f" (+{count - 1} card{'s' if count > 2 else ''})" if count > 1 else ""
        return f"Pick {action.card}{along}"
    if isinstance(action, MakeMatch | LayMatch):
        level = face_level(parse_face(action.a), parse_face(action.b))
        return f"Match {action.a}+{action.b} ({LEVEL_NAMES.get(level, 'no match')})"
    if isinstance(action, Upgrade):
        match = state.matches[action.match]
        halves = [FACE_OF[card] for card in match.halves]
        replaced = parse_face(action.replace)
        kept = halves[1] if halves[0] == replaced else halves[0]
        result = LEVEL_NAMES.get(face_level(parse_face(action.card), kept), "no match")
        owner = state.players[match.owner]
        turn_player = state.players[state.turn]
        whose = "" if owner == turn_player else f" (take from {_name(names, owner)})"
        return f"{action.card} on {pair_name(match.halves)} for {action.replace}: {result}{whose}"
    if isinstance(action, Target):
        return f"Mark {_name(names, action.player)}"
    if isinstance(action, BonusDraw):
        return "Draw a bonus card"
    if isinstance(action, Skip):
        return "Skip the bonus"
    if isinstance(action, Swap):
        mine, theirs = state.matches[action.mine], state.matches[action.theirs]
        other = _name(names, state.players[theirs.owner])
        return f"Swap {pair_name(mine.halves)} for {other}'s {pair_name(theirs.halves)}"
    if isinstance(action, Discard):
        return f"Discard {action.card}"
    assert isinstance(action, Done)
    return "Done laying down"
