"""Discord's global rate limit at the real bot (issue 32): the requests it counts per action over
whole games, and how many tables one process holds against the stand-in's limits.

Discord counts every request of a bot token against one global limit of 50 per second, except
the interaction endpoints (the callback, and follow-ups and their edits made with the token).
The stand-in (``bot/playground/fakediscord``) records every request; a request is "global" when its
route is not ``/interactions/...`` or ``/webhooks/...`` (``ratelimit.counts_globally``).

* **Whole games** (stand-in limits off): simulated users play whole games by clicking what
  they see (``tests.e2e.table_play``; a player clicks through the steps of their turn in their
  private view, as people do); per game: human actions, globally-limited calls (by route),
  exempt calls, and both per human action. Checked along the way: the public table shows the
  game after every turn (no lost update), SPLIT's round summaries are all posted, and at the
  end the final post is the channel's last message with no ping left (nothing out of order).
* **Load** (``--load``, stand-in limits on: 50 per second in all, 5 posts and edits per 5 s per
  channel): N tables at once, two players each, one human action every ``--interval`` seconds
  per table, for ``--seconds``. Per N: actions made, global calls per second, 429s (global and
  per bucket), answer latency (p50/p95), lost updates (a table edit or post a move calls for
  that did not come within 20 s) and late actions (a table that could not keep its pace). N is
  held when nothing is lost and no global 429 was answered. The CPU of the bot, of its workers
  and of this process (the stand-in and the players) over the run, from ``/proc``, in % of one
  core (issue 42): which of them ran out. ``--pin`` puts this process on core 0 and the bot
  process on core 1 (its picture workers unpinned), so the bot is measured on a core of its own
  (other programs on the machine still share both).

    python -m bench.global_calls                          # every whole-game scenario
    python -m bench.global_calls --games split-2 ten-2    # some of them
    python -m bench.global_calls --games none --load 20,40,80 --seconds 60
    python -m bench.global_calls --bot-checkout ../base   # another checkout's bot: "before"
    python -m bench.global_calls --games none --load 300,400 --images on --no-validation

``--images on`` runs the load with pictures (the bot's ``IMAGES``; off by default, as in the
e2e tests). ``--no-validation`` turns off the stand-in's check of every request against
Discord's spec: it runs in this process, on the same cores as the bot, and costs about 3 ms of
CPU per request, which a load run of hundreds of tables takes from the bot; the stand-in then
also reads an upload's form in one pass (``fakediscord.forms``; files still stored, counted
and sized).

``--gc`` reads the bot's cyclic garbage collector over each load run (a bench-only
``sitecustomize`` on the bot's PYTHONPATH, ``bench/calls_site``): collections per generation,
their CPU time, the objects tracked at the end; and the bot's resident memory at the start and
the end of the run (``VmRSS``). ``--calls`` does the same with a cProfile of the bot's event
loop thread: Python calls per human action and the functions that took most of its time
(``--keep-profile DIR`` keeps the ``.prof`` files). The profiler slows the bot: with ``--calls``
the run's timings are not the bot's; the counts are. Every table opens its first game at the
start of a run (a lobby, a join and a start each, all in the first ``--interval``): a 40 s run
has ~13 actions per opening, a game hundreds. ``--warm-up S`` plays S seconds before the
``--seconds`` measured, so the figures are the steady state's (the games' actions).

    python -m bench.global_calls --games none --load 300 --seconds 40 --no-validation --pin --gc

``--bot-checkout DIR`` runs ``python -m bot`` from that checkout (its ``PYTHONPATH``) against this
checkout's stand-in and players, so the same figures are measured for an older bot (the base of
issue 32) without changing anything there.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import random
import shutil
import signal
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._common import machine_line, percentile, table
from bench.image_ack import CpuMeter
from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import FakeChannel, FakeUser
from bot.playground.fakediscord.ratelimit import Limits, counts_globally
from game.split import SplitEngine
from game.ten import TenEngine
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import DEFAULT_DEBOUNCE_ENV
from tests.e2e.table_play import PING_MARK, TablePlay
from tests.e2e.test_scenario_split import split_rank, summaries_posted
from tests.e2e.test_scenario_split import table_is_current as split_is_current
from tests.e2e.test_scenario_ten import table_is_current as ten_is_current
from tests.e2e.test_scenario_ten import ten_rank

FINAL_MARK = "Rematch"  # the final post's button
ANSWER_P95_LIMIT = 0.5  # seconds (issue 42)
POSTS_TIMEOUT = 20.0


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    humans: int
    bot_level: str | None = None


SCENARIOS = {
    s.name: s
    for s in (
        Scenario("split-2", "split", 2),
        Scenario("split-4", "split", 4),
        Scenario("ten-2", "ten", 2),
        Scenario("ten-4", "ten", 4),
        Scenario("split-2+bot", "split", 2, "easy"),
        Scenario("ten-2+bot", "ten", 2, "easy"),
    )
}


def new_table(fd: FakeDiscord, bot: BotProcess, channel: FakeChannel, game: str,
              seed: int, *, checked: bool = True) -> TablePlay:
    """A table of ``game``; ``checked``: the public table must show the game after every turn
    (not with machine seats, which move between a person's click and the check)."""
    if game == "split":
        play = TablePlay(fd, bot, channel, SplitEngine(), Strategy(split_rank, seed))
        if checked:
            play.checks.append(lambda: split_is_current(play))
        play.waits.append(lambda: summaries_posted(play))
    else:
        play = TablePlay(fd, bot, channel, TenEngine(), Strategy(ten_rank, seed))
        if checked:
            play.checks.append(lambda: ten_is_current(play))
    return play


def stand_in(checkout: Path | None, **options: Any) -> FakeDiscord:
    """The stand-in; for another checkout's bot without Discord's contract check (an older bot
    may send what the check refuses, e.g. the base of issue 32 an export option's max_value
    of 2^53, refused since issue 27: its figures would stop at the command sync)."""
    fd = FakeDiscord(**options)
    if checkout is not None:
        fd.set_validation(False)
    return fd


def bot_env(checkout: Path | None) -> dict[str, str]:
    env = dict(DEFAULT_DEBOUNCE_ENV)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout.resolve())
    return env


