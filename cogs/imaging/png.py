"""PNG encoding and Discord's attachment limits."""

from __future__ import annotations

import io

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


def encode(image: Image.Image) -> bytes:
    """PNG bytes of ``image`` quantised to a 256-colour palette, which loses nothing visible
    on flat card colours and anti-aliased text: less than half the bytes of RGB, and
    faster to compress.

    The palette is found on every fourth pixel of every fourth row (a sixteenth of the work),
    then the whole image is mapped onto it: under a third of the time of quantising the whole
    image, and a fifth less than sampling every other pixel, with the same mean error (under 1
    of 255 per channel on SPLIT and TEN tables and hands; the rarest 0.1 % of pixels, edges of
    anti-aliased text, are off by up to 12 instead of 5)."""
    sample = image.resize((max(1, image.width // SAMPLE_STEP),
                           max(1, image.height // SAMPLE_STEP)), Image.Resampling.NEAREST)
    palette = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                              dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.quantize(palette=palette, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=COMPRESS_LEVEL
    )
    return out.getvalue()


class ImageTooLarge(ValueError):
    """A render broke Discord's limits (a bug in a layout: the tests check every renderer)."""


def check_attachment(data: bytes, width: int, height: int) -> None:
    if len(data) >= ATTACHMENT_LIMIT_BYTES:
        raise ImageTooLarge(f"{len(data)} bytes is over Discord's attachment limit")
    if width > MAX_WIDTH or height > MAX_HEIGHT:
        raise ImageTooLarge(f"{width}×{height} px is over {MAX_WIDTH}×{MAX_HEIGHT}")
