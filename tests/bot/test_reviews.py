"""The expert's reviews (bot.reviews): the accuracy and cost arithmetic, the analysis on a
replayed game under its CPU budget, the low-priority workers, and the reviewer that stores a
review once, never recomputes it after a restart and redoes one a crash left pending."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest

import bot.reviews.reviewer as reviewer_module
from bench.review_cpu import machine_game
from bot.records.change import Change, ChangeKind
from bot.records.session import Seat, Session, Status
from bot.reviews.analysis import review_json, review_player
from bot.reviews.cpu_budget import CpuDeadline
from bot.reviews.model import Review, ReviewedDecision, differing, summary
from bot.reviews.pool import NICENESS, ReviewPool, _review_worker_start
from bot.reviews.reviewer import BUSY, DONE, FAILED, PENDING, Reviewer
from bot.store import open_store
from bot.store.interface import Store
from game.export_format import GameExport, dump_export
from game.registry import engines, replay_export
from game.search import Iterations
from game.split.hidden import sample_hidden
from tests.bot.conftest import seat

NOW = datetime(2026, 12, 2, 4, 0, tzinfo=UTC)


def decision(step: int, *, matched: bool = False, cost: float | None = 0.0,
             searched: bool = True, worlds: int = 8, sweeps: int = 8,
             simulations: int = 40) -> ReviewedDecision:
    return ReviewedDecision(step=step, played={"a": step}, expert={"a": 0}, matched=matched,
                            searched=searched, compared=cost is not None, candidates=3,
                            cost=cost, worlds=worlds, sweeps=sweeps, simulations=simulations)


def review_of(*decisions: ReviewedDecision, forced: int = 0) -> Review:
    return Review(game="split", player="1", decisions=list(decisions), forced=forced,
                  cpu_seconds=1.0, budget_seconds=2.0, stopped=False)


# --- arithmetic -------------------------------------------------------------------------------


def test_accuracy_is_the_share_of_assessed_decisions_matching_the_expert() -> None:
    figures = summary(review_of(
        decision(1, matched=True), decision(2, cost=2.0), decision(3, matched=True),
        decision(4, searched=False, cost=None, simulations=0), decision(5, cost=None),
    ))
    assert figures.decisions == 5 and figures.assessed == 4 and figures.not_assessed == 1
    assert figures.matched == 2 and figures.differing == 2
    assert figures.accuracy == 0.5


def test_mean_cost_counts_matches_as_zero_negatives_as_zero_and_skips_the_unmeasured() -> None:
    figures = summary(review_of(
        decision(1, matched=True), decision(2, cost=3.0), decision(3, cost=-1.0),
        decision(4, cost=None),  # not compared by the search: no cost
    ))
    assert figures.mean_cost == {"": pytest.approx(1.0)}  # (0 + 3 + 0) / 3


def test_mean_cost_is_kept_apart_per_unit_and_sure_counts_simulations() -> None:
    review = review_of(decision(1, cost=2.0, simulations=100),
                       decision(20, cost=0.25, simulations=20),
                       decision(21, matched=True, simulations=30))
    figures = summary(review, lambda d: "win" if d.step >= 20 else "points")
    assert figures.mean_cost == {"points": 2.0, "win": pytest.approx(0.125)}
    assert figures.mean_simulations == pytest.approx(50.0) and figures.least_simulations == 20


def test_a_single_candidate_is_assessed_without_simulations_and_how_sure_leaves_it_out() -> None:
    figures = summary(review_of(decision(1, matched=True, simulations=0, sweeps=0, worlds=0),
                                decision(2, simulations=30, cost=1.0)))
    assert figures.assessed == 2 and figures.matched == 1
    assert figures.least_simulations == 30 and figures.mean_simulations == 30


def test_no_assessed_decision_has_no_accuracy() -> None:
    figures = summary(review_of(decision(1, searched=False, cost=None), forced=3))
    assert figures.accuracy is None and figures.mean_cost == {}


def test_a_move_that_left_the_search_early_says_so() -> None:
    early = decision(1, cost=1.0, worlds=4, sweeps=16)
    assert early.dropped_early and not decision(2, cost=1.0).dropped_early
    assert differing(review_of(early, decision(2, matched=True))) == [early]


# --- the analysis ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def split_game() -> GameExport:
    return machine_game("split", 2, seed=3)


def test_a_review_compares_each_decision_with_the_expert_search(split_game: GameExport) -> None:
    player = split_game.players[0]
    review = review_player(split_game, player, cpu_seconds=30.0)
    engine = engines()["split"]
    own = [a for a in split_game.actions if a.player == player]
    assert len(review.decisions) + review.forced == len(own)
    assert not review.stopped and all(d.searched for d in review.decisions)
    for item in review.decisions:
        played = engine.parse_action(item.played)
        assert split_game.actions[item.step - 1].player == player
        assert item.matched == (engine.parse_action(item.expert) == played)
        assert item.simulations > 0 and 0 < item.worlds <= item.sweeps
        if item.matched:
            assert item.cost == 0.0
        else:
            assert item.compared and item.cost is not None  # SPLIT compares every legal move


def test_the_review_asks_the_expert_with_the_players_view_only(split_game: GameExport) -> None:
    """At a reviewed decision, the expert's search gives the same answer when every card the
    player could not see is dealt otherwise (consistently with their view): it never peeks."""
    player = split_game.players[0]
    engine = engines()["split"]
    replay = replay_export(split_game)
    steps = [index for index, row in enumerate(split_game.actions, start=1)
             if row.player == player
             and len(engine.legal_actions(replay.step(index - 1).state, player)) > 1]
    before = replay.step(steps[len(steps) // 2] - 1).state
    redealt = sample_hidden(before, 0, random.Random(99))
    seen = [engine.expert_decision(state, player, random.Random(7), Iterations(60))
            for state in (before, redealt)]
    assert seen[0].estimates == seen[1].estimates and seen[0].action == seen[1].action


def test_the_cpu_budget_stops_a_review(split_game: GameExport) -> None:
    review = review_player(split_game, split_game.players[0], cpu_seconds=0.02)
    figures = summary(review)
    assert review.stopped and figures.not_assessed > 0
    assert figures.not_assessed + figures.assessed == len(review.decisions)


def test_a_cpu_deadline_watches_this_processes_cpu_time() -> None:
    spent = CpuDeadline.after(0.01)
    assert not CpuDeadline.after(60.0).exhausted(0)
    while not spent.exhausted(0):
        sum(range(1000))  # burns CPU until the deadline is reached


def test_a_game_that_does_not_replay_has_no_review(split_game: GameExport) -> None:
    broken = split_game.model_copy(update={"actions": list(reversed(split_game.actions))})
    assert review_json(dump_export(broken), split_game.players[0], 1.0) is None


def test_the_review_workers_run_at_the_lowest_priority() -> None:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_review_worker_start) as pool:
        niceness = pool.submit(os.nice, 0).result(timeout=60)
        policy = pool.submit(os.sched_getscheduler, 0).result(timeout=60)
    assert niceness == NICENESS and policy == os.SCHED_IDLE


# --- the reviewer ---------------------------------------------------------------------------


class CountingPool(ReviewPool):
    """Reviews computed in this process, counted (no worker: the unit test needs none)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.calls = 0
        self.release = asyncio.Event()
        self.release.set()

    async def review(self, export_json: str, player: str, cpu_seconds: float) -> str | None:
        self.calls += 1
        await self.release.wait()
        return review_json(export_json, player, cpu_seconds)