async def step_or_wait(play: TablePlay) -> tuple[int, int]:
    """One human action, or the machine seats' moves: (human actions, machine actions)."""
    if play.oracle.awaiting()[0] not in play.users:
        return 0, await play.machine_moves()
    await play.step(quick_runs=True)
    return 1, 0


def ended_in_order(fd: FakeDiscord, play: TablePlay) -> str | None:
    """What is out of order at a game's end (None: nothing): the final post is the channel's
    last message, no turn ping is left."""
    public = fd.public(play.channel)
    if not public or not any(FINAL_MARK in text for text in public[-1].all_texts()):
        return "the final post is not the channel's last message"
    if any(PING_MARK in m.content for m in public):
        return "a turn ping is left"
    return None


async def wait_for_the_end(fd: FakeDiscord, bot: BotProcess, play: TablePlay) -> None:
    await bot.wait_until(lambda: ended_in_order(fd, play) is None, POSTS_TIMEOUT,
                         "the final post")


# --- whole games ----------------------------------------------------------------------------


@dataclass
class GameFigures:
    scenario: str
    human_actions: int
    machine_actions: int
    global_calls: Counter[str] = field(default_factory=Counter)
    exempt_calls: int = 0
    problem: str | None = None

    @property
    def global_total(self) -> int:
        return sum(self.global_calls.values())


async def whole_game(scenario: Scenario, seed: int, checkout: Path | None,
                     workdir: Path) -> GameFigures:
    fd = stand_in(checkout)
    users = [fd.add_user(f"player{i}") for i in range(scenario.humans)]
    channel = fd.add_channel(f"{scenario.game}-table")
    async with fd:
        bot = BotProcess(fd, workdir / scenario.name, extra_env=bot_env(checkout))
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.commands(), POSTS_TIMEOUT, "the command sync")
            play = new_table(fd, bot, channel, scenario.game, seed,
                             checked=scenario.bot_level is None)
            since = time.monotonic()
            await play.open(scenario.game, users[0], *users[1:], level=scenario.bot_level)
            humans = machines = 0
            while not play.oracle.over:
                by_people, by_machines = await step_or_wait(play)
                humans += by_people
                machines += by_machines
            await wait_for_the_end(fd, bot, play)
            calls = [c for c in fd.world.calls if c.at >= since]
        finally:
            await bot.close()
    figures = GameFigures(scenario.name, humans, machines)
    for call in calls:
        if counts_globally(call.path):
            figures.global_calls[f"{call.method} {call.route}"] += 1
        elif call.path.startswith("/api/"):
            figures.exempt_calls += 1
    figures.problem = ended_in_order(fd, play)
    return figures


