"""``bench/images.py`` runs end to end in its quick mode and prints every row the issue asks
for (no figure is asserted: a busy machine would make that flaky)."""

from __future__ import annotations

import pytest

from bench import images


def test_images_bench_quick_prints_every_configuration(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert images.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    for players in ("SPLIT 2p", "SPLIT 4p", "SPLIT 6p", "TEN 2p", "TEN 5p"):
        for kind in ("table", "hand"):
            assert f"{players} {kind}" in out
    assert "p50 ms" in out and "p95 ms" in out and "KiB" in out