async def stored_game(store: Store, export: GameExport) -> int:
    session = await store.create_session(Session(
        id=0, guild_id=1, channel_id=10, game="split", status=Status.FINISHED, host_id="1",
        seats=(seat(1), seat(2)), state={"n": 0}))
    return session.id


@pytest.fixture
def exported(monkeypatch: pytest.MonkeyPatch, split_game: GameExport) -> GameExport:
    async def export_session(store: Store, session_id: int) -> GameExport:
        return split_game.model_copy(update={"session_id": session_id})

    monkeypatch.setattr(reviewer_module, "export_session", export_session)
    return split_game


async def test_a_review_is_stored_once_and_not_recomputed_after_a_restart(
    tmp_path: Path, exported: GameExport
) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    player = exported.players[0]
    store = await open_store(url)
    sid = await stored_game(store, exported)
    pool = CountingPool()
    reviewer = Reviewer(store, pool, 0.5, lambda: NOW)
    reviewer.start()
    stored = await asyncio.wait_for(reviewer.wait(sid, player), 60)
    assert stored.status == DONE and stored.review is not None and pool.calls == 1
    assert (await reviewer.request(sid, player)).review == stored.review
    await reviewer.close()
    await store.close()

    store = await open_store(url)  # the next start
    pool = CountingPool()
    reviewer = Reviewer(store, pool, 0.5, lambda: NOW)
    reviewer.start()
    assert await reviewer.resume() == 0
    again = await reviewer.wait(sid, player)
    assert again == stored and pool.calls == 0  # read back, never recomputed
    await reviewer.close()
    await store.close()