async def whole_games(names: Sequence[str], seed: int, checkout: Path | None) -> None:
    rows: list[list[object]] = []
    routes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="global-calls-") as tmp:
        for name in names:
            figures = await whole_game(SCENARIOS[name], seed, checkout, Path(tmp))
            per = figures.human_actions or 1
            rows.append([
                name, figures.human_actions, figures.machine_actions, figures.global_total,
                figures.global_total / per, figures.exempt_calls, figures.exempt_calls / per,
                figures.problem or "ok",
            ])
            shown = ", ".join(f"{route} {n}" for route, n in figures.global_calls.most_common())
            routes.append(f"{name}: {shown or 'none'}")
    print("whole games (human actions: the game actions people made; their view openings and"
          " the lobby's clicks are not counted, the calls they made are)")
    print(table(["game", "human actions", "machine actions", "global calls", "global/action",
                 "exempt calls", "exempt/action", "order"], rows))
    print("globally-limited calls by route:")
    for line in routes:
        print(f"  {line}")


# --- load -------------------------------------------------------------------------------------


@dataclass
class LoadFigures:
    tables: int
    actions: int = 0
    games: int = 0  # games opened (lobby, join, start) during the run
    ended: int = 0  # games played to their end during the run
    lost: int = 0
    late: int = 0
    failed: int = 0
    reasons: Counter[str] = field(default_factory=Counter)  # why tables failed (first line)
    seconds: float = 0.0
    global_calls: int = 0
    limited: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    cpu: tuple[float, float, float] = (float("nan"),) * 3  # bot, its workers, this process
    collector: dict[str, Any] = field(default_factory=dict)  # --gc/--calls: bench/calls_site
    profile: Path | None = None  # --calls: the bot's cProfile over the run
    counting: bool = True  # False during --warm-up: actions, latencies and late not counted
    rss: list[int] = field(default_factory=list)  # the bot's resident KiB, every RSS_EVERY s

    def core_share(self, index: int) -> float:
        """CPU of the bot (0), its workers (1) or this process (2) in % of one core."""
        return 100 * self.cpu[index] / self.seconds if self.seconds else float("nan")

    @property
    def held(self) -> bool:
        return not self.lost and not self.failed and not self.limited["global"]

    @property
    def answered_in_time(self) -> bool:
        """Issue 42's rule: held, answer p95 at most 0.5 s, and no table fell behind."""
        return (self.held and not self.late
                and percentile(self.latencies, 0.95) <= ANSWER_P95_LIMIT)


async def keep_playing(fd: FakeDiscord, bot: BotProcess, channel: FakeChannel,
                       pair: tuple[FakeUser, FakeUser], game: str, seed: int, interval: float,
                       until: float, figures: LoadFigures) -> None:
    """Games one after the other in ``channel``: one action every ``interval`` seconds."""
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, interval))  # the tables' clicks do not come together
    while time.monotonic() < until:
        play = new_table(fd, bot, channel, game, seed)
        seed += 1
        try:
            await play.open(game, *pair)
        except (TimeoutError, AssertionError) as error:  # an overloaded bot: the table fails
            figures.failed += 1
            figures.reasons[f"opening: {failure(error)}"] += 1
            return
        figures.games += 1
        next_at = time.monotonic()
        while not play.oracle.over and time.monotonic() < until:
            next_at += interval
            try:
                record = await play.step(quick_runs=True)
            except TimeoutError:
                figures.lost += 1  # the table edit or a post the move calls for never came
                return
            except AssertionError as error:
                figures.failed += 1
                figures.reasons[failure(error)] += 1
                return
            if figures.counting:
                figures.actions += 1
                if record.latency is not None:
                    figures.latencies.append(record.latency)
            wait = next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            else:
                figures.late += figures.counting
                next_at = time.monotonic()
        if play.oracle.over:
            await wait_for_the_end(fd, bot, play)
            figures.ended += 1


def failure(error: BaseException) -> str:
    """The first line of why a table failed, as the load run prints it."""
    lines = str(error).strip().splitlines()
    first = lines[0].split("; last REST calls")[0] if lines else ""
    return f"{type(error).__name__}: {first[:160]}"


def pin(pid: int, cpus: set[int]) -> None:
    """Every thread of process ``pid`` on ``cpus`` (threads it starts later inherit it; its
    worker processes, started with it, stay where they were)."""
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(task.name), cpus)


