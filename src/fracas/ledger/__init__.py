"""The campaign's books: campaigns in the store, every change an entry that can be undone,
sheets folded from the entries as they stood on any date (issue #12)."""

from fracas.ledger.entries import LedgerError, Standing
from fracas.ledger.ledger import CampaignInfo, Entry, Ledger

__all__ = ["CampaignInfo", "Entry", "Ledger", "LedgerError", "Standing"]
