"""Theory of operation: what the bot posts, and only what the rules let anyone see.

`reactions.py` turns what happened in a game into the posts and PMs it owes (outbox rows);
`views.py` builds the plain view models, `render.py` renders them with the templates
(`templates/`, the words: `catalogue.py` and `event_words.py` name every code and event);
`vote_counts.py` numbers and throttles the day's counts; `thread_index.py` keeps the index
post; `grimoire_status.py` answers `!status`; `titles.py` names the conversations. While the
outbox sends, `outbox_hooks.py` answers what it asks of the games,
`conversation_guard.py` keeps private information where the game put it, and `own_edits.py`
watches the bot's own seal and reveal posts. The pictures are `app/picture/`.
"""
