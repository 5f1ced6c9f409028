"""``python -m bench.hint_agreement`` runs end to end in a tiny run and prints its table."""

from __future__ import annotations

import pytest

from bench import hint_agreement


def test_the_hint_agreement_script_prints_every_configuration(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert hint_agreement.main(["--games", "1", "--every", "60", "--config", "split:2",
                                "--config", "ten:2"]) == 0
    out = capsys.readouterr().out
    assert "cores" in out and "SPLIT 2p" in out and "TEN 2p" in out
    assert out.rstrip().splitlines()[-1].endswith("100.0 %")
