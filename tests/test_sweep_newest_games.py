"""A new user's and a fuzzer's sweep of the games added last: Auction Hearts (``auction_hearts``), two-handed
Hearts (``two_handed``) and Domino Hearts (``domino_hearts``). Each test is named after what a player or a
program relies on; each failed before its fix, except the one that guards what a fix had to keep (a suit still
named by its place in the menu). The /play page's test needs Chromium (tests/test_server_browser.py) and skips
without it."""

from __future__ import annotations

import contextlib
import io
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from heartslib.cli import PlaySession, opponents
from heartslib.record import from_record, from_record_text, record_text, to_record
from heartslib.settlement import AuctionResult
from heartslib.streams import events_for, spectator_events, view_data

STOCK_PRESETS = ("two_handed", "domino_hearts")
NEW_PRESETS = (*STOCK_PRESETS, "auction_hearts")


def _codes(data: Any) -> set[str]:
    """Every text in plain data (an observation's dict, an event's), to look for card codes in."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_codes(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(_codes(v) for v in data)) if data else set()
    return set()


def _held(m: hl.Match) -> set[str]:
    return {c.code for seat in range(m.variant.players) for c in m.round.hand(seat)}


@pytest.mark.parametrize("name", STOCK_PRESETS)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_spectator_never_sees_a_card_a_seat_drew_from_the_stock(name: str, data: st.DataObject) -> None:
    m = data.draw(hst.matches(hl.preset(name), max_steps=60))
    held = _held(m)
    assert not _codes(view_data(m.round, None)) & held
    events = spectator_events(m)
    this_hand = events[max(i for i, e in enumerate(events) if e.kind.value == "deal"):]
    assert not set().union(*(_codes(e.to_dict()) for e in this_hand)) & held


def _session(m: hl.Match, human: int, script: str) -> tuple[PlaySession, io.StringIO]:
    """``heartslib play`` in process: the human at ``human`` typing ``script``, heuristic opponents."""
    out = io.StringIO()
    play = PlaySession(m, human, opponents(m, human), inp=io.StringIO(script), out=out, save_path=None,
                       interactive=False)
    return play, out


@pytest.mark.parametrize("typed", ["1", "5", "50"])
def test_play_a_bid_typed_as_a_number_is_that_bid_not_a_menu_position(typed: str) -> None:
    m = hl.Match(hl.preset("auction_hearts"), seed=1)
    assert m.to_act == (1,)  # the dealer's left bids first
    play, out = _session(m, 1, typed + "\n")
    assert play.run() == 0  # input ends after the bid
    assert m.round.auction is not None and m.round.auction.bids[0] == (1, int(typed)), out.getvalue()


def test_play_a_suit_is_still_named_by_its_place_in_the_menu() -> None:
    m = hl.Match(hl.preset("auction_hearts"), seed=1)
    play, out = _session(m, 0, "1\n3\n")  # the others pass: the dealer must bid; then 3) hearts
    assert play.run() == 0
    auction = m.round.auction
    assert auction is not None and auction.bids[-1] == (0, 1) and auction.penalty_suit == hl.Suit.HEARTS, (
        out.getvalue())
    assert "Bid chips to name the suit to avoid: 1 to 50" in out.getvalue()


def _typing_everything(rounds: int = 400) -> str:
    """Input that a session eventually accepts at every prompt: every card, then the words of the decisions."""
    cards = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    return "\n".join([*cards, "pass", "1", "clubs"] * rounds) + "\n"


def _whole_match(name: str, seed: int) -> tuple[hl.Match, str]:
    m = hl.Match(hl.preset(name), seed=seed)
    play, out = _session(m, 0, _typing_everything())
    assert play.run() == 0 and m.is_over
    return m, out.getvalue()


def _by_seat(values: Sequence[int]) -> str:
    return ", ".join(f"{'you' if seat == 0 else f'seat {seat}'} {x}" for seat, x in enumerate(values))


def test_play_an_auction_tells_the_pot_and_each_seats_chips_after_every_hand_and_at_the_end() -> None:
    m, text = _whole_match("auction_hearts", 4)
    for result in m.rounds:
        assert isinstance(result.settlement, AuctionResult)
        told = text.split(f"Hand {result.hand_number + 1} is over.")[1]
        assert "Chips: " + _by_seat([m.variant.scoring.chips + c for c in result.counters]) in told
        assert f"pot of {result.settlement.pot} chip" in told
    assert "Final chips: " + _by_seat(m.chips) in text[text.index("The match is over"):]


@pytest.mark.parametrize("name", STOCK_PRESETS)
def test_play_tells_who_drew_from_the_stock_and_shows_you_your_own_draws(name: str) -> None:
    m, text = _whole_match(name, 4)
    first = m.rounds[0].round
    mine = first.observation(0)
    assert mine.draws, "the first hand had draws"
    told = text.split("Hand 1 is over.")[0]
    drawn = iter(mine.drawn)
    for _, seat, count in mine.draws:
        if seat == 0:
            cards = " ".join(str(next(drawn)) for _ in range(count))
            assert f"You draw {cards} from the stock." in told
        else:
            assert f"Seat {seat} draws {count} card{'' if count == 1 else 's'} from the stock." in told


# The page's player at an auction: the status line and the line under it, each time it is seat 0's turn (it bids
# 1 where it may, else passes, names hearts, plays the first legal card), and at the end.
_AUCTION_STEP = """(() => {
  const status = document.getElementById("status"), info = document.getElementById("info");
  if (!status) return null;
  const seen = [status.textContent, info ? info.textContent : ""];
  if (status.textContent === "Match over") return ["over", ...seen];
  if (!status.textContent.startsWith("Your turn")) return null;
  const card = document.querySelector("#hand button.legal");
  if (status.textContent.startsWith("Your turn: play")) {
    if (card) card.click();
    return card ? ["played", ...seen] : null;
  }
  const buttons = [...document.querySelectorAll("#options button")];
  const pick = buttons.find((b) => b.textContent === "1") || buttons.find((b) => b.textContent === "hearts")
    || buttons[0];
  if (!pick) return null;  // the options are on their way
  pick.click();
  return seen;
})()"""


def test_the_play_page_says_what_an_auctions_decision_is_and_shows_the_chips_bids_named_suit_and_final_chips(
        tmp_path: Path) -> None:
    page = pytest.importorskip("test_server_browser", reason="the browser test's Chromium and server extra")
    from heartslib.client import Client
    from test_server_e2e import Server, _replayed

    database = str(tmp_path / "tables.sqlite3")
    server = Server(database)
    browser = page.Browser(tmp_path / "profile")
    try:
        with Client(server.url) as host:
            table = host.create("auction_hearts", seats=[None, "heuristic", "heuristic", "heuristic"], seed=1)
        url = server.url.replace("ws://", "http://").removesuffix("/ws") + f"/play?table={table}&seat=0"
        browser.call("Page.navigate", url=url)
        seen: list[list[str]] = []
        for _ in range(20_000):  # bounded by a count, not a clock: until the match is over
            step = browser.evaluate(_AUCTION_STEP)
            if step:
                seen.append(step)
                if step[0] == "over":
                    break
            else:
                time.sleep(0.02)
        (bid, bid_info), (name, _), (_, play, play_info) = seen[:3]
        assert bid == "Your turn: decide: bid chips for the right to name the suit to avoid, or pass"
        assert bid_info.startswith("Chips before this hand: seat 0 50, seat 1 50, seat 2 50, seat 3 50")
        assert name == "Your turn: decide: name the suit to avoid this hand"
        assert play == "Your turn: play a card" and "Suit to avoid: hearts" in play_info
        assert "seat 0 1" in play_info.split("Bids: ")[1]
        m = _replayed(database, table)
        assert seen[-1][0] == "over" and m.is_over
        final = ", ".join(f"seat {seat} {c}" for seat, c in enumerate(m.chips))
        assert seen[-1][2].startswith(f"Final chips: {final}")
        assert browser.errors == []
    finally:
        browser.close()
        server.stop()


def _finished(name: str, seed: int = 3) -> hl.Match:
    m = hl.Match(hl.preset(name), seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(hst.random_action(m, rng))
    return m


def _edited(text: str, starts: str, edit: Callable[[str], str]) -> tuple[str, int]:
    """The text record with its first line starting ``starts`` edited, and that line's number."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(starts))
    lines[at] = edit(lines[at])
    return "\n".join(lines) + "\n", at + 1


