"""The odds of a fight in the background (fracas.lab.fightodds) and tune
(fracas.lab.tune), without the web: the same seed gives the same figures, a job is
cached by version and cancelled when its key changes or its last page goes; tune stays
within its budget and finds the value nearest the target."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.lab.fightodds import CANCELLED, CHANGED, DONE, FightOdds, OddsSettings, figures
from fracas.lab.playout import Outcome
from fracas.lab.runner import SimSpec, run_batch, seeds, spec_from_file
from fracas.lab.tune import MAX_VALUES, knob_setup, next_value, parse_knob, svg, tune

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WAIT = 60.0


def spec_of(name: str) -> SimSpec:
    return spec_from_file(EXAMPLES / f"{name}.yaml", {})


def quick(runs: int = 30) -> FightOdds:
    return FightOdds(OddsSettings(runs=runs, workers=0, first_batch=2, batch=5))


def test_the_same_seed_gives_the_same_figures_and_a_version_is_worked_out_once() -> None:
    spec = spec_of("heimr/duel")
    found = []
    for _ in range(2):
        with quick() as odds:
            job = odds.start("duel", 3, lambda: spec)
            assert job.wait(WAIT) and job.state == DONE
            found.append(job.figures())
            again = odds.start("duel", 3, lambda: spec)  # cached: not worked out again
            assert again is job and odds.started == 1
    assert found[0] == found[1]
    # The batches give what one batch of the same seeds gives.
    assert found[0] == figures(run_batch(spec, seeds(1, 30)), spec.sides)
    assert found[0] is not None and found[0]["runs"] == 30
    rates = sum(s["win_rate"] for s in found[0]["sides"].values())
    assert rates + found[0]["draws"] / 30 == pytest.approx(1.0)


def test_worker_processes_and_dask_give_the_figures_of_the_job_s_own_thread() -> None:
    """The backends a server is given (its low-priority worker process, a Dask cluster)
    play the same batches from the same seeds: the same figures as in the job's thread."""
    spec = spec_of("heimr/duel")
    found = {}
    for name, settings in (
        ("thread", OddsSettings(runs=12, workers=0, first_batch=4, batch=4)),
        ("pool", OddsSettings(runs=12, workers=1, first_batch=4, batch=4)),
        ("dask", OddsSettings(runs=12, dask="local:1", first_batch=4, batch=4)),
    ):
        with FightOdds(settings) as odds:
            job = odds.start("duel", 0, lambda: spec)
            assert job.wait(WAIT) and job.state == DONE, (name, job.state, job.why)
            found[name] = job.figures()
    assert found["thread"] is not None and found["thread"]["runs"] == 12
    assert found["pool"] == found["thread"]
    assert found["dask"] == found["thread"]


def long_job(odds: FightOdds, version: int = 0) -> tuple[SimSpec, object]:
    spec = spec_of("heimr/ambush")
    return spec, odds.start("ambush", version, lambda: spec, runs=20_000, seconds=600)


def test_a_new_version_cancels_the_job_of_the_old_one() -> None:
    with quick() as odds:
        spec, job = long_job(odds, 0)
        odds.changed("ambush", 0)  # the same version: it goes on
        assert job.running  # type: ignore[attr-defined]
        odds.changed("ambush", 1)
        assert job.wait(WAIT) and job.state == CHANGED  # type: ignore[attr-defined]
        # Starting another version cancels the running one: one job a key.
        second = odds.start("ambush", 1, lambda: spec, runs=20_000, seconds=600)
        third = odds.start("ambush", 2, lambda: spec, runs=20_000, seconds=600)
        assert second.wait(WAIT) and second.state == CHANGED
        assert odds.job("ambush") is third and third.running
        third.cancel()
        assert third.wait(WAIT) and third.state == CANCELLED
        assert odds.cached("ambush", 2) is None  # a cancelled job is not kept


def test_the_last_page_going_cancels_the_job() -> None:
    with quick() as odds:
        _, job = long_job(odds)
        with odds.watching(job), odds.watching(job):  # type: ignore[arg-type]
            pass
        assert job.wait(WAIT) and job.state == CANCELLED  # type: ignore[attr-defined]
        assert job.why == "the page closed"  # type: ignore[attr-defined]