CALLS_SITE = Path(__file__).resolve().parent / "calls_site"  # its sitecustomize (--gc, --calls)
RSS_EVERY = 10.0  # seconds between two readings of the bot's resident memory
WRITTEN_WAIT = 60.0  # seconds for the bot to write its profile (hundreds of tables: large)


def resident_kib(pid: int) -> int:
    """The resident memory (``VmRSS``) of process ``pid`` in KiB (0: gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def written(folder: Path, pattern: str) -> Path:
    """The file the bot wrote into ``folder`` (``bench/calls_site`` renames it into place once
    whole), once there."""
    deadline = time.monotonic() + WRITTEN_WAIT
    while True:
        found = sorted(folder.glob(pattern))
        if found:
            return found[0]
        if time.monotonic() > deadline:
            raise TimeoutError(f"the bot wrote no {pattern} into {folder}")
        await asyncio.sleep(0.1)


def collector_lines(figures: LoadFigures) -> list[str]:
    """--gc/--calls: the bot's garbage collector over the run, and its memory."""
    per = max(figures.actions, 1)
    lines = []
    for generation, entry in figures.collector.get("generations", {}).items():
        lines.append(f"  generation {generation}: {entry['collections']} collections"
                     f" ({1000 * entry['collections'] / per:.2f} per 1,000 actions),"
                     f" {1000 * entry['seconds']:.1f} ms of the loop's CPU"
                     f" ({1000 * entry['seconds'] / per:.3f} ms per action),"
                     f" {entry['collected']} objects collected")
    if figures.collector:
        lines.append(f"  objects tracked at the end {figures.collector['tracked']:,},"
                     f" frozen {figures.collector['frozen']:,}, thresholds"
                     f" {tuple(figures.collector['thresholds'])}")
    readings = ", ".join(f"{kib / 1024:.0f}" for kib in figures.rss)
    lines.append(f"  the bot's resident memory every {RSS_EVERY:g} s, MiB: {readings}")
    return lines


async def read_rss(pid: int, readings: list[int]) -> None:
    """The bot's resident memory into ``readings`` every :data:`RSS_EVERY` seconds until
    cancelled."""
    while True:
        readings.append(resident_kib(pid))
        await asyncio.sleep(RSS_EVERY)


# --calls: where a load run's loop time goes, by what started it (cumulative time of these
# functions; a listener's share is every change's, lobbies' and games' alike).
PHASES = (
    ("slash commands (/game new: the lobby)", "bot/process/client_ops.py", "_call"),
    ("lobby clicks (Join, Start)", "cogs/clicks/table_clicks.py", "lobby_click"),
    ("game clicks (the actions)", "cogs/clicks/table_clicks.py", "act_click"),
    ("hand clicks (a private view opened)", "cogs/clicks/table_clicks.py", "hand_click"),
    ("the listeners of every change", "bot/sessions/manager.py", "_notify"),
    ("the gateway's events read", "discord/gateway.py", "received_message"),
    ("the turn clock", "bot/automation/turn_clock.py", "run"),
)


def profile_lines(profile: Path, actions: int, top: int = 25) -> list[str]:
    """--calls: Python calls per human action, the loop's time by what started it
    (:data:`PHASES`), and the functions with most of its own time (share of the profile,
    calls per action)."""
    stats: Any = pstats.Stats(str(profile))
    per = max(actions, 1)
    total = sum(entry[2] for entry in stats.stats.values()) or 1e-9
    lines = [f"  Python function calls per human action {stats.total_calls / per:,.0f};"
             f" profiled loop time {1000 * total / per:.2f} ms per action (with the profiler)"]
    for label, path_end, function in PHASES:
        cumulative = sum(entry[3] for (path, _, name), entry in stats.stats.items()
                         if name == function and path.replace("\\", "/").endswith(path_end))
        lines.append(f"  {100 * cumulative / total:5.1f}% of the loop's time: {label}")
    ranked = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]
    for (path, line, name), (_, calls, own, cumulative, _) in ranked:
        where = path.replace("\\", "/").split("site-packages/")[-1]
        where = where.split("/wt-")[-1].split("/", 1)[-1] if "/wt-" in where else where
        lines.append(f"  {100 * own / total:5.1f}% own {100 * cumulative / total:5.1f}% cum"
                     f" {calls / per:8.2f}/action  {name} ({where}:{line})")
    return lines