_UNREADABLE: list[tuple[str, Callable[[str], str]]] = [
    ("Deal:", lambda line: line.replace("Deal: ", "Deal: ZZ ", 1)),
    ("Kitty:", lambda line: line.replace("Kitty: ", "Kitty: 1e9 ", 1)),  # a stock is written as the kitty
    ("Points:", lambda line: line.replace("Points: ", "Points: x ", 1)),
    ("Totals:", lambda line: line.replace("Totals: ", "Totals: - ", 1)),
]


@pytest.mark.parametrize(("name", "starts", "edit"), [
    (name, starts, edit) for name in NEW_PRESETS for starts, edit in _UNREADABLE
    if not (starts == "Kitty:" and name == "auction_hearts")  # an auction deals the whole pack: no Kitty line
])
def test_a_text_record_with_an_unreadable_card_or_score_is_refused_with_its_line(
        name: str, starts: str, edit: Callable[[str], str]) -> None:
    text, line = _edited(record_text(_finished(name)), starts, edit)
    with pytest.raises(hl.SaveError, match=f"line {line}"):
        from_record_text(text)


@pytest.mark.parametrize("name", NEW_PRESETS)
def test_a_text_record_stating_the_wrong_winners_or_totals_is_refused(name: str) -> None:
    m = _finished(name)
    wrong = next(seat for seat in range(m.variant.players) if seat not in m.winners)
    text = record_text(m)
    winners = " ".join(map(str, m.winners))
    for edit in (lambda line: line.replace(f"winners {winners},", f"winners {wrong},"),
                 lambda line: line[:line.index("totals ")] + "totals " + " ".join(["7"] * m.variant.players)):
        lied, line = _edited(text, "Result:", edit)
        assert lied != text
        with pytest.raises(hl.SaveError, match=f"line {line}"):
            from_record_text(lied)


