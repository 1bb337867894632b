"""Theory of operation: the private side's messages (the `Reactor` calls `private_messages`).

Every player has one conversation with the bot and the Storytellers, their "grimoire PM"
(outbox thread `g{topic}:pm:{player}`): the character they are dealt, answers to their night
commands, reminders and their results at dawn go there. The Storytellers' own conversation
(`g{topic}:pm:storytellers`) gets the night sheet, approval reminders, whisper flags, consult
requests and the daily whisper digest. Only two things here are public, and neither carries
a secret: the dawn delay notice, and (through the discussion post) who died in the night.

Keys are deterministic (night number, player, event time), so a replay owes nothing twice.
Each handler builds its messages with the Reactor's three public builders: `pm` (a player's
grimoire PM), `post` (the thread) and `note_to_storytellers`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import (
    BOOM_DEATH,
    AnswerSent,
    ApprovalReminded,
    BoomdandyExploded,
    ButcherResolved,
    Character,
    CharactersDealt,
    CountdownEnded,
    CountdownStarted,
    DawnDelayed,
    DayAbilityRequested,
    DealWaiting,
    EvilTeamLost,
    ExileRefused,
    FearmongerChoseNew,
    FiddleEnded,
    FiddleOpened,
    GameState,
    MadnessNoted,
    NightChoiceMade,
    NightLocked,
    NightReminded,
    NightResolved,
    PixieMayGain,
    PsychopathExecuted,
    PublicAbilityUsed,
    ScarletWomanPromoted,
    SetupAccepted,
    SetupChecked,
    SetupProposed,
    SheetRequested,
    SilenceCalled,
    SpokeInSilence,
    SweetheartDied,
    UntoldDelivered,
    WinDetected,
    character_ids,
    dealt_text,
    iso,
    lock_at,
    night_of,
    players_of_team,
    say,
    true_character,
)
from .render import render
from .views import date_tag
from .whisper_notes import WHISPER_HANDLERS


def private_messages(reactor, state: GameState, event) -> list:
    handler = _HANDLERS.get(type(event))
    return handler(reactor, state, event) if handler else []


def _st(reactor, state: GameState, key: str, template: str, **context):
    return reactor.note_to_storytellers(state.setup.storytellers, key,
                                       render(template, **context))


# -- the deal ---------------------------------------------------------------------------------

def role_view(state: GameState, player: str) -> dict:
    """What one player is told at the deal (the character they believe they are)."""
    script, entry = state.setup.script, state.grimoire_of(player)
    shown = script.get(entry.thinks or entry.character) or Character(
        entry.thinks or entry.character or "?", entry.thinks or entry.character or "?",
        "unknown", "(not on this game's script: ask the Storyteller)")
    alignment = entry.alignment if entry.alignment and not entry.thinks else \
        ("good" if shown.is_good else "evil" if shown.is_evil else entry.alignment)
    view = {"player": player, "character": shown.name, "team": shown.team,
            "ability": shown.ability, "alignment": script.terms.alignment(alignment),
            "cultists": [], "bluffs": [], "good_bluffs": True, "demon": None,
            "evil_term": script.terms.evil,
            character_ids.BARBER: False, character_ids.FIDDLER: False}
    real = true_character(state, player)
    starts_evil = real is not None and real.is_evil and not entry.thinks
    if starts_evil:
        view["cultists"] = _team_view(state, player, real.team == "demon")
    if starts_evil and real.team == "demon":
        bluffs = [script.get(b) for b in entry.bluffs or state.bluffs if script.get(b)]
        view["bluffs"] = [c.name for c in bluffs]
        view["good_bluffs"] = all(c.is_good for c in bluffs)  # seed 002's may be evil
        view[character_ids.BARBER] = script.get(character_ids.BARBER) is not None
        view[character_ids.FIDDLER] = character_ids.FIDDLER in state.setup.fabled
    view["lil_monsta"] = starts_evil and real.team == "minion" and state.setup.lil_monsta
    view["choose"] = _choose_form(shown.spec)
    view["wakes"] = shown.spec.wakes
    if state.seat(player).traveller and alignment == "evil":
        view["demon"] = ", ".join(players_of_team(state, "demon", False)) or None
    return view


def _choose_form(spec) -> str | None:
    """The one `/choose` form this character uses (None: it never chooses)."""
    if not spec.chooses:
        return None
    names = " ".join(["NAME"] * spec.players)
    if spec.players and spec.characters:
        return f"/choose {names} as CHARACTER"
    return f"/choose {names}" if spec.players else "/choose CHARACTER"


def _team_view(state: GameState, player: str, is_demon: bool) -> list[dict]:
    """The other starting evil players of the player's team and their types. The Marionette
    does not know it is evil and the Minions do not learn it; the Demon does."""
    out, team = [], state.grimoire_of(player).evil_team
    for other in players_of_team(state, "minion", False) + players_of_team(state, "demon", False):
        character = true_character(state, other)
        if other == player or (character.id == character_ids.MARIONETTE and not is_demon) or \
                state.grimoire_of(other).evil_team != team:  # several teams: only your own
            continue
        kind = character.team.capitalize()
        out.append({"player": other, "type": kind + (", the Marionette"
                                                     if character.id == character_ids.MARIONETTE else "")})
    return out


def _setup_checked(reactor, state: GameState, event: SetupChecked) -> list:
    return [_st(reactor, state, f"setup:{iso(event.at)}", "setup_check.md.j2",
                problems=event.problems, accepted=False)]


def _setup_proposed(reactor, state: GameState, event: SetupProposed) -> list:
    grimoire = dict(event.grimoire)
    script = state.setup.script
    rows: list[dict[str, object]] = []
    for seat in state.seats:
        entry = grimoire.get(seat.name)
        if entry is None:
            rows.append({"player": seat.name, "text": "traveller: yours to choose"})
            continue
        rows.append({"player": seat.name, "text": dealt_text(script, entry)})
    return [_st(reactor, state, f"setup-proposed:{iso(event.at)}", "setup_proposed.md.j2",
                rows=rows, bluffs=[script.get(b).name for b in event.bluffs])]


def _setup_accepted(reactor, state: GameState, event: SetupAccepted) -> list:
    return [_st(reactor, state, f"setup-accepted:{iso(event.at)}", "setup_check.md.j2",
                problems=(), accepted=True)]


def _win_detected(reactor, state: GameState, event: WinDetected) -> list:
    terms = state.setup.script.terms if state.setup.script else None
    team = terms.alignment(event.winner) if terms else event.winner
    return [_st(reactor, state, f"win:{event.winner}:{iso(event.at)}", "win_detected.md.j2",
                winner=event.winner, team=team, reason=event.reason)]


def _promoted(reactor, state: GameState, event: ScarletWomanPromoted) -> list:
    """Told at once at night; by day, at dusk (UntoldDelivered)."""
    name = state.setup.script.get(event.character).name
    when = say("st.told_at_dusk") if state.phase.is_day else ""
    out = [] if state.phase.is_day else [
        reactor.pm(event.player, f"promoted:{event.player}:{iso(event.at)}",
                    render("night_results.md.j2", night=None,
                           lines=[say("tell.scarlet_woman", character=name)]))]
    return [*out, _st(reactor, state, f"promoted-st:{event.player}:{iso(event.at)}",
                      "st_note.md.j2", text=say("st.scarlet_woman", player=event.player,
                                                character=name, when=when))]


def _untold(reactor, state: GameState, event: UntoldDelivered) -> list:
    return [reactor.pm(player, f"untold:{player}:{iso(event.at)}",
                        render("night_results.md.j2", night=None, lines=[text]))
            for player, text in event.messages]


def _sweetheart(reactor, state: GameState, event: SweetheartDied) -> list:
    return [_st(reactor, state, f"sweetheart:{event.player}", "st_note.md.j2",
                text=say("st.sweetheart", player=event.player))]


def _silence(reactor, state: GameState, event: SilenceCalled) -> list:
    return [reactor.post(f"silence:{'on' if event.on else 'off'}:{iso(event.at)}",
                            render("silence.md.j2", on=event.on))]


def _spoke(reactor, state: GameState, event: SpokeInSilence) -> list:
    return [_st(reactor, state, f"spoke:{event.player}:{event.post_number}", "st_note.md.j2",
                text=say("st.spoke_in_silence", player=event.player,
                         post_number=event.post_number))]


def _exploded(reactor, state: GameState, event: BoomdandyExploded) -> list:
    return [_st(reactor, state, f"boom:{event.player}", "st_note.md.j2",
                text=say("st.boomdandy", player=event.player))]


def _countdown(reactor, state: GameState, event: CountdownStarted) -> list:
    dead = [p for p, cause, at in state.deaths_log if cause == BOOM_DEATH and at == event.at]
    return [reactor.post(f"boom-start:{iso(event.at)}",
                            render("boom.md.j2", dead=dead, survivors=event.survivors,
                                   deadline=date_tag(event.ends_at), ended=False))]


def _countdown_ended(reactor, state: GameState, event: CountdownEnded) -> list:
    out = [reactor.post(f"boom-end:{iso(event.at)}",
                           render("boom.md.j2", victim=event.victim, counts=event.counts,
                                  ended=True))]
    if event.victim is None:
        out.append(_st(reactor, state, f"boom-tie:{iso(event.at)}", "st_note.md.j2",
                       text=say("st.pointing_tie")))
    return out


def _team_lost(reactor, state: GameState, event: EvilTeamLost) -> list:
    """Each player of the team is told, but a sober and healthy Marionette (seed 002: "never
    informed of changes to their alignment/team, unless they are drunk or poisoned")."""
    good = state.setup.script.terms.good
    out = [reactor.pm(p, f"team-lost:{event.team}:{p}",
                       render("night_results.md.j2", night=None,
                              lines=[say("tell.team_lost", good=good)]))
           for p in event.players if not _unaware_marionette(state, p)]
    out.append(_st(reactor, state, f"team-lost-st:{event.team}", "st_note.md.j2",
                   text=say("st.team_lost", team=event.team, players=event.players, good=good)))
    return out


def _unaware_marionette(state: GameState, player: str) -> bool:
    real, entry = true_character(state, player), state.grimoire_of(player)
    return real is not None and real.id == character_ids.MARIONETTE and not (entry.poisoned or entry.drunk)


def _puzzle(reactor, state: GameState, event: PublicAbilityUsed) -> list:
    if event.ability != character_ids.PUZZLEMASTER:
        return []
    if event.character == "right":
        demons = players_of_team(state, "demon") or say("st.none_alive")
        text = say("st.puzzle_right", player=event.player, target=event.target, demons=demons)
    else:
        text = say("st.puzzle_wrong", player=event.player, target=event.target)
    return [_st(reactor, state, f"puzzle:{event.player}", "st_note.md.j2", text=text)]


def _day_request(reactor, state: GameState, event: DayAbilityRequested) -> list:
    """Acknowledged and put to the Storytellers when declared; else the player is told to
    declare first (seed 001) and the Storytellers see the request flagged."""
    name = state.setup.script.get(event.character).name
    key = f"day-request:{event.player}:{iso(event.at)}"
    return [reactor.pm(event.player, key, render("day_request.md.j2", event=event, name=name)),
            _st(reactor, state, f"{key}:st", "day_request_st.md.j2", event=event, name=name)]


def _answer(reactor, state: GameState, event: AnswerSent) -> list:
    return [reactor.pm(event.player, f"answer:{event.player}:{iso(event.at)}",
                       render("night_results.md.j2", night=None, lines=[event.text]))]


def _dealt(reactor, state: GameState, event: CharactersDealt) -> list:
    return [reactor.pm(seat.name, f"role:{seat.name}",
                        render("role.md.j2", role=role_view(state, seat.name), game=state.setup))
            for seat in state.seats]


def _deal_waiting(reactor, state: GameState, event: DealWaiting) -> list:
    return [_st(reactor, state, f"deal-waiting:{iso(event.at)}", "deal_waiting.md.j2",
                problems=event.problems)]


# -- the night --------------------------------------------------------------------------------

def _choice(reactor, state: GameState, event: NightChoiceMade) -> list:
    names = {c.id: c.name for c in state.setup.script.characters}
    choice = event.choice
    lock = date_tag(lock_at(state)) if event.night == state.cycle else \
        f"night {event.night}'s lock"
    raw = render("night_choice.md.j2", night=event.night, choice=choice.describe(names),
                 passed=choice.passed, free=bool(choice.text), lock=lock, helps=choice.helps)
    helps = f":{choice.helps}" if choice.helps else ""
    return [reactor.pm(choice.player, f"choice:{event.night}:{choice.player}{helps}:"
                        f"{iso(event.at)}", raw)]


def _reminded(reactor, state: GameState, event: NightReminded) -> list:
    raw = render("night_reminder.md.j2", night=event.night, lock=date_tag(lock_at(state)))
    return [reactor.pm(player, f"remind:{event.night}:{player}", raw)
            for player in event.players]


def sheet_view(state: GameState) -> dict:
    night = night_of(state, state.cycle)
    return {"night": night.number, "entries": night.sheet, "deaths": night.deaths,
            "results": dict(night.results), "tells": night.tells,
            "effects": [e.describe() for e in night.effects],
            "dawn": date_tag(state.phase_ends_at)}


def _locked(reactor, state: GameState, event: NightLocked) -> list:
    return [_st(reactor, state, f"sheet:{event.night}", "night_sheet.md.j2",
                sheet=sheet_view(state))]


def _sheet_again(reactor, state: GameState, event: SheetRequested) -> list:
    return [_st(reactor, state, f"sheet:{state.cycle}:{iso(event.at)}", "night_sheet.md.j2",
                sheet=sheet_view(state))]


def _approval_reminder(reactor, state: GameState, event: ApprovalReminded) -> list:
    return [_st(reactor, state, f"approve-reminder:{event.night}", "approval_reminder.md.j2",
                night=event.night, dawn=date_tag(state.phase_ends_at),
                missing=night_of(state, event.night).missing_results())]


def _delayed(reactor, state: GameState, event: DawnDelayed) -> list:
    return [reactor.post(f"dawn-delayed:{event.night}",
                            render("dawn_delayed.md.j2", night=event.night))]


def _fear(reactor, state: GameState, event: FearmongerChoseNew) -> list:
    return [reactor.post(f"fear:{event.night}", render("fear_announced.md.j2"))]


def _madness(reactor, state: GameState, event: MadnessNoted) -> list:
    return [_st(reactor, state, f"madness:{event.day}", "madness.md.j2", day=event.day,
                lines=event.lines)]


def _pixie(reactor, state: GameState, event: PixieMayGain) -> list:
    name = state.setup.script.get(event.character).name
    return [_st(reactor, state, f"pixie:{event.pixie}:{iso(event.at)}", "pixie_may_gain.md.j2",
                pixie=event.pixie, died=event.died, name=name)]


def _fiddle_opened(reactor, state: GameState, event: FiddleOpened) -> list:
    return [reactor.post(f"fiddle-start:{iso(event.at)}",
                            render("fiddle.md.j2", players=event.players, ended=False,
                                   deadline=date_tag(event.ends_at)))]


def _fiddle_ended(reactor, state: GameState, event: FiddleEnded) -> list:
    return [reactor.post(f"fiddle-end:{iso(event.at)}",
                            render("fiddle.md.j2", counts=event.counts, ended=True))]


def _exile_refused(reactor, state: GameState, event: ExileRefused) -> list:
    return [reactor.post(f"exile-refused:{event.player}:{iso(event.at)}",
                            render("deviant.md.j2", player=event.player, votes=event.votes))]


def _butcher(reactor, state: GameState, event: ButcherResolved) -> list:
    return [reactor.post(f"butcher:{event.nominee}:{iso(event.at)}",
                            render("butcher.md.j2", nominee=event.nominee, votes=event.votes,
                                   executed=event.executed))]


def _roshambo(reactor, state: GameState, event: PsychopathExecuted) -> list:
    against = event.opponent or say("st.roshambo_you")
    return [_st(reactor, state, f"roshambo:{event.player}:{iso(event.at)}", "st_note.md.j2",
                text=say("st.roshambo", player=event.player, against=against))]


def _resolved(reactor, state: GameState, event: NightResolved) -> list:
    messages: dict[str, list] = {}
    for player, told in event.results:
        if told is not None:
            messages.setdefault(player, []).append(told)
    for player, text in event.tells:
        messages.setdefault(player, []).append(text)
    return [reactor.pm(player, f"result:{event.night}:{player}",
                        render("night_results.md.j2", night=event.night, lines=lines))
            for player, lines in messages.items()]


_HANDLERS: dict[type, Callable[..., list]] = {
    CharactersDealt: _dealt, DealWaiting: _deal_waiting, PublicAbilityUsed: _puzzle,
    SetupChecked: _setup_checked,
    SetupProposed: _setup_proposed, SetupAccepted: _setup_accepted, WinDetected: _win_detected,
    ScarletWomanPromoted: _promoted, FearmongerChoseNew: _fear, EvilTeamLost: _team_lost,
    SweetheartDied: _sweetheart, SilenceCalled: _silence, SpokeInSilence: _spoke,
    BoomdandyExploded: _exploded, CountdownStarted: _countdown, CountdownEnded: _countdown_ended, NightChoiceMade: _choice,
    NightReminded: _reminded, NightLocked: _locked, SheetRequested: _sheet_again,
    ApprovalReminded: _approval_reminder, DawnDelayed: _delayed, NightResolved: _resolved,
    MadnessNoted: _madness, PixieMayGain: _pixie, FiddleOpened: _fiddle_opened,
    FiddleEnded: _fiddle_ended, ExileRefused: _exile_refused, ButcherResolved: _butcher,
    UntoldDelivered: _untold, PsychopathExecuted: _roshambo,
    DayAbilityRequested: _day_request, AnswerSent: _answer,
    **WHISPER_HANDLERS,
}

__all__ = ["private_messages", "role_view", "sheet_view"]
