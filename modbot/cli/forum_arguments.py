"""The arguments and help texts of the commands that act on the forum's account: `run`, `recover`,
`login`, `logout` and `check` (arguments.py has the others and the entry point)."""

from __future__ import annotations

import argparse
from typing import Any


def config_option(parser: argparse.ArgumentParser) -> None:
    """`--config`, the configuration file a command reads (default config/modbot.toml)."""
    parser.add_argument("--config", default="config/modbot.toml",
                        help="configuration file (TOML; default: config/modbot.toml)")


def add_forum_commands(commands: Any) -> None:
    """Add the forum's commands to `modbot`'s subparsers."""
    p = commands.add_parser(
        "run", help="run the bot (the daemon) with a configuration file",
        description="Run the bot: poll the forum, count votes, post vote counts and phase "
                    "posts. Stops cleanly on SIGTERM/SIGINT after the current cycle.",
    )
    config_option(p)
    p.add_argument("--max-cycles", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(command="run_command")

    p = commands.add_parser(
        "recover", help="rebuild games from the forum into the database (a lost disk, a move "
                        "to a new machine)",
        description="Rebuild each game of the configuration (or the --game ones) from what the "
                    "forum keeps: its thread and the PMs the bot can see, replayed in the "
                    "order the forum made them; the bot's earlier posts are recognised by their "
                    "markers and never posted again. Sends what the games still owe, tells "
                    "their Storytellers by PM, prints one line a game. A game the database "
                    "still holds is refused unless --replace. `modbot run` does the same by "
                    "itself for a game it has nothing stored for.",
    )
    config_option(p)
    p.add_argument("--game", action="append", metavar="NAME",
                   help="only this game (its name or topic id); repeat for several")
    p.add_argument("--replace", action="store_true",
                   help="drop what the database holds of the game first")
    p.set_defaults(command="recover_command")

    p = commands.add_parser(
        "login", help="get the bot's own User API key, without a forum admin",
        description="Ask the forum for a User API key for the bot's own account (Discourse's "
                    "user API keys: any account the site allows, staff always). Where the "
                    "forum offers Discourse's device flow, prints an address and a code: open "
                    "it signed in as the bot's account, enter the code and authorize; modbot "
                    "waits for the forum's answer. Otherwise (or with --classic) prints an "
                    "address to open and reads the payload the forum then shows. The payload "
                    "is checked (its nonce, this login's RSA key) and the key and its client "
                    "id saved in a file only you can read (mode 0600).",
    )
    p.add_argument("--forum", required=True, help="the forum's address (https://...)")
    p.add_argument("--username", default=None,
                   help="the bot's account: the key is refused if it is another's")
    p.add_argument("--key-file", default="config/modbot.key",
                   help="where to save the key (default: config/modbot.key)")
    p.add_argument("--config", default="config/modbot.toml",
                   help="the configuration the key goes in: the line to add is printed with the "
                        "key file's path relative to it (default: config/modbot.toml)")
    p.add_argument("--print", action="store_true",
                   help="print the key and client id (for environment variables) instead")
    p.add_argument("--classic", action="store_true",
                   help="paste the forum's payload even where the device flow is offered")
    p.add_argument("--timeout", type=float, default=10, help=argparse.SUPPRESS)
    p.set_defaults(command="login_command")

    p = commands.add_parser(
        "logout", help="revoke the bot's User API key on the forum",
        description="Revoke the configuration's User API key on the forum and delete its file.",
    )
    config_option(p)
    p.set_defaults(command="logout_command")

    p = commands.add_parser(
        "check", help="check that the forum, the bot account and every game are ready",
        description="Check, without changing anything: the forum answers; the API key works "
                    "and belongs to the bot account; the account is staff (or what not being "
                    "staff costs); every game topic exists, is a public topic, open and not "
                    "archived; every seat, Storyteller and backup is a forum account who can "
                    "send and receive PMs (with \"did you mean\" for a near miss); the game "
                    "files and scripts load. It binds each place to its forum account: the "
                    "user ids the game file does not give yet are written into it (user_id, "
                    "storyteller_ids, backup_ids, bot_id). One line per problem; exit status "
                    "1 if any, 0 when all is ready.",
    )
    config_option(p)
    p.add_argument("--no-write", action="store_true",
                   help="only report: write no user id into the game files")
    p.set_defaults(command="check_command")
