"""The terminal tracker behind ``fracas play``: an interface over the table service."""

from fracas.tracker.tracker import Leave, Tracker, free_name

__all__ = ["Leave", "Tracker", "free_name"]
