"""Foster's counter settlements (seed 000, "Scoring"; RULES.md section 6)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

import heartslib as hl
from heartslib.settlement import HowellResult, SweepstakeResult, howell, sweepstake
from helpers import finish_hand

# --- Howell ---------------------------------------------------------------


def test_000_howell_andy_example() -> None:
    # Seed 000: four players, Andy takes the black lady and a heart (14 points),
    # pays 3 x 14 = 42 and claims 26 - 14 = 12.
    r = howell([14, 5, 4, 3])
    assert r.paid[0] == 42
    assert r.claimed[0] == 12
    assert r.net[0] == -30
    assert r == HowellResult(
        paid=(42, 15, 12, 9), claimed=(12, 21, 22, 23), net=(-30, 6, 10, 14), pool=78
    )


@pytest.mark.parametrize(
    ("points", "total"),
    [
        ((14, 5, 4, 3), 26),
        ((26, 0, 0, 0), 26),
        ((0, 13, 13), 26),
        ((1, 2, 3, 4, 16), 26),
        ((13, 13), 26),
        ((25, 13, 0, 0), 38),  # pink lady
        ((20, 10, 7, 5, 4, 6), 52),  # two decks
    ],
)
def test_000_howell_exhausts_pool(points: tuple[int, ...], total: int) -> None:
    # Seed 000: "This exhausts the pool".
    r = howell(points, total=total)
    assert sum(r.paid) == sum(r.claimed) == r.pool
    assert sum(r.net) == 0
    n = len(points)
    assert r.paid == tuple((n - 1) * p for p in points)
    assert r.claimed == tuple(total - p for p in points)
    assert r.net == tuple(total - n * p for p in points)


def test_howell_clean_seat_claims_total() -> None:
    r = howell([0, 26, 0, 0])
    assert r.paid == (0, 78, 0, 0)
    assert r.claimed == (26, 0, 26, 26)
    assert r.net == (26, -78, 26, 26)


@pytest.mark.parametrize(
    "points",
    [
        (0, 26, 26, 26),  # old moon, moon-adjusted
        (0, 0, 0, 0),  # Culbertson moon: nobody scores
        (14, 5, 4),  # a seat's points missing
        (27, 0, 0, 0),
    ],
)
def test_howell_points_must_add_up_to_total(points: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"points must add up to total \(26\)"):
        howell(points)


def test_howell_total_is_configurable() -> None:
    with pytest.raises(ValueError, match=r"total \(38\)"):
        howell([14, 5, 4, 3], total=38)
    assert howell([14, 5, 4, 15], total=38).paid[3] == 45


# --- Sweepstake -----------------------------------------------------------


def test_000_sweepstake_single_clean_player_takes_pool() -> None:
    # Seed 000: one counter per heart, the black lady thirteen; the pool goes
    # to the player who took no hearts.
    r = sweepstake([0, 10, 13, 3], pool=0)
    assert r == SweepstakeResult(
        paid=(0, 10, 13, 3),
        received=(26, 0, 0, 0),
        net=(26, -10, -13, -3),
        winners=(0,),
        pot=26,
        carry=0,
    )


def test_000_sweepstake_split_between_clean_players() -> None:
    # Seed 000: "If more than one player takes no hearts, they divide the pool".
    r = sweepstake([0, 13, 0, 13], pool=0)
    assert r.winners == (0, 2)
    assert r.received == (13, 0, 13, 0)
    assert r.net == (13, -13, 13, -13)
    assert r.carry == 0


def test_000_sweepstake_odd_counters_stay() -> None:
    # Seed 000: "... any odd counters staying put".
    r = sweepstake([0, 0, 0, 26], pool=0)
    assert r.received == (8, 8, 8, 0)
    assert r.carry == 2
    r = sweepstake([0, 4, 0, 22], pool=5)  # pot 31 between two: 15 each, 1 stays
    assert r.pot == 31
    assert r.received == (15, 0, 15, 0)
    assert r.carry == 1


def test_000_sweepstake_jackpot_over_two_deals() -> None:
    # Seed 000: if everyone takes a heart the pool stays as the "jack" until
    # someone takes no hearts at the end of a deal.
    first = sweepstake([1, 12, 3, 10], pool=0)
    assert first.winners == ()
    assert first.received == (0, 0, 0, 0)
    assert first.net == (-1, -12, -3, -10)
    assert first.carry == 26
    second = sweepstake([0, 13, 8, 5], pool=first.carry)
    assert second.pot == 52
    assert second.received == (52, 0, 0, 0)
    assert second.net == (52, -13, -8, -5)
    assert second.carry == 0


def test_000_sweepstake_black_lady_counts_as_thirteen_hearts() -> None:
    # Seed 000: the black lady is worth thirteen hearts, so a player who took
    # only the queen of spades has not taken "no hearts".
    r = sweepstake([13, 13, 0, 0], pool=0)
    assert r.paid == (13, 13, 0, 0)
    assert r.winners == (2, 3)
    assert r.received == (0, 0, 13, 13)


def test_sweepstake_stake_multiplies_payments() -> None:
    r = sweepstake([0, 10, 13, 3], pool=1, stake=2)
    assert r.paid == (0, 20, 26, 6)
    assert r.pot == 53
    assert r.received == (53, 0, 0, 0)


@pytest.mark.parametrize(
    ("points", "pool"),
    [((0, 10, 13, 3), 0), ((0, 0, 0, 26), 7), ((1, 12, 3, 10), 3), ((0, 0), 1)],
)
def test_sweepstake_conserves_counters(points: tuple[int, ...], pool: int) -> None:
    r = sweepstake(points, pool)
    assert r.pot == pool + sum(r.paid)
    assert r.pot == sum(r.received) + r.carry
    assert sum(r.net) == pool - r.carry


def test_results_are_frozen() -> None:
    r = howell([14, 5, 4, 3])
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.pool = 0  # type: ignore[misc]
    s = sweepstake([0, 26], 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.carry = 0  # type: ignore[misc]


# --- Bad input ------------------------------------------------------------


BAD_POINTS: list[tuple[object, str]] = [
    ([], "at least 2 seats, got 0"),
    ([26], "at least 2 seats, got 1"),
    ([14, -1, 4, 9], r"\[1\] must be an int >= 0, got -1"),
    ([14, 5.0, 4, 3], r"\[1\] must be an int >= 0, got 5.0"),
    ([14, True, 4, 7], r"\[1\] must be an int >= 0, got True"),
    ("0123", "must be a sequence of ints"),
    (None, "must be a sequence of ints"),
]


@pytest.mark.parametrize(("points", "message"), BAD_POINTS)
def test_howell_rejects_bad_points(points: object, message: str) -> None:
    with pytest.raises(ValueError, match=r"^points"):
        howell(points)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        howell(points)  # type: ignore[arg-type]


@pytest.mark.parametrize(("points", "message"), BAD_POINTS)
def test_sweepstake_rejects_bad_points(points: object, message: str) -> None:
    with pytest.raises(ValueError, match=r"^hearts_taken"):
        sweepstake(points, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        sweepstake(points, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pool": -1}, r"^pool must be an int >= 0, got -1"),
        ({"pool": 1.5}, r"^pool must be an int >= 0, got 1.5"),
        ({"stake": 0}, r"^stake must be an int >= 1, got 0"),
        ({"stake": -2}, r"^stake must be an int >= 1, got -2"),
    ],
)
def test_sweepstake_rejects_bad_pool_and_stake(kwargs: dict[str, object], message: str) -> None:
    points: Sequence[int] = (0, 10, 13, 3)
    with pytest.raises(ValueError, match=message):
        sweepstake(points, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("total", [0, -26, 26.0, False])
def test_howell_rejects_bad_total(total: object) -> None:
    with pytest.raises(ValueError, match=r"^total must be an int >= 1"):
        howell([14, 5, 4, 3], total=total)  # type: ignore[arg-type]


# --- as a variant option (scoring.settlement): Match keeps the counters -------------------------------


def _taken_points(result: hl.RoundResult, v: hl.Variant) -> tuple[int, ...]:
    """Points of the penalty cards each seat took, read from the hand's event log (before any moon; a trick's
    ``taken`` includes the kitty cards that came with it)."""
    pts = [0] * v.players
    for event in result.events:
        if isinstance(event, hl.TrickWon) and event.winner is not None:
            pts[event.winner] += sum(v.rules.value[c.index] for c in event.taken if v.rules.penalty[c.index])
    return tuple(pts)


def _play_match(v: hl.Variant, seed: int) -> hl.Match:
    m = hl.Match(v, seed=seed)
    finish_hand(m, seed, to_the_end=True)
    return m


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("preset", ["standard", "pink_lady", "double_deck_6_dirty"])
def test_howell_settles_every_hand_of_a_match(preset: str, seed: int) -> None:
    v = hl.preset(preset).replace(scoring={"settlement": "howell"})
    m = _play_match(v, seed)
    counters = [0] * v.players
    for result in m.rounds:
        points = _taken_points(result, v)
        assert result.settlement == howell(points, total=sum(points))  # moons included: the cards taken
        counters = [c + d for c, d in zip(counters, result.settlement.net, strict=True)]
        assert result.counters == tuple(counters)
    assert m.counters == tuple(counters) and sum(m.counters) == 0 and m.pool == 0


@pytest.mark.parametrize("seed", range(4))
def test_foster_preset_settles_by_sweepstake_and_carries_the_jack(seed: int) -> None:
    v = hl.preset("foster_1909")
    assert v.scoring.settlement == hl.Settlement.SWEEPSTAKE
    m = _play_match(v, seed)
    pool = 0
    for result in m.rounds:
        expected = sweepstake(_taken_points(result, v), pool=pool)
        assert result.settlement == expected
        pool = expected.carry
    assert m.pool == pool
    assert sum(m.counters) + m.pool == 0  # counters are conserved: what is not with a player is in the pool
    loaded = hl.Match.from_json(m.to_json())
    assert loaded == m and loaded.counters == m.counters and loaded.pool == m.pool


def test_no_counters_without_a_settlement() -> None:
    m = _play_match(hl.preset("standard"), 1)
    assert m.counters == () and m.pool == 0
    assert all(r.settlement is None and r.counters == () for r in m.rounds)


def test_settlement_needs_whole_penalty_points_where_the_lowest_wins() -> None:
    with pytest.raises(hl.VariantError, match=r"scoring\.settlement"):
        hl.preset("gong_zhu").replace(scoring={"settlement": "howell"})
    with pytest.raises(hl.VariantError, match=r"scoring\.settlement"):
        hl.preset("complex_hearts").replace(scoring={"settlement": "sweepstake"})


# --- issue 18: settle on the points a card actually scored -------------------------------------

HEARTS_LED_JOKERS = {"jokers": 2, "joker": "zero_suits", "joker_points": 5, "joker_points_when": "hearts_led"}


def _scored_points(result: hl.RoundResult, v: hl.Variant) -> tuple[tuple[int, ...], int]:
    """Per seat the penalty points its cards scored (jokers only on a hearts lead), and how many jokers died."""
    pts = [0] * v.players
    dead = 0
    for event in result.events:
        if isinstance(event, hl.TrickWon) and event.winner is not None:
            hearts = event.plays[0][1].suit == hl.Suit.HEARTS
            for card in event.taken:
                if card.code in ("0C", "0D") and not hearts:
                    dead += 1
                elif v.rules.penalty[card.index]:
                    pts[event.winner] += v.rules.value[card.index]
    return tuple(pts), dead


@pytest.mark.parametrize("how", ["howell", "sweepstake"])
def test_issue18_counters_charge_only_the_points_a_joker_scored(how: str) -> None:
    # jokers that score only on a hearts lead, taken on another trick, score nothing: Foster's counters are
    # paid on the points actually scored, not on the jokers' nominal 5 (the bug charged them)
    v = hl.preset("standard").replace(deck=HEARTS_LED_JOKERS, scoring={"settlement": how},
                                      moon={"kind": "none"})
    dead_seen = 0
    for seed in range(2):
        m = _play_match(v, seed)
        pool = 0
        for result in m.rounds:
            points, dead = _scored_points(result, v)
            dead_seen += dead
            if how == "howell":
                assert result.settlement == (howell(points, total=sum(points)) if sum(points) else None)
            else:
                expected = sweepstake(points, pool=pool)
                assert result.settlement == expected
                pool = expected.carry
    assert dead_seen > 0  # the deals did put jokers on spade, club and diamond tricks


def test_issue18_penalty_points_leave_out_a_dead_joker() -> None:
    # 0♣ opens (the lowest club in play) on a club trick: whoever takes it scores nothing for it
    v = hl.preset("standard").replace(deck=HEARTS_LED_JOKERS, scoring={"settlement": "howell"})
    hands = [
        "0C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "0D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    r = hl.Round.from_hands(v, hands, passing=hl.HOLD)
    while not r.is_over:
        r.apply(r.legal_actions()[0])
    # seat 0 leads every club and takes every trick: both jokers fell on club tricks and scored nothing, so
    # it scored the 26 of the hearts and Q♠ (before its moon), not 36
    assert r.outcome is not None and r.outcome.shooter == 0
    assert r.penalty_points == (26, 0, 0, 0)


def test_a_hearts_led_joker_has_no_value_of_its_own() -> None:
    # a dead joker is charged nothing by subtracting deck.joker_points: a value of its own in scoring.values
    # would make a dead joker score below zero (a sweepstake then refused the hand)
    with pytest.raises(hl.VariantError, match=r"scoring\.values\.0C.*joker_points"):
        hl.preset("standard").replace(deck=HEARTS_LED_JOKERS, scoring={"values": {"QS": 13, "0C": 1}})
    v = hl.preset("standard").replace(deck=HEARTS_LED_JOKERS, scoring={"values": {"QS": 13, "0C": 5}})
    assert v.rules.value[hl.Card("0C").index] == 5


def test_a_match_starts_from_set_counters_and_pool_and_saves_them() -> None:
    v = hl.preset("standard").replace(scoring={"settlement": "sweepstake"})
    hands = hl.Round.deal(v, seed=3).hands
    m = hl.Match.from_deal(v, hands, counters=(5, -3, -4, 0), pool=2, seed=7)
    assert (m.counters, m.pool) == ((5, -3, -4, 0), 2)
    rng = random.Random(2)
    while m.hand_number == 0:
        m.apply(rng.choice(m.legal_actions(m.round.to_act[0])))
    first = m.rounds[0]
    assert first.settlement is not None
    assert first.counters == tuple(c + d for c, d in zip((5, -3, -4, 0), first.settlement.net, strict=True))
    assert sum(m.counters) + m.pool == sum((5, -3, -4, 0)) + 2  # counters only change hands
    assert hl.Match.from_json(m.to_json()) == m
    howell = v.replace(scoring={"settlement": "howell"})
    with pytest.raises(hl.IllegalAction, match="keeps no pool"):
        hl.Match.from_deal(howell, hands, pool=1, seed=1)
    with pytest.raises(hl.IllegalAction, match="settles none"):
        hl.Match.from_deal(hl.preset("standard"), hands, counters=(1, 0, 0, -1), seed=1)
    with pytest.raises(hl.IllegalAction, match="counters must be 4 whole numbers"):
        hl.Match.from_deal(howell, hands, counters=(1, 0, 0), seed=1)
