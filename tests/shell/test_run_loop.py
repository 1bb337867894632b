"""The daemon's loop (app/running/run_loop.py): reads a busy minute put off are read again as soon as
the request budget has room for a live read, with what the bus named since; a cycle runs the
second a moment is due, once; without the bus, a timed cycle keeps to the key's pace."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from modbot.adapters.budget import Budget
from modbot.app.reading.intake import Wake
from modbot.app.running.run_loop import EVERYTHING, RunLoop
from modbot.app.running.service import CycleReport

T = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Service:
    """What the loop asks of the service: its cycles' reads are recorded; the first `cut`
    cycles are put off by the budget."""

    def __init__(self, cut: int = 0) -> None:
        self.read: list[Wake | None] = []
        self.cut = cut
        self.due_at: datetime | None = None
        self.games: dict = {}
        self.intake = self  # the service's reading: here, the same fake

    def cycle(self, now, wake=None) -> CycleReport:
        self.read.append(wake)
        unread = len(self.read) <= self.cut
        return CycleReport(deferred=["over the request budget"] if unread else [],
                           unread=unread)

    def moment_due(self, _games, now) -> bool:
        return self.due_at is not None and self.due_at <= now


class Bus:
    def __init__(self) -> None:
        self.named: set[str] = set()
        self.healthy = True

    def has_news(self) -> bool:
        return bool(self.named)

    def take_wake(self) -> Wake | None:
        named, self.named = self.named, set()
        return Wake.of(named) if named else None


class Nothing:
    setups = ()

    def cycle(self, _now) -> None:
        pass

    def seated_games(self) -> list:
        return []


def _loop(service: Service, clock: Clock):
    class Config:
        bus_sweep_seconds = 300
        poll_seconds = 15
        games = ()

    class Client:
        budget = Budget(2, clock=clock)

    class GameClock:
        now = staticmethod(lambda: T + timedelta(seconds=clock.t))

    loop = RunLoop(Config(), Client(), None, service, Nothing(), GameClock())
    loop.bus = Bus()  # type: ignore[assignment]
    loop._kept = lambda: {}  # type: ignore[method-assign]
    return loop, Client.budget


def test_a_woken_cycles_reads_put_off_by_the_budget_run_once_a_live_read_has_room():
    clock = Clock()
    service = Service(cut=1)
    loop, budget = _loop(service, clock)
    loop.bus.named = {"/topic/7"}
    loop.cycle(woken=True)  # the budget cut its reads
    assert service.read == [Wake(frozenset({7}), False)] and loop.unread == service.read[0]
    budget.charge(), budget.charge()  # the minute is full
    assert not loop._unread_has_room()  # not before the budget has room
    loop.bus.named = {"/notification-alert/1"}  # a PM came meanwhile
    clock.t = 61
    assert loop._unread_has_room()
    loop.cycle(retry=True)
    assert service.read[-1] == Wake(frozenset({7}), True)  # what was cut, and what came
    assert loop.unread is None and not loop._unread_has_room()


def test_a_full_cycle_put_off_reads_everything_again_and_a_timed_cycle_does_not_wait():
    clock = Clock()
    service = Service(cut=1)
    loop, _ = _loop(service, clock)
    loop.cycle()
    assert service.read == [None] and loop.unread == EVERYTHING
    assert not loop._sweep_can_wait()  # the next timed cycle reads, bus or not
    loop.cycle(retry=True)
    assert service.read == [None, None] and loop.unread is None
    assert loop._sweep_can_wait()  # the bus wakes the bot for the rest


def test_a_cycle_runs_the_second_a_moment_is_due_and_once():
    clock = Clock()
    service = Service()
    service.due_at = T + timedelta(seconds=30)
    loop, _ = _loop(service, clock)
    loop.service.drain = lambda: 0  # type: ignore[attr-defined]
    loop.swept_at = loop.seconds()  # the start's full read, just made
    clock.t = 29
    loop._each_second()
    assert service.read == []
    clock.t = 30
    loop._each_second()
    assert service.read == [None]  # a full cycle: the moment is read through
    loop._each_second()  # the moment did not pass (a read held it): the next poll's turn
    assert service.read == [None]


def test_with_the_bus_the_sweep_keeps_to_the_loops_clock():
    """On the sandbox's clock the loop counts forum seconds: the bus's 300 s sweep comes when
    300 of them have passed (five real seconds at 60x), not at the scheduler's real tick."""
    clock = Clock()
    service = Service()
    loop, _ = _loop(service, clock)
    loop.service.drain = lambda: 0  # type: ignore[attr-defined]
    loop.seconds = lambda: float(clock.t)  # the forum's seconds
    loop.swept_at = 0.0
    clock.t = 299
    loop._each_second()
    assert service.read == []  # the bus wakes the bot meanwhile
    clock.t = 300
    loop._each_second()
    assert service.read == [None]  # the sweep: a full read
    assert loop.next_read_in() == 300


def test_without_the_bus_a_timed_cycle_keeps_to_the_keys_pace():
    clock = Clock()
    service = Service()
    loop, _ = _loop(service, clock)
    loop.service.drain = lambda: 0  # type: ignore[attr-defined]
    loop.bus = None  # a forum without the bus: the budget of 2 a minute sets the pace
    assert loop.poll_every() == 2 * 60 / (2 / 4) > 15  # 240 s, though poll_seconds is 15
    loop.cycle()
    assert service.read == [None]
    loop.cycle()  # the scheduler's 15 s tick: too soon for the key
    loop._each_second()
    assert service.read == [None]
    loop.swept_at -= 240  # the pace has passed: the next second reads
    loop._each_second()
    assert service.read == [None, None]


def test_on_a_rehearsal_clock_the_pace_is_counted_in_the_forums_seconds():
    """A rehearsal at 60x: the key's pace (240 forum seconds here) passes in 4 real seconds,
    so the loop reads as often as it would in a real day, no more and no less."""
    clock = Clock()
    service = Service()
    loop, _ = _loop(service, clock)
    loop.seconds = clock  # the clock's seconds (daemon.py's clocks have them): forum time
    loop.service.drain = lambda: 0  # type: ignore[attr-defined]
    loop.bus = None
    loop.cycle()
    clock.t += 200
    loop._each_second()
    assert service.read == [None]  # 200 forum seconds: too soon for the key
    clock.t += 40  # no real time has passed, 240 forum seconds have
    loop._each_second()
    assert service.read == [None, None]


def test_the_forum_clock_is_read_now_and_then_and_followed_at_its_speed(monkeypatch):
    from modbot.app.running import daemon

    class Client:
        reads = 0

        def forum_clock(self):
            Client.reads += 1
            return "2026-12-03T12:00:00Z", 60.0

    real = [1000.0]
    monkeypatch.setattr(daemon.time, "monotonic", lambda: real[0])
    clock = daemon.ForumClock(Client())
    assert clock.now() == T and Client.reads == 1
    real[0] += 1.5  # within RESYNC: followed at 60x, not read
    assert clock.now() == T + timedelta(seconds=90) and Client.reads == 1
    assert clock.seconds() == (T + timedelta(seconds=90)).timestamp()
    assert clock.real_seconds(60) == 1.0  # the bus waits the plan's forum seconds in real ones
    real[0] += 1.0  # RESYNC passed: read again (a jump to a deadline is seen)
    clock.now()
    assert Client.reads == 2
