"""Auction Hearts (RULES.md section 11): the ``auction_hearts`` preset and ``scoring.settlement = "auction"``.

Sources: Bicycle's rules (Auction Hearts): Hearts without the black lady, except that after the deal the
players bid chips for the privilege of naming the suit to be avoided; bidding begins with the first hand dealt
and rotates to the left, each player bidding once, higher than the preceding bid or pass; the highest bidder
puts up the chips, names the suit and leads; each player adds a chip to the pot for each card of that suit
taken; the player taking none wins the pot, two such players divide it, an odd chip is left for the next pot;
if more than two take none, or one takes all 13, or each takes at least one, nobody wins, the deal passes and
the successful bidder names the suit without bidding. Foster's Complete Hoyle (law 30): the player left of the
dealer bids first, the dealer last, no second bid. gamerules.com: fifty chips each, the game over when a player
runs out; the bid winner may not lead the pain suit to the first trick, nor may a void player play it there.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from heartslib.agents import HeuristicAgent, RandomAgent, SearchAgent, auction_choice, play_match
from heartslib.observation import Auction
from heartslib.settlement import AuctionResult, auction_pot
from heartslib.testing import check_no_leak

V = hl.preset("auction_hearts")

# a deal (dealer 0) in which seat 1 holds no diamonds and seat 2 holds diamonds and clubs
HANDS = [
    "2C 3C 4C 5C 6C 7C 2D 3D 4D 2H 3H 4H 2S",
    "8C 9C TC JC QC 5H 6H 7H 8H 3S 4S 5S 6S",
    "KC AC 5D 6D 7D 8D 9D TD JD 9H 7S 8S 9S",
    "QD KD AD TH JH QH KH AH TS JS QS KS AS",
]


def _bids(r: hl.Round | hl.Match, *bids: str) -> None:
    for bid in bids:
        (seat,) = r.to_act
        r.apply(hl.Choose(seat, bid))


def test_bicycle_bidding_begins_left_of_the_dealer_once_each_the_dealer_last() -> None:
    r = hl.Round.deal(V, seed=3, dealer=2)
    order = []
    for bid in ("2", "pass", "5", "pass"):
        assert r.decision == hl.Decision.BID
        order.append(r.to_act[0])
        _bids(r, bid)
    assert order == [3, 0, 1, 2]  # eldest first, the dealer (seat 2) last, nobody twice
    assert r.decision == hl.Decision.NAME and r.to_act == (1,)  # the highest bidder names the suit
    assert r.options == ("clubs", "diamonds", "hearts", "spades")
    assert r.auction == Auction((50, 50, 50, 50), ((3, 2), (0, 0), (1, 5), (2, 0)), 1, 5, None)


def test_bicycle_a_bid_must_be_higher_than_the_preceding_bid_or_pass() -> None:
    r = hl.Round.deal(V, seed=1)
    _bids(r, "7")
    assert [a.option for a in r.legal_actions()] == ["pass", *map(str, range(8, 51))]
    before = r.copy()
    for bad in ("7", "3", "0", "51", "seven"):
        with pytest.raises(hl.IllegalAction) as err:
            r.apply(hl.Choose(2, bad))
        assert err.value.code == "bid_not_allowed"
        assert 'a bid from 8 to 50 or "pass"' in str(err.value)
    assert r == before and r.observation(0) == before.observation(0)  # a refused bid changes nothing


def test_a_bid_is_at_most_the_bidders_chips_and_the_highest_bid() -> None:
    r = hl.Round.deal(V, seed=1, chips=[4, 9, 50, 50])
    assert [a.option for a in r.legal_actions()] == ["pass", *map(str, range(1, 10))]  # seat 1 holds 9 chips
    capped = hl.Round.deal(V.replace(scoring={"max_bid": 3}), seed=1)
    assert [a.option for a in capped.legal_actions()] == ["pass", "1", "2", "3"]
    _bids(capped, "3")
    assert [a.option for a in capped.legal_actions()] == ["pass"]  # nobody may outbid the highest bid allowed


def test_decision_the_dealer_must_bid_when_every_other_player_passed() -> None:
    r = hl.Round.deal(V, seed=2)
    _bids(r, "pass", "pass", "pass")
    assert r.to_act == (0,) and "pass" not in r.options and r.options[0] == "1"
    with pytest.raises(hl.IllegalAction, match="the dealer bids"):
        r.apply(hl.Choose(0, "pass"))
    _bids(r, "1")
    assert r.auction is not None and (r.auction.bidder, r.auction.bid) == (0, 1)


def test_bicycle_the_highest_bidder_names_the_suit_and_leads() -> None:
    r = hl.Round.from_hands(V, HANDS, dealer=0)
    _bids(r, "3", "pass", "4", "pass")
    r.apply(hl.Choose(3, "spades"))
    assert r.phase == hl.Phase.PLAY and r.to_act == (3,) and r.leader == 3
    assert r.auction is not None and r.auction.penalty_suit == hl.Suit.SPADES
    obs = r.observation(1)
    assert obs.penalty_suit == hl.Suit.SPADES and obs.bidder == 3 and obs.bids == ((1, 3), (2, 0), (3, 4), (0, 0))
    # the named suit's cards are the hand's penalty cards, one point each; hearts score nothing
    r.random_playout(random.Random(0))
    spades = [sum(1 for c in taken if c.suit == hl.Suit.SPADES) for taken in r.taken]
    assert r.points == tuple(spades) and sum(spades) == 13


def test_gamerules_the_bid_winner_may_not_lead_the_named_suit_to_the_first_trick() -> None:
    r = hl.Round.from_hands(V, HANDS, dealer=0, bidder=2)  # seat 2 names without bidding
    assert r.decision == hl.Decision.NAME and r.to_act == (2,) and r.auction is not None and r.auction.bids == ()
    r.apply(hl.Choose(2, "diamonds"))
    led = {a.card.code for a in r.legal_actions() if isinstance(a, hl.Play)}
    assert led == {"KC", "AC", "9H", "7S", "8S", "9S"}  # any card but a diamond
    with pytest.raises(hl.IllegalAction) as err:
        r.apply(hl.Play(2, hl.Card.parse("5D")))
    assert "diamonds" in str(err.value) or err.value.code == "no_points_on_first_trick"
    # the first-trick rule alone bars it too, with the named suit never locked
    unlocked = hl.Round.from_hands(V.replace(play={"breaking": "none"}), HANDS, dealer=0, bidder=2)
    unlocked.apply(hl.Choose(2, "diamonds"))
    err2 = unlocked.why_illegal(hl.Play(2, hl.Card.parse("5D")))
    assert err2 is not None and err2.code == "no_points_on_first_trick"


def test_gamerules_a_void_player_may_not_play_the_named_suit_to_the_first_trick() -> None:
    r = hl.Round.from_hands(V, HANDS, dealer=0, bidder=0)
    r.apply(hl.Choose(0, "hearts"))
    r.apply(hl.Play(0, hl.Card.parse("2D")))
    # seat 1 has no diamond: it discards anything but a heart
    assert {a.card.code for a in r.legal_actions()} == {"8C", "9C", "TC", "JC", "QC", "3S", "4S", "5S", "6S"}


def test_the_named_suit_may_not_be_led_until_it_is_broken() -> None:
    r = hl.Round.from_hands(V, HANDS, dealer=0, bidder=3)
    r.apply(hl.Choose(3, "clubs"))
    r.apply(hl.Play(3, hl.Card.parse("QD")))
    for seat, card in ((0, "2D"), (1, "5H"), (2, "JD")):
        r.apply(hl.Play(seat, hl.Card.parse(card)))
    assert r.to_act == (3,)  # Q♦ won: no club played yet, and seat 3 holds none anyway
    assert not r.hearts_broken
    r2 = hl.Round.from_hands(V, HANDS, dealer=0, bidder=2)
    r2.apply(hl.Choose(2, "clubs"))
    suits = {a.card.suit for a in r2.legal_actions() if isinstance(a, hl.Play)}
    assert suits == {hl.Suit.DIAMONDS, hl.Suit.HEARTS, hl.Suit.SPADES}
    err = r2.why_illegal(hl.Play(2, hl.Card.parse("KC")))
    assert err is not None and err.code in ("hearts_not_broken", "no_points_on_first_trick")


# --------------------------------------------------------------------------- the pot (Bicycle's winner rule)


def test_bicycle_the_one_player_taking_no_cards_of_the_suit_wins_the_pot() -> None:
    r = auction_pot([0, 5, 4, 4], suit_cards=13, bid=3, bidder=2, pool=1)
    assert r.paid == (0, 5, 7, 4) and r.pot == 17 and r.received == (17, 0, 0, 0) and r.carry == 0 and r.won


def test_bicycle_two_players_with_none_divide_the_pot_and_the_odd_chip_stays() -> None:
    r = auction_pot([0, 0, 6, 7], suit_cards=13, bid=2, bidder=3)
    assert r.pot == 15 and r.received == (7, 7, 0, 0) and r.carry == 1 and r.winners == (0, 1)


@pytest.mark.parametrize(
    ("taken", "why"),
    [
        ([0, 0, 0, 13], "one player took all 13 (three took none)"),
        ([0, 0, 0, 5, 8], "more than two took none"),
        ([13, 0, 0], "one took all 13: the two with none do not divide it"),
        ([3, 4, 5, 1], "each took at least one"),
    ],
)
def test_bicycle_no_player_wins_and_the_pot_stays(taken: list[int], why: str) -> None:
    r = auction_pot(taken, suit_cards=13, bid=4, bidder=1, pool=6)
    assert not r.won and r.received == (0,) * len(taken), why
    assert r.carry == r.pot == 6 + 13 + 4


def test_the_pot_refuses_what_cannot_be_a_deal() -> None:
    with pytest.raises(ValueError, match="suit_cards"):
        auction_pot([1, 2, 3], suit_cards=13, bid=0, bidder=0)
    with pytest.raises(ValueError, match="bidder"):
        auction_pot([13, 0, 0], suit_cards=13, bid=0, bidder=3)


def test_bicycle_after_a_deal_nobody_won_the_bidder_names_the_suit_without_bidding() -> None:
    found = 0
    for seed in range(40):
        m = hl.Match(V, seed=seed)
        rng = random.Random(seed)
        while not m.is_over and len(m.rounds) < 3:
            m.apply(hst.random_action(m, rng))
        for before, after in zip(m.rounds, [*m.rounds[1:], None], strict=True):
            pot = before.settlement
            assert isinstance(pot, AuctionResult)
            nxt = m.round if after is None else after.round
            if pot.won or (m.is_over and after is None):
                continue
            found += 1
            auction = nxt.auction
            assert auction is not None and auction.bids == () and auction.bidder == pot.bidder and auction.bid == 0
            assert nxt.hand_number == before.hand_number + 1 and nxt.dealer != before.dealer  # the deal passes
    assert found  # random bidding leaves unwon pots often


def test_a_whole_match_ends_when_a_player_runs_out_of_chips_the_most_chips_winning() -> None:
    for seed in range(4):
        agents = [HeuristicAgent(seed), HeuristicAgent(seed + 1), HeuristicAgent(seed + 2), RandomAgent(seed)]
        m = play_match(V, agents, seed=seed)
        assert m.is_over and min(m.chips) <= 0 < min(r.round.auction.chips[s]  # type: ignore[union-attr]
                                                     for r in m.rounds for s in range(4))
        assert sum(m.chips) + m.pool == 4 * 50  # chips are conserved: every chip is a player's or the pot's
        assert m.winners == tuple(s for s, c in enumerate(m.chips) if c == max(m.chips))
        for r in m.rounds:
            assert sum(r.points) == 13 and r.round.auction is not None  # the named suit's cards, 1 each


def test_a_saved_match_resumes_in_the_middle_of_the_auction() -> None:
    m = hl.Match(V, seed=11)
    rng = random.Random(5)
    while len(m.rounds) < 1 or m.round.phase != hl.Phase.DECIDE or len(m.round.auction.bids) < 2:  # type: ignore[union-attr]
        m.apply(hst.random_action(m, rng))
        assert not m.is_over
    for loaded in (hl.Match.from_json(m.to_json()), pickle.loads(pickle.dumps(m)), m.copy()):
        assert loaded == m and loaded.legal_actions() == m.legal_actions() and loaded.chips == m.chips
        assert loaded.observation(0) == m.observation(0)
    named = m.copy()
    while named.round.phase == hl.Phase.DECIDE:
        named.apply(hst.random_action(named, rng))
    for loaded in (hl.Match.from_json(named.to_json()), pickle.loads(pickle.dumps(named))):
        rules = loaded.round.rules  # the named suit's rules, compiled once per variant
        assert loaded == named and rules.named == named.round.rules.named >= 0
        assert rules is loaded.variant.rules.for_suit(rules.named)


def test_observations_show_the_bids_as_they_are_made() -> None:
    r = hl.Round.deal(V, seed=6)
    _bids(r, "2")
    assert all(r.observation(seat).bids == ((1, 2),) for seat in range(4))
    assert r.observation(2).options == r.options and r.observation(3).options == ()
    assert "bids: seat 1 2" in r.observation(0).text()
    assert r.observation(0).to_dict()["bids"] == [[1, 2]]


def test_an_observation_in_an_auction_does_not_show_hidden_cards() -> None:
    check_no_leak(lambda r, seat: r.observation(seat), hst.variants(settlement="auction"),
                             max_examples=30)


# --------------------------------------------------------------------------- what the auction refuses


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"moon": {"kind": "old"}}, "moon.kind"),
        ({"scoring": {"values": {"QS": 13}}}, "scoring.values"),
        ({"passing": {"schedule": ["left"]}}, "passing.schedule"),
        ({"deck": {"decks": 2}, "players": 6}, "deck.decks"),
        ({"teams": [[0, 2], [1, 3]]}, "teams"),
    ],
)
def test_what_no_source_defines_for_an_auction_is_refused_by_name(change: dict[str, object], path: str) -> None:
    with pytest.raises(hl.VariantError) as err:
        V.replace(**change)
    assert path in {p for p, _ in err.value.problems}


def test_chips_and_a_highest_bid_are_refused_without_an_auction() -> None:
    for field in ({"chips": 20}, {"max_bid": 5}):
        with pytest.raises(hl.VariantError, match="auction") as err:
            hl.preset("standard").replace(scoring=field)
        assert err.value.path == f"scoring.{next(iter(field))}"
    with pytest.raises(hl.IllegalAction, match="auction"):
        hl.Round.deal(hl.preset("standard"), seed=1, chips=[5, 5, 5, 5])


def test_a_round_refuses_chips_that_are_not_each_seats_chips() -> None:
    for chips in ([0, 5, 5, 5], [5, 5, 5], "5555", [5, 5, 5, 5.0]):
        with pytest.raises(hl.IllegalAction, match="chips must be 4 whole numbers"):
            hl.Round.deal(V, seed=1, chips=chips)  # type: ignore[arg-type]


@pytest.mark.parametrize("adapter", ["pettingzoo", "openspiel", "trajectory", "vector", "encoding"])
def test_the_adapters_refuse_an_auction_by_name(adapter: str) -> None:
    with pytest.raises(hl.VariantError) as err:
        if adapter == "pettingzoo":
            pytest.importorskip("pettingzoo")
            from heartslib.adapters.pettingzoo import env

            env(V)
        elif adapter == "openspiel":
            pytest.importorskip("pyspiel")
            from heartslib.adapters.openspiel import Setup

            Setup(V)
        elif adapter == "encoding":
            from heartslib.adapters.encoding import Encoding

            Encoding(V)
        elif adapter == "trajectory":
            from heartslib.adapters.trajectory import params_for

            params_for(V)
        else:
            from heartslib.vector import Env

            Env(V)
    assert err.value.path == "scoring.settlement"


# --------------------------------------------------------------------------- agents


def test_the_heuristic_names_the_suit_it_is_safest_in_and_plays_it_as_the_penalty_suit() -> None:
    r = hl.Round.from_hands(V, HANDS, dealer=0, bidder=1)
    agent = HeuristicAgent(1)
    agent.setup(V, 1)
    choice = agent.act(r.observation(1), r.legal_actions())
    assert choice == hl.Choose(1, "diamonds")  # seat 1 holds no diamond
    r.apply(choice)
    r.apply(hl.Play(1, hl.Card.parse("8C")))
    r.apply(hl.Play(2, hl.Card.parse("KC")))
    # seat 3, void in clubs, discards: a diamond (the penalty suit) is not barred after the first trick only,
    # so on the first trick it throws its most dangerous non-diamond; it never throws a diamond here
    heuristic = HeuristicAgent(3)
    heuristic.setup(V, 3)
    play = heuristic.act(r.observation(3), r.legal_actions())
    assert isinstance(play, hl.Play) and play.card.suit != hl.Suit.DIAMONDS


def test_the_heuristic_bids_only_for_a_suit_much_safer_than_the_average() -> None:
    r = hl.Round.from_hands(V, HANDS, dealer=3)  # seat 0 bids first with the lowest cards
    obs = r.observation(0)
    assert auction_choice(obs, r.options) != "pass"
    top = "AC KC QC JC AD KD QD AH KH QH AS KS QS"  # as dangerous in every suit: no suit worth a bid
    rest = [c.code for c in V.pack if c.code not in top.split()]
    high = hl.Round.from_hands(V, [top, " ".join(rest[:13]), " ".join(rest[13:26]), " ".join(rest[26:])], dealer=3)
    assert auction_choice(high.observation(0), high.options) == "pass"


def test_search_agent_bids_as_its_heuristic_and_searches_the_named_suits_play() -> None:
    # the bid and the naming are the heuristic's (no world can be dealt before the suit is named); the play is
    # searched with the named suit's cards as the penalty cards, the same seed giving the same match
    def match(first: hl.agents.BaseAgent) -> hl.Match:
        return play_match(V, [first, *(HeuristicAgent(s) for s in (1, 2, 3))], seed=9)

    searched, again = match(SearchAgent(7, playouts=4)), match(SearchAgent(7, playouts=4))
    plain = match(HeuristicAgent(7))
    assert searched.actions == again.actions
    mine = [a for a in searched.actions if a.seat == 0]
    theirs = [a for a in plain.actions if a.seat == 0]
    first_play = next(i for i, a in enumerate(mine) if isinstance(a, hl.Play))
    assert mine[:first_play] == theirs[:first_play]  # the first hand's bid (and naming) as the heuristic's
    assert mine != theirs  # and the plays searched
    agent = SearchAgent(7, playouts=4)
    agent.setup(V, 0)
    for suit in hl.Suit:
        t = agent._search_for(suit).tables
        penalty = {i for i, cost in enumerate(t.cost) if cost > 0 and t.counts[i]}
        assert penalty == {c.index for c in V.pack if c.suit == suit}


@pytest.mark.parametrize("opening", ["two_of_clubs", "any_club", "eldest_any"])
def test_the_bid_winners_lead_tells_nothing_of_its_hand_whatever_the_opening_rule(opening: str) -> None:
    # the bid's winner leads, play.opening unread; inference read the lead as the opening rule's (two_of_clubs:
    # "the first leader held 2C") and took the 2C from its true holder in 273 of 9,180 (seat, card) checks
    from heartslib.inference import knowledge

    v = V.replace(play={"opening": opening})
    for seed in range(12):
        r = hl.Round.deal(v, seed=seed)
        rng = random.Random(seed)
        while not r.tricks and len(r.trick) < 2:
            r.apply(rng.choice(r.legal_actions(r.to_act[0])))
        for seat in range(4):
            k = knowledge(r.observation(seat), v)
            for other in range(4):
                if other != seat:
                    assert set(r.hand(other)) <= set(k.allowed[other]), (opening, seed, seat, other)


def test_a_leader_is_refused_in_an_auction() -> None:
    # the bid's winner leads: a leader= given to Round.deal or from_hands was taken and never read
    for make in (lambda: hl.Round.deal(V, seed=1, leader=2),
                 lambda: hl.Round.from_hands(V, hl.Round.deal(V, seed=1).hands, leader=2)):
        with pytest.raises(hl.IllegalAction, match=r"leader=2: in an auction .* the bid's winner leads") as info:
            make()
        assert info.value.code == "bad_argument"


def test_describe_tells_the_auction() -> None:
    text = V.describe()
    assert "Auction Hearts" in text and "50 chips" in text and "The auction's winner leads" in text
    assert "the most chips win" in text


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.variants(settlement="auction"), st.integers(0, 2**32 - 1))
def test_any_auction_plays_to_its_end_conserving_chips(v: hl.Variant, seed: int) -> None:
    m = hl.Match(v, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if m.is_over:
            break
        hst.check_invariants(m)
        m.apply(hst.random_action(m, rng))
    assert sum(m.chips) + m.pool == v.players * v.scoring.chips
    for result in m.rounds:
        auction = result.round.auction
        assert auction is not None and auction.penalty_suit is not None
        suit_cards = sum(1 for c in v.pack if c.suit == auction.penalty_suit)
        assert sum(result.round.penalty_points or ()) == suit_cards  # the named suit's cards, one point each
        assert all(bid <= auction.chips[seat] and (not v.scoring.max_bid or bid <= v.scoring.max_bid)
                   for seat, bid in auction.bids)
        made = [bid for _, bid in auction.bids if bid]
        assert made == sorted(set(made))  # each bid higher than the last
    assert hl.Match.from_json(m.to_json()) == m


def test_the_command_line_names_the_auction() -> None:
    from heartslib.cli import summary

    assert summary(V) == "4 players, 52 cards; no passing; the suit bid for 1 (auction); no moon; 50 chips each, " \
        "until one runs out"


def test_chips_are_capped_so_that_a_match_ends() -> None:
    # chips only change hands: a match lasts about the square of the starting chips over the chips a hand
    # moves, so a million each would never end in practice; 1,000 is twenty times the source's fifty
    v = hl.preset("auction_hearts")
    assert v.replace(scoring={"chips": 1000}).scoring.chips == 1000
    with pytest.raises(hl.VariantError, match="the most allowed is 1000") as exc:
        v.replace(scoring={"chips": 1001})
    assert exc.value.path == "scoring.chips"


def test_a_match_starts_from_a_set_auction_position_and_saves_it() -> None:
    # Match.from_deal sets the chips, the pot carried and the seat naming unbid, as a position from a game in
    # progress: the first hand's auction starts from them, the match ends by them, and a save and a record keep
    # them (a save at the defaults is written as before)
    v = hl.preset("auction_hearts")
    hands = hl.Round.deal(v, seed=3).hands
    m = hl.Match.from_deal(v, hands, chips=(61, 44, 50, 3), pool=7, bidder=2, seed=7)
    assert (m.chips, m.counters, m.pool) == ((61, 44, 50, 3), (11, -6, 0, -47), 7)
    auction = m.round.auction
    assert auction is not None and auction.chips == (61, 44, 50, 3) and auction.bidder == 2
    assert m.round.to_act == (2,) and m.round.decision == "name"  # the pot stayed: seat 2 names unbid
    rng = random.Random(1)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert min(m.chips) <= 0 and sum(m.chips) + m.pool == 158 + 7  # chips only changed hands from the position
    assert hl.Match.from_json(m.to_json()) == m
    from heartslib.record import from_record, to_record
    assert from_record(to_record(m)) == m
    plain = hl.Match.from_deal(v, hands, seed=7).to_dict()["deal"]
    assert set(plain) == {"hands", "kitty", "passing"}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"counters": (1, 2, 3, 4)}, "an auction's position is its chips"),
    ({"chips": (0, 50, 50, 50)}, "chips must be 4 whole numbers from 1"),
    ({"pool": -1}, "pool must be a whole number from 0"),
    ({"bidder": 4}, "bidder 4 does not exist"),
])
def test_a_bad_auction_position_is_refused_naming_it(kwargs: dict[str, object], message: str) -> None:
    v = hl.preset("auction_hearts")
    with pytest.raises(hl.IllegalAction, match=message):
        hl.Match.from_deal(v, hl.Round.deal(v, seed=3).hands, seed=1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("key", "value", "path"), [
    ("pool", "7", "deal.pool"), ("counters", [1, "2"], "deal.counters"), ("bidder", 1.5, "deal.bidder"),
    ("extra", 1, "deal"), ("pool", -1, "deal"), ("bidder", 9, "deal"),
])
def test_a_save_with_a_bad_set_position_is_a_save_error(key: str, value: object, path: str) -> None:
    v = hl.preset("auction_hearts")
    data = hl.Match.from_deal(v, hl.Round.deal(v, seed=3).hands, chips=(60, 40, 50, 50), pool=0, seed=7).to_dict()
    data["deal"][key] = value
    with pytest.raises(hl.SaveError) as exc:
        hl.Match.from_dict(data)
    assert exc.value.path == path
