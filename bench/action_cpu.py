"""The bot's CPU per human action (issue 42), and where it goes.

Runs the real ``python -m bot`` against the Discord stand-in (``bot/playground/fakediscord``, in
this process with the simulated players). Per run, ``--tables`` whole games of one game with
``--players`` human seats each are played at once by clicking what the players see
(``tests.e2e.table_play``, a player clicking through the steps of their turn); the run ends when
every game's final post is out, with pictures on when no picture has come for a second, and
with reviews at the end on when every human seat's review is stored. The CPU (user + system,
from ``/proc``) of the bot process, of its worker children (pictures, reviews, expert moves;
children reaped meanwhile counted through the bot's ``cutime``) and of this process (the
stand-in and the players, not the bot's) is read before the first lobby (once the bot's
picture workers have started: their start is printed apart, it is not per action) and after
the end, and divided by the human actions stored (the game actions the players made; their view
openings and the lobby's clicks are counted in the CPU, not as actions).

Settings (``--settings``): ``text`` = pictures off, reviews at the end off; ``pictures`` =
pictures on, reviews at the end off; ``reviews`` = pictures off, reviews at the end on;
``all`` = pictures on, reviews at the end on. The defaults of the bot are whatever its
``Settings`` say; each run sets ``IMAGES`` and ``REVIEW_AT_END`` explicitly.

Pictures: the files the stand-in received per action (sent), and the pictures the bot's workers
drew and skipped as stale per action (its ``/metrics``, ``tablebot_pictures_drawn_total`` and
``..._skipped_total``; a bot without them prints ``-``): drawn less distinct pictures sent is
what was drawn for nobody.

``--profile`` samples the bot process (not its workers) with py-spy (a bench-only tool:
``pip install -e '.[bench]'``) during each run and prints where its CPU went, by part (gateway
parsing, the click path, rendering text, pictures, JSON and models, the store, the HTTP client,
logging, the event loop) and the top functions.

``--calls`` profiles the bot's event loop thread with cProfile over the same span (a
bench-only ``sitecustomize`` on the bot's PYTHONPATH, ``bench/calls_site``) and prints
figures that do not depend on the machine's load: Python function calls per stored action,
and per action the ``discord.ui`` buttons and views constructed, the cards written
(``cogs.kit.card_layout``), the renders of the table, of the private views and of the turn
ping, the game views built, the ``discord/message.py`` objects built and the calls into
discord.py's HTTP client and webhook module, aiohttp and yarl (issue 42, the fourth pass in
``docs/performance.md``).

    python -m bench.action_cpu                                  # every setting, SPLIT and TEN
    python -m bench.action_cpu --games ten --settings text --tables 3 --calls
    python -m bench.action_cpu --games split --settings text --profile
    python -m bench.action_cpu --bot-checkout ../base           # another checkout's bot

The stand-in's check of every request against Discord's spec is off (it costs this process
CPU, not the bot's, but it shares the two cores).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pstats
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._common import machine_line, table
from bench.global_calls import bot_env, new_table, stand_in, wait_for_the_end
from bench.image_ack import TICKS, children, pictures_settled, process_cpu
from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import FakeChannel, FakeUser

SETTINGS = {
    "text": {"IMAGES": "off", "REVIEW_AT_END": "false"},
    "pictures": {"IMAGES": "on", "REVIEW_AT_END": "false"},
    "reviews": {"IMAGES": "off", "REVIEW_AT_END": "true"},
    "all": {"IMAGES": "on", "REVIEW_AT_END": "true"},
}
REVIEW_STORED = re.compile(r"review of session \d+ stored")
# Logged when the backlog had no room for a game's reviews at its end (issue 42).
REVIEWS_DROPPED = re.compile(r"the reviews at the end of session \d+ dropped")
# The bot's operations endpoint (HTTP_PORT=0: a free port, logged), read for its picture counts.
OPS_ENDPOINT = re.compile(r"operations endpoint on (http://[\d.]+:\d+)")
PICTURE_COUNT = re.compile(r'^tablebot_pictures_(drawn|skipped)_total\{kind="(\w+)"\} ([\d.e+]+)$')
REVIEWS_TIMEOUT = 900.0  # seconds for every review of a run (one worker, a busy machine)
NAN = float("nan")
CALLS_SITE = Path(__file__).resolve().parent / "calls_site"  # its sitecustomize (--calls)
CALLS_WAIT = 30.0  # seconds for the bot to write its profile


Counted = Callable[[str, int, str], bool]  # (file, line, function) -> counted


def _init_of(cls: type) -> Counted:
    """The constructor of ``cls`` itself (a subclass's own ``__init__`` calls it once)."""
    code = cls.__init__.__code__  # type: ignore[misc]
    return lambda path, line, name: (name == "__init__" and line == code.co_firstlineno
                                     and path == code.co_filename)


def _any_of(*counted: Counted) -> Counted:
    return lambda path, line, name: any(one(path, line, name) for one in counted)


def _named(path_part: str, *names: str) -> Counted:
    return lambda path, line, name: name in names and path.replace("\\", "/").endswith(path_part)


def counted() -> list[tuple[str, Counted]]:
    """What --calls counts per stored action: (figure, which profiled functions it sums)."""
    import importlib

    import discord

    selects = importlib.import_module("discord.ui.select")  # discord.ui.select: a function
    views = importlib.import_module("discord.ui.view")
    payloads = importlib.import_module("cogs.kit.control_payloads")
    return [
        ("discord.ui.Button built", _init_of(discord.ui.Button)),
        ("discord.ui selects built", _init_of(selects.BaseSelect)),
        ("views built (View, LayoutView)", _init_of(views.BaseView)),
        ("control payloads written (buttons, selects)",
         _any_of(_init_of(payloads.ButtonPayload), _init_of(payloads.SelectPayload))),
        ("payload rows (Rows)", _init_of(payloads.Rows)),
        ("cards written (card_view)", _named("cogs/kit/card_layout.py", "card_view")),
        ("table renders (table_render)",
         _named("cogs/rendering/table_renders.py", "table_render")),
        ("private renders (game_ui.private_in)", _named("cogs/game_ui.py", "private_in")),
        ("turn ping renders (ping_view)", _named("cogs/listeners/turn_ping.py", "ping_view")),
        ("game views built (engine.view)", lambda path, line, name: name == "view"
         and path.replace("\\", "/").endswith(("game/ten/engine.py", "game/split/engine.py"))),
        ("game views made from another viewer's (engine.view_for)",
         lambda path, line, name: name == "view_for"
         and path.replace("\\", "/").endswith(("game/ten/engine.py", "game/split/engine.py"))),
        ("discord/message.py objects built",
         lambda path, line, name: name == "__init__" and _in(path, "discord/message.py")),
        ("interactions made (discord.Interaction)", _init_of(discord.Interaction)),
        ("clicked messages made lean (ClickedMessage)",
         _named("bot/process/lean_interactions.py", "__init__")),
        ("clicked messages completed", _named("bot/process/lean_interactions.py", "complete")),
        ("calls into discord/components.py",
         lambda path, line, name: _in(path, "discord/components.py")),
        ("events dispatched (Client.dispatch)", _named("discord/client.py", "dispatch")),
        ("calls into discord/http.py", lambda path, line, name: _in(path, "discord/http.py")),
        ("calls into discord/webhook/async_.py",
         lambda path, line, name: _in(path, "discord/webhook/async_.py")),
        ("calls into aiohttp", lambda path, line, name: _in(path, "/aiohttp/")),
        ("calls into yarl", lambda path, line, name: _in(path, "/yarl/")),
        ("calls into the token wire (http1, token_requests)",
         lambda path, line, name: _in(path, "bot/process/http1.py")
         or _in(path, "bot/process/token_requests.py")),
    ]


def _in(path: str, fragment: str) -> bool:
    return fragment in path.replace("\\", "/")


async def written(folder: Path) -> None:
    """Wait until the bot has written its profile into ``folder`` (renamed into place once
    whole)."""
    waited = 0.0
    while not any(folder.glob("bot-*.prof")):
        if waited >= CALLS_WAIT:
            raise TimeoutError(f"the bot wrote no profile into {folder}")
        await asyncio.sleep(0.1)
        waited += 0.1


def call_figures(profile: Path, actions: int) -> list[tuple[str, float]]:
    """Per stored action: every Python function call of the profile, then :func:`counted`."""
    stats: Any = pstats.Stats(str(profile))
    figures = [("Python function calls", stats.total_calls / actions)]
    for label, wanted in counted():
        calls = sum(entry[1] for (path, line, name), entry in stats.stats.items()
                    if wanted(path, line, name))
        figures.append((label, calls / actions))
    return figures


def reaped_children_cpu(pid: int) -> float:
    """CPU seconds of the children ``pid`` has waited for (``cutime`` + ``cstime``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return NAN
    return (int(fields[13]) + int(fields[14])) / TICKS


class Meter:
    """CPU seconds of the bot, of its children (live ones sampled at both ends, reaped ones
    through its ``cutime``) and of this process, from :meth:`start` to :meth:`stop`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._bot = self._reaped = self._own = 0.0
        self._children: dict[int, float] = {}

    def start(self) -> None:
        self._bot = process_cpu(self.pid)
        self._reaped = reaped_children_cpu(self.pid)
        self._children = {p: process_cpu(p) for p in children(self.pid)}
        self._own = time.process_time()

    def stop(self) -> tuple[float, float, float]:
        own = time.process_time() - self._own
        bot = process_cpu(self.pid) - self._bot
        live = {p: process_cpu(p) for p in children(self.pid)}
        workers = sum(cpu - self._children.get(p, 0.0) for p, cpu in live.items())
        # A child that ended meanwhile: its whole CPU is in cutime, minus what it had before.
        gone = sum(cpu for p, cpu in self._children.items() if p not in live)
        workers += reaped_children_cpu(self.pid) - self._reaped - gone
        return bot, workers, own


STARTED_QUIET = 1.0  # seconds without CPU in the bot's children: its workers have started
STARTED_LIMIT = 60.0  # seconds at most to wait for that


async def workers_started(pid: int) -> float:
    """Wait until the bot's worker children (the picture workers, started with the bot) have
    finished starting: no CPU for ``STARTED_QUIET`` seconds, at most ``STARTED_LIMIT``; their
    CPU so far (their imports, once per process, not per action) in seconds."""
    def spent() -> float:
        return sum(process_cpu(child) for child in children(pid))

    start = changed = time.monotonic()
    seen = spent()
    while time.monotonic() - start < STARTED_LIMIT:
        await asyncio.sleep(0.25)
        now = spent()
        if now != seen:
            seen, changed = now, time.monotonic()
        elif time.monotonic() - changed >= STARTED_QUIET:
            break
    return seen


async def picture_counts(bot: BotProcess) -> Counter[str]:
    """Pictures drawn and skipped so far, by kind (``drawn hand`` …), from the bot's
    ``/metrics``; empty when it has none (a bot from before issue 42's fourth pass)."""
    import aiohttp

    found = next((m.group(1) for line in bot.output if (m := OPS_ENDPOINT.search(line))), None)
    counts: Counter[str] = Counter()
    if found is None:
        return counts
    async with aiohttp.ClientSession() as http, http.get(f"{found}/metrics") as response:
        text = await response.text()
    for line in text.splitlines():
        match = PICTURE_COUNT.match(line)
        if match:
            counts[f"{match.group(1)} {match.group(2)}"] = int(float(match.group(3)))
    return counts


class Sampler:
    """py-spy sampling the bot process into a raw (collapsed stacks) file."""

    def __init__(self, pid: int, out: Path, rate: int, *, workers: bool = False) -> None:
        exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        self.out = out
        self.proc = subprocess.Popen(
            [exe, "record", "--pid", str(pid), "--format", "raw", "--rate", str(rate),
             "--output", str(out), "--nonblocking", "--gil",
             *(["--subprocesses"] if workers else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    def stop(self) -> Counter[str]:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        stacks: Counter[str] = Counter()
        if self.out.exists():
            for line in self.out.read_text().splitlines():
                stack, _, count = line.rpartition(" ")
                if stack and count.isdigit():
                    stacks[stack] += int(count)
        return stacks


# Where a sample goes: the innermost frame whose file matches one of these (in this order of
# precedence within one frame); frames are "function (path:line)".
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("JSON and models", ("json/", "pydantic", "orjson", "dataclasses.py")),
    ("logging", ("logging/", "bot/ops/log")),
    ("the store", ("bot/store/", "aiosqlite", "sqlite3", "asyncpg")),
    ("pictures", ("cogs/imaging", "PIL/", "cogs/pictures")),
    ("rendering text", ("cogs/rendering", "cogs/split/", "cogs/ten/", "discord/ui/",
                        "discord/embeds", "cogs/i18n", "babel/")),
    ("the HTTP client", ("discord/http.py", "aiohttp/client", "aiohttp/connector",
                         "aiohttp/helpers", "aiohttp/multipart", "aiohttp/formdata",
                         "aiohttp/payload", "discord/webhook", "bot/ops/rest_trace",
                         "discord/utils.py", "yarl/", "multidict")),
    ("gateway parsing", ("discord/gateway.py", "discord/state.py", "discord/guild.py",
                         "discord/channel.py", "discord/member.py", "discord/message.py",
                         "discord/user.py", "discord/role.py", "discord/threads.py",
                         "discord/shard.py", "aiohttp/http_websocket", "aiohttp/_websocket",
                         "aiohttp/client_ws", "zlib")),
    ("the click path", ("bot/sessions", "game/", "cogs/", "bot/", "discord/interactions",
                        "discord/app_commands", "discord/ext/")),
    ("the event loop", ("asyncio/", "selectors.py", "aiohttp/", "threading.py", "queue.py")),
)


def frame_file(frame: str) -> str:
    match = re.search(r"\(([^()]*?)(?::\d+)?\)$", frame)
    return match.group(1) if match else frame


# Leaves that are a thread waiting, which py-spy's idle detection does not always drop.
WAITING = ("EpollSelector.select (", "_connection_worker_thread (")


def part_of(stack: str) -> str:
    frames = stack.split(";")
    if frames[-1].startswith(WAITING):
        return "waiting (epoll, the store's thread)"
    for frame in reversed(frames):
        path = frame_file(frame)
        for part, needles in PARTS:
            if any(needle in path for needle in needles):
                return part
    return "other"


PROJECT = ("bot/", "cogs/", "game/")


def short(frame: str) -> str:
    """``function (path:line)`` without the line and with the path from the package on."""
    name, _, rest = frame.partition(" (")
    path = frame_file(frame)
    for marker in ("site-packages/", "/lib/python3.11/", "/wt-", "/work/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    path = re.sub(r"^[^/]*/(?=(bot|cogs|game)/)", "", path)
    del rest
    return f"{name} ({path})"


def profile_lines(stacks: Counter[str], top: int) -> list[str]:
    total = sum(stacks.values())
    if not total:
        return ["profile: no samples (is py-spy installed, may it attach?)"]
    parts: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    owners: Counter[str] = Counter()  # the innermost project function on the stack
    for stack, count in stacks.items():
        part = part_of(stack)
        parts[part] += count
        if part.startswith("waiting"):
            continue
        frames = stack.split(";")
        leaves[short(frames[-1])] += count
        owner = next((f for f in reversed(frames) if any(p in frame_file(f) for p in PROJECT)),
                     None)
        owners[short(owner) if owner else "(no project frame)"] += count
    waiting = sum(n for p, n in parts.items() if p.startswith("waiting"))
    busy = max(total - waiting, 1)
    lines = [f"profile of the bot process: {total} samples, {waiting} of them waiting"
             " (left out of the shares)",
             table(["part", "samples", "share % of busy"],
                   [[p, n, 100 * n / busy] for p, n in parts.most_common()
                    if not p.startswith("waiting")]),
             f"top {top} functions by own samples:",
             table(["function", "samples", "share %"],
                   [[f, n, 100 * n / busy] for f, n in leaves.most_common(top)]),
             f"top {top} innermost project functions (with what they call outside the project):",
             table(["function", "samples", "share %"],
                   [[f, n, 100 * n / busy] for f, n in owners.most_common(top)])]
    return lines


@dataclass
class RunFigures:
    game: str
    setting: str
    actions: int = 0
    games: int = 0
    seconds: float = 0.0
    cpu: tuple[float, float, float] = (NAN, NAN, NAN)
    stacks: Counter[str] = field(default_factory=Counter)
    uploads: Counter[str] = field(default_factory=Counter)  # pictures sent, by file name
    pictures: Counter[str] = field(default_factory=Counter)  # drawn / skipped, by kind
    calls: list[tuple[str, float]] = field(default_factory=list)  # --calls: per action
    reviews: int = 0  # reviews stored (at the end)
    worker_start: float = 0.0  # CPU seconds of the workers' start, before the meter

    def per_action(self, index: int) -> float:
        return 1000 * self.cpu[index] / self.actions if self.actions else NAN


def reviews_stored(bot: BotProcess) -> int:
    return sum(1 for line in bot.output if REVIEW_STORED.search(line))


def reviews_dropped(bot: BotProcess) -> int:
    """Games whose reviews at the end were dropped (a bot without a bounded backlog: 0)."""
    return sum(1 for line in bot.output if REVIEWS_DROPPED.search(line))


async def one_game(fd: FakeDiscord, bot: BotProcess, channel: FakeChannel,
                   users: Sequence[FakeUser], game: str, seed: int) -> int:
    # Unchecked: the per-turn check of the public table is the e2e tests' (on a loaded machine
    # it may read a table edit the bot has coalesced into the next); here only CPU counts.
    play = new_table(fd, bot, channel, game, seed, checked=False)
    await play.open(game, users[0], *users[1:])
    while not play.oracle.over:
        await play.step(quick_runs=True)
    await wait_for_the_end(fd, bot, play)
    return play.steps


async def run(game: str, setting: str, tables: int, players: int, seed: int,
              checkout: Path | None, workdir: Path, profile_rate: int,
              workers: bool = False, calls: bool = False) -> RunFigures:
    fd = stand_in(checkout)
    fd.set_validation(False)
    seats = [[fd.add_user(f"p{t}-{s}") for s in range(players)] for t in range(tables)]
    channels = [fd.add_channel(f"{game}-{t}") for t in range(tables)]
    figures = RunFigures(game, setting)
    env = {**bot_env(checkout), **SETTINGS[setting], "HTTP_PORT": "0"}
    profiled = workdir / f"{game}-{setting}-calls"
    if calls:
        profiled.mkdir(parents=True, exist_ok=True)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CALLS_SITE),
                                                          env.get("PYTHONPATH")]))
        env["TB_CALLS_OUT"] = str(profiled)
    async with fd:
        bot = BotProcess(fd, workdir / f"{game}-{setting}", extra_env=env,
                         log_level="INFO", keep_lines=200_000)
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.commands(), 30.0, "the command sync")
            assert bot.proc is not None
            # A picture worker's start (its imports: ~0.4 s of CPU, once per process) is not
            # per action: the meter starts once the workers are up (issue 42).
            figures.worker_start = await workers_started(bot.proc.pid)
            meter = Meter(bot.proc.pid)
            sampler = (Sampler(bot.proc.pid, workdir / f"{game}-{setting}.spy", profile_rate,
                               workers=workers)
                       if profile_rate else None)
            if calls:
                os.kill(bot.proc.pid, signal.SIGUSR2)  # the profile starts (bench/calls_site)
            meter.start()
            pictures_before = await picture_counts(bot)
            since = time.monotonic()
            steps = await asyncio.gather(*(
                one_game(fd, bot, channels[t], seats[t], game, seed + t) for t in range(tables)
            ))
            if SETTINGS[setting]["IMAGES"] == "on":
                await pictures_settled(fd, since, expect=True)
            if SETTINGS[setting]["REVIEW_AT_END"] == "true":
                await bot.wait_until(
                    lambda: reviews_stored(bot) >= (tables - reviews_dropped(bot)) * players,
                    REVIEWS_TIMEOUT, "every review queued")
                figures.reviews = reviews_stored(bot)
            figures.seconds = time.monotonic() - since
            figures.cpu = meter.stop()
            if calls:
                os.kill(bot.proc.pid, signal.SIGUSR2)  # ... and is written
                await written(profiled)
            figures.uploads = Counter(u.filename for u in fd.world.uploads if u.at >= since)
            figures.pictures = await picture_counts(bot)
            figures.pictures.subtract(pictures_before)
            if sampler is not None:
                figures.stacks = sampler.stop()
            bad = [line for line in bot.output if " ERROR " in line or "Traceback" in line]
            if bad:
                raise RuntimeError(f"the bot logged an error: {bad[0]}")
        finally:
            await bot.close()
    figures.actions = sum(steps)
    figures.games = tables
    if calls:
        figures.calls = call_figures(next(profiled.glob("bot-*.prof")), figures.actions)
        figures.calls += strip_figures(profiled, figures.actions)
    return figures


