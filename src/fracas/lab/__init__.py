"""The designer's lab: encounters played out many times by policies, with statistics.

- :mod:`fracas.lab.policies`: who chooses each action (baselines and each ruleset's own).
- :mod:`fracas.lab.playout`: one encounter played to its end, as an :class:`Outcome`.
- :mod:`fracas.lab.runner`: batches of seeded playouts, on local processes or Dask.
- :mod:`fracas.lab.stats`: win rates with Wilson intervals, quantiles, summaries.
- :mod:`fracas.lab.sweep`: grids of simulations over campaign values, resumable.
- :mod:`fracas.lab.plots`: matplotlib charts of results and sweeps.
"""

from fracas.lab.playout import Outcome, play_out

__all__ = ["Outcome", "play_out"]
