"""The table service: what every interface (terminal, web, play by post) stands on.

It holds what the core does not: encounter files read from disk, and (as it grows) the
store, the dice mode and the per-side presenter.
"""
