"""Theory of operation: reading the forum, and only as far as it has been read.

Each cycle `intake.py` finds the game threads with new posts (what Discourse's listings keep)
and the bot's inbox, reads them (`thread_reads.py`: a short thread at once, a long one a few
pages a cycle), and hands each post to the games (`app/games/`). A post is its id, its number
can be reused (`renumbered.py`); a post hidden by flags has no words for the bot
(`hidden.py`); a post that reaches a thread late is held (`late.py`); an edit is found by the
edit sweep (`edit_sweep.py`); a PM is routed to its game (`pm_routing.py`). The watermark
(`watermark.py`) lets a game's clock move only as far as every source of it has been read.
The forum's MessageBus wakes the bot (`bus_watch.py`), and the request plan
(`request_plan.py`) says how often the key lets it read.
"""
