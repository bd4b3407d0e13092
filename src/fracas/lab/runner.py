"""Batches of seeded playouts: :func:`run_batch`, a pure function of a picklable
:class:`SimSpec` and seed sequences, run in this process, a local process pool or Dask.

Each run has its own :class:`numpy.random.SeedSequence` (``SeedSequence(seed).spawn(runs)``);
the dice and the policies draw from two streams derived from it, so a run's result does
not depend on the batch, the worker or the backend that plays it.

>>> spec = spec_from_file("examples/heimr/duel.yaml", {}, fallback="attack-nearest")
>>> first = run_batch(spec, seeds(7, 3))
>>> first == run_batch(spec, seeds(7, 3)[::-1])[::-1]
True
"""

from __future__ import annotations

import gc
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy
from numpy.random import SeedSequence

from fracas.engine import Encounter, RandomDice, capabilities
from fracas.engine.capabilities import Kernel
from fracas.lab.playout import Outcome, play_out
from fracas.lab.policies import Policy, available, gm_policy, policy
from fracas.lab.policies.baseline import Scripted
from fracas.rules import find
from fracas.table import encounterfile

if TYPE_CHECKING:  # the store (SQLAlchemy) is loaded only by a simulation from a table
    from fracas.table.table import Table

ENGINES = ("engine", "kernel", "auto")
#: The most runs one simulation plays: every outcome is kept until the statistics are
#: taken (about 1 KB a run), and a million gives a win rate to within 0.001.
MAX_RUNS = 1_000_000
#: The most local worker processes: more than a few a core only adds start-up time.
MAX_WORKERS = max(4, 4 * (os.cpu_count() or 1))
#: The highest action cap a run may be given.
MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class SimSpec:
    """What to simulate: everything a worker needs, and nothing that is not data."""

    ruleset: str
    setup: Mapping[str, Any]
    policies: tuple[tuple[str, str], ...]  # (side, policy name), sorted by side
    scripts: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (side, actions) for "scripted"
    engine: str = "engine"  # "engine" or "kernel" ("auto" is settled before)
    max_actions: int = 2000
    title: str = ""
    sides: tuple[str, ...] = field(default=())
    #: A save to play on from (a table's present, :func:`spec_from_table`), or None for
    #: the start. Only its actions and their recorded faces are replayed, never its dice.
    position: Mapping[str, Any] | None = None

    def policy_names(self) -> dict[str, str]:
        return dict(self.policies)


def seeds(seed: int, runs: int) -> list[SeedSequence]:
    """One independent seed sequence per run; :class:`ValueError` unless 1 to :data:`MAX_RUNS`."""
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"{runs} runs: a simulation plays 1 to {MAX_RUNS:,} runs")
    return SeedSequence(seed).spawn(runs)


def streams(seq: SeedSequence) -> tuple[int, numpy.random.Generator]:
    """The dice seed and the policies' generator of one run, both from ``seq``, without
    changing it (``spawn`` would count its children). The generator is made when a
    policy first draws from it: most runs of most policies never do.

    >>> dice, rng = streams(SeedSequence(7))
    >>> again = numpy.random.default_rng(SeedSequence(7, spawn_key=(1,)))
    >>> int(rng.integers(1000)) == int(again.integers(1000))
    True
    """
    dice = SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, 0), pool_size=seq.pool_size)
    words = dice.generate_state(2, numpy.uint64)
    return int(words[0]) << 64 | int(words[1]), cast(numpy.random.Generator, _Choices(seq))


class _Choices:
    """The policies' generator of the run of ``seq``, made at its first use."""

    __slots__ = ("_made", "_seq")

    def __init__(self, seq: SeedSequence) -> None:
        self._seq = seq
        self._made: numpy.random.Generator | None = None

    def __getattr__(self, name: str) -> Any:
        if self._made is None:
            seq = self._seq
            self._made = numpy.random.default_rng(
                SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, 1), pool_size=seq.pool_size)
            )
        return getattr(self._made, name)


def _policies(spec: SimSpec) -> dict[str, Policy]:
    scripts = dict(spec.scripts)
    made: dict[str, Policy] = {}
    for side, name in spec.policies:
        if name == "scripted":
            made[side] = Scripted(spec.ruleset, scripts.get(side, ()))
        else:
            made[side] = policy(name, spec.ruleset)
    return made


#: Encounters at their start (or the position given), by ruleset, setup and position (as
#: JSON), for the batches after the first of a simulation on this process: only copies of
#: them are played.
_STARTS: dict[tuple[str, str, str], Encounter[Any]] = {}