@pytest.mark.parametrize("name", NEW_PRESETS)
def test_a_text_record_stating_the_wrong_taker_of_a_trick_is_refused(name: str) -> None:
    m = _finished(name)
    first = m.rounds[0].round.tricks[0]
    other = next(seat for seat in range(m.variant.players) if seat != first.winner)
    lied, line = _edited(record_text(m), "Trick 1:", lambda text: text.replace(f"-> {first.winner}", f"-> {other}"))
    with pytest.raises(hl.SaveError, match=f"line {line}"):
        from_record_text(lied)


@pytest.mark.parametrize("name", NEW_PRESETS)
def test_a_json_record_stating_the_wrong_taker_of_a_trick_is_refused(name: str) -> None:
    m = _finished(name)
    data = to_record(m)
    trick = data["hands"][0]["tricks"][0]
    trick["winner"] = next(seat for seat in range(m.variant.players) if seat != trick["winner"])
    with pytest.raises(hl.SaveError, match=r"hands\[0\]\.tricks"):
        from_record(data)


_TOKENS = ("ZZ", "x", "-", "QS", "99", "-1", "13i", "->", "0:play", ":", "pass", "hearts", "9:play QS", "１")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(name=st.sampled_from(NEW_PRESETS), seed=st.integers(0, 50), line=st.integers(0, 10**6),
       token=st.integers(0, 10**6), new=st.sampled_from(_TOKENS))
def test_a_text_record_with_any_token_replaced_loads_or_is_refused_with_a_save_error(
        name: str, seed: int, line: int, token: int, new: str) -> None:
    lines = record_text(_finished(name, seed)).splitlines()
    words = lines[line % len(lines)].split(" ")
    words[token % len(words)] = new
    lines[line % len(lines)] = " ".join(words)
    with contextlib.suppress(hl.SaveError):  # a refusal must be a SaveError: any other exception fails
        from_record_text("\n".join(lines))


def test_the_end_of_an_auctions_stream_says_each_seats_final_chips_which_the_winners_are_judged_on() -> None:
    m = _finished("auction_hearts", 5)
    for end in (events_for(m, 0)[-1], spectator_events(m)[-1]):
        assert end.kind.value == "end" and end.winners == m.winners
        assert end.to_dict()["chips"] == list(m.chips)
        assert set(m.winners) == {seat for seat, c in enumerate(m.chips) if c == max(m.chips)}
    assert events_for(_finished("two_handed"), 0)[-1].to_dict()["chips"] == []  # no chips in other games


