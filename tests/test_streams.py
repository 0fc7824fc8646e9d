"""heartslib.streams: per-seat and spectator event streams. A client that follows a stream ends in the
observation the engine gives; the redaction shows no hidden card (the leak harness over every preset); a
live Follower gives the same events as a replay."""

from __future__ import annotations

import json
import random

import pytest

import heartslib as hl
from heartslib import strategies as hst
from heartslib.streams import (
    PRIVATE_FIELDS,
    EventKind,
    Follower,
    StreamEvent,
    events_for,
    follow,
    spectator_events,
    visible_events,
)
from heartslib.testing import check_no_leak

PRESETS = hl.preset_names()


def _played(name: str, steps: int, seed: int = 3) -> hl.Match:
    m = hl.Match(hl.preset(name), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            break
        m.apply(hst.random_action(m, rng))
    return m


def _public(obs: hl.Observation) -> dict[str, object]:
    data = obs.to_dict()
    return {k: v for k, v in data.items() if k not in PRIVATE_FIELDS}


@pytest.mark.parametrize("name", PRESETS)
def test_following_a_seat_stream_ends_in_its_observation(name: str) -> None:
    m = _played(name, 130)
    for seat in range(m.variant.players):
        events = events_for(m, seat)
        assert [e.number for e in events] == list(range(len(events)))
        assert follow(events) == m.observation(seat).to_dict()
        # and from the JSON a server sends
        assert follow(json.loads(json.dumps([e.to_dict() for e in events]))) == m.observation(seat).to_dict()
    assert follow(spectator_events(m)) == _public(m.observation(0))


@pytest.mark.parametrize("name", ["standard", "cancellation", "black_maria"])
def test_a_live_follower_gives_the_replayed_stream_and_its_view_at_every_step(name: str) -> None:
    m = hl.Match(hl.preset(name).replace(end={"target": 40}), seed=11)
    rng = random.Random(11)
    followers = [Follower(m, seat) for seat in range(m.variant.players)] + [Follower(m, None)]
    live: list[list[StreamEvent]] = [f.update() for f in followers]
    while not m.is_over:
        m.apply(hst.random_action(m, rng))
        for f, got in zip(followers, live, strict=True):
            got += f.update()
            expected = _public(m.observation(0)) if f.viewer is None else m.observation(f.viewer).to_dict()
            assert follow(got) == expected
    for seat in range(m.variant.players):
        assert live[seat] == events_for(m, seat)
    assert live[-1] == spectator_events(m)
    assert live[-1][-1].kind is EventKind.END and live[-1][-1].winners == m.winners
    assert live[-1][-1].points == m.scores


def test_another_seats_pass_shows_no_card_and_the_exchange_only_what_the_viewer_received() -> None:
    m = _played("standard", 4)  # every seat has passed: the exchange is done
    events = events_for(m, 1)
    passes = [e for e in events if e.kind is EventKind.PASS]
    assert len(passes) == 4
    for e in passes:
        mine = next(a for a in m.actions if a.seat == e.seat)
        assert e.cards == (mine.cards if e.seat == 1 else None)
    (exchange,) = [e for e in events if e.kind is EventKind.EXCHANGE]
    assert exchange.cards == m.round.received[1]
    spectator = spectator_events(m)
    assert all(e.cards is None for e in spectator if e.kind in (EventKind.PASS, EventKind.EXCHANGE))
    assert all(not set(PRIVATE_FIELDS) & set(e.changes) for e in spectator)


def test_a_trick_that_brings_kitty_cards_shows_them_only_as_played_cards_and_no_points() -> None:
    # cancellation hearts: the kitty goes with the first trick, unseen by the other seats
    m = _played("cancellation", 30)
    tricks = [e for e in events_for(m, 0) if e.kind is EventKind.TRICK and e.seat is not None]
    first = tricks[0]
    played = m.rounds[0].round.tricks[0] if m.rounds else m.round.tricks[0]
    assert first.cards == played.cards and first.points is None
    kitty = [e for e in spectator_events(m) if e.kind is EventKind.KITTY]
    assert kitty and all(e.cards is None for e in kitty)


def test_a_plain_trick_carries_its_points() -> None:
    m = _played("standard", 60)
    tricks = [e for e in events_for(m, 0) if e.kind is EventKind.TRICK]
    won = [e for e in m.events if isinstance(e, hl.TrickWon)]
    assert [e.points for e in tricks] == [(w.points,) for w in won]


def _seat_stream(r: hl.Round, seat: int) -> object:
    kitty_seen = r.variant.deck.kitty_seen_by_winner
    return [e.to_dict() for e in visible_events(r.events, seat, kitty_seen=kitty_seen)], r.observation(seat)


def _spectator_stream(r: hl.Round, seat: int) -> object:
    return [e.to_dict() for e in visible_events(r.events, None, kitty_seen=r.variant.deck.kitty_seen_by_winner)]


@pytest.mark.parametrize("name", PRESETS)
def test_no_preset_stream_leaks_a_hidden_card(name: str) -> None:
    # a stream is its redacted events plus changes taken from the observation (leak-free on its own): the
    # redaction of a hand's whole log must not show a seat any card it cannot know
    for view in (_seat_stream, _spectator_stream):
        check_no_leak(view, hl.preset(name), max_examples=10)


def test_the_leak_harness_catches_a_stream_without_redaction() -> None:
    def unredacted(r: hl.Round, seat: int) -> object:
        # every seat's deal, as a stream that forgot to redact would send it
        return _seat_stream(r, seat), r.hands

    with pytest.raises(AssertionError, match="changed when"):
        check_no_leak(unredacted, hl.preset("standard"), max_examples=60)


def test_a_bad_viewer_is_refused_naming_the_seats() -> None:
    m = hl.Match(hl.preset("standard"), seed=1)
    with pytest.raises(hl.IllegalAction, match="from 0 to 3"):
        events_for(m, 4)
    with pytest.raises(hl.IllegalAction, match="spectator_events"):
        events_for(m, None)  # type: ignore[arg-type]


def test_a_scripted_match_is_refused_as_its_save_is() -> None:
    m = hl.Match(hl.preset("standard"), seed=1)
    m.script_next_deal(_pack())
    with pytest.raises(hl.SaveError, match="scripted"):
        events_for(m, 0)


def _pack() -> list[hl.Card]:
    r = hl.Round.deal(hl.preset("standard"), seed=2)
    return [c for h in r.hands for c in h]


@pytest.mark.parametrize("name", ["standard", "omnibus", "black_maria", "gong_zhu"])
def test_a_view_written_through_the_record_cache_equals_the_plain_one_at_every_step(name: str) -> None:
    from heartslib.streams import RecordCache, view_data

    m = hl.Match(hl.preset(name), 6)
    rng = random.Random(6)
    caches = {viewer: RecordCache() for viewer in (0, 2, None)}
    for _ in range(120):
        if m.is_over:
            break
        m.apply(rng.choice(list(m.legal_actions(m.to_act[0]))))
        for viewer, cache in caches.items():
            assert view_data(m.round, viewer, cache) == view_data(m.round, viewer)


def test_the_streams_refuse_what_is_not_a_match_or_an_event() -> None:
    # a Round or a string raised AttributeError (Follower only at update()), malformed data KeyError
    r = hl.Round.deal(hl.preset("standard"), seed=1)
    for call in (lambda: events_for(r, 0), lambda: Follower(r, 0), lambda: events_for("x", 0)):  # type: ignore[arg-type]
        with pytest.raises(hl.IllegalAction, match="expected a Match") as info:
            call()
        assert info.value.code == "bad_argument"
    with pytest.raises(hl.IllegalAction, match="event 0 is not a stream event"):
        follow([{"kind": "bogus"}])
    with pytest.raises(hl.IllegalAction, match="follow takes a sequence of events, not 'abc'"):
        follow("abc")  # type: ignore[arg-type]
