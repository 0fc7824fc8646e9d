"""heartslib.vector's hand scoring beyond the plain card values, held to the engine: the score modifiers
(``scoring.multiply`` and ``multiply_alone``, ``double_suit``, ``cancels``, ``all_hearts_flips``), going for the
lot (``moon.kind = "lot"``, the shooter's choice of zero or double) and ``moon.sun_and_moon``.

Random play seldom reaches these rules (one seat taking every heart, or every trick), so the variants here make
them common (most hearts stripped; Q♠ the only penalty card) and a steering policy makes one seat take most
tricks; every game is mirrored by the engine's ``Round`` at every step (``test_vector.mirror``) and each test
asserts that its rule was reached, so a kernel that got it wrong fails.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import heartslib as hl  # noqa: E402
from heartslib.adapters.encoding import Turns  # noqa: E402
from heartslib.vector import Env  # noqa: E402
from test_vector import drive  # noqa: E402

#: Every heart but K♥ and A♥ stripped (and 2♣, to deal 40 cards evenly to four): a seat takes every heart often.
FEW_HEARTS = {"strip": {"4": [f"{rank}H" for rank in "23456789TJQ"] + ["2C"]}}
#: Q♠ the only penalty card: its taker shoots the moon every hand.
ONLY_QS = {"values": {f"{rank}H": 0 for rank in "23456789TJQKA"} | {"QS": 13}}


def steered(env: Env, state: Any, rng: Any, bold: int) -> Any:
    """Seat ``bold`` plays its highest legal card, the others their lowest (so ``bold`` takes most tricks, often
    every one); passes, and the shooter's choice, drawn at random."""
    actions = env.random_actions(state, rng)
    mask = np.asarray(state.legal_action_mask)[:, :52]
    playing = (np.asarray(state.phase) == 2) & mask.any(1)
    ids = np.arange(52)
    high = np.where(mask, ids, -1).max(1)
    low = np.where(mask, ids, 99).min(1)
    pick = np.where(np.asarray(state.current_player) == bold, high, low)
    return np.where(playing, pick, actions)


def play(v: hl.Variant, rounds: list[hl.Round], rng_seed: int, bold: int | None = None) -> list[Turns]:
    """Play ``rounds`` out through the environment (random legal actions, or steered towards seat ``bold``),
    mirrored by the engine at every step; each game's final ``to_round`` equals the engine's round."""
    env = Env(v)
    turns = [Turns(env.encoding, r.copy()) for r in rounds]
    policy = None if bold is None else functools.partial(steered, bold=bold)
    state = drive(env, env.from_rounds(rounds), turns, rng_seed, policy)
    for g, t in enumerate(turns):
        assert env.to_round(state, g) == t.round
    return turns


def deals(v: hl.Variant, count: int, scores: bool = False) -> list[hl.Round]:
    """``count`` hands of ``v``, every dealer and pass of the schedule, with scores before them if asked."""
    n = v.players
    return [hl.Round.deal(v, seed=s, hand_number=s, dealer=s % n,
                          scores=[(37 * s * (k + 1)) % 120 - 20 for k in range(n)] if scores else None)
            for s in range(count)]


def took(turns: list[Turns], cards: str) -> bool:
    """Whether in some game one seat took every one of ``cards``."""
    want = {hl.Card(c) for c in cards.split()}
    return any(want <= set(taken) for t in turns for taken in t.round.taken)


#: The hearts alone flip; 10♣ scores +50 alone (its taker took no other counting card), x 2 otherwise.
FLIP_ALONE = hl.preset("gong_zhu").replace(deck=FEW_HEARTS, scoring={"all_hearts_flips": "hearts",
                                                                     "multiply_alone": {"TC": 50}})
#: Gong Zhu (the flip of every penalty card, 10♣ doubling its taker's score, the highest total winning).
FLIPS = [hl.preset("gong_zhu").replace(deck=FEW_HEARTS), FLIP_ALONE]


@pytest.mark.parametrize("v", FLIPS, ids=["gong_zhu", "hearts_flip_multiply_alone"])
def test_the_all_hearts_flip_and_the_multipliers_score_as_the_engine(v: hl.Variant) -> None:
    turns = play(v, deals(v, 24), 3, bold=0)
    assert took(turns, "KH AH")  # the flip was reached
    assert took(turns, "TC")
    if v.scoring.multiply_alone:  # 10♣ scored alone in some game, multiplied in another
        counters = v.rules.counters - {hl.Card("TC").index}
        alone = [t.round.points[seat] for t in turns for seat, taken in enumerate(t.round.taken)
                 if hl.Card("TC") in taken and not any(c.index in counters for c in taken)]
        assert 50 in alone


ROYAL = hl.preset("royal_hearts")
#: Two cards cancel Q♠ (a seat holding both and Q♠ scores it negatively, as the engine counts it), a negative
#: multiplier, and two cards doubling the hearts.
TWO_CANCELLERS = ROYAL.replace(scoring={"cancels": {"QC": "QS", "JC": "QS"}, "multiply": {"TC": -1},
                                        "double_suit": {"QH": "hearts", "QD": "hearts"}}, end={"hands": 10})
