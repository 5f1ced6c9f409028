"""Golden renders, compared with a perceptual tolerance.

A render and its golden are compared after the same downscaling (a quarter of each side) and
a slight blur: the whole-image mean absolute difference must stay small, and so must every
tile's (a tile is 64 × 64 render pixels). A missing or moved card fails even on a tall image;
glyphs a pixel apart (another FreeType build, another kerning) do not. After an intended
visual change: ``python -m tests.images.regenerate``.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageFilter

from tests.images.golden_cases import CASES, golden_path
from tests.images.regenerate import downscale

MEAN_LIMIT = 1.0  # of 255, over the whole downscaled image
TILE = 16  # downscaled pixels
TILE_LIMIT = 12.0  # of 255, the worst tile
BLUR = 1.5  # Gaussian radius, downscaled pixels


def differences(render: Image.Image, golden: Image.Image) -> tuple[float, float]:
    """(whole-image mean, worst tile mean) absolute difference of the blurred images."""
    blur = ImageFilter.GaussianBlur(BLUR)
    diff = ImageChops.difference(render.filter(blur), golden.filter(blur)).convert("L")
    data = diff.tobytes()
    width, height = diff.size
    mean = sum(data) / len(data)
    worst = 0.0
    for top in range(0, height, TILE):
        for left in range(0, width, TILE):
            tile = diff.crop((left, top, min(left + TILE, width), min(top + TILE, height)))
            values = tile.tobytes()
            worst = max(worst, sum(values) / len(values))
    return mean, worst


@pytest.mark.parametrize("name", sorted(CASES))
def test_render_matches_its_golden(name: str) -> None:
    path = golden_path(name)
    assert path.exists(), f"no golden {path}: run python -m tests.images.regenerate"
    golden = Image.open(path).convert("RGB")
    render = downscale(CASES[name]())
    assert render.size == golden.size, (
        f"{name}: layout size changed ({render.size} vs golden {golden.size}); "
        "if intended, run python -m tests.images.regenerate"
    )
    mean, worst = differences(render, golden)
    assert mean <= MEAN_LIMIT and worst <= TILE_LIMIT, (
        f"{name}: mean difference {mean:.2f}, worst tile {worst:.2f}; "
        "if intended, run python -m tests.images.regenerate"
    )


def test_the_comparison_catches_a_missing_card() -> None:
    """A card-sized blank patch on a golden is beyond the tolerance (the check can fail)."""
    golden = Image.open(golden_path("split_hand_4p")).convert("RGB")
    damaged = golden.copy()
    damaged.paste((232, 240, 238), (5, 40, 5 + 74 // 4, 40 + 114 // 4))
    assert differences(damaged, golden)[1] > TILE_LIMIT
    assert differences(golden, golden) == (0.0, 0.0)
