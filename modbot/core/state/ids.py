"""Theory of operation: the character ids that code outside the characters package names.

Character knowledge lives in `modbot/core/characters/`; elsewhere a character is named by one
of these constants, never by a string, so that `grep` finds every place that treats it
specially (and `modbot/cli/doctables.py` finds them all, by character, for docs/characters.md). They are values, on the
ground floor, so every floor may name a character.
"""

ASSASSIN = "assassin"
BARBER = "barber"
BONE_COLLECTOR = "bonecollector"
BUTCHER = "butcher"
DAMSEL = "damsel"
DJINN = "djinn"
DOPPELGANGER = "doppelganger"
DRUNK = "drunk"
FANG_GU = "fanggu"
FEARMONGER = "fearmonger"
FIDDLER = "fiddler"
GODFATHER = "godfather"
GOON = "goon"
HELLS_LIBRARIAN = "hellslibrarian"
HOSTESS = "hostess"
HARLOT = "harlot"  # the official character the seeds' Hostess is exported as
HUNTSMAN = "huntsman"
LIL_MONSTA = "lilmonsta"
LUNATIC = "lunatic"
MARIONETTE = "marionette"
MEZEPHELES = "mezepheles"
MONK = "monk"
MOONCHILD = "moonchild"
NO_DASHII = "nodashii"
PHILOSOPHER = "philosopher"
PIT_HAG = "pithag"
PUZZLEMASTER = "puzzlemaster"
REVOLUTIONARY = "revolutionary"
SAGE = "sage"
SNAKE_CHARMER = "snakecharmer"
SOLDIER = "soldier"
SPY = "spy"
SWEETHEART = "sweetheart"
VIGORMORTIS = "vigormortis"
VORTOX = "vortox"
WIDOW = "widow"
