"""The games' fixed picture palettes (``cogs.imaging.png.encode``), found once over seeded
pictures, and how pictures mapped onto them compare with a palette found per picture.

Training pictures: the tables and hands of seeded bot games (``tests.images.samples``) at
every player count a game allows in the image benches (SPLIT 2, 4, 6; TEN 2, 5), a position
every few actions, with the display names of the samples; a sixteenth of each picture's
pixels (as ``encode`` samples one picture) goes into one sheet, whose 256-colour octree
palette is the game's. ``--write`` stores it in ``cogs/<game>/palette.py``. The comparison
uses other seeds: encoding CPU per picture, mean error, worst pixel and the 99.9th percentile
of the per-pixel error (of 255, the largest channel), for both ways.

    python -m bench.palettes            # compare (the stored palettes against per picture)
    python -m bench.palettes --write    # find the palettes again and store them
"""

from __future__ import annotations

import argparse
import io
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageStat

from bench._common import machine_line, table
from bench.images import positions, renders
from cogs.imaging import paint, png
from game.base import Engine
from game.split import SplitEngine
from game.ten import TenEngine

PLAYERS = {"split": (2, 4, 6), "ten": (2, 5)}
TRAIN_SEED = 1000
TEST_SEED = 1
ROOT = Path(__file__).resolve().parent.parent


def engines() -> dict[str, Engine[Any, Any]]:
    return {"split": SplitEngine(), "ten": TenEngine()}


def canvases(key: str, engine: Engine[Any, Any], games: int, every: int,
             seed: int) -> list[Image.Image]:
    """The RGB pictures (before encoding) of the tables and hands of seeded games."""
    captured: list[Image.Image] = []

    def grab(image: Image.Image, palette: Image.Image | None = None) -> bytes:
        captured.append(image.copy())
        return b""

    encode, check = paint.encode, paint.check_attachment
    paint.encode = grab  # type: ignore[assignment]
    paint.check_attachment = lambda *_: None  # type: ignore[assignment]
    try:
        with paint.whole_pictures():
            for players in PLAYERS[key]:
                during, finals = positions(engine, players, games, every, seed)
                jobs = renders(key, engine, players, during, finals)
                for job in (*jobs["table"], *jobs["hand"]):
                    job()
    finally:
        paint.encode, paint.check_attachment = encode, check  # type: ignore[assignment]
    return captured


def find_palette(pictures: Sequence[Image.Image]) -> bytes:
    """The 256-colour octree palette of a sheet of every picture's sixteenth."""
    step = png.SAMPLE_STEP
    samples = [p.resize((max(1, p.width // step), max(1, p.height // step)),
                        Image.Resampling.NEAREST) for p in pictures]
    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    top = 0
    for sample in samples:
        sheet.paste(sample, (0, top))
        top += sample.height
    found = sheet.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                           dither=Image.Dither.NONE)
    colours = found.getpalette()
    assert colours is not None
    return snap_flat_colours(sheet, bytes(colours))


FLAT_SHARE = 0.001  # a colour on this share of the sheet's pixels is a flat one (a fill)
FLAT_MOST = 128  # at most this many entries are snapped to flat colours


def snap_flat_colours(sheet: Image.Image, colours: bytes) -> bytes:
    """``colours`` with the sheet's flat colours (card faces, panels, inks) put in exactly:
    the octree averages each bucket, so white came out as (254, 253, 249); each flat colour,
    most common first, takes the place of its nearest entry not already snapped."""
    counted = sheet.getcolors(sheet.width * sheet.height) or []
    total = sheet.width * sheet.height
    flat = [colour for count, colour in sorted(counted, reverse=True)
            if count >= total * FLAT_SHARE][:FLAT_MOST]
    entries = [tuple(colours[i:i + 3]) for i in range(0, len(colours), 3)]
    snapped: set[int] = set()
    for colour in flat:
        free = [i for i in range(len(entries)) if i not in snapped]
        nearest = min(free, key=lambda i: sum(
            (a - b) ** 2 for a, b in zip(entries[i], colour, strict=True)))
        entries[nearest] = tuple(colour)
        snapped.add(nearest)
    return bytes(channel for entry in entries for channel in entry)


def write(key: str, colours: bytes) -> Path:
    path = ROOT / "cogs" / key / "palette.py"
    lines = textwrap.wrap(colours.hex(), 64)
    body = "\n".join(f'    "{line}"' for line in lines)
    path.write_text(
        f'"""{key.upper()}\'s picture palette ({len(colours) // 3} colours), found once over'
        " seeded pictures of the\ngame by ``python -m bench.palettes --write`` (which says how"
        ' it was found): the tables and\nhands are mapped onto it (``cogs.imaging.png.encode``)'
        '."""\n\nPALETTE = bytes.fromhex(\n' + body + "\n)\n")
    return path


def errors(original: Image.Image, data: bytes) -> tuple[float, int, int]:
    """(mean error per channel, worst pixel, 99.9th percentile pixel) of 255."""
    diff = ImageChops.difference(original, Image.open(io.BytesIO(data)).convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    red, green, blue = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    histogram = worst.histogram()
    total, seen, p999 = sum(histogram), 0, 0
    for value, count in enumerate(histogram):
        seen += count
        if seen >= total * 0.999:
            p999 = value
            break
    return mean, max(i for i, n in enumerate(histogram) if n), p999


def stored(key: str) -> bytes:
    module = __import__(f"cogs.{key}.palette", fromlist=["PALETTE"])
    return bytes(module.PALETTE)


def compare(key: str, pictures: Sequence[Image.Image]) -> list[list[object]]:
    fixed = png.fixed_palette(stored(key))
    rows = []
    for name, palette in (("per picture", None), ("the game's", fixed)):
        cpu = 0.0
        found = []
        for picture in pictures:
            start = time.process_time()
            data = png.encode(picture, palette)
            cpu += time.process_time() - start
            found.append(errors(picture, data))
        rows.append([key, name, len(pictures), 1000 * cpu / len(pictures),
                     sum(f[0] for f in found) / len(found), max(f[0] for f in found),
                     max(f[1] for f in found), max(f[2] for f in found)])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.palettes", description=__doc__)
    parser.add_argument("--write", action="store_true", help="find and store the palettes")
    parser.add_argument("--games", type=int, default=2, help="seeded games per player count")
    parser.add_argument("--every", type=int, default=9, help="a position every N actions")
    args = parser.parse_args(argv)
    print(machine_line())
    rows: list[list[object]] = []
    for key, engine in engines().items():
        if args.write:
            training = canvases(key, engine, args.games * 2, args.every, TRAIN_SEED)
            print(f"{key}: palette of {len(training)} pictures ->",
                  write(key, find_palette(training)).relative_to(ROOT))
        rows += compare(key, canvases(key, engine, args.games, args.every, TEST_SEED))
    print(table(["game", "palette", "pictures", "encode CPU ms", "mean error",
                 "worst picture's mean", "worst pixel", "99.9th pct pixel"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
