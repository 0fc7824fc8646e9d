"""heartslib.inference in games with a stock (deck.stock): what a seat may know when cards are drawn, worlds that
replay, how uniform they are, and the search player on them."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest

import heartslib as hl
from heartslib import inference
from heartslib.agents import BaseAgent, HeuristicAgent, SearchAgent
from heartslib.inference import ImpossibleHistory, Sampler, knowledge, known_voids, sample_round
from helpers import play

STOCK_PRESETS = [n for n in hl.preset_names() if hl.preset(n).deck.stock != "none"]
TWO = hl.preset("two_handed")
DOMINO = hl.preset("domino_hearts")

def _deal(cards: str) -> list[str]:
    return cards.split()


def _two_handed() -> hl.Round:
    """Seat 0 leads (seat 1 deals); seat 1 holds no club; the stock's top cards are KC (seat 0's draw: it wins
    the first trick) and then 2S (seat 1's)."""
    hand0 = "2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D"
    hand1 = "2H 3H 4H 5H 6H 7H 8H 9H TH 6D 7D 8D 9D"
    used = set(_deal(hand0 + " " + hand1))
    rest = [c.code for c in TWO.pack if c.code not in used and c.code not in ("KC", "2S")]
    return hl.Round.from_hands(TWO, [hand0, hand1], kitty=["KC", "2S", *rest], dealer=1)


def test_the_stock_presets_exist_and_inference_reads_them() -> None:
    # the tests below must reach a stock game
    assert {"two_handed", "domino_hearts"} <= set(STOCK_PRESETS)
    for name in STOCK_PRESETS:
        assert inference.reads(hl.preset(name)), name


# --------------------------------------------------------------------------- what a seat may know


def test_a_void_shown_before_a_draw_holds_only_for_the_cards_held_then() -> None:
    r = _two_handed()
    play(r, "0:2C", "1:6D")  # seat 1 shows a club void; then both draw (seat 0 KC, seat 1 2S)
    obs = r.observation(0)
    assert obs.draws == ((0, 0, 1), (0, 1, 1)) and obs.drawn == (hl.Card("KC"),)
    k = knowledge(obs, TWO)
    # seat 1 drew since it showed the void: it may hold a club again, but at most one (the card it drew)
    assert hl.Suit.CLUBS not in k.voids[1]
    assert hl.Suit.CLUBS not in known_voids(obs)[1]  # without the variant too
    assert hl.Card("QC") in k.allowed[1] and hl.Card("AC") in k.allowed[1] and hl.Card("KC") not in k.allowed[1]
    sampler = Sampler(obs, TWO)
    rng = random.Random(1)
    clubs = Counter(sum(1 for c in sampler.sample(rng).hand(1) if c.suit == hl.Suit.CLUBS) for _ in range(200))
    assert set(clubs) == {0, 1}
    # its next failure to follow clubs shows the void again for every card it held then, the one drawn after
    # the first trick too; it drew once more since: again at most one club
    play(r, "0:3C", "1:7D")
    sampler = Sampler(r.observation(0), TWO)
    clubs = Counter(sum(1 for c in sampler.sample(rng).hand(1) if c.suit == hl.Suit.CLUBS) for _ in range(200))
    assert set(clubs) == {0, 1}


def test_seat_0s_own_drawn_cards_are_known_to_it_and_hidden_from_the_others() -> None:
    r = _two_handed()
    play(r, "0:2C", "1:6D")
    obs = r.observation(0)
    d = Sampler(obs, TWO).draw(random.Random(2))
    assert d.round.hand(0) == r.hand(0) and hl.Card("KC") in d.round.hand(0)
    assert d.kitty[0] == hl.Card("KC")  # the stock's top card went to seat 0, the winner, which saw it
    # seat 1 does not know what seat 0 drew: KC may be anywhere it has not seen
    assert hl.Card("KC") in knowledge(r.observation(1), TWO).allowed[0]
    assert {Sampler(r.observation(1), TWO).draw(random.Random(s)).kitty[0] for s in range(40)} != {hl.Card("KC")}


def _domino() -> hl.Round:
    """Seat 0 leads 2C; seat 1 holds no club and draws 2D, 3D, then 4C, which it must play."""
    hands = ["2C 3C AH KH QH JH", "5D 6D 7D 8D 9D TD", "5C 2H 3H 4H 5H 6H", "6C 7H 8H 9H TH 2S"]
    used = set(_deal(" ".join(hands)))
    top = ["2D", "3D", "4C"]
    rest = [c.code for c in DOMINO.pack if c.code not in used and c.code not in top]
    return hl.Round.from_hands(DOMINO, hands, kitty=[*top, *rest], dealer=3)


def test_domino_draws_show_the_cards_before_the_last_are_not_of_the_suit_led() -> None:
    r = _domino()
    play(r, "0:2C")
    assert r.to_act == (1,)
    play(r, "1:4C")
    obs = r.observation(2)
    assert obs.draws == ((0, 1, 3),)
    for seed in range(30):
        d = Sampler(obs, DOMINO).draw(random.Random(seed))
        first, second, last = d.kitty[:3]
        assert first.suit != hl.Suit.CLUBS and second.suit != hl.Suit.CLUBS and last == hl.Card("4C")
        # and seat 1 still holds the two it drew first
        assert {first, second} <= set(d.round.hand(1))
    # what seat 2 knows: seat 1 holds no club (it drew until it found one, and played it)
    assert hl.Suit.CLUBS in knowledge(obs, DOMINO).voids[1]


def test_domino_a_seat_to_act_that_did_not_draw_holds_the_suit_led() -> None:
    r = _domino()
    play(r, "0:2C", "1:4C")
    assert r.to_act == (2,)  # seat 2 holds 5C: no draw
    obs = r.observation(0)
    rng = random.Random(3)
    for _ in range(30):
        assert any(c.suit == hl.Suit.CLUBS for c in sample_round(obs, rng, variant=DOMINO).hand(2))


def test_an_impossible_stock_history_is_named() -> None:
    r = _two_handed()
    play(r, "0:2C", "1:6D")
    obs = r.observation(0)
    with pytest.raises(ImpossibleHistory, match=r"drawn card.* more than its draws"):
        Sampler(attrs.evolve(obs, drawn=(hl.Card("KC"), hl.Card("AS"))), TWO)
    with pytest.raises(ImpossibleHistory):
        Sampler(attrs.evolve(obs, hand_sizes=(13, 14)), TWO)


# (random stock games: tests/test_inference.py's oracles draw them, STOCK_VARIANTS)


# --------------------------------------------------------------------------- how uniform: an independent oracle


def _posterior_by_rejection(r: hl.Round, dealt: list[tuple[hl.Card, ...]], stock: tuple[hl.Card, ...],
                            actions: Sequence[hl.Action], seat: int, count: int, rng: random.Random
                            ) -> list[tuple[hl.Card, ...]]:
    """``count`` draws of the other seat's hand from the exact posterior, by definition: deal the cards ``seat``
    did not see (its own hand as dealt and its own draws stay) uniformly at random, replay the actions, keep
    the deals whose observation is the one seen. Two players only."""
    v = r.variant
    obs = r.observation(seat)
    other = 1 - seat
    mine = [i for i, (_, s, _) in enumerate(obs.draws) if s == seat]
    # stock positions: each draw takes one card (two-handed), in order
    fixed = {i: stock[i] for i in mine}
    free = list((Counter((*dealt[other], *stock)) - Counter(fixed.values())).elements())
    out: list[tuple[hl.Card, ...]] = []
    while len(out) < count:
        rng.shuffle(free)
        hand = free[:len(dealt[other])]
        rest = iter(free[len(dealt[other]):])
        order = [fixed[i] if i in fixed else next(rest) for i in range(len(stock))]
        hands = [dealt[seat], hand] if seat == 0 else [hand, dealt[seat]]
        world = hl.Round.from_hands(v, hands, kitty=order, dealer=r.dealer)
        try:
            for a in actions:
                world.apply(a)
        except hl.IllegalAction:
            continue
        if world.observation(seat) == obs:
            out.append(world.hand(other))
    return out


def _suit_counts(hands: list[tuple[hl.Card, ...]], suit: hl.Suit) -> float:
    return sum(sum(1 for c in h if c.suit == suit) for h in hands) / len(hands)


def test_stock_worlds_match_the_posterior_drawn_by_rejection_from_the_deal() -> None:
    """Two-handed after three tricks in which seat 1 showed voids: the sampler's worlds against worlds drawn
    from the definition (random deals replayed, kept when seat 0's observation is the same); per card, how
    often seat 1 holds it."""
    r = _two_handed()
    dealt = list(r.hands)
    stock = r.kitty
    moves = ["0:2C", "1:6D", "0:3C", "1:7D"]
    play(r, *moves)
    actions = [hl.Play(int(m[0]), hl.Card(m[2:])) for m in moves]
    rng = random.Random(7)
    truth = _posterior_by_rejection(r, dealt, stock, actions, 0, 400, rng)
    sampler = Sampler(r.observation(0), TWO)
    ours = [sampler.sample(rng).hand(1) for _ in range(400)]
    for suit in hl.Suit:
        assert abs(_suit_counts(ours, suit) - _suit_counts(truth, suit)) < 0.35, suit
    # seat 1 drew twice since its first club void, once since its last: it holds at most one club
    assert max(sum(1 for c in h if c.suit == hl.Suit.CLUBS) for h in ours) <= 1
    assert abs(_suit_counts(ours, hl.Suit.CLUBS) - _suit_counts(truth, hl.Suit.CLUBS)) < 0.1


def test_stock_placements_are_exactly_uniform_over_what_the_masks_allow() -> None:
    """The placement step against an exact enumeration (cards 0-5 into slot 0 of two places, slots 1 and 2 of
    one, slot 3 of two), where the sequential proposal alone is far from uniform (total variation 0.24 without
    the acceptance step; 0.01 with it, at 20,000 draws)."""
    masks = [0b0011, 0b0110, 0b1100, 0b1001, 0b1111, 0b0101]
    cap = [2, 1, 1, 2]
    valid = {a for a in itertools.product(range(4), repeat=6)
             if all(masks[i] >> a[i] & 1 for i in range(6)) and all(a.count(j) == cap[j] for j in range(4))}
    assert len(valid) == 7
    plan = inference._Placement([(c, m) for c, m in enumerate(masks)], cap, str)
    rng = random.Random(1)
    counts: Counter[tuple[int, ...]] = Counter()
    while sum(counts.values()) < 8000:
        try:
            slots = plan.draw(rng)
        except inference._Reject:
            continue
        where = [0] * 6
        for (c, _), j in zip(plan.copies, slots, strict=True):
            where[c] = j
        counts[tuple(where)] += 1
    assert set(counts) <= valid
    tv = 0.5 * sum(abs(counts[a] / 8000 - 1 / len(valid)) for a in valid)
    assert tv < 0.04, tv
    assert plan.refused and plan.mixed == 0


# --------------------------------------------------------------------------- the swap test


def _replayed(v: hl.Variant, hands: list[list[hl.Card]], stock: list[hl.Card], dealer: int,
              actions: list[hl.Action]) -> hl.Round:
    r = hl.Round.from_hands(v, hands, kitty=stock, dealer=dealer)
    for a in actions:
        r.apply(a)
    return r


@pytest.mark.parametrize("name", ["two_handed", "domino_hearts"])
def test_swapping_hidden_cards_and_the_stocks_order_changes_no_world_or_decision(name: str) -> None:
    v = hl.preset(name)
    r0 = hl.Round.deal(v, seed=12)
    hands = [list(h) for h in r0.hands]
    stock = list(r0.kitty)
    r = r0.copy()
    agents = [HeuristicAgent(seed=s) for s in range(v.players)]
    for i, a in enumerate(agents):
        a.setup(v, i)
    actions: list[hl.Action] = []
    while len(actions) < 10 and r.phase == hl.Phase.PLAY:
        seat = r.to_act[0]
        actions.append(agents[seat].act(r.observation(seat), r.legal_actions(seat)))
        r.apply(actions[-1])
    seat = r.to_act[0]
    drawn = sum(k for _, _, k in r.observation(seat).draws)
    # another hidden world: the stock's undrawn cards reversed, and a card another seat still holds swapped
    # with an undrawn stock card of its suit
    other = next(s for s in range(v.players) if s != seat and r.hand(s))
    swapped = False
    for c in r.hand(other):
        if c in hands[other]:
            same = [x for x in stock[drawn:] if x.suit == c.suit]
            if same:
                i, j = hands[other].index(c), stock.index(same[0])
                hands[other][i], stock[j] = stock[j], hands[other][i]
                swapped = True
                break
    stock[drawn:] = stock[drawn:][::-1]
    r2 = _replayed(v, hands, stock, r0.dealer, actions)
    obs = r.observation(seat)
    assert r2.observation(seat) == obs and (r2.hands != r.hands or r2.kitty != r.kitty)
    assert swapped or r2.kitty != r.kitty
    for seed in range(3):
        assert sample_round(obs, random.Random(seed), variant=v) == sample_round(
            r2.observation(seat), random.Random(seed), variant=v)
    one, two = SearchAgent(seed=4, playouts=12), SearchAgent(seed=4, playouts=12)
    one.setup(v, seat)
    two.setup(v, seat)
    assert one.act(obs, r.legal_actions(seat)) == two.act(r2.observation(seat), r2.legal_actions(seat))


# --------------------------------------------------------------------------- the search player


def _search_match(v: hl.Variant, seed: int) -> list[hl.Action]:
    m = hl.Match(v.replace(end={"hands": 1}), seed=seed)
    agents: list[BaseAgent] = [SearchAgent(seed=seed, playouts=12)]
    agents += [HeuristicAgent(seed=s) for s in range(1, v.players)]
    for i, a in enumerate(agents):
        a.setup(m.variant, i)
    mine: list[hl.Action] = []
    while not m.is_over:
        seat = m.to_act[0]
        action = agents[seat].act(m.observation(seat), m.legal_actions(seat))
        if seat == 0:
            mine.append(action)
        m.apply(action)  # an illegal action would raise IllegalAction here
    return mine


@pytest.mark.parametrize("name", ["two_handed", "domino_hearts"])
def test_search_agent_finishes_stock_games_and_the_same_seed_gives_the_same_decisions(name: str) -> None:
    v = hl.preset(name)
    first = _search_match(v, 21)
    assert first and first == _search_match(v, 21)


def test_search_agent_searches_stock_games() -> None:
    r = _two_handed()
    play(r, "0:2C", "1:6D")
    agent = SearchAgent(seed=1, playouts=8)
    agent.setup(TWO, 0)
    agent.act(r.observation(0), r.legal_actions(0))
    assert agent._search is not None  # the search ran, not the heuristic fallback


def test_hidden_passes_under_the_suit_keeping_rule_are_drawn_where_most_proposals_break_it() -> None:
    """Eight seats dealt six cards from two packs, two cards passed left, a pass may not take a suit's last card:
    most uniformly drawn passes leave some seat void of a suit it passed from, and this position's worlds ran out
    of draws (``RuntimeError``). After many refusals the proposal follows the rule: every world replays, and
    every hidden pass kept a card of each suit it took from."""
    v = hl.preset("double_deck_8").replace(
        players=8, deck={"hand_size": 6, "stock": "after_trick"},
        passing={"cards": 2, "schedule": "left", "keep_last_of_suit": True})
    r = hl.Round.deal(v, seed=5)
    rng = random.Random(5)
    for _ in range(rng.randrange(1, 30)):
        actions = r.legal_actions(r.to_act[0])
        r.apply(actions[int(rng.random() * len(actions))])
    obs = r.observation(5)
    sampler = Sampler(obs, v)
    draws = random.Random(5)
    for _ in range(12):
        world = sampler.draw(draws)
        assert world.round.observation(5) == obs
        for seat, passed in enumerate(world.passes):
            assert passed is not None
            kept = Counter(world.dealt[seat]) - Counter(passed)
            assert {c.suit for c in passed} <= {c.suit for c in kept}, (seat, passed, world.dealt[seat])
