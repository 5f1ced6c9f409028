"""PNG encoding and Discord's attachment limits."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

# Discord refuses attachments above 8 MiB on servers without boosts (the smallest limit).
ATTACHMENT_LIMIT_BYTES = 8 * 1024 * 1024
# Images are drawn at twice a phone's 400 px so they stay sharp; taller ones are hard to read
# in a channel, so renderers keep under these.
MAX_WIDTH = 800
MAX_HEIGHT = 4000
# zlib level: 6 makes a palette image a sixth smaller than 3 but takes half as long again
# (bench/images.py); 1 takes a tenth less time than 3 for a tenth more bytes (issue 42: 2.70
# against 2.98 ms, 43.6 against 39.9 KiB on average over SPLIT and TEN tables and hands).
# Images of 20-110 KiB are far below any limit (8 MiB), so speed wins.
COMPRESS_LEVEL = 1
SAMPLE_STEP = 4  # the palette is found on one pixel in SAMPLE_STEP² (see encode)


def encode(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes of ``image`` quantised to a 256-colour palette, which loses nothing visible
    on flat card colours and anti-aliased text: less than half the bytes of RGB, and
    faster to compress.

    ``palette`` (a "P" image, :func:`fixed_palette`): a game's own palette, found once over
    many of its pictures (``bench.palettes``), onto which the image is mapped directly: no
    palette is looked for per picture, and Pillow fills the palette's nearest-colour cache
    (512 KiB) once per process instead of once per picture (issue 42, fourth pass: a quarter to
    a third less encoding time, and a smaller worst error, since the rare colours of one
    picture are also in the others).

    Without it (the final pictures), the palette is found per picture, on every fourth pixel
    of every fourth row (a sixteenth of the work), then the whole image is mapped onto it:
    under a third of the time of quantising the whole image, and a fifth less than sampling
    every other pixel, with the same mean error (under 1 of 255 per channel on SPLIT and TEN
    tables and hands; the rarest 0.1 % of pixels, edges of anti-aliased text, are off by up to
    12 instead of 5). ``bench.palettes`` compares the two ways: with the game's palette, SPLIT
    and TEN tables and hands have a mean error of 0.43 and 0.60 of 255, 7 and 8 at the 99.9th
    percentile and 13 and 19 at worst, against 0.46, 0.62, 9, 21, 66 and 44 per picture."""
    if palette is not None:
        return _png(image.quantize(palette=palette, dither=Image.Dither.NONE))
    sample = image.resize((max(1, image.width // SAMPLE_STEP),
                           max(1, image.height // SAMPLE_STEP)), Image.Resampling.NEAREST)
    found = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                            dither=Image.Dither.NONE)
    return _png(image.quantize(palette=found, dither=Image.Dither.NONE))


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=8)
def fixed_palette(colours: bytes) -> Image.Image:
    """A "P" image carrying ``colours`` (RGB triples) as its palette, for :func:`encode`."""
    if not colours or len(colours) % 3 or len(colours) > 768:
        raise ValueError("a palette is 1 to 256 RGB triples")
    image = Image.new("P", (1, 1))
    image.putpalette(colours)
    return image


class ImageTooLarge(ValueError):
    """A render broke Discord's limits (a bug in a layout: the tests check every renderer)."""


def check_attachment(data: bytes, width: int, height: int) -> None:
    if len(data) >= ATTACHMENT_LIMIT_BYTES:
        raise ImageTooLarge(f"{len(data)} bytes is over Discord's attachment limit")
    if width > MAX_WIDTH or height > MAX_HEIGHT:
        raise ImageTooLarge(f"{width}×{height} px is over {MAX_WIDTH}×{MAX_HEIGHT}")
