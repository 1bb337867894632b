"""modbot: a moderator bot for Blood on the Clocktower games played by post on Discourse."""

__version__ = "0.1.0"
