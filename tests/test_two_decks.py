"""Three to eleven players, stripping, kitties, jokers and two decks (RULES.md sections 1, 2 and 5)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import heartslib as hl
from helpers import legal, play, round_from

# Six players, two decks, Alice..Frank = seats 0..5; Alice is eldest (dealer 5) and leads any card.
SIX = hl.preset("double_deck_6_clean").replace(
    play={"opening": "eldest_any", "breaking": "none", "first_trick": "any"}
)
ALICE, BOB, CAROL, DAVE, EVE, FRANK = range(6)


def example_1(identical: str) -> hl.Round:
    v = SIX.replace(play={"identical": identical})
    r = round_from(v, {ALICE: "7D", BOB: "KD", EVE: "KD", FRANK: "9D", CAROL: "2C", DAVE: "3C"},
                   void={CAROL: "D", DAVE: "D"}, dealer=5)
    play(r, "0:7D", "1:KD", "2:2C", "3:3C", "4:KD", "5:9D")
    return r


def test_001_example_first_come_first_served() -> None:
    r = example_1("first_wins")
    assert r.tricks[0].winner == BOB  # he played the first K♦


def test_000_most_recent_identical_card_wins() -> None:
    r = example_1("last_wins")
    assert r.tricks[0].winner == EVE


def test_001_cancellation_example_1() -> None:
    r = example_1("cancel")
    assert r.tricks[0].winner == FRANK  # both K♦ cancel; his 9♦ is the highest remaining diamond


@pytest.mark.parametrize("rollover", ["all_led_cancelled", "two_pairs"])
def test_001_cancellation_example_2_queens_cancel_points_still_count(rollover: str) -> None:
    v = SIX.replace(play={"identical": "cancel", "cancel_rollover": rollover}, scoring={"values": {"QS": 13}})
    r = round_from(v, {ALICE: "7S", BOB: "JS", CAROL: "QS", DAVE: "8S", EVE: "QS", FRANK: "TS"},
                   void={CAROL: "S"}, dealer=5)
    play(r, "0:7S", "1:JS", "2:QS", "3:8S", "4:QS", "5:TS")
    assert r.tricks[0].winner == BOB
    assert sorted(c.code for c in r.taken[BOB]) == sorted(["7S", "JS", "QS", "8S", "QS", "TS"])
    points = sum(v.rules.value[c.index] for c in r.taken[BOB])
    assert points == 26  # "+26 points": both queens still count


def test_001_cancellation_example_3_all_led_cancelled_rolls_over() -> None:
    v = SIX.replace(play={"identical": "cancel", "cancel_rollover": "all_led_cancelled"})
    r = round_from(
        v,
        {ALICE: "4H 5H", BOB: "3H 2H", CAROL: "2C 3C", DAVE: "4C QS", EVE: "4H 5H", FRANK: "3H 5C 6C"},
        void={CAROL: "H", DAVE: "H", FRANK: "H"},
        dealer=5,
    )
    play(r, "0:4H", "1:3H", "2:2C", "3:4C", "4:4H", "5:3H")
    # every heart cancelled: nobody wins; Alice leads again
    assert r.tricks[0].winner is None and r.to_act == (ALICE,)
    assert all(not t for t in r.taken)
    play(r, "0:5H", "1:2H", "2:3C", "3:QS", "4:5H", "5:5C")
    assert r.tricks[1].winner == BOB
    values = v.rules.value
    first = sum(values[c.index] for _, c in r.tricks[0].plays)
    second = sum(values[c.index] for _, c in r.tricks[1].plays)
    assert (first, second) == (4, 16)
    assert sum(values[c.index] for c in r.taken[BOB]) == 20 and len(r.taken[BOB]) == 12
    assert r.tricks_won[BOB] == 1


def test_000_two_cancelling_pairs_cancel_the_whole_trick() -> None:
    v = SIX.replace(play={"identical": "cancel", "cancel_rollover": "two_pairs"})
    r = round_from(v, {ALICE: "9D", BOB: "KD", CAROL: "AS", DAVE: "AS", EVE: "KD", FRANK: "8D"},
                   void={CAROL: "D", DAVE: "D"}, dealer=5)
    play(r, "0:9D", "1:KD", "2:AS", "3:AS", "4:KD", "5:8D")
    # two pairs (K♦ K♦ and A♠ A♠): the trick is cancelled although 9♦ remains
    assert r.tricks[0].winner is None and r.to_act == (ALICE,)
    v2 = v.replace(play={"cancel_rollover": "all_led_cancelled"})
    r2 = round_from(v2, {ALICE: "9D", BOB: "KD", CAROL: "AS", DAVE: "AS", EVE: "KD", FRANK: "8D"},
                    void={CAROL: "D", DAVE: "D"}, dealer=5)
    play(r2, "0:9D", "1:KD", "2:AS", "3:AS", "4:KD", "5:8D")
    assert r2.tricks[0].winner == ALICE


def test_decision_last_trick_rollover_goes_to_its_leader() -> None:
    v = hl.preset("cancellation").replace(play={"identical": "cancel", "cancel_rollover": "two_pairs"})
    found = False
    for seed in range(400):
        r = hl.Round.deal(v, seed=seed)
        r.random_playout(random.Random(seed))
        last = r.tricks[-1]
        if last.winner is None:
            found = True
            # the leader took every card of the rolled-over chain
            assert r.tricks_won[last.leader] >= 1
            break
    assert found, "no deal ended on a cancelled trick"
    assert sum(len(t) for t in r.taken) == 104


def test_001_seven_players_black_joker_is_zero_of_clubs_and_leads() -> None:
    v = hl.preset("double_deck_7")
    assert len(v.pack) == 105 and v.deal_size == 15 and hl.Card("0C") in v.pack
    r = round_from(v, {3: "0C"})
    r = hl.Round.from_hands(v, r.hands, passing=hl.HOLD, dealer=0)
    assert r.to_act == (3,) and legal(r) == {"0C"}
    play(r, "3:0C")
    # 0♣ is a club: others must follow clubs; the 0 is the lowest club
    seat4 = r.hand(4)
    if any(c.suit == hl.Suit.CLUBS for c in seat4):
        assert all(hl.Card(c).suit == hl.Suit.CLUBS for c in legal(r))


def test_001_opening_search_starts_at_dealers_left_with_two_copies() -> None:
    v = hl.preset("double_deck_8").replace(passing={"schedule": "hold"})
    r = round_from(v, {2: "2C", 6: "2C"}, dealer=4)
    assert r.to_act == (6,)  # from the dealer's left (5): 5, 6 -> seat 6 holds a 2♣
    r = round_from(v, {2: "2C", 6: "2C"}, dealer=7)
    assert r.to_act == (2,)  # 0, 1, 2


def test_001_every_two_of_clubs_in_the_kitty_then_three_leads() -> None:
    v = hl.preset("double_deck_6_dirty").replace(passing={"schedule": "hold"})
    r = round_from(v, {3: "3C"}, kitty="2C 2C")
    assert r.to_act == (3,) and legal(r) == {"3C"}


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("first_trick", [2, 0, 0]), ("one_per_trick", [1, 1, 0]), ("first_and_last", [1, 0, 1])],
)
def test_001_kitty_modes(mode: str, expected: list[int]) -> None:
    v = hl.Variant(players=5, deck={"fill": "kitty", "kitty": mode, "kitty_seen_by_winner": True},
                   passing={"schedule": "hold"})
    assert v.kitty_size == 2 and v.deal_size == 10
    r = hl.Round.deal(v, seed=9)
    kitty = r.kitty
    r.random_playout(random.Random(3))
    counts: Counter[int] = Counter()
    trick = -1
    for event in r.events:
        if isinstance(event, hl.TrickWon):
            trick = event.number
        elif isinstance(event, hl.KittyTaken):
            counts[trick] += len(event.cards)
    got = [counts.get(0, 0), counts.get(1, 0), counts.get(len(r.tricks) - 1, 0)]
    assert got == expected
    events = [e for e in r.events if isinstance(e, hl.KittyTaken)]
    assert sorted(c for e in events for c in e.cards) == sorted(kitty)
    # only the taker sees the kitty cards it took
    taker = events[0].seat
    assert r.observation(taker).kitty == events[0].cards or mode != "first_trick"
    other = (taker + 1) % 5
    if all(e.seat != other for e in events):
        assert r.observation(other).kitty is None


def test_000_kitty_hidden_unless_seen_by_winner() -> None:
    v = hl.Variant(players=3, deck={"fill": "kitty"}, passing={"schedule": "hold"})
    r = hl.Round.deal(v, seed=1)
    rng = random.Random(0)
    while not r.tricks:
        acts = r.legal_actions()
        r.apply(acts[rng.randrange(len(acts))])
    assert all(r.observation(s).kitty is None for s in range(3))
    assert r.observation(0).kitty_size == 1


def test_001_kitty_points_reach_first_trick_winner_despite_no_points_rule() -> None:
    v = hl.Variant(players=5, deck={"fill": "kitty", "kitty": "first_trick"}, passing={"schedule": "hold"})
    r = round_from(v, {0: "2C"}, kitty="QS AH")
    rng = random.Random(0)
    while not r.tricks:
        acts = r.legal_actions()
        r.apply(acts[rng.randrange(len(acts))])
    winner = r.tricks[0].winner
    assert winner is not None
    assert {hl.Card("QS"), hl.Card("AH")} <= set(r.taken[winner])


def test_001_three_players_add_jokers_valueless() -> None:
    v = hl.Variant(players=5, deck={"fill": "jokers", "joker": "valueless"}, passing={"schedule": "hold"})
    assert len(v.pack) == 55 and Counter(v.pack)[hl.Card("JK")] == 3 and v.deal_size == 11
    v3 = hl.Variant(players=3, deck={"fill": "jokers", "joker": "valueless"}, passing={"schedule": "hold"})
    assert Counter(v3.pack)[hl.Card("JK")] == 2
    v6 = hl.Variant(players=6, deck={"fill": "jokers", "joker": "valueless"}, passing={"schedule": "hold"})
    assert v6.deal_size == 9


def joker_round(**deck: object) -> hl.Round:
    v = hl.Variant(players=3, deck={"fill": "jokers", "joker": "valueless", **deck},
                   play={"first_trick": "any", "breaking": "none"}, passing={"schedule": "hold"})
    return round_from(v, {0: "2C", 1: "JK 3C 4C", 2: "JK 5C"})


def test_001_valueless_joker_playable_any_time_but_never_wins() -> None:
    r = joker_round()
    play(r, "0:2C")
    assert "JK" in legal(r)  # may play it even while holding clubs
    play(r, "1:JK")
    play(r, "2:5C")
    assert r.tricks[0].winner == 2
    with pytest.raises(hl.IllegalAction):
        r.apply(hl.Play(2, "JK"))  # winner leads: a joker may not lead (it holds other cards)
    assert "JK" not in legal(r)


def test_two_jokers_in_one_hand_are_one_legal_play() -> None:
    v = hl.Variant(players=5, deck={"fill": "jokers", "joker": "valueless"}, passing={"schedule": "hold"},
                   play={"first_trick": "any"})
    r = round_from(v, {1: "JK JK 5D"}, void={1: "C"})
    play(r, "0:2C")  # seat 1 has no club: every card of its hand is playable
    plays = r.legal_actions()
    assert len(plays) == len(set(plays)) and hl.Play(1, "JK") in plays


def test_000_valueless_joker_only_when_void() -> None:
    r = joker_round(joker_play="when_void")
    play(r, "0:2C")
    assert "JK" not in legal(r)
    assert r.why_illegal(hl.Play(1, "JK")).code == "must_follow_suit"  # type: ignore[union-attr]


def test_000_joker_lead_call_suit() -> None:
    v = hl.Variant(players=3, deck={"fill": "jokers", "joker": "valueless", "joker_lead": "call_suit"},
                   play={"first_trick": "any", "breaking": "none"}, passing={"schedule": "hold"})
    r = round_from(v, {0: "2C JK", 1: "3C", 2: "AC"})
    play(r, "0:2C", "1:3C", "2:AC")  # seat 2 wins and... holds the other joker? it leads next
    r = round_from(v, {0: "2C AC JK", 1: "3C", 2: "4C"})
    play(r, "0:2C", "1:3C", "2:4C")
    assert r.to_act == (2,)
    r = round_from(v, {0: "2C", 1: "3C", 2: "AC JK"})
    play(r, "0:2C", "1:3C", "2:AC")
    play(r, "2:JK")
    assert r.phase is hl.Phase.DECIDE and r.decision == "suit"
    r.apply(hl.Choose(2, "diamonds"))
    assert r.observation(0).led_suit is hl.Suit.DIAMONDS
    if any(c.suit == hl.Suit.DIAMONDS for c in r.hand(0)):
        assert all(hl.Card(c).suit in (hl.Suit.DIAMONDS, None) for c in legal(r))


def test_000_joker_lead_next_card_sets_suit_and_decision_all_jokers() -> None:
    v = hl.Variant(players=3, deck={"fill": "jokers", "joker": "valueless", "joker_lead": "next_card"},
                   play={"first_trick": "any", "breaking": "none"}, passing={"schedule": "hold"})
    r = round_from(v, {0: "2C", 1: "3C", 2: "AC JK"})
    play(r, "0:2C", "1:3C", "2:AC", "2:JK")
    assert len(legal(r)) == len({c.code for c in r.hand(0)})  # any card: it sets the suit
    card = sorted(r.hand(0))[0]
    r.apply(hl.Play(0, card))
    assert r.observation(1).led_suit == card.suit


def test_000_jokers_score_only_on_a_hearts_trick() -> None:
    v = hl.Variant(players=3, deck={"fill": "jokers", "joker": "valueless", "joker_points": 5,
                                    "joker_points_when": "hearts_led"},
                   play={"first_trick": "any", "breaking": "none"}, passing={"schedule": "hold"})
    total = sum(v.rules.value[c.index] for c in v.pack if not c.is_joker)
    for seed in range(20):
        r = hl.Round.deal(v, seed=seed)
        points = r.random_playout(random.Random(seed))
        if r.outcome is not None and r.outcome.shooter is None:
            on_hearts = sum(1 for t in r.tricks for _, c in t.plays if c.is_joker and t.led_suit is hl.Suit.HEARTS)
            assert sum(points) == total + 5 * on_hearts


def test_zero_suit_jokers_rank_below_two() -> None:
    v = hl.Variant(players=3, deck={"fill": "jokers", "joker": "zero_suits", "jokers": 2},
                   play={"first_trick": "any"}, passing={"schedule": "hold"})
    assert {c.code for c in v.pack if c.is_joker} == {"0C", "0D"} and v.deal_size == 18
    r = round_from(v, {0: "0C", 1: "2C"})
    assert r.to_act == (0,) and legal(r) == {"0C"}


def test_conservation_and_totals_in_many_player_games() -> None:
    for name in ("double_deck_6_dirty", "double_deck_6_clean", "double_deck_7", "double_deck_8",
                 "double_deck_9", "double_deck_10", "cancellation"):
        v = hl.preset(name)
        total = sum(v.rules.value[c.index] for c in v.pack)
        for seed in range(8):
            r = hl.Round.deal(v, seed=seed)
            for seat in r.to_act:
                if r.phase is hl.Phase.PASS:
                    r.apply(hl.Pass(seat, r.hand(seat)[: r.pass_count]))
            points = r.random_playout(random.Random(seed))
            assert Counter(c for t in r.taken for c in t) == Counter(v.pack), name
            if r.outcome is not None and r.outcome.shooter is None:
                assert sum(points) == total, (name, seed)


def test_eleven_players_need_two_decks() -> None:
    with pytest.raises(hl.VariantError) as info:
        hl.Variant(players=11, deck={"fill": "kitty"}, passing={"schedule": "hold"})
    assert info.value.path == "deck.decks"
    v = hl.preset("cancellation").replace(players=11)
    assert v.deal_size == 9 and v.kitty_size == 5


@pytest.mark.parametrize("name", ["double_deck_6_dirty", "double_deck_8", "double_deck_9", "double_deck_10"])
def test_001_two_deck_moon_is_52_even_when_the_pack_holds_51(name: str) -> None:
    # 001: the player who takes every penalty card adds +52 to every other player (or takes -52); at 9 and 10
    # players one 2♥ may be stripped and the pack holds 51 points, but the moon stays 52
    from heartslib.scoring import RoundFacts, score

    v = hl.preset(name)
    n = v.players
    total = v.penalty_total
    assert total == (51 if name in ("double_deck_9", "double_deck_10") else 52)
    won = (2,) * n
    f = RoundFacts(raw=(total,) + (0,) * (n - 1), bonus=(0,) * n, penalty_cards=(28,) + (0,) * (n - 1),
                   bonus_cards=(0,) * n, tricks_won=won, trick_winners=tuple(s for s in range(n) for _ in range(2)))
    outcome = score(v, v.rules, f, scores_before=(0,) * n, passing=hl.HOLD, hands_played=1)
    assert outcome.points == (0,) + (52,) * (n - 1)
