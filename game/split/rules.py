"""SPLIT rules: dealing, legal actions, applying actions, round end and scoring.

Everything here works on seat indexes and card ids; the engine translates player ids.
``legal_actions`` and ``apply`` ask the same predicate per rule (``awaits``, ``usable``,
``keeps_a_discard``, ``picked_stays_usable``, ``improves``, ``may_discard``, ``targets``,
``swap_pairs``); the refusal texts only explain what a predicate refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.base import Event, IllegalAction, rng_for
from game.fast import construct
from game.split.actions import (
    BONUS_DRAW,
    DONE,
    DRAW,
    SKIP,
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
    build,
)
from game.split.cards import (
    CARD_NAMES,
    DECK_SIZE,
    FACE_LEVEL,
    FACE_NAMES,
    FACE_OF,
    FACE_RANK,
    LEVEL_NAMES,
    PERFECT,
    RANK_OF,
    RANKS,
    STRONG,
    WEAK,
    face_level,
    parse_face,
)
from game.split.scoring import sheet_score
from game.split.state import (
    HAND_SIZE,
    ROUNDS,
    PlayerRoundScore,
    RoundSummary,
    SplitState,
    TableMatch,
)
from game.split.vocabulary import ActionType, EventKind, Level, RoundEnd, Step

# Steps compared on every action, as module globals (see game.split.vocabulary).
_TAKE, _MAIN, _LAYDOWN, _GAME_OVER = Step.TAKE, Step.MAIN, Step.LAYDOWN, Step.GAME_OVER
_BONUS_PERFECT, _BONUS_STRONG, _BONUS_WEAK = Step.BONUS_PERFECT, Step.BONUS_STRONG, Step.BONUS_WEAK

Pair = tuple[int, int]  # the two half faces of a match


# ---------------------------------------------------------------- setup


def new_game(players: Sequence[str], seed: int) -> tuple[SplitState, list[Event]]:
    """The game dealt for round 1, and the round's start event."""
    count = len(players)
    state = SplitState(
        players=list(players),
        seed=seed,
        dealer=rng_for(seed, "dealer").randrange(count),
        hands=[[] for _ in players],
        pile=[],
        row=[],
        turns_started=[0] * count,
        boxes=[[0] * len(RANKS) for _ in players],
        negatives=[0] * count,
        round_marks=[0] * count,
    )
    state.mark_all_set()
    return state, deal(state)


def deal(state: SplitState) -> list[Event]:
    """Shuffle all 104 cards and start round ``state.round`` with ``state.dealer`` dealing."""
    count = len(state.players)
    deck = list(range(DECK_SIZE))
    rng_for(state.seed, "deal", state.round).shuffle(deck)
    state.hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(count)]
    rest = deck[count * HAND_SIZE :]
    state.row = [rest.pop()]
    state.pile = rest
    state.matches = []
    state.turn = (state.dealer + 1) % count
    state.step = _TAKE
    state.picked = None
    state.bonus_match = None
    state.turns_started = [0] * count
    state.laydown_waiting = []
    state.went_out = None
    state.round_marks = [0] * count
    state.known = [[] for _ in range(count)]
    return [
        Event(
            kind=EventKind.ROUND_START,
            data={
                "round": state.round,
                "dealer": state.players[state.dealer],
                "first": state.players[state.turn],
                "row": [CARD_NAMES[state.row[0]]],
                "pile": len(state.pile),
            },
        )
    ]


# ---------------------------------------------------------------- helpers

_MATCH_FIELDS = frozenset(TableMatch.model_fields)


def _new_match(owner: int, halves: list[int]) -> TableMatch:
    return construct(TableMatch, {"owner": owner, "halves": halves, "covered": []}, _MATCH_FIELDS)


def match_pairs(state: SplitState) -> list[Pair]:
    return [(FACE_OF[m.halves[0]], FACE_OF[m.halves[1]]) for m in state.matches]


def can_upgrade_with(pairs: Sequence[Pair], face: int) -> bool:
    """Whether a half ``face`` would make some match on the table strictly stronger."""
    rank = FACE_RANK[face]
    for a, b in pairs:
        if FACE_RANK[a] != rank:
            continue
        current = face_level(a, b)
        if current < PERFECT and (face_level(face, b) > current or face_level(face, a) > current):
            return True
    return False


