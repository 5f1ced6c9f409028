"""``python -m bench.strips`` draws a worker's pictures by strips and whole, and reports the
strips it reused (issue 42, sixth pass). No figure is asserted but that strips are reused."""

from __future__ import annotations

import re

import pytest

from bench import strips as strips_bench
from cogs.imaging import paint


def test_strips_bench_reports_the_strips_reused(capsys: pytest.CaptureFixture[str]) -> None:
    cache = paint.STRIPS
    try:
        assert strips_bench.main(["--game", "split", "--workers", "2"]) == 0
    finally:
        paint.STRIPS = cache
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    found = re.search(r"2 cache\(s\) of 16 MiB: (\d+) hits, (\d+) misses", out)
    assert found and int(found[1]) > 0 and int(found[2]) > 0
    assert strips_bench.main(["--game", "ten", "--draw", "none"]) == 0
    assert "pictures not drawn" in capsys.readouterr().out
