"""build/rules-coverage.json is the same whether the tests run in one process or on
pytest-xdist's workers, whose controller alone sees every report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("xdist")

CONFTEST = Path(__file__).with_name("conftest.py")

TESTS = """
import pytest

@pytest.mark.rule("X-A-1")
@pytest.mark.parametrize("n", range(4))
def test_passes(n):
    pass

@pytest.mark.rule("X-A-2")
def test_fails():
    assert False

@pytest.mark.rule("X-A-3", "X-A-1")
def test_skipped():
    pytest.skip("not today")

@pytest.fixture
def broken():
    raise RuntimeError("no fixture")

@pytest.mark.rule("X-A-4")
def test_errs_in_its_set_up(broken):
    pass

@pytest.fixture
def untidy():
    yield
    raise RuntimeError("no tear-down")

@pytest.mark.rule("X-A-5")
def test_errs_in_its_tear_down(untidy):
    pass

def test_cites_nothing():
    pass
"""


@pytest.mark.parametrize("workers", ["0", "2"])
def test_the_coverage_file_counts_each_worker_s_passing_tests(
    pytester: pytest.Pytester, workers: str
) -> None:
    pytester.makeconftest(CONFTEST.read_text(encoding="utf-8"))
    pytester.makeini("[pytest]\nmarkers =\n    rule(*ids): rules\n")
    pytester.makepyfile(test_cited=TESTS)
    result = pytester.runpytest_subprocess("-n", workers, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=6, failed=1, skipped=1, errors=2)
    if workers != "0":
        result.stdout.fnmatch_lines(["*2 workers*"])
    written = json.loads((pytester.path / "build" / "rules-coverage.json").read_text())
    passing = [f"test_cited.py::test_passes[{n}]" for n in range(4)]
    assert written == {"X-A-1": passing, "X-A-2": [], "X-A-3": [], "X-A-4": [], "X-A-5": []}
    assert not list((pytester.path / "build").glob("*.tmp"))
