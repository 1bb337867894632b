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
- `characters/`: what each character knows, does and triggers (see `characters/index.py`);
- `setup/`: scripts, set-up checks and proposals, dice;
- each feature says who is told what of its events (`Notice` values, `notices_of`);
- `registry.py` builds every table from an explicit list of features; `engine.py` drives the
  game forward; `reporting.py` replays and reports.
"""

from .characters.boomdandy import BOOM_DEATH, BoomdandyExploded, CountdownEnded, CountdownStarted
from .characters.fabled import FiddleEnded, FiddleOpened
from .characters.madness import MadnessNoted, PixieMayGain
from .characters.public_abilities import PublicAbilityUsed
from .characters.travellers import ButcherResolved, ExileRefused
from .characters.triggers import (
    ABILITY_DEATH,
    PsychopathExecuted,
    ScarletWomanPromoted,
    SweetheartDied,
    UntoldDelivered,
)
from .characters.wins import EvilTeamLost, WinDetected
from .command_line import is_lone_confirm, parse_commands
from .command_line import listed as storyteller_commands
from .deciding.activity import BOOKKEEPING
from .deciding.count_facts import count_facts
from .deciding.hand_nudge import HandNudged, waiting_since
from .deciding.voting import (
    NOTE_NO_TOKEN_CAST,
    about_to_die,
    about_to_die_now,
    is_decided,
    leading_others,
    leading_so_far,
    max_possible,
    needs,
    population,
    threshold_now,
)
from .engine import Post, advance, handle_pm, handle_post, next_due
from .feature import CARRIED, CHANGED, COUNT, DAY_END, OBSERVERS, PLAYER, STORYTELLERS, THREAD, Notice
from .night.choices import acting_character, lock_at
from .night.commands import (
    SetupAccepted,
    SetupChecked,
    SetupProposed,
    SheetRequested,
    SilenceCalled,
    SpokeInSilence,
)
from .night.deal_notices import role_view
from .night.grimoire_table import grimoire_rows
from .night.notices import sheet_view
from .reading.commands import Confirm
from .reading.parser import parse_post
from .record import SCHEMA_VERSION, game_record
from .registry import EVENT_TYPES, notices_of
from .registry import apply as apply_event
from .renaming import handle_name_taken, handle_rename
from .reporting import replay, report
from .seal import commitment
from .setup.composition import dealt_text, problems, propose
from .signups import SignupChange, SignupRules, Signups
from .signups import commands_in as signup_commands_in
from .signups import fold as fold_signups
from .state import ids as character_ids
from .state.events import (
    DayEnded,
    Nominated,
    NominationClosed,
    PhaseChanged,
    PlayerDied,
    StorytellerConsultRequested,
    UsualFormSuggested,
    VoteCast,
    VoteLocked,
    VoteWithdrawn,
    WhisperBroken,
    WhisperLimitExceeded,
)
from .state.grimoire import BABYSITTER, is_evil, players_of_team, true_character
from .state.model import (
    EXILE,
    GameSetup,
    GameState,
    GrimoireEntry,
    Nomination,
    Phase,
    PhaseLengths,
    Profile,
    Seat,
    iso,
)
from .state.names import Roster
from .state.private_events import (
    AnswerSent,
    ApprovalReminded,
    CharactersDealt,
    DawnDelayed,
    DayAbilityRequested,
    DealWaiting,
    FearmongerChoseNew,
    NightChoiceMade,
    NightLocked,
    NightReminded,
    NightResolved,
    WhisperPmFlagged,
    night_of,
)
from .state.script import Character, Script, character_key
from .state.staff_events import (
    AliasLapsed,
    GameEnded,
    NominationCancelled,
    PlayerRevived,
    VoteCorrected,
    VoteCountRequested,
    VotesUnlocked,
)
from .wording import Say, free, say

__all__ = [
    "ABILITY_DEATH",
    "BABYSITTER",
    "BOOKKEEPING",
    "BOOM_DEATH",
    "CARRIED",
    "CHANGED",
    "COUNT",
    "DAY_END",
    "EVENT_TYPES",
    "EXILE",
    "NOTE_NO_TOKEN_CAST",
    "OBSERVERS",
    "PLAYER",
    "SCHEMA_VERSION",
    "STORYTELLERS",
    "THREAD",
    "AliasLapsed",
    "AnswerSent",
    "ApprovalReminded",
    "BoomdandyExploded",
    "ButcherResolved",
    "Character",
    "CharactersDealt",
    "Confirm",
    "CountdownEnded",
    "CountdownStarted",
    "DawnDelayed",
    "DayAbilityRequested",
    "DayEnded",
    "DealWaiting",
    "EvilTeamLost",
    "ExileRefused",
    "FearmongerChoseNew",
    "FiddleEnded",
    "FiddleOpened",
    "GameEnded",
    "GameSetup",
    "GameState",
    "GrimoireEntry",
    "HandNudged",
    "MadnessNoted",
    "NightChoiceMade",
    "NightLocked",
    "NightReminded",
    "NightResolved",
    "Nominated",
    "Nomination",
    "NominationCancelled",
    "NominationClosed",
    "Notice",
    "Phase",
    "PhaseChanged",
    "PhaseLengths",
    "PixieMayGain",
    "PlayerDied",
    "PlayerRevived",
    "Post",
    "Profile",
    "PsychopathExecuted",
    "PublicAbilityUsed",
    "Roster",
    "Say",
    "ScarletWomanPromoted",
    "Script",
    "Seat",
    "SetupAccepted",
    "SetupChecked",
    "SetupProposed",
    "SheetRequested",
    "SignupChange",
    "SignupRules",
    "Signups",
    "SilenceCalled",
    "SpokeInSilence",
    "StorytellerConsultRequested",
    "SweetheartDied",
    "UntoldDelivered",
    "UsualFormSuggested",
    "VoteCast",
    "VoteCorrected",
    "VoteCountRequested",
    "VoteLocked",
    "VoteWithdrawn",
    "VotesUnlocked",
    "WhisperBroken",
    "WhisperLimitExceeded",
    "WhisperPmFlagged",
    "WinDetected",
    "about_to_die",
    "about_to_die_now",
    "acting_character",
    "advance",
    "apply_event",
    "character_ids",
    "character_key",
    "commitment",
    "count_facts",
    "dealt_text",
    "fold_signups",
    "free",
    "game_record",
    "grimoire_rows",
    "handle_name_taken",
    "handle_pm",
    "handle_post",
    "handle_rename",
    "is_decided",
    "is_evil",
    "is_lone_confirm",
    "iso",
    "leading_others",
    "leading_so_far",
    "lock_at",
    "max_possible",
    "needs",
    "next_due",
    "night_of",
    "notices_of",
    "parse_commands",
    "parse_post",
    "players_of_team",
    "population",
    "problems",
    "propose",
    "replay",
    "report",
    "role_view",
    "say",
    "sheet_view",
    "signup_commands_in",
    "storyteller_commands",
    "threshold_now",
    "true_character",
    "waiting_since",
]
