"""Theory of operation: the commands, one room.

`modbot` parses its arguments in `arguments.py` (the help texts live there) and hands each
command to the module that does its work: `commands.py` (the game and its thread, `run`,
`recover`, `check`), `check.py`, `signups.py`, `login.py`, `status.py`, `setup_check.py`
(`modbot setup`), `export.py` (`export` and `verify`, with `clocktracker.py`), `audit.py`,
`recover.py`, `demo.py`, and the rehearsals (`rehearsal.py`, `browser_rehearsal.py`,
`rehearsal_record.py`, `scripted_town.py`); `config.py` is the configuration and the store a
command's options name; `doctables.py` writes the docs' computed tables
(`python -m modbot.cli.doctables`). The daemon itself is `app/running/`.
"""

from .arguments import main

__all__ = ["main"]
