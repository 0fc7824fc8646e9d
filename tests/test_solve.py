"""heartslib.solve: the exact endgame solver, held to a brute-force max^n over the engine's own moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import heartslib as hl
from heartslib import strategies as hst
from heartslib.agents import HeuristicAgent, SearchAgent
from heartslib.engine import legality
from heartslib.engine.legality import candidates
from heartslib.engine.machine import choice, choose
from heartslib.engine.state import RoundState
from heartslib.engine.tricks import play_card
from heartslib.points import Score
from heartslib.scoring import slate_change
from heartslib.search import Budget, EndgameModel, Search, hand_value
from heartslib.solve import Endgame, Model, Value, solvable

STANDARD = hl.preset("standard")


def brute(s: RoundState, seat: int, value: Value) -> tuple[float, ...]:
    """Max^n by the engine itself: every legal card of every seat (no merging, no table), the moon choice the
    shooter's best; ties against ``seat``, as the solver breaks them."""
    if s.phase is hl.Phase.OVER:
        assert s.outcome is not None
        points = slate_change(s.scores, s.outcome.points, s.outcome)  # a clean slate: the total back to 0
        return tuple(value(points, q) for q in range(s.n))
    if s.phase is hl.Phase.DECIDE:
        assert s.decision is not None
        _, shooter, options = s.decision
        best: tuple[float, ...] | None = None
        for option in options:
            t = s.copy()
            choose(t, choice(t.rules, shooter, option))
            got = brute(t, seat, value)
            if best is None or got[shooter] > best[shooter]:
                best = got
        assert best is not None
        return best
    turn = s.turn
    best = None
    for c in list(candidates(s, turn, None)):
        t = s.copy()
        play_card(t, turn, c)
        got = brute(t, seat, value)
        if best is None or got[turn] > best[turn] + 1e-9 or (
                got[turn] > best[turn] - 1e-9 and got[seat] < best[seat] - 1e-9):
            best = got
    assert best is not None
    return best


def brute_model(s: RoundState, seat: int, value: Value, model: Model) -> float:
    """``seat``'s best reply to ``model`` by the engine itself: ``seat`` tries every legal card, the others
    play the model's card; the value to ``seat``."""
    if s.phase is not hl.Phase.PLAY:
        return brute(s, seat, value)[seat]
    turn = s.turn
    legal = list(candidates(s, turn, None))
    if turn != seat and len(legal) > 1:
        unplayed = [0] * len(s.rules.suit)
        for seat_ in range(s.n):
            for c in s.held(seat_):
                unplayed[c] = 1
        legal = [model(turn, legal, list(zip(s.tseats, s.tcards, strict=True)), unplayed,
                       [t[:] for t in s.taken], s.held(turn))]
    best = -1e18
    for c in legal:
        t = s.copy()
        play_card(t, turn, c)
        best = max(best, brute_model(t, seat, value, model))
    return best


def endgame_position(v: hl.Variant, seed: int, tricks: int) -> hl.Round | None:
    """A random play's round once the seat to act holds ``tricks`` cards or fewer, a random part of a trick
    played; None if none is solvable."""
    rng = random.Random(seed)
    r = hl.Round.deal(v, seed=seed, hand_number=seed % 4)
    while not r.is_over:
        s = r._s
        if s.phase is hl.Phase.PLAY and s.trick_no > 0 and s.hand_size(s.turn) <= tricks:
            break
        r.apply(hst.random_action(r, rng))
    for _ in range(rng.randrange(v.players)):
        if r.phase is not hl.Phase.PLAY:
            break
        r.apply(hst.random_action(r, rng))
    return r if r.phase is hl.Phase.PLAY and solvable(r._s) else None


def value_in(s: RoundState) -> Value:
    """The search's value of a finished hand to a seat, with the totals and hand number of ``s``."""

    def value(points: Sequence[Score], q: int) -> float:
        return hand_value(s.variant, q, points, s.scores, s.hand_number)

    return value