def keeps_a_discard(hand_size: int, played: int) -> bool:
    """Whether playing ``played`` cards from a hand of ``hand_size`` leaves a card to discard
    (a turn ends with a discard, so a play may never empty the hand)."""
    return hand_size - played >= 1


def usable(
    hand_size: int,
    rank_count: int,
    face: int,
    pairs: Sequence[Pair],
    upgrades: dict[int, bool] | None = None,
) -> bool:
    """Whether a held card ``face`` can go into a new match or an upgrade that leaves a card
    to discard. ``rank_count`` counts the held cards of its rank, itself included;
    ``upgrades`` memoises ``can_upgrade_with(pairs, face)`` per face for a caller that asks
    about many cards against the same table."""
    if keeps_a_discard(hand_size, 2) and rank_count >= 2:
        return True
    if not keeps_a_discard(hand_size, 1):
        return False
    if upgrades is None:
        return can_upgrade_with(pairs, face)
    known = upgrades.get(face)
    if known is None:
        known = upgrades[face] = can_upgrade_with(pairs, face)
    return known


def picked_stays_usable(
    hand_size: int, rank_count: int, picked: int, new_pairs: Sequence[Pair], others: bool
) -> bool:
    """Whether the picked card ``picked`` is still usable after a play that leaves
    ``hand_size`` cards (``rank_count`` of its rank) and puts ``new_pairs`` on the table;
    ``others``: whether a match the play leaves alone could take it as an upgrade."""
    return usable(hand_size, rank_count, picked, new_pairs) or (
        keeps_a_discard(hand_size, 1) and others
    )


def improves(face: int, kept: int, current: int) -> bool:
    """Whether ``face`` next to the half ``kept`` makes a match stronger than ``current``."""
    return FACE_LEVEL[face][kept] > current


def may_discard(state: SplitState) -> bool:
    """A card picked from the row must be used before the turn player discards."""
    return state.picked is None


def awaits(state: SplitState, seat: int) -> bool:
    """Whether the game waits for ``seat``'s input now."""
    step = state.step
    if step == _LAYDOWN:
        return seat in state.laydown_waiting
    return step != _GAME_OVER and seat == state.turn


def targets(state: SplitState, seat: int) -> list[int]:
    """The seats a perfect bonus of ``seat`` may mark: every other seat, in turn order."""
    count = len(state.players)
    return [(seat + k) % count for k in range(1, count)]


def _rank_count(hand: Sequence[int], rank: int) -> int:
    return sum(1 for card in hand if RANK_OF[card] == rank)


def _count_face(hand: Sequence[int], face: int) -> int:
    return sum(1 for card in hand if FACE_OF[card] == face)


def _take_face(hand: list[int], face: int) -> int:
    for index, card in enumerate(hand):
        if FACE_OF[card] == face:
            return hand.pop(index)
    raise AssertionError("card checked as held")


def _play_known(state: SplitState, seat: int, face: int) -> None:
    """``seat`` played a ``face`` from their hand: if everyone knew they held one, nobody
    can tell any more whether the known copy is the one that went."""
    if seat < len(state.known) and face in state.known[seat]:
        state.known[seat].remove(face)


def _face(text: str) -> int:
    try:
        return parse_face(text)
    except ValueError as err:
        raise IllegalAction(str(err)[:1].upper() + str(err)[1:] + ".") from err


def pair_name(pair: Sequence[int]) -> str:
    """``7♥|7♠`` for two card ids."""
    return "|".join(CARD_NAMES[card] for card in pair)


def pick_usable(state: SplitState, seat: int, pos: int) -> bool:
    """Whether picking the row card at ``pos`` is allowed for ``seat`` (spec section 4)."""
    hand = state.hands[seat]
    taken = state.row[pos:]
    face = FACE_OF[taken[0]]
    rank = FACE_RANK[face]
    count = _rank_count(hand, rank) + _rank_count(taken, rank)
    return usable(len(hand) + len(taken), count, face, match_pairs(state))


