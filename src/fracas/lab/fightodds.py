"""The odds of a fight, worked out in the background: :class:`FightOdds` runs one
simulation job a key (a table, a prepared encounter) on a small pool of low-priority
worker processes (or a Dask cluster), with progress, cancel, bounds and a cache.

A job plays its runs in batches, in order, from one seed, so the figures after ``n``
runs are the same whichever worker or backend played them (the runner's per-run seeds),
and a job stopped early by its time bound shows the figures of the runs it finished. A
finished job is cached by its key and version (a table's version, or the fingerprint of
a prepared encounter's setup): asking again for the same version gives it at once.
Asking for another version of the same key cancels the running job first: one job a key.

Usable without the web:

>>> from fracas.lab.runner import spec_from_file
>>> spec = spec_from_file("examples/heimr/duel.yaml", {})
>>> with FightOdds(OddsSettings(runs=20, workers=0)) as odds:
...     job = odds.start("duel", 0, lambda: spec)
...     _ = job.wait(60)
...     figures = job.figures()
>>> figures["runs"], sorted(figures["sides"]) == sorted(spec.sides)
(20, True)
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

from numpy.random import SeedSequence

from fracas.lab import stats
from fracas.lab.playout import Outcome
from fracas.lab.runner import SimSpec, run_batch, seeds

__all__ = [
    "FightOdds",
    "Job",
    "OddsSettings",
    "figures",
    "setup_version",
]

log = logging.getLogger(__name__)

#: The most runs a job may be set to play, and the longest it may be set to take.
MAX_RUNS = 20_000
MAX_SECONDS = 600.0
#: Seconds between two looks at the batch a job waits for.
POLL = 0.02
#: How much lower than the server the worker processes run (``os.nice``), by default.
NICENESS = 10


@dataclass(frozen=True)
class OddsSettings:
    """The bounds of the background jobs (``ValueError`` for one out of range)."""

    #: Runs a job plays at most, and seconds it runs at most (then it stops, with the
    #: figures of the runs done).
    runs: int = 1000
    seconds: float = 20.0
    #: The seed every job draws from: the same seed, the same figures.
    seed: int = 1
    #: Worker processes (0: play in the job's own thread; for tests and doctests).
    workers: int = 1
    #: Runs in the first batch (the first figures come soon) and in each after it.
    first_batch: int = 10
    batch: int = 50
    #: Finished jobs kept (the oldest forgotten first).
    cached: int = 64
    #: Seconds the worker processes stay after the last job, ready for the next.
    linger: float = 60.0
    #: A Dask scheduler's address (``tcp://host:8786``): the batches run there instead.
    dask: str | None = None
    #: How much lower than the server the worker processes run (``os.nice``, 0 to 19).
    niceness: int = NICENESS

    def __post_init__(self) -> None:
        if not 1 <= self.runs <= MAX_RUNS:
            raise ValueError(f"a job plays 1 to {MAX_RUNS:,} runs, not {self.runs}")
        if not 0.1 <= self.seconds <= MAX_SECONDS:
            raise ValueError(f"a job runs 0.1 to {MAX_SECONDS:g} s, not {self.seconds:g}")
        if not 0 <= self.workers <= 4:
            raise ValueError(f"the odds use 0 to 4 worker processes, not {self.workers}")
        if not (1 <= self.first_batch <= 1000 and 1 <= self.batch <= 1000):
            raise ValueError("a batch has 1 to 1,000 runs")
        if not 0 <= self.niceness <= 19:
            raise ValueError(f"a niceness is 0 to 19, not {self.niceness}")
        if not 1 <= self.cached <= 10_000:
            raise ValueError("keep 1 to 10,000 finished jobs")


def setup_version(spec: SimSpec) -> str:
    """A short fingerprint of what ``spec`` simulates: the version of a prepared
    encounter's odds (its setup, campaign included, and policies).

    >>> from fracas.lab.runner import spec_from_file
    >>> spec = spec_from_file("examples/heimr/duel.yaml", {})
    >>> setup_version(spec) == setup_version(spec), len(setup_version(spec))
    (True, 16)
    """
    record = [spec.ruleset, spec.setup, spec.policies, spec.scripts, spec.engine, spec.position]
    text = json.dumps(record, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def figures(outcomes: Sequence[Outcome], sides: Sequence[str]) -> dict[str, Any]:
    """What the GM is shown: each side's win rate with its 95% Wilson interval, draws,
    rounds to the end, how often each combatant falls (ends with no hit points left),
    most often first, and the hit points each is expected to have left."""
    summary = stats.summarise(outcomes, sides)
    n = len(outcomes)
    falls = []
    for cid, got in summary["combatants"].items():
        fell = sum(1 for o in outcomes if cid in o.hp_left and o.hp_left[cid] <= 0)
        low, high = stats.wilson(fell, n)
        falls.append(
            {
                "id": cid,
                "falls": fell,
                "rate": round(fell / n, 6) if n else None,
                "ci95": [round(low, 6), round(high, 6)],
                "hp_left": got["hp_left"]["mean"],
            }
        )
    falls.sort(key=lambda f: (-f["falls"], f["id"]))
    return {
        "runs": n,
        "sides": summary["sides"],
        "draws": summary["draws"],
        "capped": summary["capped"],
        "rounds": summary["rounds"],
        "combatants": falls,
    }


class Tally:
    """The figures of runs as they come, batch by batch, without keeping the runs: each
    batch costs its own size, and :meth:`figures` the sides and combatants (and one
    quantile of the rounds), whatever the runs so far; the same as :func:`figures`."""

    def __init__(self, sides: Sequence[str]) -> None:
        self.sides = tuple(sides)
        self.n = 0
        self.wins = dict.fromkeys(self.sides, 0)
        self.draws = 0
        self.capped = 0
        self.rounds: list[int] = []
        self.hp: dict[str, list[float]] = {}  # combatant -> [sum, count, falls]

    def add(self, batch: Sequence[Outcome]) -> None:
        for o in batch:
            self.n += 1
            if o.winner in self.wins:
                self.wins[o.winner] += 1
            if o.capped:
                self.capped += 1
            else:
                self.rounds.append(o.rounds)
                if o.winner is None:
                    self.draws += 1
            for cid, left in o.hp_left.items():
                got = self.hp.setdefault(cid, [0.0, 0, 0])
                got[0] += left
                got[1] += 1
                got[2] += left <= 0

    def figures(self) -> dict[str, Any]:
        n = self.n
        sides = {}
        for side in self.sides:
            low, high = stats.wilson(self.wins[side], n)
            sides[side] = {
                "wins": self.wins[side],
                "win_rate": round(self.wins[side] / n, stats.DIGITS) if n else None,
                "ci95": [round(low, stats.DIGITS), round(high, stats.DIGITS)],
            }
        falls: list[dict[str, Any]] = []
        for cid in sorted(self.hp):
            total, count, fell = self.hp[cid]
            low, high = stats.wilson(int(fell), n)
            falls.append(
                {
                    "id": cid,
                    "falls": int(fell),
                    "rate": round(fell / n, 6) if n else None,
                    "ci95": [round(low, 6), round(high, 6)],
                    "hp_left": round(total / count, stats.DIGITS) if count else None,
                }
            )
        falls.sort(key=lambda f: (-f["falls"], f["id"]))
        return {
            "runs": n,
            "sides": sides,
            "draws": self.draws,
            "capped": self.capped,
            "rounds": stats.spread(self.rounds),
            "combatants": falls,
        }


class _Backend(Protocol):
    def submit(self, spec: SimSpec, part: list[SeedSequence]) -> Any: ...


def _worker_starts(niceness: int = NICENESS) -> None:
    """A worker process starting: lower its priority, so the server's requests come
    first, then freeze what it has imported (as the runner's workers do)."""
    with contextlib.suppress(OSError):  # not allowed: it runs at the server's priority
        os.nice(niceness)
    gc.collect()
    gc.freeze()


class _Local:
    """Batches played in the job's own thread (no worker process): tests, doctests."""

    def submit(self, spec: SimSpec, part: list[SeedSequence]) -> Future[list[Outcome]]:
        future: Future[list[Outcome]] = Future()
        try:
            future.set_result(run_batch(spec, part))
        except Exception as err:
            future.set_exception(err)
        return future


class _Pool:
    def __init__(self, workers: int, niceness: int) -> None:
        self.pool = ProcessPoolExecutor(
            max_workers=workers, initializer=_worker_starts, initargs=(niceness,)
        )

    def submit(self, spec: SimSpec, part: list[SeedSequence]) -> Future[list[Outcome]]:
        return self.pool.submit(run_batch, spec, part)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class _Dask:
    def __init__(self, address: str) -> None:
        from fracas.lab import dask as lab_dask

        self._context = lab_dask.connect(address)
        self.client = self._context.__enter__()

    def submit(self, spec: SimSpec, part: list[SeedSequence]) -> Any:
        return self.client.submit(run_batch, spec, part, pure=False)

    def close(self) -> None:
        self._context.__exit__(None, None, None)


#: A job's own work: given the job and the way to play a spec's runs (``None``:
#: stopped), its end state and why.
Work = Callable[["Job", Callable[[SimSpec], "list[Outcome] | None"]], tuple[str, str]]

#: A job's states: running, then one of the others for good.
RUNNING, DONE, CANCELLED, CHANGED, FAILED = "running", "done", "cancelled", "changed", "failed"


@dataclass(eq=False)
class Job:
    """One simulation in the background, and what it has found so far."""

    key: str
    version: Any
    spec: SimSpec
    runs: int
    seconds: float
    state: str = RUNNING
    #: Why it stopped: "" while running; the bound it reached, or who stopped it.
    why: str = ""
    done: int = 0
    tally: Tally | None = None
    started: float = field(default_factory=time.monotonic)
    #: Seconds from the start to the first figures, and to the end.
    first_after: float | None = None
    took: float | None = None
    _figures: dict[str, Any] | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _ended: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _listeners: list[Callable[[], None]] = field(default_factory=list)
    #: Pages that follow the job (it is cancelled when the last one goes).
    watchers: int = 0
    #: What the job does instead of playing its runs (a tune), and its steps (``done``
    #: counts them), with what it found.
    work: Work | None = None
    steps: int | None = None
    result: Any = None

    @property
    def running(self) -> bool:
        return self.state == RUNNING

    @property
    def fraction(self) -> float:
        """How far it has gone, 0 to 1 (runs, or time, whichever is further)."""
        if not self.running:
            return 1.0
        by_time = (time.monotonic() - self.started) / self.seconds
        return min(1.0, max(self.done / (self.steps or self.runs), by_time))

    def figures(self) -> dict[str, Any] | None:
        """The figures of the runs finished so far (``None`` before the first batch)."""
        with self._lock:
            if self._figures is None and self.tally is not None and self.tally.n:
                self._figures = self.tally.figures()
            return self._figures

    def cancel(self, why: str = CANCELLED) -> None:
        """Stop the job (its figures so far stay); nothing if it has ended."""
        if self.state == RUNNING:
            self.why = why
            self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job ends (tests, the command line); whether it has."""
        return self._ended.wait(timeout)

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` (from the job's thread) at each batch and at the end;
        returns the way to stop."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _tell(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener()
            except Exception:  # a listener gone wrong stops nothing
                log.exception("a listener of the odds of %s failed", self.key)

    def _add(self, found: list[Outcome]) -> None:
        with self._lock:
            if self.tally is None:
                self.tally = Tally(self.spec.sides)
            self.tally.add(found)
            self.done = self.tally.n
            self._figures = None
        if self.first_after is None:
            self.first_after = time.monotonic() - self.started
        self._tell()

    def _end(self, state: str, why: str) -> None:
        self.took = time.monotonic() - self.started
        self.state, self.why = state, why
        self._ended.set()
        self._tell()


class FightOdds:
    """The background jobs of one server process (or one command): at most one a key."""

    def __init__(self, settings: OddsSettings | None = None) -> None:
        self.settings = settings or OddsSettings()
        self._jobs: dict[str, Job] = {}
        self._cache: OrderedDict[tuple[str, Any], Job] = OrderedDict()
        self._lock = threading.RLock()
        self._backend: Any = None
        self._linger: threading.Timer | None = None
        self._closed = False
        #: Jobs started (not those found in the cache): for the tests.
        self.started = 0

    def __enter__(self) -> FightOdds:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- jobs -------------------------------------------------------------------------------

    def job(self, key: str) -> Job | None:
        """The running job of ``key``, else the last one that ended."""
        with self._lock:
            return self._jobs.get(key)

    def cached(self, key: str, version: Any) -> Job | None:
        """The finished job of ``key`` at ``version``, if it is kept."""
        with self._lock:
            found = self._cache.get((key, version))
            if found is not None:
                self._cache.move_to_end((key, version))
            return found

    def start(
        self,
        key: str,
        version: Any,
        make: Callable[[], SimSpec],
        runs: int | None = None,
        seconds: float | None = None,
        work: Work | None = None,
        steps: int | None = None,
    ) -> Job:
        """The job of ``key`` at ``version``: the finished one in the cache, the one
        running, or a new one of the spec ``make()`` gives (a running job of another
        version is cancelled first). ``make`` may raise :class:`ValueError`."""
        with self._lock:
            if self._closed:
                raise ValueError("the server is stopping: no new odds")
            found = self.cached(key, version)
            if found is not None:
                return found
            running = self._jobs.get(key)
            if running is not None and running.running:
                if running.version == version:
                    return running
                running.cancel(CHANGED)
            job = Job(
                key,
                version,
                make(),
                runs or self.settings.runs,
                seconds or self.settings.seconds,
                work=work,
                steps=steps,
            )
            self._jobs[key] = job
            self.started += 1
            if self._linger is not None:
                self._linger.cancel()
                self._linger = None
            backend = self._backend_now()
        thread = threading.Thread(target=self._run, args=(job, backend), daemon=True)
        thread.name = f"odds {key}"
        thread.start()
        return job

    def cancel(self, key: str, why: str = CANCELLED) -> bool:
        """Cancel the running job of ``key``; whether there was one."""
        job = self.job(key)
        if job is None or not job.running:
            return False
        job.cancel(why)
        return True

    def changed(self, key: str, version: Any) -> None:
        """``key`` is now at ``version``: a job of another version is cancelled."""
        job = self.job(key)
        if job is not None and job.running and job.version != version:
            job.cancel(CHANGED)

    @contextlib.contextmanager
    def watching(self, job: Job) -> Iterator[Job]:
        """A page follows ``job`` while the block runs; when the last page that followed
        it goes, a job still running is cancelled."""
        with self._lock:
            job.watchers += 1
        try:
            yield job
        finally:
            with self._lock:
                job.watchers -= 1
                last = job.watchers == 0
            if last:
                job.cancel("the page closed")

    def close(self) -> None:
        """Cancel every job and stop the worker processes."""
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel("the server is stopping")
        for job in jobs:
            job.wait(30)
        self._shut()

    # -- the worker processes -------------------------------------------------------------

    def _backend_now(self) -> Any:
        if self._backend is None:
            if self.settings.dask is not None:
                self._backend = _Dask(self.settings.dask)
            elif self.settings.workers == 0:
                self._backend = _Local()
            else:
                self._backend = _Pool(self.settings.workers, self.settings.niceness)
        return self._backend

    def _shut(self) -> None:
        with self._lock:
            backend, self._backend = self._backend, None
            if self._linger is not None:
                self._linger.cancel()
                self._linger = None
        if backend is not None and hasattr(backend, "close"):
            backend.close()

    def _idle(self) -> None:
        """A job ended: when none runs, the workers go after :attr:`OddsSettings.linger`."""
        with self._lock:
            if any(j.running for j in self._jobs.values()) or self._backend is None:
                return
            if self._linger is not None:
                self._linger.cancel()
            self._linger = threading.Timer(self.settings.linger, self._shut_if_idle)
            self._linger.daemon = True
            self._linger.start()

    def _shut_if_idle(self) -> None:
        with self._lock:
            if any(j.running for j in self._jobs.values()):
                return
        self._shut()

    def _run(self, job: Job, backend: _Backend) -> None:
        state, why = DONE, ""
        try:
            state, why = self._play(job, backend)
        except Exception as err:  # one clear line for the page; the log has the rest
            log.exception("the odds of %s failed", job.key)
            state, why = FAILED, str(err).splitlines()[0] if str(err) else type(err).__name__
            if isinstance(err, BrokenProcessPool):  # a worker died: the next job, a new one
                with self._lock:
                    if self._backend is backend:
                        self._backend = None
                backend.close()  # type: ignore[attr-defined]
        finally:
            job._end(state, why)
            if state == DONE:
                with self._lock:
                    self._cache[(job.key, job.version)] = job
                    while len(self._cache) > self.settings.cached:
                        self._cache.popitem(last=False)
            self._idle()

    def _play(self, job: Job, backend: _Backend) -> tuple[str, str]:
        """Play ``job``: its own work (a tune), or its runs until they are done, its
        time is up or it is stopped."""
        deadline = job.started + job.seconds
        if job.work is not None:
            return job.work(job, lambda spec: self._batches(job, backend, spec, deadline))
        self._batches(job, backend, job.spec, deadline, job._add)
        if job._stop.is_set():
            return (CHANGED if job.why == CHANGED else CANCELLED), job.why
        if job.done < job.runs:
            return DONE, f"stopped at {job.seconds:g} s"
        return DONE, ""

    def _batches(
        self,
        job: Job,
        backend: _Backend,
        spec: SimSpec,
        deadline: float,
        each: Callable[[list[Outcome]], None] | None = None,
    ) -> list[Outcome] | None:
        """``job.runs`` runs of ``spec`` in batches, two in flight, in order (``each``
        told of every batch); ``None`` if stopped or out of time before the end."""
        all_seeds = seeds(self.settings.seed, job.runs)
        parts: list[list[SeedSequence]] = []
        at, size = 0, self.settings.first_batch
        while at < len(all_seeds):
            parts.append(list(all_seeds[at : at + size]))
            at += size
            size = self.settings.batch
        flying: list[Any] = []
        found: list[Outcome] = []
        nxt = 0
        while True:
            while len(flying) < 2 and nxt < len(parts) and not job._stop.is_set():
                flying.append(backend.submit(spec, parts[nxt]))
                nxt += 1
            if not flying:
                break
            if job._stop.is_set() or time.monotonic() >= deadline:
                for future in flying:
                    future.cancel()
                return None
            if not flying[0].done():
                # Asked 50 times a second (a Dask future's result with a timeout is not
                # reliable); a cancel wakes it at once.
                job._stop.wait(POLL)
                continue
            batch = flying.pop(0).result()
            found += batch
            if each is not None:
                each(batch)
        return None if job._stop.is_set() else found

    def tune(
        self,
        key: str,
        version: Any,
        spec: SimSpec,
        knob: Any,
        side: str,
        target: float,
        runs: int = 200,
        seconds: float = 30.0,
    ) -> Job:
        """A job searching ``knob`` (:mod:`fracas.lab.tune`) for ``side``'s ``target``
        win rate, ``runs`` runs a value, within ``seconds``; its result is ``job.result``."""
        from fracas.lab import tune as lab_tune

        seconds = min(seconds, lab_tune.MAX_SECONDS)
        if side not in spec.sides:
            raise ValueError(f"no side {side!r} here (sides: {', '.join(spec.sides)})")

        def work(job: Job, play: Callable[[SimSpec], list[Outcome] | None]) -> tuple[str, str]:
            def point(result: Any) -> None:
                job.result = result
                job.done = len(result.points)
                job._tell()

            result = lab_tune.tune(spec, knob, side, target, play, seconds=seconds, on_point=point)
            job.result = result
            if job._stop.is_set():
                return (CHANGED if job.why == CHANGED else CANCELLED), job.why
            return DONE, result.why

        planned = min(len(knob.values), lab_tune.MAX_VALUES)
        return self.start(key, version, lambda: spec, runs, seconds, work=work, steps=planned)


def describe(job: Job) -> str:
    """One line on where ``job`` stands.

    >>> from fracas.lab.runner import spec_from_file
    >>> job = Job("k", 0, spec_from_file("examples/heimr/duel.yaml", {}), 100, 10.0)
    >>> describe(job)
    'running: 0 of 100 runs'
    """
    if job.state == RUNNING:
        return f"running: {job.done:,} of {job.runs:,} runs"
    if job.state == DONE:
        extra = f" ({job.why})" if job.why else ""
        return f"{job.done:,} runs{extra}"
    if job.state == CHANGED:
        return f"stopped after {job.done:,} runs: the fight changed"
    if job.state == FAILED:
        return f"failed: {job.why}"
    return f"cancelled after {job.done:,} runs" + (f" ({job.why})" if job.why else "")


def by_side(found: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The sides' win rates of :func:`figures`, as rows (percentages, rounded)."""
    rows = []
    for side, got in found["sides"].items():
        rate = got["win_rate"] or 0.0
        rows.append(
            {
                "side": side,
                "rate": round(100 * rate),
                "low": round(100 * got["ci95"][0]),
                "high": round(100 * got["ci95"][1]),
            }
        )
    return rows