async def test_a_review_a_crash_left_pending_is_redone_at_the_next_start(
    tmp_path: Path, exported: GameExport
) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    player = exported.players[1]
    store = await open_store(url)
    sid = await stored_game(store, exported)
    pool = CountingPool()
    pool.release.clear()  # the review never ends: the process "crashes" meanwhile
    reviewer = Reviewer(store, pool, 0.5, lambda: NOW)
    reviewer.start()
    assert (await reviewer.request(sid, player)).status == PENDING
    while pool.calls == 0:
        await asyncio.sleep(0.01)
    await reviewer.close()
    await store.close()

    store = await open_store(url)
    pool = CountingPool()
    reviewer = Reviewer(store, pool, 0.5, lambda: NOW)
    reviewer.start()
    assert await reviewer.resume() == 1
    stored = await asyncio.wait_for(reviewer.wait(sid, player), 60)
    assert stored.status == DONE and pool.calls == 1
    await reviewer.close()
    await store.close()


async def test_a_finished_game_queues_each_human_seats_review(
    tmp_path: Path, exported: GameExport
) -> None:
    from bot.records.change import Change, ChangeKind

    store = await open_store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    sid = await stored_game(store, exported)
    reviewer = Reviewer(store, CountingPool(), 0.5, lambda: NOW, at_end=True)
    machine = Seat(player_id="bot:1", display_name="Bot", is_bot=True)
    session = Session(id=sid, guild_id=1, channel_id=10, game="split", status=Status.FINISHED,
                      host_id="1", seats=(seat(1), machine), state={"n": 0})
    await reviewer.on_change(Change(session=session, kind=ChangeKind.FINISHED))
    assert await store.pending_reviews() == [(sid, "1")]  # the bot seat has none
    await reviewer.close()
    await store.close()


async def test_a_game_that_cannot_be_reviewed_is_stored_as_failed(tmp_path: Path,
                                                                   exported: GameExport) -> None:
    class Refusing(CountingPool):
        async def review(self, export_json: str, player: str, cpu_seconds: float) -> None:
            self.calls += 1
            return None

    store = await open_store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    sid = await stored_game(store, exported)
    reviewer = Reviewer(store, Refusing(), 0.5, lambda: NOW)
    reviewer.start()
    assert (await asyncio.wait_for(reviewer.wait(sid, "1"), 60)).status == FAILED
    await reviewer.close()
    await store.close()


async def test_with_review_at_end_off_a_review_waits_for_its_request(
    tmp_path: Path, exported: GameExport
) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    sid = await stored_game(store, exported)
    reviewer = Reviewer(store, CountingPool(), 0.5, lambda: NOW, at_end=False)
    await reviewer.on_change(finished(sid, 1, 2))
    assert await store.pending_reviews() == []
    assert (await reviewer.request(sid, "1")).status == PENDING
    assert await store.pending_reviews() == [(sid, "1")]
    await reviewer.close()
    await store.close()


class JobPool(CountingPool):
    """Counts the jobs (one per game's batch) and the players in each."""

    def __init__(self) -> None:
        super().__init__()
        self.jobs: list[list[str]] = []

    async def reviews(self, export_json: str, players: Sequence[str],
                      cpu_seconds: float) -> dict[str, str | None]:
        self.jobs.append(list(players))
        return {player: await self.review(export_json, player, cpu_seconds)
                for player in players}