def check_against_brute_force(r: hl.Round) -> None:
    s = r._s
    seat = s.turn
    value = value_in(s)
    solver = Endgame(s, seat, value)
    before = s.copy().key()
    for c in candidates(s, seat, None):
        t = s.copy()
        play_card(t, seat, c)
        assert solver.solve_after(c) == pytest.approx(brute(t, seat, value)), hl.Card.from_index(c).code
    assert solver.solve_after() == pytest.approx(brute(s.copy(), seat, value))
    assert s.key() == before  # the world itself is never changed


@pytest.mark.parametrize("name", ["standard", "omnibus", "spot_hearts", "complex_hearts", "danger_hearts",
                                  "black_maria", "gong_zhu", "black_jack", "likha", "gong_zhu_exposed",
                                  "likha_idlib"])
def test_the_solver_agrees_with_brute_force_max_n(name: str) -> None:
    v = hl.preset(name)
    found = 0
    for seed in range(60):
        r = endgame_position(v, seed, 3)
        if r is not None:
            check_against_brute_force(r)
            found += 1
    assert found >= 20


@pytest.mark.parametrize("name", ["standard", "omnibus", "black_maria"])
def test_the_best_reply_to_the_rollout_policy_agrees_with_brute_force(name: str) -> None:
    """With a model of the other seats (the search's: rollout_card), only the searching seat branches."""
    v = hl.preset(name)
    model = EndgameModel(Search(v).tables)
    found = 0
    for seed in range(40):
        r = endgame_position(v, seed, 3)
        if r is None:
            continue
        s = r._s
        seat = s.turn
        value = value_in(s)
        solver = Endgame(s, seat, value, model)
        for c in candidates(s, seat, None):
            t = s.copy()
            play_card(t, seat, c)
            assert solver.solve_after(c)[seat] == pytest.approx(brute_model(t, seat, value, model))
        found += 1
    assert found >= 15


#: Random variants mostly the solver takes (one deck, no kitty, no jokers, no booster nines: one card a seat),
#: every other field drawn: every play rule (the hearts lock, forced plays, the undercut, exposures), moons and
#: suns, bonus cards, multipliers, teams, directions, ...
SOLVABLE_PINS = {"deck": {"fill": "strip", "jokers": 0}, "play": {"booster_nines": False}}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.variants(players=st.integers(3, 6), decks=1, **SOLVABLE_PINS), st.integers(0, 2**32 - 1))
def test_the_solver_agrees_with_brute_force_in_random_variants(v: hl.Variant, seed: int) -> None:
    """Any variant the solver takes: the same values as the engine's, in both modes."""
    r = endgame_position(v, seed, 2)
    if r is not None:
        check_against_brute_force(r)
        s = r._s
        seat, value, model = s.turn, value_in(s), EndgameModel(Search(v).tables)
        solver = Endgame(s, seat, value, model)
        for c in candidates(s, seat, None):
            t = s.copy()
            play_card(t, seat, c)
            assert solver.solve_after(c)[seat] == pytest.approx(brute_model(t, seat, value, model))


def test_equivalent_cards_and_transpositions_cut_the_search() -> None:
    """The solver searches far fewer positions than the full tree of the engine's legal moves holds."""
    solved = full = 0
    for seed in range(20):
        r = endgame_position(STANDARD, seed, 3)
        if r is None:
            continue
        s = r._s
        solver = Endgame(s, s.turn, lambda points, q: -float(points[q]))
        solver.solve_after()
        solved += solver.nodes
        full += count_positions(s.copy())
    assert 0 < solved < full / 2


def count_positions(s: RoundState) -> int:
    """The positions of the tree of every legal line from ``s`` (``s`` and the finished hands included)."""
    if s.phase is not hl.Phase.PLAY:
        return 1
    total = 1
    for c in list(candidates(s, s.turn, None)):
        t = s.copy()
        play_card(t, s.turn, c)
        total += count_positions(t)
    return total