def _start(spec: SimSpec) -> Encounter[Any]:
    position = spec.position
    key = (
        spec.ruleset,
        json.dumps(spec.setup, sort_keys=True),
        "" if position is None else json.dumps(position, sort_keys=True),
    )
    found = _STARTS.get(key)
    if found is None:
        if len(_STARTS) >= 8:
            _STARTS.clear()
        ruleset = find(spec.ruleset)
        if position is None:
            found = Encounter(ruleset, spec.setup, RandomDice(0))
        else:  # replayed from its recorded faces; its own dice are never drawn from
            found = Encounter.load(dict(position), ruleset, RandomDice(0))
        _STARTS[key] = found
    return found


def _kernel(ruleset_id: str) -> Kernel | None:
    """The ruleset's kernel (its ``policies`` capability's), or ``None``."""
    return capabilities.policies(find(ruleset_id)).kernel()


def run_batch(spec: SimSpec, batch: Sequence[SeedSequence]) -> list[Outcome]:
    """Play one run of ``spec`` per seed sequence; pure: no global state, no I/O."""
    if spec.engine == "kernel":
        kernel = _kernel(spec.ruleset)
        if kernel is None:
            raise ValueError(f"{spec.ruleset} has no kernel: use --engine engine")
        return kernel.simulate(dict(spec.setup), list(batch), spec.max_actions, spec.policy_names())
    start = _start(spec)
    outcomes = []
    for seq in batch:
        dice_seed, rng = streams(seq)
        encounter = start.copy(dice=RandomDice(dice_seed), playout=True)
        outcomes.append(
            play_out(encounter, _policies(spec), gm_policy(spec.ruleset), rng, spec.max_actions)
        )
    return outcomes


# -- building a spec ---------------------------------------------------------------------


def sides_of(ruleset_id: str, setup: Mapping[str, Any]) -> tuple[str, ...]:
    """The sides of an encounter, in the order their first combatant appears."""
    ruleset = find(ruleset_id)
    state = ruleset.observe(ruleset.start(json.loads(json.dumps(setup))), None)
    return tuple(dict.fromkeys(str(c["side"]) for c in state["combatants"].values()))


def default_policy(ruleset_id: str) -> str:
    """The ruleset's own ``default`` policy where there is one, else ``attack-nearest``."""
    return "default" if available("default", ruleset_id) else "attack-nearest"


def make_spec(
    ruleset_id: str,
    setup: Mapping[str, Any],
    chosen: Mapping[str, str],
    *,
    scripts: Mapping[str, Sequence[str]] | None = None,
    engine: str = "engine",
    max_actions: int = 2000,
    title: str = "",
    fallback: str | None = None,
    position: Mapping[str, Any] | None = None,
) -> SimSpec:
    """A checked spec: every side gets ``chosen[side]``, else ``fallback``, else the
    default; unknown sides and policies raise :class:`ValueError` naming them."""
    sides = sides_of(ruleset_id, setup)
    for side in chosen:
        if side not in sides:
            raise ValueError(
                f"no side called {side!r} in this encounter (sides: {', '.join(sides)})"
            )
    others = fallback or default_policy(ruleset_id)
    names = {side: chosen.get(side, others) for side in sides}
    for name in set(names.values()):
        policy(name, ruleset_id)  # raises with the known names
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: choose {', '.join(ENGINES)}")
    if not 1 <= max_actions <= MAX_ACTIONS:
        raise ValueError(f"the action cap must be 1 to {MAX_ACTIONS:,}, not {max_actions}")
    spec = SimSpec(
        ruleset=ruleset_id,
        setup=json.loads(json.dumps(setup)),
        policies=tuple(sorted(names.items())),
        scripts=tuple(sorted((s, tuple(a)) for s, a in (scripts or {}).items())),
        engine="engine",
        max_actions=max_actions,
        title=title,
        sides=sides,
        position=None if position is None else json.loads(json.dumps(position)),
    )
    return _settle_engine(spec, engine)


def _settle_engine(spec: SimSpec, engine: str) -> SimSpec:
    if engine == "engine":
        return spec
    if spec.position is not None:
        if engine == "kernel":
            raise ValueError("the vectorised kernel plays from the start only: use --engine engine")
        return spec
    kernel = _kernel(spec.ruleset)
    why_not = None if kernel is None else kernel.why_not(dict(spec.setup), spec.policy_names())
    fits = kernel is not None and why_not is None
    if engine == "kernel" and not fits:
        why = "is not in this fracas" if kernel is None else f"does not cover this: {why_not}"
        raise ValueError(f"the vectorised kernel {why}; use --engine engine")
    return replace(spec, engine="kernel" if fits else "engine")


