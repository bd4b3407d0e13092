"""A short, derandomized fuzz pass inside the suite (issue 24, point 4): the web app's
forms and uploads through its ASGI interface, and the command line end to end, with the
inputs of ``make fuzz``'s harnesses (fuzz/_web.py, fuzz/_cli.py) but a small budget.
``make fuzz`` runs them (and atheris) for minutes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fuzz"))

import _cli
import _web

BOUNDED = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def site() -> Any:
    return _web.site()


@pytest.fixture(scope="module")
def shell() -> Any:
    return _cli.shell()


def test_the_pass_reaches_every_kind_of_form(site: Any) -> None:
    actions = {f.action.split("/")[2] for f in site.forms if f.action.startswith("/gm/")}
    assert {"campaigns", "c", "prep", "t"} <= actions
    assert any(f.files for f in site.forms), "no upload form found"
    assert any(f.action.startswith("/p/") for f in site.forms), "no player's form found"


@BOUNDED
@given(st.integers(0, 2**63 - 1))
def test_no_form_or_upload_answers_500(site: Any, seed: int) -> None:
    _web.send(site, seed)


@settings(BOUNDED, max_examples=20)
@given(st.integers(0, 2**63 - 1))
def test_no_command_line_ends_in_a_traceback(shell: Any, seed: int) -> None:
    _cli.run(shell, seed)