def finished(sid: int, *humans: int) -> Change:
    session = Session(id=sid, guild_id=1, channel_id=10, game="split", status=Status.FINISHED,
                      host_id="1", seats=tuple(seat(n) for n in humans), state={"n": 0})
    return Change(session=session, kind=ChangeKind.FINISHED)


async def test_a_request_past_the_backlog_is_busy_and_stores_nothing(
    tmp_path: Path, exported: GameExport
) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    sid = await stored_game(store, exported)
    pool = JobPool()
    pool.release.clear()  # the first review holds the only place of the backlog
    reviewer = Reviewer(store, pool, 0.5, lambda: NOW, backlog=1)
    reviewer.start()
    assert (await reviewer.request(sid, "1")).status == PENDING
    assert (await reviewer.request(sid, "1")).status == PENDING  # the same one: no new place
    assert (await reviewer.request(sid, "2")).status == BUSY
    assert (await reviewer.wait(sid, "2")).status == BUSY  # a waiter is told at once
    assert await store.pending_reviews() == [(sid, "1")] and reviewer.queued == 1
    pool.release.set()
    assert (await asyncio.wait_for(reviewer.wait(sid, "1"), 60)).status == DONE
    assert reviewer.queued == 0, reviewer._queued
    assert (await asyncio.wait_for(reviewer.wait(sid, "2"), 60)).status == DONE
    await reviewer.close()
    await store.close()


async def test_reviews_at_the_end_are_dropped_past_half_the_backlog(
    tmp_path: Path, exported: GameExport
) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    first = await stored_game(store, exported)
    second = await stored_game(store, exported)
    reviewer = Reviewer(store, JobPool(), 0.5, lambda: NOW, at_end=True, backlog=4)
    await reviewer.on_change(finished(first, 1, 2))  # 2 of 4: within half
    await reviewer.on_change(finished(second, 1, 2))  # would make 4: dropped
    assert await store.pending_reviews() == [(first, "1"), (first, "2")]
    assert (await reviewer.request(second, "2")).status == PENDING  # asked for: queued
    await reviewer.close()
    await store.close()


async def test_the_players_of_one_game_queued_together_are_reviewed_in_one_job(
    tmp_path: Path, exported: GameExport
) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    sid = await stored_game(store, exported)
    pool = JobPool()
    reviewer = Reviewer(store, pool, 0.5, lambda: NOW, at_end=True)
    await reviewer.on_change(finished(sid, 1, 2))
    reviewer.start()
    both = await asyncio.wait_for(asyncio.gather(reviewer.wait(sid, "1"),
                                                 reviewer.wait(sid, "2")), 120)
    assert [stored.status for stored in both] == [DONE, DONE]
    assert pool.jobs == [["1", "2"]]
    await reviewer.close()
    await store.close()


async def test_the_bot_lowers_a_review_workers_priority_as_soon_as_it_is_spawned(
    split_game: GameExport
) -> None:
    pool = ReviewPool(1)
    try:
        answer = await asyncio.wait_for(
            pool.review(dump_export(split_game), split_game.players[0], 0.05), 120)
        assert answer is not None and Review.model_validate_json(answer).player == \
            split_game.players[0]
        (pid,) = pool._lowered
        assert os.getpriority(os.PRIO_PROCESS, pid) == NICENESS
        assert os.sched_getscheduler(pid) == os.SCHED_IDLE
    finally:
        await pool.close()


def test_moves_the_machine_made_for_the_player_are_left_out(split_game: GameExport) -> None:
    """A move the turn clock or a bot made for an away player is marked on their seat
    (``machine_moves``): their review leaves it out of its decisions, and so of accuracy."""
    player = split_game.players[0]
    full = review_player(split_game, player, cpu_seconds=0.0)
    by_machine = full.decisions[0].step
    version = split_game.actions[by_machine - 1].version
    seats = [seat.model_copy(update={"machine_moves": [version]}) if seat.player_id == player
             else seat for seat in split_game.seats]
    marked = split_game.model_copy(update={"seats": seats})
    review = review_player(marked, player, cpu_seconds=0.0)
    assert by_machine not in [d.step for d in review.decisions]
    assert len(review.decisions) == len(full.decisions) - 1
    assert review.machine == 1 and review.forced == full.forced