def test_play_domino_hearts_tells_the_points_the_last_survivor_keeps_so_the_hand_adds_up() -> None:
    m, text = _whole_match("domino_hearts", 4)
    told = 0
    for result in m.rounds:
        rnd = result.round
        block = text.split(f"Hand {result.hand_number + 1} is over.")[0].split("=== Hand")[-1]
        for seat in range(m.variant.players):
            won = sum((rnd.rules.value[c.index] for t in rnd.tricks if t.winner == seat for _, c in t.plays), 0)
            kept = result.points[seat] - won
            if kept:
                who = "You keep" if seat == 0 else f"Seat {seat} keeps"
                assert f"{who} the cards left in hand and in the stock (+{kept} point" in block
                told += 1
    assert told, "some survivor kept points"


def test_play_domino_hearts_with_cancelled_tricks_tells_only_the_cards_no_trick_took_as_kept() -> None:
    v = hl.preset("domino_hearts").replace(name="domino_cancel", players=6, play={"identical": "cancel"},
                                           deck={"decks": 2, "stock": "to_follow", "hand_size": 6})
    m = hl.Match(v, seed=0)
    play, out = _session(m, 0, _typing_everything())
    assert play.run() == 0
    text = out.getvalue()
    assert any(t.winner is None for r in m.rounds for t in r.round.tricks), "a trick was cancelled"
    for result in m.rounds:
        rnd = result.round
        unplayed = Counter(c for t in rnd.taken for c in t) - Counter(c for t in rnd.tricks for _, c in t.plays)
        block = text.split(f"Hand {result.hand_number + 1} is over.")[0].rsplit(" is over.", 1)[-1]
        kept = [line for line in block.splitlines() if "the cards left in hand and in the stock" in line]
        assert len(kept) == (1 if unplayed else 0), kept
        if unplayed:
            pts = sum(rnd.rules.value[c.index] for c in unplayed.elements())
            assert f"(+{pts} point" in kept[0]


def test_an_observation_after_a_domino_hand_names_who_exposed_a_card_the_last_player_kept() -> None:
    # Domino Hearts with Gong Zhu's exposed cards: the last player holding cards keeps them, an exposed one
    # among them (seed 20: 10♣ and Q♠ exposed, one kept), and every seat's observation of the finished hand
    # raised KeyError looking for its exposer among the hands and the tricks
    v = hl.preset("domino_hearts").replace(name="domino_exposed", scoring={
        "values": {}, "exposable": {"AH": "hearts", "QS": "card", "TC": "card", "JD": "card"}})
    r = hl.Round.deal(v, seed=20)
    rng = random.Random(20)
    while r.phase == hl.Phase.DECIDE:  # each seat exposes all it may
        r.apply(max(r.legal_actions(r.to_act[0]), key=lambda a: len(a.option) if isinstance(a, hl.Choose) else 0))
    while not r.is_over:
        r.apply(hst.random_action(r, rng))
    exposed = r.observation(0).exposed
    played = {c for t in r.tricks for _, c in t.plays}
    assert any(c not in played for c in exposed), "an exposed card was kept, not played"
    for seat in range(v.players):
        obs = r.observation(seat)
        assert len(obs.exposed_by) == len(obs.exposed)
        for card, by in zip(obs.exposed, obs.exposed_by, strict=True):
            assert card in r.taken[by] or any(s == by and c == card for t in r.tricks for s, c in t.plays)


@pytest.mark.parametrize("settlement", ["sweepstake", "howell"])
def test_play_a_counters_settlement_tells_the_counters_after_every_hand(settlement: str) -> None:
    # foster_1909 (a sweepstake) settled every hand in counters, and play never told them
    v = hl.preset("standard").replace(scoring={"settlement": settlement}, end={"hands": 2},
                                      passing={"schedule": ["hold"]})
    m = hl.Match(v, seed=4)
    play, out = _session(m, 0, _typing_everything())
    assert play.run() == 0 and m.is_over
    text = out.getvalue()
    for result in m.rounds:
        told = text.split(f"Hand {result.hand_number + 1} is over.")[1]
        assert result.settlement is not None
        moved = ", ".join(f"{'you' if s == 0 else f'seat {s}'} {n:+d}" for s, n in enumerate(result.settlement.net))
        assert f"Counters this hand: {moved}" in told
        assert "Counters: " + _by_seat(result.counters) in told
