"""Theory of operation: the games, live.

A game is the fold of its input log (`runtime.py`): `handling.py` gives each post, PM and tick
to its game once its author is judged by user id (`authors.py`, `identities.py`, `renames.py`);
`feeding.py` commits each input with what it caused (`steps.py`), or quarantines an input
that cannot be handled (`quarantine.py`, released by the Storytellers: `releases.py`).
Stored events are read back by `event_codec.py`; `outcomes.py` strips an event of its words.
What the games owe the forum is `app/posting/`'s.
"""
