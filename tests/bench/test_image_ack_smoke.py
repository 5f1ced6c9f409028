"""``bench/image_ack.py`` runs tiny: one game with pictures off and on at the real bot.

No figure is asserted (latency depends on the machine); only that both settings are measured,
that pictures were sent with them on and none with them off, and that the ratio is printed.
"""

from __future__ import annotations

import pytest

from bench import image_ack


def test_image_ack_measures_both_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert image_ack.main(["--games", "1", "--steps", "3", "--think", "0", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "Python 3." in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.startswith(("off ", "on "))}
    assert set(rows) == {"off", "on"}
    assert rows["off"][6] == "0" and int(rows["on"][6]) > 0  # pictures sent
    assert "ack p99 on/off:" in out