def spec_from_file(path: str | Path, chosen: Mapping[str, str], **options: Any) -> SimSpec:
    """A spec for the encounter file at ``path`` (read with the table service)."""
    ruleset, setup, title = encounterfile.load(path)
    return make_spec(ruleset.id, setup, chosen, title=title, **options)


def spec_from_table(table: Table, chosen: Mapping[str, str], **options: Any) -> SimSpec:
    """A spec that plays on from where ``table`` stands: its save (actions and the faces
    they rolled) is replayed in each worker, and every run draws from the simulation's own
    seeds, so the table's dice are neither read nor moved. Side policies see only their
    side's view, as from the start."""
    save = table.export()
    save.pop("dice", None)  # the table's generator: no simulation may read it
    title = f"{table.title or table.name}, from entry {table.head}"
    return make_spec(
        table.ruleset.id, dict(save["setup"]), chosen, title=title, position=save, **options
    )


# -- running batches -------------------------------------------------------------------


#: The engine's batches shrink as the runs left do (guided scheduling): each is a
#: :data:`GUIDE`-th of a worker's share of what is left, and at least :data:`SMALLEST`
#: runs, so that the workers finish within a few runs of each other.
GUIDE = 4
SMALLEST = 4
#: The kernel plays a batch as one vectorised call, whose fixed cost (a few milliseconds)
#: is worth paying only a few times: it gets 2 batches a worker.
KERNEL_BATCHES_A_WORKER = 2


def batches(
    all_seeds: Sequence[SeedSequence], workers: int, engine: str = "engine"
) -> list[list[SeedSequence]]:
    """Split the runs into batches: few enough that scheduling costs nothing, and for the
    engine, whose fights take very different times, small enough at the end that no
    worker waits long on another. The results do not depend on the batches (each run has
    its own streams).

    >>> seeds = SeedSequence(0).spawn(1000)
    >>> sizes = [len(b) for b in batches(seeds, 2)]
    >>> sizes[:4], sizes[-3:], sum(sizes), len(batches(seeds, 2, "kernel"))
    ([125, 110, 96, 84], [4, 4, 4], 1000, 4)
    >>> batches([], 2), batches([], 2, "kernel")
    ([], [])
    """
    total = len(all_seeds)
    workers = max(1, workers)
    if total == 0:
        return []
    if engine == "kernel":
        count = max(1, min(total, workers * KERNEL_BATCHES_A_WORKER))
        size = math.ceil(total / count)
        return [list(all_seeds[i : i + size]) for i in range(0, total, size)]
    out = []
    start = 0
    while start < total:
        size = max(SMALLEST, math.ceil((total - start) / (GUIDE * workers)))
        out.append(list(all_seeds[start : start + size]))
        start += size
    return out


Progress = Callable[[int], None]


def _worker_starts() -> None:
    """A local worker process starting: everything it has now (fracas and its
    libraries, imported) lives as long as it does, so the garbage collector is told
    never to walk it again (``gc.freeze``): about 5% more duels a second."""
    gc.collect()
    gc.freeze()


def _pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, initializer=_worker_starts)


def run_local(
    spec: SimSpec,
    all_seeds: Sequence[SeedSequence],
    progress: Progress | None = None,
    workers: int = 1,
    pool: ProcessPoolExecutor | None = None,
) -> list[Outcome]:
    """All runs, in order, on ``workers`` local processes (1: in this process)."""
    parts = batches(all_seeds, workers, spec.engine)
    if workers <= 1:
        out: list[Outcome] = []
        for part in parts:
            out += run_batch(spec, part)
            if progress:
                progress(len(part))
        return out
    if pool is None:
        with _pool(workers) as own:
            return run_local(spec, all_seeds, progress, workers, own)
    results: dict[int, list[Outcome]] = {}
    pending: dict[Future[list[Outcome]], int] = {
        pool.submit(run_batch, spec, part): i for i, part in enumerate(parts)
    }
    while pending:
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            i = pending.pop(future)
            results[i] = future.result()
            if progress:
                progress(len(parts[i]))
    return [o for i in range(len(parts)) for o in results[i]]


def check_workers(workers: int) -> None:
    """:class:`ValueError` for a number of local workers that is not 1 to
    :data:`MAX_WORKERS`."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(
            f"{workers} workers: this machine runs 1 to {MAX_WORKERS} "
            f"({os.cpu_count()} cores; one a core is fastest)"
        )


Runner = Callable[[SimSpec, Sequence[SeedSequence], Progress | None], list[Outcome]]


__all__ = [
    "ENGINES",
    "SimSpec",
    "batches",
    "check_workers",
    "make_spec",
    "run_batch",
    "run_local",
    "seeds",
    "sides_of",
    "spec_from_file",
    "spec_from_table",
    "streams",
]
