"""The pure rules core: parsing and game rules. Standard library only; no I/O, no clock,
no randomness. Time always comes in as an argument."""