def strip_figures(folder: Path, actions: int) -> list[tuple[str, float]]:
    """The picture workers' strip cache hits and misses per action (issue 42, sixth pass;
    written by ``bench/calls_site`` after each picture; none from a tree without strips)."""
    counts = [0, 0]
    for written_by in folder.glob("workers-*.strips"):
        hits, misses, *_ = written_by.read_text().split()
        counts[0] += int(hits)
        counts[1] += int(misses)
    if not any(counts):
        return []
    return [("picture workers' strips reused", counts[0] / max(actions, 1)),
            ("picture workers' strips drawn", counts[1] / max(actions, 1))]


def report(runs: Sequence[RunFigures], tables: int, players: int) -> str:
    rows = [[r.game, r.setting, SETTINGS[r.setting]["IMAGES"],
             SETTINGS[r.setting]["REVIEW_AT_END"], r.actions, r.seconds,
             r.per_action(0), r.per_action(1), r.per_action(0) + r.per_action(1),
             r.per_action(2), r.reviews, 1000 * r.worker_start,
             ", ".join(f"{name} {n / max(r.actions, 1):.2f}"
                       for name, n in sorted(r.uploads.items())) or "-",
             ", ".join(f"{name} {n / max(r.actions, 1):.2f}"
                       for name, n in sorted(r.pictures.items()) if n) or "-"] for r in runs]
    return "\n".join([
        f"{tables} concurrent {players}-player games per run, humans only; CPU ms per stored"
        " human action",
        table(["game", "setting", "pictures", "reviews at end", "actions", "wall s",
               "bot ms", "workers ms", "total ms", "stand-in+players ms", "reviews",
               "workers' start ms (once)",
               "pictures sent per action", "drawn / skipped per action"], rows),
    ])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["split", "ten"],
                        choices=["split", "ten"])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--tables", type=int, default=4, help="games played at once (4)")
    parser.add_argument("--players", type=int, default=3, help="human seats per game (3)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--profile", action="store_true",
                        help="sample the bot process with py-spy and print where its CPU went")
    parser.add_argument("--profile-workers", action="store_true",
                        help="with --profile: the worker processes' samples too (py-spy"
                             " --subprocesses; each stack then starts with its process)")
    parser.add_argument("--calls", action="store_true",
                        help="cProfile the bot's event loop thread and print Python calls,"
                             " discord.ui constructions and renders per stored action")
    parser.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--top", type=int, default=20, help="functions in the profile")
    parser.add_argument("--bot-checkout", type=Path, default=None,
                        help="run the bot of this checkout (its PYTHONPATH)")
    args = parser.parse_args(argv)
    print(machine_line())
    with open("/proc/loadavg") as loadavg:
        print(f"load average at start: {loadavg.read().split()[:3]}")
    if args.bot_checkout is not None:
        print(f"bot: {args.bot_checkout.resolve()}")
    runs: list[RunFigures] = []
    with tempfile.TemporaryDirectory(prefix="action-cpu-") as tmp:
        for setting in args.settings:
            for game in args.games:
                figures = asyncio.run(run(game, setting, args.tables, args.players, args.seed,
                                          args.bot_checkout, Path(tmp),
                                          args.rate if args.profile else 0,
                                          args.profile_workers, args.calls))
                runs.append(figures)
                print(report([figures], args.tables, args.players).splitlines()[-1], flush=True)
                if figures.calls:
                    print(f"--- {game}, {setting}: per stored action (cProfile, the event"
                          " loop's thread) ---")
                    print(table(["figure", "per action"], [list(row) for row in figures.calls]),
                          flush=True)
                if args.profile:
                    print(f"--- {game}, {setting} ---")
                    print("\n".join(profile_lines(figures.stacks, args.top)), flush=True)
    print()
    print(report(runs, args.tables, args.players))
    with open("/proc/loadavg") as loadavg:
        print(f"load average at the end: {loadavg.read().split()[:3]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