def legal_picks(state: SplitState, seat: int) -> list[int]:
    """Row positions ``seat`` may pick from, oldest first: ``pick_usable`` for every position,
    with the counts carried from the newest card back."""
    hand = state.hands[seat]
    row = state.row
    if not row:
        return []
    pairs = match_pairs(state)
    hand_ranks = [0] * len(RANKS)
    for card in hand:
        hand_ranks[RANK_OF[card]] += 1
    upgrades: dict[int, bool] = {}
    suffix = [0] * len(RANKS)  # per rank: the cards of the row from ``pos`` on
    result: list[int] = []
    for pos in range(len(row) - 1, -1, -1):
        card = row[pos]
        rank = RANK_OF[card]
        suffix[rank] += 1
        size = len(hand) + len(row) - pos
        if usable(size, hand_ranks[rank] + suffix[rank], FACE_OF[card], pairs, upgrades):
            result.append(pos)
    result.reverse()
    return result


def swap_pairs(state: SplitState, seat: int) -> list[tuple[int, int]]:
    """(mine, theirs) match ids that a weak bonus may swap."""
    mine: list[tuple[int, int]] = []
    theirs: list[tuple[int, int]] = []
    for index, match in enumerate(state.matches):
        halves = match.halves
        level = FACE_LEVEL[FACE_OF[halves[0]]][FACE_OF[halves[1]]]
        (mine if match.owner == seat else theirs).append((index, level))
    return [(i, j) for i, level in mine for j, other in theirs if level == other]