def test_a_job_stops_at_its_time_bound_with_the_runs_it_finished() -> None:
    with quick() as odds:
        spec = spec_of("heimr/ambush")
        job = odds.start("ambush", 0, lambda: spec, runs=20_000, seconds=0.1)
        assert job.wait(WAIT) and job.state == DONE and job.why == "stopped at 0.1 s"
        assert job.done < 20_000
        assert job.figures() is None or job.figures()["runs"] == job.done  # type: ignore[index]


def test_the_settings_are_bounded() -> None:
    for bad in ({"niceness": 20}, {"runs": 0}, {"seconds": 10_000}, {"workers": 9}, {"batch": 0}):
        with pytest.raises(ValueError):
            OddsSettings(**bad)  # type: ignore[arg-type]


# -- tune ----------------------------------------------------------------------------------


def test_a_knob_reads_a_count_or_a_value_and_names_its_mistakes() -> None:
    setup = spec_of("heimr/field").setup
    count = parse_knob("eirik", "1..4", setup)
    assert (count.kind, count.values) == ("count", (1, 2, 3, 4))
    three = knob_setup(setup, count, 3)["combatants"]
    ids = [c.get("id", c["character"]) for c in three]
    assert len(ids) == len(set(ids)) == 4  # ylva and three eiriks, each its own id
    value = parse_knob("ylva.hit_points", "4,8", setup)
    assert value.path == ("hit_points",) and value.values == (4, 8)
    assert knob_setup(setup, value, 8)["campaign"]["characters"]["ylva"]["hit_points"] == 8
    for text, values, said in (
        ("", "1..2", "name what to tune"),
        ("nobody", "1..2", "no combatant"),
        ("eirik", "1..99", "whole numbers from 0"),
        ("ylva.nothing.here", "1..2", "has no 'nothing'"),
        ("ylva.hit_points", "x", "does not parse"),
    ):
        with pytest.raises(ValueError, match=said):
            parse_knob(text, values, setup)


def test_tune_searches_within_its_budget_and_finds_the_nearest_value() -> None:
    spec = spec_of("heimr/duel")
    knob = parse_knob("ylva.hit_points", "1..200", spec.setup)

    def play(cell: SimSpec) -> list[Outcome]:
        """A made-up fight: the shieldwall wins as often as ylva's hit points / 100."""
        hp = cell.setup["campaign"]["characters"]["ylva"]["hit_points"]
        wins = min(100, int(hp))
        return [
            Outcome("shieldwall" if i < wins else "raiders", 3, {}, {}, 10, False)
            for i in range(100)
        ]

    result = tune(spec, knob, "shieldwall", 0.37, play)
    assert len(result.points) <= MAX_VALUES
    assert result.best is not None and abs(result.best.value - 37) <= 2
    plot = svg(result)
    assert plot.startswith("<svg") and plot.count('class="point"') == len(result.points)
    # A short range is tried whole, ends and middle first.
    assert next_value((1, 2, 3), {}, 0.5, 12) == 0
    assert next_value((1, 2, 3), {0: 0.1, 2: 0.9}, 0.5, 12) == 1
    assert next_value((1, 2, 3), {0: 0.1, 1: 0.5, 2: 0.9}, 0.5, 12) is None


def test_tune_as_a_background_job_gives_its_plot_and_stops_when_cancelled() -> None:
    spec = spec_of("heimr/duel")
    with quick() as odds:
        knob = parse_knob("ylva.hit_points", "6..8", spec.setup)
        job = odds.tune("tune", 0, spec, knob, "shieldwall", 0.5, runs=20)
        assert job.wait(WAIT) and job.state == DONE
        assert [p.value for p in job.result.sorted_points()] == [6, 7, 8]
        assert job.result.best is not None
        slow = odds.tune(
            "tune",
            1,
            spec,
            parse_knob("ylva.hit_points", "1..90", spec.setup),
            "shieldwall",
            0.5,
            runs=5_000,
        )
        slow.cancel()
        assert slow.wait(WAIT) and slow.state == CANCELLED
        with pytest.raises(ValueError, match="no side"):
            odds.tune("tune", 2, spec, knob, "nobody", 0.5)
