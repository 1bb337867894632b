"""The core's public API: the only names the shell (and anything outside `modbot.core`) uses.

The core is pure: it reads posts, decides what they cause under the rules, and folds events
into a new state, with no I/O, clock or randomness (time comes in as an argument). Its
packages show the architecture:

- `reading/`: text cleaning, player names, the thread grammar (`parser`) and the
  Storytellers' command grammar (`commands`);
- `deciding/`: player actions and their rules (nominations, votes, whispers), the vote
  arithmetic, the Storytellers' rules and console, whisper PMs;
- `state/`: the model (frozen values) and the events that change it;
- `night/`: night choices and the PM grammar, the night's flow, the night sheet and the
  Storytellers' night commands;
- `characters/`: what each character knows, does and triggers (where each is treated: the
  "Rules in" column of docs/characters.md, computed by `modbot/cli/doctables.py`);
- `setup/`: scripts, set-up checks and proposals, dice;
- each feature says who is told what of its events (`Notice` values, `notices_of`);
- `registry.py` builds every table from an explicit list of features; `engine.py` drives the
  game forward; `reporting.py` replays and reports.
"""

from .characters.lasting import CAUSES as LASTING_CAUSES
from .characters.lasting import ENDS_WITH_DEATH, MARKED_BY_STORYTELLERS
from .characters.records import RECORDS as CHARACTER_RULES
from .characters.wins import EvilTeamLost
from .command_line import is_lone_confirm, parse_commands
from .command_line import listed as storyteller_commands
from .console import CommandReport, lone_release, lone_status, newcomers_named
from .deciding.activity import ASK_GAP as COUNT_ASK_GAP
from .deciding.activity import BOOKKEEPING
from .deciding.count_facts import count_facts
from .deciding.voting import about_to_die, about_to_die_now, leading_so_far
from .engine import Outcome, Post, advance, handle_pm, handle_post, next_due
from .night.grimoire_table import grimoire_rows
from .reading.parser import parse_post
from .record import SCHEMA_VERSION, game_record
from .registry import EVENT_TYPES, notices_of, states_after
from .registry import apply as apply_event
from .renaming import handle_name_taken, handle_rename
from .reporting import replay, report
from .seal import commitment
from .setup.composition import dealt_text, jinxes_said, problems, who_runs
from .setup.proposing import propose
from .signups import SignupRules, Signups
from .signups import commands_in as signup_commands_in
from .signups import fold as fold_signups
from .state.events import Event, PhaseChanged
from .state.feature import CARRIED, CHANGED, COUNT, DAY_END, OBSERVERS, PLAYER, STORYTELLERS, THREAD, Notice
from .state.grimoire import acting_character, is_evil, players_of_team
from .state.model import EXILE, GameSetup, GameState, GrimoireEntry, Phase, PhaseLengths, Profile, Seat, iso
from .state.names import Roster
from .state.observing import observers_of
from .state.rejection import Rejection
from .state.script import Character, Script, character_key
from .state.staff_events import AliasLapsed
from .wording import Say, say

__all__ = [
    "BOOKKEEPING",
    "CARRIED",
    "CHANGED",
    "CHARACTER_RULES",
    "COUNT",
    "COUNT_ASK_GAP",
    "DAY_END",
    "ENDS_WITH_DEATH",
    "EVENT_TYPES",
    "EXILE",
    "LASTING_CAUSES",
    "MARKED_BY_STORYTELLERS",
    "OBSERVERS",
    "PLAYER",
    "SCHEMA_VERSION",
    "STORYTELLERS",
    "THREAD",
    "AliasLapsed",
    "Character",
    "CommandReport",
    "Event",
    "EvilTeamLost",
    "GameSetup",
    "GameState",
    "GrimoireEntry",
    "Notice",
    "Outcome",
    "Phase",
    "PhaseChanged",
    "PhaseLengths",
    "Post",
    "Profile",
    "Rejection",
    "Roster",
    "Say",
    "Script",
    "Seat",
    "SignupRules",
    "Signups",
    "about_to_die",
    "about_to_die_now",
    "acting_character",
    "advance",
    "apply_event",
    "character_key",
    "commitment",
    "count_facts",
    "dealt_text",
    "fold_signups",
    "game_record",
    "grimoire_rows",
    "handle_name_taken",
    "handle_pm",
    "handle_post",
    "handle_rename",
    "is_evil",
    "is_lone_confirm",
    "iso",
    "jinxes_said",
    "leading_so_far",
    "lone_release",
    "lone_status",
    "newcomers_named",
    "next_due",
    "notices_of",
    "observers_of",
    "parse_commands",
    "parse_post",
    "players_of_team",
    "problems",
    "propose",
    "replay",
    "report",
    "say",
    "signup_commands_in",
    "states_after",
    "storyteller_commands",
    "who_runs",
]