@pytest.mark.parametrize("name", ["cancellation", "double_deck_6_dirty", "double_deck_7", "two_handed",
                                  "domino_hearts"])
def test_the_solver_refuses_what_it_does_not_cover(name: str) -> None:
    """Two decks, jokers, a kitty or a stock: never solved (the rollouts keep them)."""
    v = hl.preset(name)
    r = hl.Round.deal(v, seed=1, hand_number=3)
    rng = random.Random(1)
    while not r.is_over:
        assert not solvable(r._s)
        r.apply(hst.random_action(r, rng))


def test_the_first_trick_and_the_pass_are_never_solved() -> None:
    r = hl.Round.deal(STANDARD, seed=2, hand_number=3)  # a hold hand: the first trick at once
    assert not solvable(r._s)
    with pytest.raises(ValueError, match="plain trick-taking"):
        Endgame(r._s, 0, lambda points, q: 0.0)
    assert not solvable(hl.Round.deal(STANDARD, seed=2, hand_number=0)._s)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", None])
def test_a_bad_endgame_is_refused(bad: object) -> None:
    if hl.COMPILED and bad is True:
        pytest.skip("the compiled build takes a bool for an int argument (endgame=1)")
    # the compiled build types the argument at the call (docs/performance.md): a TypeError there
    errors = (hl.IllegalAction, TypeError) if hl.COMPILED and not isinstance(bad, int) else hl.IllegalAction
    with pytest.raises(errors, match=r"endgame must be a whole number|int"):
        SearchAgent(1, endgame=bad)  # type: ignore[arg-type]
    with pytest.raises(errors, match=r"endgame must be a whole number|int"):
        Search(STANDARD, endgame=bad)  # type: ignore[arg-type]


def _endgame_decisions(seed: int) -> list[tuple[hl.Round, int]]:
    """Rounds (copies) at the play decisions with two or more cards and three tricks or fewer left."""
    r = hl.Round.deal(STANDARD, seed=seed, hand_number=seed % 4)
    agents = [HeuristicAgent(s) for s in range(4)]
    for s, a in enumerate(agents):
        a.setup(STANDARD, s)
    out = []
    while not r.is_over:
        seat = r.to_act[0]
        legal = hl.agents.LazyActions(r, seat) if r.phase == hl.Phase.PASS else r.legal_actions(seat)
        if r.phase == hl.Phase.PLAY and len(legal) > 1 and len(r.hand(seat)) <= 3:
            out.append((r.copy(), seat))
        r.apply(agents[seat].act(r.observation(seat), legal))
    return out


def test_endgame_decisions_are_solved_only_when_asked() -> None:
    positions = [p for seed in range(4) for p in _endgame_decisions(seed)]
    assert positions
    on, off = Search(STANDARD, Budget(playouts=6)), Search(STANDARD, Budget(playouts=6), endgame=0)
    for r, seat in positions:
        obs = r.observation(seat)
        for search in (on, off):
            action = search.choose(obs, search.play_candidates(obs, r.legal_actions(seat)), random.Random(1))
            assert action in r.legal_actions(seat)
    assert on.solver_nodes > 0
    assert off.solver_nodes == 0


def test_the_endgame_model_plays_for_the_moon_for_a_threat_as_the_rollouts_do() -> None:
    """Seat 1 has taken Q♠ and leads from A♥ 2♥ 3♣: as a moon threat it leads its sure A♥ (moon_card); as
    anyone else the low club (rollout_card)."""
    t = Search(STANDARD).tables
    hand = [hl.Card(c).index for c in ("3C", "2H", "AH")]
    unplayed = [0] * len(t.suit)
    for c in hand + [hl.Card(c).index for c in ("4C", "5C", "6C", "KH", "QH", "JH", "2D", "3D", "4D")]:
        unplayed[c] = 1
    taken: list[list[int]] = [[], [hl.Card("QS").index], [], []]
    threat = EndgameModel(t, shooter=1)(1, hand, [], unplayed, taken, hand)
    assert hl.Card.from_index(threat).code == "AH"
    plain = EndgameModel(t)(1, hand, [], unplayed, taken, hand)
    assert hl.Card.from_index(plain).code == "3C"
    # the threat no longer holds every point: it plays as anyone else
    taken[2].append(hl.Card("5H").index)
    assert EndgameModel(t, shooter=1)(1, hand, [], unplayed, taken, hand) == plain


