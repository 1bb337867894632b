"""Theory of operation: the forum is the truth, the database a cache.

A game the database lost is rebuilt from the forum alone (`recovery.py`, `rebuild.py`); a
restart restores a game from its snapshot rather than folding its whole log (`snapshot.py`);
an upgrade whose rules would change a live game's history is held and shown to the
Storytellers, never applied silently (`upgrade.py`).
"""
