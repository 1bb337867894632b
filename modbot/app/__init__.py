"""Theory of operation: the shell around the pure core, in rooms along the cycle.

`running/` (the daemon, its loop and the service's cycle) reads the forum with `reading/`,
gives each input to its game in `games/` (which asks the core, `modbot/core/`, what it
means), and sends what the games owe through `posting/` (and `picture/`) to the outbox
(`modbot/adapters/`). `starting/` is everything before a game runs (checks, sign-ups, the
start-up); `recovery/` rebuilds a game from the forum, restores snapshots and guards upgrades.
"""