async def load_run(tables: int, seconds: float, interval: float, seed: int,
                   checkout: Path | None, workdir: Path, images: str = "off",
                   validate: bool = True, pinned: bool = False,
                   observe: str = "off", warm_up: float = 0.0) -> LoadFigures:
    """One load run; ``observe``: "gc" (the bot's collector), "calls" (that and a cProfile)
    or "off"; ``warm_up``: seconds of play before the ``seconds`` measured (failures and lost
    updates are counted in both)."""
    fd = stand_in(checkout, rate_limits=Limits())
    if not validate:
        fd.set_validation(False)
    pairs = [(fd.add_user(f"a{i}"), fd.add_user(f"b{i}")) for i in range(tables)]
    channels = [fd.add_channel(f"table-{i}") for i in range(tables)]
    figures = LoadFigures(tables)
    env = {**bot_env(checkout), "IMAGES": images}
    observed = workdir / f"load-{tables}-observed"
    if observe != "off":
        observed.mkdir(parents=True, exist_ok=True)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CALLS_SITE),
                                                          env.get("PYTHONPATH")]))
        env["TB_CALLS_OUT"] = str(observed)
        env["TB_CALLS_PROFILE"] = "on" if observe == "calls" else "off"
    async with fd:
        bot = BotProcess(fd, workdir / f"load-{tables}", extra_env=env, log_level="WARNING")
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.commands(), POSTS_TIMEOUT, "the command sync")
            fd.rest.limiter.reset()
            assert bot.proc is not None
            if pinned:  # the stand-in and the players on the first core, the bot on the second
                os.sched_setaffinity(0, {0})
                pin(bot.proc.pid, {1})
            meter = CpuMeter(bot.proc.pid)
            until = time.monotonic() + warm_up + seconds
            games = ("split", "ten")
            figures.counting = warm_up <= 0
            playing = asyncio.ensure_future(asyncio.gather(*(
                keep_playing(fd, bot, channels[i], pairs[i], games[i % 2],
                             seed + 1000 * i, interval, until, figures)
                for i in range(tables)
            )))
            if warm_up > 0:
                await asyncio.wait([playing], timeout=warm_up)
                figures.counting = True
            if observe != "off":
                os.kill(bot.proc.pid, signal.SIGUSR2)  # the span starts (bench/calls_site)
            rss = asyncio.create_task(read_rss(bot.proc.pid, figures.rss))
            meter.start()
            since = time.monotonic()
            try:
                await playing
            finally:
                rss.cancel()
            figures.seconds = time.monotonic() - since
            figures.cpu = meter.stop()
            figures.rss.append(resident_kib(bot.proc.pid))
            if observe != "off":
                os.kill(bot.proc.pid, signal.SIGUSR2)  # ... and is written
                figures.collector = json.loads(
                    (await written(observed, "bot-*.gc.json")).read_text())
                if observe == "calls":
                    figures.profile = await written(observed, "bot-*.prof")
            figures.global_calls = len(fd.globally_limited(since))
            figures.limited = Counter(fd.rate_limited)
        finally:
            await bot.close()
    return figures


