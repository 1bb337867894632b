"""Theory of operation: the daemon.

`daemon.py` reads the configuration and starts the loop (`run_loop.py`), which runs a cycle of
the service (`service.py`: read, decide, commit, write) when the forum's news or the request
plan says so, and drains the outbox every second. `compose.py` puts the bot together one way
wherever it runs; `settings.py` holds the daemon's settings.
"""