#: Q♠ and A♥ the penalty cards (one seat takes both often).
TWO_PENALTY = {"values": ONLY_QS["values"] | {"AH": 1}}
#: Going for the lot.
LOT = hl.preset("standard").replace(scoring=TWO_PENALTY, moon={"kind": "lot"})


def sun_and_moon(sun: str) -> hl.Variant:
    """A new moon every hand (Q♠ the only penalty card) but where someone shoots the ``sun``; 10♣ doubles."""
    return hl.preset("standard").replace(scoring=ONLY_QS | {"multiply": {"TC": 2}},
                                         moon={"kind": "new", "sun": sun, "sun_and_moon": True})


@pytest.mark.parametrize("v", [ROYAL, TWO_CANCELLERS], ids=["royal_hearts", "two_cancellers_negative_multiplier"])
def test_suit_doublers_and_cancelling_cards_score_as_the_engine(v: hl.Variant) -> None:
    turns = play(v, deals(v, 24), 5)
    assert took(turns, "QH KH") and took(turns, "QC QS")  # a doubled heart, a cancelled Q♠


def test_going_for_the_lot_plays_both_options_as_the_engine() -> None:
    """``moon.kind = "lot"``: the shooter chooses (ids of "zero" and "double") to return its total to 0 or to
    double every other player's; both read the scores before the hand."""
    v = LOT
    env = Env(v)
    ids = (env.encoding.option_id("zero"), env.encoding.option_id("double"))
    turns = play(v, deals(v, 32, scores=True), 2)
    chosen = {e.outcome for t in turns for e in t.round.events if isinstance(e, hl.MoonShot)}
    assert chosen == {hl.MoonScoring.ZERO, hl.MoonScoring.DOUBLE}
    assert env.num_actions == max(ids) + 1


def strong(v: hl.Variant, seed: int, seat: int, scores: list[int]) -> hl.Round:
    """A hold hand of the 4-player ``v`` in which ``seat`` holds the top three cards of every suit and J♠: played
    high by ``steered``, it takes every trick."""
    top = [hl.Card(f"{rank}{suit}") for suit in "CDHS" for rank in "AKQ"] + [hl.Card("JS")]
    rest = [hl.Card.from_index(i) for i in range(52) if hl.Card.from_index(i) not in top]
    rest = [rest[i] for i in np.random.default_rng(seed).permutation(len(rest))]
    others = [rest[k::3] for k in range(3)]
    hands = [*others[:seat], top, *others[seat:]]
    return hl.Round.from_hands(v, hands, passing="hold", dealer=seed % 4, scores=scores)


@pytest.mark.parametrize("sun", ["add_52", "subtract_52", "clean_slate", "punish_passer"])
def test_the_moon_where_nobody_shot_the_sun(sun: str) -> None:
    """``moon.sun_and_moon``: a sun scores as the sun; where nobody took every trick, the moon rule scores
    (with the multipliers on both, but for the clean slate's)."""
    v = sun_and_moon(sun)
    rounds = deals(v, 12, scores=True) + [strong(v, s, 1, [5 * s, 0, -s, 30]) for s in range(4)]
    turns = play(v, rounds, 11, bold=1)
    kinds = {e.kind for t in turns for e in t.round.events if isinstance(e, hl.MoonShot)}
    assert kinds == {hl.Shot.MOON, hl.Shot.SUN}


def near_target(v: hl.Variant, count: int) -> list[hl.Round]:
    """``count`` hands of ``v`` whose scores before them (95, -40, 3, 80, or 95, 10, 3, 80, a seat on each hand)
    put a total past 100 with an old moon, and make the winner differ by the score or its magnitude."""
    patterns = ((95, -40, 3, 80), (95, 10, 3, 80))
    return [hl.Round.deal(v, seed=s, hand_number=s, dealer=s % 4,
                          scores=[patterns[s % 2][(k + s // 2) % 4] for k in range(4)]) for s in range(count)]


@pytest.mark.parametrize("end", [{}, {"measure": "magnitude"}, {"target": 200, "win_target": -26}, {"target": 60}],
                         ids=["target", "magnitude", "win_target", "target_60"])
def test_a_new_moon_only_where_the_old_one_would_lose_the_match(end: dict[str, Any]) -> None:
    """``moon.kind = "new_if_old_loses"``: the new moon where the old one would end the match (a total at the
    target, or at the winning target) with the shooter not among the winners (by the score, or its magnitude);
    both come up."""
    v = hl.preset("standard").replace(scoring=TWO_PENALTY, moon={"kind": "new_if_old_loses"}, end=end)
    turns = play(v, near_target(v, 32), 8, bold=0)
    chosen = {e.outcome for t in turns for e in t.round.events if isinstance(e, hl.MoonShot)}
    assert chosen == {hl.MoonScoring.OLD, hl.MoonScoring.NEW}


def test_after_a_moon_the_match_goes_on_so_the_old_moon_stands() -> None:
    v = hl.preset("standard").replace(scoring=TWO_PENALTY, moon={"kind": "new_if_old_loses",
                                                                 "continue_after_moon": True})
    turns = play(v, near_target(v, 24), 8, bold=0)
    assert {e.outcome for t in turns for e in t.round.events if isinstance(e, hl.MoonShot)} == {hl.MoonScoring.OLD}