async def load_runs(sizes: Sequence[int], seconds: float, interval: float, seed: int,
                    checkout: Path | None, images: str = "off", validate: bool = True,
                    pinned: bool = False, observe: str = "off",
                    keep_profile: Path | None = None, warm_up: float = 0.0) -> None:
    rows: list[list[object]] = []
    held = in_time = 0
    with tempfile.TemporaryDirectory(prefix="global-load-") as tmp:
        for size in sizes:
            with open("/proc/loadavg") as loadavg:
                print(f"{size} tables: load average before {loadavg.read().split()[:3]}",
                      flush=True)
            figures = await load_run(size, seconds, interval, seed, checkout, Path(tmp),
                                     images, validate, pinned, observe, warm_up)
            limited = ", ".join(f"{k} {v}" for k, v in sorted(figures.limited.items())) or "0"
            rows.append([
                size, figures.actions, figures.actions / max(figures.seconds, 1e-9),
                figures.global_calls / max(figures.seconds, 1e-9), limited,
                percentile(figures.latencies, 0.5), percentile(figures.latencies, 0.95),
                figures.lost, figures.late, figures.failed, "yes" if figures.held else "no",
                "yes" if figures.answered_in_time else "no", figures.core_share(0),
                figures.core_share(1), figures.core_share(2),
                1000 * figures.cpu[0] / max(figures.actions, 1),
            ])
            with open("/proc/loadavg") as loadavg:
                print(f"{size} tables: load average after {loadavg.read().split()[:3]}",
                      flush=True)
            for reason, count in figures.reasons.most_common():
                print(f"{size} tables: {count} failed: {reason}", flush=True)
            print(f"{size} tables: {figures.games} games opened, {figures.ended} played to"
                  f" their end, {figures.actions} human actions", flush=True)
            if observe != "off":
                print(f"{size} tables, the bot's garbage collector over the run:", flush=True)
                print("\n".join(collector_lines(figures)), flush=True)
            if figures.profile is not None:
                print(f"{size} tables, the bot's event loop profiled:", flush=True)
                print("\n".join(profile_lines(figures.profile, figures.actions)), flush=True)
                if keep_profile is not None:
                    keep_profile.mkdir(parents=True, exist_ok=True)
                    shutil.copy(figures.profile, keep_profile / f"load-{size}.prof")
            if figures.held:
                held = max(held, size)
            if figures.answered_in_time:
                in_time = max(in_time, size)
    print(f"load: one human action every {interval:g} s per table, {seconds:g} s per run"
          + (f" measured after {warm_up:g} s of play (the tables' first openings)"
             if warm_up > 0 else "") + ","
          " the stand-in's limits on (50/s global, 5 writes/5 s per channel);"
          f" pictures {images}, the stand-in's spec check {'on' if validate else 'off'}"
          + ("; the stand-in and the players pinned to core 0, the bot process to core 1 (its"
             " workers unpinned)" if pinned else ""))
    print(table(["tables", "actions", "actions/s", "global calls/s", "429s", "answer p50 s",
                 "answer p95 s", "lost", "late", "failed", "held",
                 f"p95 ≤ {ANSWER_P95_LIMIT:g} s, none late", "bot % of a core",
                 "workers %", "stand-in+players %", "bot ms/action"], rows))
    print(f"most tables held: {held if held else 'none of those tried'}; with answer p95 ≤"
          f" {ANSWER_P95_LIMIT:g} s and none late: {in_time if in_time else 'none of those tried'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(SCENARIOS),
                        help=f"whole-game scenarios ({', '.join(SCENARIOS)}; 'none')")
    parser.add_argument("--load", default="", help="table counts of load runs, e.g. 20,40,80")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of a load run")
    parser.add_argument("--interval", type=float, default=3.0,
                        help="seconds between two actions at one table")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--images", choices=("on", "off"), default="off",
                        help="pictures in the load runs (IMAGES)")
    parser.add_argument("--no-validation", action="store_true",
                        help="load runs: the stand-in does not check requests against the spec")
    parser.add_argument("--bot-checkout", type=Path, default=None,
                        help="run the bot of this checkout (e.g. the base commit's)")
    parser.add_argument("--pin", action="store_true",
                        help="load runs: this process (the stand-in, the players) on core 0, the"
                             " bot process on core 1 (os.sched_setaffinity; its workers unpinned)")
    parser.add_argument("--gc", action="store_true",
                        help="load runs: the bot's garbage collector (collections, time) and"
                             " resident memory (bench/calls_site)")
    parser.add_argument("--calls", action="store_true",
                        help="load runs: --gc and a cProfile of the bot's event loop (calls per"
                             " action, top functions; slows the bot)")
    parser.add_argument("--warm-up", type=float, default=0.0,
                        help="load runs: seconds of play before the --seconds measured (every"
                             " table opens its first game at the start)")
    parser.add_argument("--keep-profile", type=Path, default=None,
                        help="with --calls: copy each run's .prof into this folder")
    args = parser.parse_args(argv)
    games = [name for name in args.games if name != "none"]
    unknown = [name for name in games if name not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(unknown)}")
    print(machine_line())
    if args.bot_checkout is not None:
        print(f"bot: {args.bot_checkout.resolve()}")
    if games:
        asyncio.run(whole_games(games, args.seed, args.bot_checkout))
    if args.load:
        sizes = [int(part) for part in args.load.split(",") if part.strip()]
        asyncio.run(load_runs(sizes, args.seconds, args.interval, args.seed, args.bot_checkout,
                              args.images, not args.no_validation, args.pin,
                              "calls" if args.calls else "gc" if args.gc else "off",
                              args.keep_profile, args.warm_up))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