def check_solver_legality(r: hl.Round, budget: int = 400) -> int:
    """The solver's legal cards (:meth:`Endgame.legal_after`) equal the engine's (``legality.candidates``, read
    through the module so that a rule planted there reaches this oracle) at every position of the tree of
    legal lines from ``r`` (depth first, up to ``budget`` positions); the positions compared."""
    s = r._s
    solver = Endgame(s, s.turn, lambda points, q: 0.0)
    compared = 0
    stack: list[tuple[RoundState, tuple[int, ...]]] = [(s.copy(), ())]
    while stack and compared < budget:
        t, line = stack.pop()
        if t.phase is not hl.Phase.PLAY:
            continue
        engine = list(legality.candidates(t, t.turn, None))
        assert solver.legal_after(line) == engine, [hl.Card.from_index(c).code for c in line]
        compared += 1
        for c in engine:
            u = t.copy()
            play_card(u, u.turn, c)
            stack.append((u, (*line, c)))
    return compared


#: Every play field drawn (the hearts lock and its exceptions, forced plays, the undercut, exposures, the
#: opening): only what keeps a variant off the solver's trick bookkeeping is pinned (one deck, no jokers, no
#: kitty or stock, no booster nines, no auction).
EVERY_PLAY_RULE = {"deck": {"fill": "strip", "jokers": 0, "stock": "none", "joker_points_when": "always"},
                   "play": {"booster_nines": False}, "scoring": {"chips": 50, "max_bid": 0}}


def solvable_endgame(v: hl.Variant, seed: int) -> hl.Round:
    """An endgame the solver covers: the first of a few random plays of ``v`` (seeds from ``seed``) that
    reaches one with three tricks or fewer left."""
    for k in range(40):
        r = endgame_position(v, seed + k, 3)
        if r is not None:
            return r
    raise AssertionError(f"no solvable endgame in 40 deals of {v.to_dict()}")  # pragma: no cover


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.variants(players=st.integers(3, 6), decks=1, **EVERY_PLAY_RULE), st.integers(0, 2**32 - 1))
def test_the_solvers_legal_cards_are_the_engines_in_random_variants(v: hl.Variant, seed: int) -> None:
    """Issue 49, step 0: the solver asks the engine's legality, so no play rule can be missing from it; every
    example reaches an endgame and compares its positions."""
    assert check_solver_legality(solvable_endgame(v, seed)) > 0


#: A toy play rule planted in the engine's legality: no heart led before the last trick while the leader
#: holds another card.
def _planted(real: Callable[..., list[int]]) -> Callable[..., list[int]]:
    def candidates(s: RoundState, seat: int, why: object) -> list[int]:
        cands = real(s, seat, why)
        if not s.tcards and s.trick_no < 12:
            keep = [c for c in cands if s.rules.suit[c] != 2]
            return keep or cands
        return cands

    return candidates


def test_the_legality_check_catches_a_rule_the_solver_ignores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential test can fail: with a rule planted in the oracle's legality only (the solver keeps the
    engine's), it finds the positions where the two differ: a lead from a hand with a heart and another card
    in standard rules' endgames."""
    monkeypatch.setattr(legality, "candidates", _planted(legality.candidates))
    caught = 0
    for seed in range(12):
        r = endgame_position(STANDARD, seed, 3)
        if r is None:
            continue
        try:
            check_solver_legality(r)
        except AssertionError:
            caught += 1
    assert caught >= 3
