"""The GM's "Odds of this fight" in a real browser (Playwright on Debian's Chromium):
the table's page and the prepared encounter's page show the odds with a progress bar
pushed as the runs come in, and the tune's plot. The screenshots are the tour's
(``make screenshots`` writes them into docs/images/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
if not Path("/usr/bin/chromium").exists():
    pytest.skip(
        "Debian's chromium is not installed (make test installs it)", allow_module_level=True
    )


def test_the_pages_show_the_odds_with_a_progress_bar_and_the_tune_plot(
    browser: Any, tmp_path: Path
) -> None:
    from tests.web.tour import take_odds

    written, seen = take_odds(tmp_path, browser)
    assert {f.name for f in written} == {"fight-odds-gm.png", "fight-odds-prep.png"}
    for file in written:
        assert file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for name in ("fight-odds-gm", "fight-odds-prep"):
        states = [s for s in seen[name] if s.startswith("fight-odds-panel:")]
        assert any(":running:" in s for s in states), states  # the bar, pushed
        assert states[-1] == "fight-odds-panel:done:100"
    assert seen["moved-on"] == ["shown"]  # odds of an older version say so
    tune = [s for s in seen["fight-odds-prep"] if s.startswith("tune-result:")]
    assert tune and tune[-1] == "tune-result:done:100"
