"""Theory of operation: everything a game needs before it runs.

`modbot check` (`preflight.py`, asking the forum patiently: `asking.py`) binds every place to
its forum account; sign-ups (`signups.py`) make the seats; `modbot game new` posts the opening
(`opening.py`) with each game's seal salt (`seal_salt.py`). At `modbot run`, the start-up
(`startup.py`) starts each game once its names are known forum users (`deal_guard.py`),
busiest first.
"""
