"""Rewrite the golden images: ``python -m tests.images.regenerate`` (from the repository root).

Run it after an intended change to how an image looks, look at the new files (and at a full
size render, e.g. ``python -m tests.images.regenerate --full /tmp/goldens``), and commit them.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

from tests.images.golden_cases import CASES, GOLDEN_DIR, SCALE, golden_path


def downscale(png: bytes) -> Image.Image:
    """The render as the goldens store it: RGB, ``SCALE`` times smaller (box filter)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    size = (max(1, image.width // SCALE), max(1, image.height // SCALE))
    return image.resize(size, Image.Resampling.BOX)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.images.regenerate",
                                     description=__doc__)
    parser.add_argument("--full", type=Path,
                        help="also write the full-size renders into this folder")
    args = parser.parse_args(argv)
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, render in CASES.items():
        png = render()
        downscale(png).save(golden_path(name), optimize=True)
        print(f"{golden_path(name)}: {len(png):,} bytes at full size")
        if args.full is not None:
            args.full.mkdir(parents=True, exist_ok=True)
            (args.full / f"{name}.png").write_bytes(png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
