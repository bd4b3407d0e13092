"""The terminal tracker behind ``fracas play``: an interface over the table service."""

from fracas.tracker.tracker import Leave, Tracker

__all__ = ["Leave", "Tracker"]