def _face_counts(hand: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in hand:
        face = FACE_OF[card]
        counts[face] = counts.get(face, 0) + 1
    return counts


def _match_candidates(counts: dict[int, int]) -> list[Pair]:
    """Every distinct pair of held faces of one rank (a face with itself if held twice)."""
    faces = sorted(counts)
    result: list[Pair] = []
    for i, face in enumerate(faces):
        if counts[face] >= 2:
            result.append((face, face))
        for other in faces[i + 1 :]:
            if FACE_RANK[other] != FACE_RANK[face]:
                break
            result.append((face, other))
    return result


# ---------------------------------------------------------------- legal actions

# Actions are frozen, so the enumeration hands out shared instances.
_DISCARDS: list[Discard] = [build(Discard, card=label) for label in FACE_NAMES]
_MATCHES: dict[Pair, MakeMatch] = {}
_LAYS: dict[Pair, LayMatch] = {}
_UPGRADES: dict[tuple[int, int, int], Upgrade] = {}
_PICKS: dict[tuple[int, int], Pick] = {}
_SWAPS: dict[tuple[int, int], Swap] = {}


def _match_action(pair: Pair) -> MakeMatch:
    action = _MATCHES.get(pair)
    if action is None:
        action = _MATCHES[pair] = build(MakeMatch, a=FACE_NAMES[pair[0]], b=FACE_NAMES[pair[1]])
    return action


def _lay_action(pair: Pair) -> LayMatch:
    action = _LAYS.get(pair)
    if action is None:
        action = _LAYS[pair] = build(LayMatch, a=FACE_NAMES[pair[0]], b=FACE_NAMES[pair[1]])
    return action


def _upgrade_action(match_id: int, face: int, replaced: int) -> Upgrade:
    key = (match_id, face, replaced)
    action = _UPGRADES.get(key)
    if action is None:
        action = _UPGRADES[key] = build(
            Upgrade, match=match_id, card=FACE_NAMES[face], replace=FACE_NAMES[replaced]
        )
    return action


def _swap_action(mine: int, theirs: int) -> Swap:
    key = (mine, theirs)
    action = _SWAPS.get(key)
    if action is None:
        action = _SWAPS[key] = build(Swap, mine=mine, theirs=theirs)
    return action


def _pick_action(face: int, pos: int) -> Pick:
    key = (face, pos)
    action = _PICKS.get(key)
    if action is None:
        action = _PICKS[key] = build(Pick, card=FACE_NAMES[face], pos=pos)
    return action


def legal_actions(
    state: SplitState, seat: int, only: ActionType | None = None
) -> list[SplitAction]:
    """``seat``'s legal actions; ``only``: just those of that type (the same ones, in the same
    order)."""
    if not awaits(state, seat):
        return []
    step = state.step
    if step == _LAYDOWN:
        lays: list[SplitAction] = []
        if only is None or only == ActionType.LAY:
            counts = _face_counts(state.hands[seat])
            lays.extend(_lay_action(pair) for pair in _match_candidates(counts))
        if only is None or only == ActionType.DONE:
            lays.append(DONE)
        return lays
    if step == _TAKE:
        result: list[SplitAction] = [DRAW] if only is None or only == ActionType.DRAW else []
        if only is None or only == ActionType.PICK:
            row = state.row
            result.extend(_pick_action(FACE_OF[row[pos]], pos) for pos in legal_picks(state, seat))
        return result
    if step == _MAIN:
        return _main_actions(state, seat, only)
    if step == _BONUS_PERFECT:
        if only is not None and only != ActionType.TARGET:
            return []
        return [build(Target, player=state.players[other]) for other in targets(state, seat)]
    if step == _BONUS_STRONG:
        return [action for action in (BONUS_DRAW, SKIP) if only is None or action.type == only]
    # bonus_weak
    swaps: list[SplitAction] = []
    if only is None or only == ActionType.SWAP:
        swaps.extend(_swap_action(i, j) for i, j in swap_pairs(state, seat))
    if only is None or only == ActionType.SKIP:
        swaps.append(SKIP)
    return swaps


def is_legal(state: SplitState, seat: int, action: SplitAction) -> bool:
    """Whether ``action`` is one of ``legal_actions(state, seat)``. Only the actions of its
    type are listed; a discard lists nothing (any card of the hand, once nothing picked from
    the row waits to be used)."""
    if isinstance(action, Discard):
        if state.step != _MAIN or not awaits(state, seat) or not may_discard(state):
            return False
        face = _face(action.card)
        return any(FACE_OF[card] == face for card in state.hands[seat])
    return action in legal_actions(state, seat, action.type)


def _main_actions(
    state: SplitState, seat: int, only: ActionType | None = None
) -> list[SplitAction]:
    hand = state.hands[seat]
    size = len(hand)
    counts = _face_counts(hand)
    pairs = match_pairs(state)
    picked = None if state.picked is None else FACE_OF[state.picked]
    picked_rank_count = 0 if picked is None else _rank_count(hand, FACE_RANK[picked])
    # Per match: whether the picked card could upgrade it. A play keeps the picked card
    # usable (``usable`` over the changed table) when an untouched match or the new pair
    # takes it, so the table is scanned once, not once per candidate.
    picked_ups = [] if picked is None else [can_upgrade_with((pair,), picked) for pair in pairs]
    picked_up_count = sum(picked_ups)
    result: list[SplitAction] = []
    if keeps_a_discard(size, 2) and (only is None or only == ActionType.MATCH):
        for a, b in _match_candidates(counts):
            if picked is not None and picked != a and picked != b:
                removed = 2 if FACE_RANK[a] == FACE_RANK[picked] else 0
                if not picked_stays_usable(
                    size - 2, picked_rank_count - removed, picked, [(a, b)], picked_up_count > 0
                ):
                    continue
            result.append(_match_action((a, b)))
    if keeps_a_discard(size, 1) and pairs and (only is None or only == ActionType.UPGRADE):
        by_rank: dict[int, list[int]] = {}
        for face in counts:
            by_rank.setdefault(FACE_RANK[face], []).append(face)
        levels = FACE_LEVEL
        for match_id, (a, b) in enumerate(pairs):
            faces = by_rank.get(FACE_RANK[a])
            if faces is None:
                continue
            current = levels[a][b]
            if current == PERFECT:
                continue
            for face in faces:
                for replaced, kept in ((a, b), (b, a)):
                    if not improves(face, kept, current):
                        continue
                    if picked is not None and face != picked:
                        removed = 1 if FACE_RANK[face] == FACE_RANK[picked] else 0
                        others = picked_up_count - picked_ups[match_id] > 0
                        if not picked_stays_usable(
                            size - 1, picked_rank_count - removed, picked, [(face, kept)], others
                        ):
                            continue
                    result.append(_upgrade_action(match_id, face, replaced))
    if may_discard(state) and (only is None or only == ActionType.DISCARD):
        result.extend(_DISCARDS[face] for face in counts)
    return result


def awaiting(state: SplitState) -> list[int]:
    if state.step == _GAME_OVER:
        return []
    if state.step == _LAYDOWN:
        return list(state.laydown_waiting)
    return [state.turn]


# ---------------------------------------------------------------- apply

_STEP_OF_ACTION: dict[ActionType, tuple[Step, ...]] = {
    ActionType.DRAW: (Step.TAKE,),
    ActionType.PICK: (Step.TAKE,),
    ActionType.MATCH: (Step.MAIN,),
    ActionType.UPGRADE: (Step.MAIN,),
    ActionType.DISCARD: (Step.MAIN,),
    ActionType.TARGET: (Step.BONUS_PERFECT,),
    ActionType.BONUS_DRAW: (Step.BONUS_STRONG,),
    ActionType.SWAP: (Step.BONUS_WEAK,),
    ActionType.SKIP: (Step.BONUS_STRONG, Step.BONUS_WEAK),
    ActionType.LAY: (Step.LAYDOWN,),
    ActionType.DONE: (Step.LAYDOWN,),
}

_WRONG_STEP: dict[Step, str] = {
    Step.TAKE: "Take a card first: draw or pick from the discard row.",
    Step.MAIN: "You have already taken a card this turn: make matches or upgrades, then discard.",
    Step.BONUS_PERFECT: "Finish the perfect bonus first: choose a player to mark a negative box.",
    Step.BONUS_STRONG: "Finish the strong bonus first: draw a card or skip.",
    Step.BONUS_WEAK: "Finish the weak bonus first: swap two matches or skip.",
    Step.LAYDOWN: "Only the lay-down is open now: lay matches or say done.",
    Step.GAME_OVER: "The game is over.",
}


def apply(state: SplitState, seat: int, action: SplitAction) -> list[Event]:
    step = state.step
    if not awaits(state, seat):
        if step == _GAME_OVER:
            raise IllegalAction(_WRONG_STEP[step])
        if step == _LAYDOWN:
            raise IllegalAction("Only players who have not had a turn this round lay down now.")
        raise IllegalAction("It is not your turn.")
    if step not in _STEP_OF_ACTION[action.type]:
        raise IllegalAction(_WRONG_STEP[step])
    actor = state.players[seat]
    if isinstance(action, Draw):
        return _draw(state, seat, actor)
    if isinstance(action, Pick):
        return _pick(state, seat, actor, action)
    if isinstance(action, MakeMatch):
        return _make_match(state, seat, actor, action)
    if isinstance(action, Upgrade):
        return _upgrade(state, seat, actor, action)
    if isinstance(action, Discard):
        return _discard(state, seat, actor, action)
    if isinstance(action, Target):
        return _target(state, seat, actor, action)
    if isinstance(action, BonusDraw):
        return _bonus_draw(state, seat, actor)
    if isinstance(action, Swap):
        return _swap(state, seat, actor, action)
    if isinstance(action, Skip):
        bonus = Level.STRONG if step == _BONUS_STRONG else Level.WEAK
        state.step = _MAIN
        state.bonus_match = None
        return [Event(kind=EventKind.SKIP, actor=actor, data={"bonus": bonus})]
    if isinstance(action, LayMatch):
        return _lay(state, seat, actor, action)
    assert isinstance(action, Done)
    return _done(state, seat, actor)


def _draw(state: SplitState, seat: int, actor: str) -> list[Event]:
    state.turns_started[seat] += 1
    return _take_top_card(state, seat, actor, EventKind.DRAW)


def _take_top_card(state: SplitState, seat: int, actor: str, kind: EventKind) -> list[Event]:
    """A draw (take step or strong bonus): the card is private; the last card ends the round."""
    card = state.pile.pop()
    state.hands[seat].append(card)
    events = [
        Event(
            kind=kind,
            actor=actor,
            data={"pile": len(state.pile)},
            private={"card": CARD_NAMES[card]},
            private_to=actor,
        )
    ]
    if not state.pile:
        events.extend(_end_round(state, RoundEnd.PILE))
    else:
        state.step = _MAIN
    return events


def _pick(state: SplitState, seat: int, actor: str, action: Pick) -> list[Event]:
    face = _face(action.card)
    row = state.row
    if not row:
        raise IllegalAction("The discard row is empty: draw a card.")
    label = FACE_NAMES[face]
    if action.pos is None:
        positions = [pos for pos, card in enumerate(row) if FACE_OF[card] == face]
        if not positions:
            raise IllegalAction(f"{label} is not in the discard row.")
        # The newest copy that may be picked: an older one takes more cards along, which
        # can make a pick legal that the newest copy would not be.
        usable = [pos for pos in positions if pick_usable(state, seat, pos)]
        pos = usable[-1] if usable else positions[-1]
    else:
        pos = action.pos
        if not 0 <= pos < len(row) or FACE_OF[row[pos]] != face:
            raise IllegalAction(f"{label} is not at that place in the discard row.")
    if not pick_usable(state, seat, pos):
        raise IllegalAction(
            f"You may not pick {label}: you could not use it in a match or an upgrade "
            "that leaves you a card to discard."
        )
    taken = row[pos:]
    del row[pos:]
    state.hands[seat].extend(taken)
    if len(state.known) == len(state.players):
        state.known[seat].extend(FACE_OF[card] for card in taken)
    state.picked = taken[0]
    state.turns_started[seat] += 1
    state.step = _MAIN
    return [
        Event(
            kind=EventKind.PICK,
            actor=actor,
            data={"card": label, "taken": [CARD_NAMES[c] for c in taken]},
        )
    ]


def _check_pair(hand: Sequence[int], a: int, b: int) -> None:
    if FACE_RANK[a] != FACE_RANK[b]:
        raise IllegalAction(f"{FACE_NAMES[a]} and {FACE_NAMES[b]} are different ranks.")
    for face in (a,) if a == b else (a, b):
        held = _count_face(hand, face)
        needed = 2 if a == b else 1
        if held < needed:
            if held:
                raise IllegalAction(f"You hold only one {FACE_NAMES[face]}.")
            raise IllegalAction(f"You do not hold {FACE_NAMES[face]}.")


def _keeps_picked(
    state: SplitState, seat: int, removed: Sequence[int], new_pair: Pair, untouched: list[Pair]
) -> None:
    """Refuse a play (not using the picked card) that would leave the picked card unusable:
    the play takes the faces ``removed`` from the hand and puts ``new_pair`` on the table,
    leaving the matches ``untouched`` as they are."""
    if state.picked is None:
        return
    picked = FACE_OF[state.picked]
    if picked in removed:
        return
    hand = state.hands[seat]
    rank = FACE_RANK[picked]
    rank_count = _rank_count(hand, rank) - sum(1 for f in removed if FACE_RANK[f] == rank)
    others = can_upgrade_with(untouched, picked)
    if not picked_stays_usable(len(hand) - len(removed), rank_count, picked, [new_pair], others):
        raise IllegalAction(
            f"That would leave the {FACE_NAMES[picked]} you picked unusable; "
            "you must use it this turn."
        )


def _make_match(state: SplitState, seat: int, actor: str, action: MakeMatch) -> list[Event]:
    a, b = _face(action.a), _face(action.b)
    hand = state.hands[seat]
    _check_pair(hand, a, b)
    if not keeps_a_discard(len(hand), 2):
        raise IllegalAction("You must keep a card to discard: you cannot lay your last two cards.")
    _keeps_picked(state, seat, (a, b), (a, b), match_pairs(state))
    cards = [_take_face(hand, a), _take_face(hand, b)]
    _play_known(state, seat, a)
    _play_known(state, seat, b)
    if state.picked is not None and FACE_OF[state.picked] in (a, b):
        state.picked = None
    state.matches.append(_new_match(seat, cards))
    match_id = len(state.matches) - 1
    level = face_level(a, b)
    events = [
        Event(
            kind=EventKind.MATCH,
            actor=actor,
            data={"match": match_id, "halves": pair_name(cards), "level": LEVEL_NAMES[level]},
        )
    ]
    events.extend(_start_bonus(state, seat, match_id, level))
    return events


def _upgrade(state: SplitState, seat: int, actor: str, action: Upgrade) -> list[Event]:
    if not 0 <= action.match < len(state.matches):
        raise IllegalAction(f"There is no match #{action.match}.")
    match = state.matches[action.match]
    face, replaced = _face(action.card), _face(action.replace)
    halves = [FACE_OF[card] for card in match.halves]
    label, shown = FACE_NAMES[face], pair_name(match.halves)
    if FACE_RANK[face] != FACE_RANK[halves[0]]:
        raise IllegalAction(f"{label} and {shown} are different ranks.")
    hand = state.hands[seat]
    if not _count_face(hand, face):
        raise IllegalAction(f"You do not hold {label}.")
    if replaced not in halves:
        raise IllegalAction(f"{FACE_NAMES[replaced]} is not a half of {shown}.")
    index = halves.index(replaced)
    kept = halves[1 - index]
    current = face_level(halves[0], halves[1])
    level = face_level(face, kept)
    if not improves(face, kept, current):
        raise IllegalAction(
            f"Playing {label} for {FACE_NAMES[replaced]} would not make {shown} stronger."
        )
    if not keeps_a_discard(len(hand), 1):
        raise IllegalAction("You must keep a card to discard: you cannot play your last card.")
    untouched = match_pairs(state)
    del untouched[action.match]
    _keeps_picked(state, seat, (face,), (face, kept), untouched)
    card = _take_face(hand, face)
    _play_known(state, seat, face)
    if state.picked is not None and FACE_OF[state.picked] == face:
        state.picked = None
    covered = match.halves[index]
    match.covered.append(covered)
    match.halves[index] = card
    previous = match.owner
    match.owner = seat
    events = [
        Event(
            kind=EventKind.UPGRADE,
            actor=actor,
            data={
                "match": action.match,
                "card": label,
                "covered": CARD_NAMES[covered],
                "halves": pair_name(match.halves),
                "level": LEVEL_NAMES[level],
                "from_owner": state.players[previous],
            },
        )
    ]
    events.extend(_start_bonus(state, seat, action.match, level))
    return events


def _start_bonus(state: SplitState, seat: int, match_id: int, level: int) -> list[Event]:
    actor = state.players[seat]
    if level == PERFECT:
        if len(state.players) == 2:
            return [_mark(state, actor, 1 - seat, automatic=True)]
        state.step = _BONUS_PERFECT
    elif level == STRONG:
        state.step = _BONUS_STRONG
    else:
        assert level == WEAK
        if not swap_pairs(state, seat):
            return [Event(kind=EventKind.NO_SWAP, actor=actor, data={})]
        state.step = _BONUS_WEAK
    state.bonus_match = match_id
    return []


def _mark(state: SplitState, actor: str, target: int, automatic: bool = False) -> Event:
    state.negatives[target] += 1
    state.round_marks[target] += 1
    return Event(
        kind=EventKind.MARK,
        actor=actor,
        data={"target": state.players[target], "automatic": automatic},
    )


def _target(state: SplitState, seat: int, actor: str, action: Target) -> list[Event]:
    if action.player not in state.players:
        raise IllegalAction("That player is not in this game.")
    target = state.players.index(action.player)
    if target not in targets(state, seat):
        raise IllegalAction("Choose another player to mark a negative box.")
    state.step = _MAIN
    state.bonus_match = None
    return [_mark(state, actor, target)]


def _bonus_draw(state: SplitState, seat: int, actor: str) -> list[Event]:
    state.bonus_match = None
    return _take_top_card(state, seat, actor, EventKind.BONUS_DRAW)


def _swap_refusal(state: SplitState, seat: int, action: Swap) -> str:
    """Why ``swap_pairs`` does not list ``action``."""
    count = len(state.matches)
    for match_id in (action.mine, action.theirs):
        if not 0 <= match_id < count:
            return f"There is no match #{match_id}."
    mine, theirs = state.matches[action.mine], state.matches[action.theirs]
    if mine.owner != seat:
        return f"{pair_name(mine.halves)} is not your match."
    if theirs.owner == seat:
        return f"{pair_name(theirs.halves)} is already yours."
    mine_level, theirs_level = (
        face_level(FACE_OF[m.halves[0]], FACE_OF[m.halves[1]]) for m in (mine, theirs)
    )
    return (
        f"A {LEVEL_NAMES[mine_level]} match swaps only for another "
        f"{LEVEL_NAMES[mine_level]} match, and {pair_name(theirs.halves)} is "
        f"{LEVEL_NAMES[theirs_level]}."
    )


def _swap(state: SplitState, seat: int, actor: str, action: Swap) -> list[Event]:
    if (action.mine, action.theirs) not in swap_pairs(state, seat):
        raise IllegalAction(_swap_refusal(state, seat, action))
    mine, theirs = state.matches[action.mine], state.matches[action.theirs]
    other = theirs.owner
    mine.owner, theirs.owner = other, seat
    state.step = _MAIN
    state.bonus_match = None
    return [
        Event(
            kind=EventKind.SWAP,
            actor=actor,
            data={
                "mine": action.mine,
                "theirs": action.theirs,
                "gave": pair_name(mine.halves),
                "got": pair_name(theirs.halves),
                "with": state.players[other],
            },
        )
    ]


def _discard(state: SplitState, seat: int, actor: str, action: Discard) -> list[Event]:
    face = _face(action.card)
    if not may_discard(state):
        assert state.picked is not None
        raise IllegalAction(
            f"You must use the {CARD_NAMES[state.picked]} you picked before discarding."
        )
    hand = state.hands[seat]
    if not _count_face(hand, face):
        raise IllegalAction(f"You do not hold {FACE_NAMES[face]}.")
    state.row.append(_take_face(hand, face))
    _play_known(state, seat, face)
    events = [
        Event(
            kind=EventKind.DISCARD, actor=actor, data={"card": FACE_NAMES[face], "left": len(hand)}
        )
    ]
    if not hand:
        state.went_out = seat
        events.extend(_end_round(state, RoundEnd.OUT))
    else:
        state.turn = (seat + 1) % len(state.players)
        state.step = _TAKE
    return events


def _lay(state: SplitState, seat: int, actor: str, action: LayMatch) -> list[Event]:
    a, b = _face(action.a), _face(action.b)
    hand = state.hands[seat]
    _check_pair(hand, a, b)
    cards = [_take_face(hand, a), _take_face(hand, b)]
    _play_known(state, seat, a)
    _play_known(state, seat, b)
    state.matches.append(_new_match(seat, cards))
    return [
        Event(
            kind=EventKind.LAY,
            actor=actor,
            data={
                "match": len(state.matches) - 1,
                "halves": pair_name(cards),
                "level": LEVEL_NAMES[face_level(a, b)],
            },
        )
    ]


def _done(state: SplitState, seat: int, actor: str) -> list[Event]:
    state.laydown_waiting.remove(seat)
    events = [Event(kind=EventKind.DONE, actor=actor, data={})]
    if not state.laydown_waiting:
        events.extend(_score_round(state, RoundEnd.OUT))
    return events


# ---------------------------------------------------------------- round end


def _end_round(state: SplitState, ended_by: RoundEnd) -> list[Event]:
    state.picked = None
    state.bonus_match = None
    if ended_by == RoundEnd.OUT:
        out = state.went_out
        assert out is not None
        count = len(state.players)
        if state.turns_started[out] == 1:
            waiting = [
                (out + k) % count
                for k in range(1, count)
                if state.turns_started[(out + k) % count] == 0
            ]
            if waiting:
                state.step = _LAYDOWN
                state.laydown_waiting = waiting
                return [
                    Event(
                        kind=EventKind.LAYDOWN_START,
                        actor=state.players[out],
                        data={"players": [state.players[s] for s in waiting]},
                    )
                ]
    return _score_round(state, ended_by)


def _score_round(state: SplitState, ended_by: RoundEnd) -> list[Event]:
    count = len(state.players)
    before = (
        [entry.score_after for entry in state.history[-1].players] if state.history else [0] * count
    )
    gained_boxes: list[dict[str, int]] = [{} for _ in range(count)]
    match_counts = [0] * count
    for match in state.matches:
        rank = RANK_OF[match.halves[0]]
        state.boxes[match.owner][rank] += 1
        rank_name = RANKS[rank]
        gained_boxes[match.owner][rank_name] = gained_boxes[match.owner].get(rank_name, 0) + 1
        match_counts[match.owner] += 1
    scores: list[PlayerRoundScore] = []
    for seat in range(count):
        hand_marks = len(state.hands[seat])
        state.negatives[seat] += hand_marks
        after = sheet_score(state.boxes[seat], state.negatives[seat])
        scores.append(
            PlayerRoundScore(
                player=state.players[seat],
                boxes=gained_boxes[seat],
                matches=match_counts[seat],
                hand_marks=hand_marks,
                bonus_marks=state.round_marks[seat],
                score_before=before[seat],
                score_after=after,
                gained=after - before[seat],
            )
        )
    out = state.went_out if ended_by == RoundEnd.OUT else None
    summary = RoundSummary(
        round=state.round,
        dealer=state.players[state.dealer],
        ended_by=ended_by,
        out=None if out is None else state.players[out],
        first_turn_out=out is not None and state.turns_started[out] == 1,
        players=scores,
    )
    state.history.append(summary)
    state.laydown_waiting = []
    events = [Event(kind=EventKind.ROUND_END, data=summary.model_dump())]
    if state.round >= ROUNDS:
        state.step = _GAME_OVER
        final = {
            state.players[s]: sheet_score(state.boxes[s], state.negatives[s]) for s in range(count)
        }
        events.append(Event(kind=EventKind.GAME_OVER, data={"scores": final}))
        return events
    state.dealer = out if out is not None else (state.dealer + 1) % count
    state.round += 1
    events.extend(deal(state))
    return events
