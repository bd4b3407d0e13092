"""``make screenshots`` cannot rot: its script runs here, into a folder of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
if not Path("/usr/bin/chromium").exists():
    pytest.skip(
        "Debian's chromium is not installed (make test installs it)", allow_module_level=True
    )


def test_the_tour_takes_its_screenshots(browser: Any, tmp_path: Path) -> None:
    from tests.web.tour import take

    written = take(tmp_path, browser)
    names = {f.name for f in written}
    assert {
        "heimr-gm.png",
        "heimr-gm-phone.png",
        "heimr-player.png",
        "heimr-player-phone.png",
    } <= names
    for file in written:
        assert file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
