"""The built-in agents, the Agent protocol and the match driver."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import heartslib as hl
from heartslib.agents import (
    AGENTS,
    Agent,
    BaseAgent,
    HeuristicAgent,
    LazyActions,
    MoonAgent,
    RandomAgent,
    SearchAgent,
    actions_for,
    play_match,
)
from heartslib.cards import NUM_CARD_INDICES
from heartslib.points import MAX_HAND_NUMBER
from heartslib.simulate import simulate

STANDARD = hl.preset("standard")
# free leads and no locks, so a test position can start with any lead
FREE = {"opening": "eldest_any", "breaking": "none", "first_trick": "any"}


def position(v: hl.Variant, hands: dict[int, str], plays: str = "", dealer: int = -1) -> hl.Round:
    """A round in play: the given (partial) hands filled up from the rest of the pack, then ``plays``.

    The eldest hand (seat 0 by default) leads the first trick.
    """
    fixed = {seat: list(hl.parse_cards(text)) for seat, text in hands.items()}
    pool = list(v.pack)
    for cards in fixed.values():
        for c in cards:
            pool.remove(c)
    size = v.rules.hand_size
    full = []
    for seat in range(v.players):
        hand = fixed.get(seat, [])
        need = size - len(hand)
        full.append(hand + pool[:need])
        del pool[:need]
    r = hl.Round.from_hands(v, full, dealer=dealer % v.players, passing=hl.HOLD, kitty=pool)
    for code in plays.split():
        r.apply(hl.Play(r.to_act[0], hl.Card(code)))
    return r


def heuristic_play(v: hl.Variant, r: hl.Round, seed: int = 0) -> hl.Card:
    seat = r.to_act[0]
    agent = HeuristicAgent(seed)
    agent.setup(v, seat)
    action = agent.act(r.observation(seat), r.legal_actions(seat))
    assert isinstance(action, hl.Play) and r.is_legal(action)
    return action.card


def heuristic_pass(v: hl.Variant, hand: str, seed: int = 0) -> set[str]:
    r = hl.Round.from_hands(v, _fill(v, hand), passing=hl.Offset(1))
    agent = HeuristicAgent(seed)
    agent.setup(v, 0)
    action = agent.act(r.observation(0), actions_for_round(r, 0))
    assert isinstance(action, hl.Pass) and r.is_legal(action)
    return {c.code for c in action.cards}


def actions_for_round(r: hl.Round, seat: int) -> Sequence[hl.Action]:
    return LazyActions(r, seat)


def _fill(v: hl.Variant, hand: str) -> list[list[hl.Card]]:
    mine = list(hl.parse_cards(hand))
    pool = [c for c in v.pack if c not in mine]
    size = v.rules.hand_size
    return [mine] + [pool[i * size : (i + 1) * size] for i in range(v.players - 1)]


# --------------------------------------------------------------------------- the protocol and the driver


def test_agents_satisfy_the_protocol() -> None:
    class FirstLegal:
        def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action:
            return legal_actions[0]

    assert isinstance(RandomAgent(1), Agent)
    assert isinstance(HeuristicAgent(1), Agent)
    assert isinstance(FirstLegal(), Agent)
    assert not isinstance(object(), Agent)
    m = play_match(STANDARD, [FirstLegal(), RandomAgent(1), HeuristicAgent(2), FirstLegal()], seed=3)
    assert m.is_over and m.winners
    assert set(AGENTS) == {"random", "heuristic", "moon", "defending", "search"}


def test_base_agent_needs_act_and_a_whole_number_seed() -> None:
    with pytest.raises(NotImplementedError):
        BaseAgent(1).act(hl.Match(STANDARD, seed=1).observation(0), [])
    # the compiled build types the seed at the call (docs/performance.md): a TypeError there
    with pytest.raises((hl.IllegalAction, TypeError) if hl.COMPILED else hl.IllegalAction, match=r"seed|int"):
        RandomAgent("7")  # type: ignore[arg-type]
    assert isinstance(RandomAgent().seed, int)  # None picks a seed
    assert repr(HeuristicAgent(5)) == "HeuristicAgent(seed=5)"


def test_play_match_checks_the_table_and_names_a_cheating_agent() -> None:
    with pytest.raises(ValueError, match="needs 4 agents"):
        play_match(STANDARD, [RandomAgent(1)] * 3, seed=1)

    class Cheat:
        def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action:
            if observation.phase == hl.Phase.PLAY:
                return hl.Play(observation.seat, hl.Card("AS"))  # whatever its hand or the rules say
            return legal_actions[0]

        def __repr__(self) -> str:
            return "Cheat()"

    with pytest.raises(hl.IllegalAction) as info:
        play_match(STANDARD, [Cheat(), Cheat(), Cheat(), Cheat()], seed=1)
    assert "Cheat() playing seat" in "".join(getattr(info.value, "__notes__", []))


def test_setup_is_called_with_the_variant_and_seat() -> None:
    seen: list[tuple[str, int]] = []

    class Recorder(RandomAgent):
        def setup(self, variant: hl.Variant, seat: int) -> None:
            super().setup(variant, seat)
            seen.append((variant.name, seat))

    play_match(STANDARD, [Recorder(s) for s in range(4)], seed=2)
    assert seen == [("standard", 0), ("standard", 1), ("standard", 2), ("standard", 3)]


@pytest.mark.parametrize("make", [HeuristicAgent, MoonAgent, lambda seed: SearchAgent(seed, playouts=4)],
                         ids=["heuristic", "moon", "search"])
def test_an_agent_asked_without_setup_learns_the_rules_from_a_rounds_observation(make: Any) -> None:
    # agent.act(round.observation(seat), round.legal_actions(seat)) with no driver: the same choices as the agent
    # a driver set up (a SearchAgent searches rather than falling back to its heuristic), in every variant it
    # is handed, and an observation rebuilt from its fields keeps the documented fallback
    direct = make(7)  # one agent handed both games
    for name in ("omnibus", "black_maria"):
        v = hl.preset(name)
        driven = [make(7) for _ in range(v.players)]
        for seat, agent in enumerate(driven):
            agent.setup(v, seat)
        r = hl.Round.deal(v, seed=4)
        while not r.is_over:
            seat = r.to_act[0]
            obs, legal = r.observation(seat), r.legal_actions(seat)
            assert direct.act(obs, legal) == driven[seat].act(obs, legal)
            r.apply(driven[seat].act(obs, legal))
            if len(r.tricks) >= 4:
                break
        assert direct.variant is v
    loose = make(7)
    obs = attrs.evolve(hl.Round.deal(hl.preset("standard"), seed=4).observation(0))
    assert loose.act(obs, hl.Round.deal(hl.preset("standard"), seed=4).legal_actions(0)) is not None
    assert loose.variant is None


def test_a_driver_set_up_agent_keeps_its_rules_whatever_the_observation_carries() -> None:
    agent = HeuristicAgent(3)
    agent.setup(hl.preset("black_maria"), 1)
    r = hl.Round.deal(STANDARD, seed=1)
    agent.act(r.observation(1), r.legal_actions(1))
    assert agent.variant is not None and agent.variant.name == "black_maria"


class Counting(RandomAgent):
    """A subclass with an attribute of its own (at module level, where pickle finds it)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.plays = [0]


def test_a_subclass_keeps_its_own_attributes_through_copy_and_pickle() -> None:
    # simulate deep-copies an agent given as an instance and a process pool pickles it; in the compiled build
    # mypyc's default __getstate__ would keep only BaseAgent's compiled attributes
    import copy
    import pickle

    agent = Counting(3)
    agent.setup(STANDARD, 1)
    for twin in (copy.copy(agent), copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))):
        assert type(twin) is Counting
        assert (twin.plays, twin.seed, twin.seat, twin.variant) == ([0], 3, 1, STANDARD)


def test_lazy_actions_count_index_and_check_without_listing() -> None:
    m = hl.Match(STANDARD, seed=4)
    expected = m.legal_actions(2)
    lazy = actions_for(m, 2)
    assert isinstance(lazy, LazyActions)
    hand = m.observation(2).hand
    assert hl.Pass(2, hand[:3]) in lazy and hl.Pass(1, hand[:3]) not in lazy
    m.apply(hl.Pass(2, hand[:3]))
    assert m.legal_actions(2) == []  # the match moved on; the sequence keeps the position it was handed
    assert len(lazy) == 286 and list(lazy) == expected and lazy[:5] == expected[:5]
    assert [lazy[i] for i in (0, 1, 100, 285, -1)] == [expected[i] for i in (0, 1, 100, 285, -1)]
    assert "286 passes" in repr(lazy) and hl.Pass(2, hand[:3]) in lazy
    with pytest.raises(IndexError):
        lazy[286]
    while m.phase == hl.Phase.PASS:
        s = m.to_act[0]
        m.apply(hl.Pass(s, m.observation(s).hand[:3]))
    assert actions_for(m, m.to_act[0]) == m.legal_actions()  # a plain list outside passing


def test_lazy_actions_of_a_big_pass_are_never_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    # three players passing 8 of 17 cards: 24,310 passes, counted and unranked without listing any
    import heartslib.engine.legality as legality

    v = hl.Variant(players=3, deck={"strip": ["2S"]}, passing={"schedule": "left", "cards": 8})
    m = hl.Match(v, seed=1)
    lazy = actions_for(m, 0)
    hand = m.observation(0).hand

    def no_listing(*args: object) -> None:
        raise AssertionError("listed the passes")

    monkeypatch.setattr(legality, "pass_choices", no_listing)
    assert len(lazy) == 24_310
    assert lazy[0] == hl.Pass(0, hand[:8]) and lazy[-1] == hl.Pass(0, hand[-8:])
    assert lazy[10_000] in lazy


def test_agents_never_list_huge_passes() -> None:
    # ten players with two decks passing one card to each opponent: 10!/1! orderings of a hand
    v = STANDARD.replace(players=10, deck={"decks": 2}, passing={"schedule": ["scatter"]})
    for cls in (RandomAgent, HeuristicAgent):
        m = play_match(v, [cls(s) for s in range(10)], seed=1)
        assert m.is_over


# --------------------------------------------------------------------------- every variant


@pytest.mark.parametrize("name", hl.preset_names())
def test_builtin_agents_play_every_preset(name: str) -> None:
    v = hl.preset(name)
    agents: list[Agent] = [HeuristicAgent(s) if s % 2 == 0 else RandomAgent(s) for s in range(v.players)]
    m = play_match(v, agents, seed=11)  # the engine rejects any illegal action
    assert m.is_over and m.winners


ODD_VARIANTS = {
    "scatter": STANDARD.replace(passing={"schedule": ["scatter"]}),
    "star_shuffle_dealers_choice_valueless_jokers": STANDARD.replace(
        players=5, passing={"schedule": ["star", "shuffle", "dealers_choice"], "cards": 2},
        deck={"fill": "jokers", "joker": "valueless", "joker_lead": "call_suit"},
    ),
    "next_card_jokers_with_points": STANDARD.replace(
        players=3, passing={"schedule": "left"},
        deck={"fill": "jokers", "joker": "valueless", "joker_lead": "next_card", "joker_play": "when_void",
              "joker_points": 5, "joker_points_when": "hearts_led"},
    ),
    "moon_choice_forbidden_passes": STANDARD.replace(
        moon={"kind": "choice", "sun": "punish_passer"}, passing={"forbidden": ["2C", "QS", "AH"]}
    ),
    "forced_plays_anticlockwise": STANDARD.replace(
        play={"booster_nines": True, "queen_forced": True, "must_discard": ["JS"]}, direction="anticlockwise"
    ),
    "eleven_cancelling_with_kitty": hl.preset("cancellation").replace(
        players=11, deck={"decks": 2, "fill": "kitty", "kitty": "one_per_trick", "kitty_seen_by_winner": True}
    ),
}


@pytest.mark.parametrize("name", sorted(ODD_VARIANTS))
def test_builtin_agents_play_unusual_variants(name: str) -> None:
    v = ODD_VARIANTS[name]
    for cls in (HeuristicAgent, RandomAgent):
        m = play_match(v, [cls(s) for s in range(v.players)], seed=5)
        assert m.is_over


def test_forbidden_cards_are_never_passed() -> None:
    v = ODD_VARIANTS["moon_choice_forbidden_passes"]
    forbidden = set(v.passing.forbidden)
    for seed in range(30):
        m = hl.Match(v, seed=seed)
        for seat in range(4):
            for cls in (RandomAgent, HeuristicAgent):
                agent = cls(seed)
                agent.setup(v, seat)
                action = agent.act(m.observation(seat), actions_for(m, seat))
                assert isinstance(action, hl.Pass) and m.is_legal(action)
                assert not forbidden & set(action.cards)


# --------------------------------------------------------------------------- determinism


def test_choices_depend_only_on_seed_and_position() -> None:
    m = hl.Match(STANDARD, seed=9)
    for cls in (RandomAgent, HeuristicAgent):
        a, b = cls(3), cls(3)
        a.setup(STANDARD, 1)
        b.setup(STANDARD, 1)
        obs = m.observation(1)
        assert a.act(obs, actions_for(m, 1)) == b.act(obs, actions_for(m, 1)) == a.act(obs, actions_for(m, 1))
    passes = set()
    for seed in range(10):
        agent = RandomAgent(seed)
        agent.setup(STANDARD, 1)
        passes.add(agent.act(m.observation(1), actions_for(m, 1)))
    assert len(passes) > 5  # the seed matters


def test_same_seeds_same_match() -> None:
    def run() -> str:
        return play_match(STANDARD, [HeuristicAgent(1), RandomAgent(2), HeuristicAgent(3), RandomAgent(4)],
                          seed=8).to_json()

    assert run() == run()


def test_agents_work_without_setup() -> None:
    # a caller that never calls setup: the random agent uses the list, the heuristic assumes standard values
    m = hl.Match(STANDARD, seed=6)
    for cls in (RandomAgent, HeuristicAgent):
        while not m.is_over and m.hand_number == 0:
            seat = m.to_act[0]
            m.apply(cls(seat).act(m.observation(seat), m.legal_actions(seat)))


# --------------------------------------------------------------------------- playing well


def test_heuristic_beats_random_clearly() -> None:
    # The docs measure 2,000 matches; this is the small, fixed-seed version of that comparison.
    stats = simulate(STANDARD, ["heuristic", "random", "random", "random"], games=40, seed=2024)
    heuristic = stats.seats[0].mean
    randoms = [s.mean for s in stats.seats[1:]]
    assert isinstance(heuristic, float)
    assert all(isinstance(r, float) and heuristic * 2.5 < r for r in randoms), (heuristic, randoms)
    assert stats.seats[0].win_low > 0.6


def test_heuristic_in_a_heuristic_table_is_not_worse_than_random() -> None:
    mixed = simulate(STANDARD, ["heuristic", "heuristic", "random", "random"], games=20, seed=7)
    heuristic = [float(s.mean.real) for s in mixed.seats[:2]]
    randoms = [float(s.mean.real) for s in mixed.seats[2:]]
    assert max(heuristic) < min(randoms)


def test_passes_the_queen_when_short_in_spades() -> None:
    assert "QS" in heuristic_pass(STANDARD, "QS 3S 2C 5C 9C 3D 6D 9D TD 2H 4H 7H 8H")


def test_passes_unguarded_high_spades_and_keeps_a_guarded_queen() -> None:
    assert {"AS", "KS"} <= heuristic_pass(STANDARD, "AS KS 2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H")
    assert "QS" not in heuristic_pass(STANDARD, "QS KS 2S 3S 4S 5S 2C 3C 8C 2D 3D 9D AH")


def test_passes_a_short_suit_to_make_a_void() -> None:
    # two low clubs and one other high card: passing the clubs leaves a void
    assert {"3C", "4C"} <= heuristic_pass(STANDARD, "3C 4C 2D 3D 4D 5D 6D 2S 3S 4S 5S 6S 7S")


def test_keeps_bonus_cards_and_forbidden_cards() -> None:
    omnibus = hl.preset("omnibus_jd")
    assert "JD" not in heuristic_pass(omnibus, "JD QD KD AD 2C 3C 4C 2S 3S 4S 5S 6S 7S")
    no_queen = STANDARD.replace(passing={"forbidden": ["QS"]})
    assert "QS" not in heuristic_pass(no_queen, "QS 3S 2C 5C 9C 3D 6D 9D TD 2H 4H 7H 8H")


def test_dumps_the_queen_under_a_higher_spade() -> None:
    v = STANDARD.replace(play=FREE)
    r = position(v, {0: "KS", 1: "QS AS 3S"}, "KS")
    assert heuristic_play(v, r).code == "QS"


def test_dumps_the_queen_when_void() -> None:
    v = STANDARD.replace(play=FREE)
    r = position(v, {0: "5C", 1: "QS 2H 9H 2D 3D 4D 5D 6D 7D 8D 9D TD JD"}, "5C")
    assert heuristic_play(v, r).code == "QS"


def test_dumps_high_hearts_when_void_and_no_queen() -> None:
    v = STANDARD.replace(play=FREE)
    r = position(v, {0: "5C", 1: "AH 2H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"}, "5C")
    assert heuristic_play(v, r).code == "AH"


def test_ducks_under_a_heart_trick() -> None:
    v = STANDARD.replace(play=FREE)
    r = position(v, {0: "9H", 1: "TH", 2: "2H", 3: "JH 3H"}, "9H TH 2H")
    assert heuristic_play(v, r).code == "3H"


def test_wins_a_clean_trick_with_its_highest_card_when_last() -> None:
    v = STANDARD.replace(play=FREE)
    r = position(v, {0: "2C", 1: "3C", 2: "4C", 3: "9C KC"}, "2C 3C 4C")
    assert heuristic_play(v, r).code == "KC"


def test_takes_the_bonus_card_trick_only_when_the_card_is_a_bonus() -> None:
    hands = {0: "5D", 1: "3D", 2: "4D", 3: "JD 2D"}
    omnibus = hl.preset("omnibus_jd").replace(play=FREE)
    assert heuristic_play(omnibus, position(omnibus, hands, "5D 3D 4D")).code == "JD"
    plain = STANDARD.replace(play=FREE)
    assert heuristic_play(plain, position(plain, hands, "5D 3D 4D")).code == "2D"


def test_never_discards_a_bonus_card() -> None:
    omnibus = hl.preset("omnibus_jd").replace(play=FREE)
    r = position(omnibus, {0: "5C", 1: "JD 7D 2D 3D 4D 5D 6D 8D 9D TD 2S 3S 4S"}, "5C")
    assert heuristic_play(omnibus, r).code != "JD"


def test_does_not_feed_a_moon_in_the_making() -> None:
    # seat 0 has taken every point so far (12 of 26); void in its club lead, seat 1 keeps its heart
    v = STANDARD.replace(play=FREE)
    hands = {0: "AH KH QH AC", 1: "2H 3H 4H 5H 2D 3D 4D 5D 6D 7D 8D 9D TD", 2: "6H 7H 8H", 3: "9H TH JH"}
    r = position(v, hands, "AH 2H 6H 9H KH 3H 7H TH QH 4H 8H JH AC")
    assert r.to_act == (1,) and heuristic_play(v, r).suit != hl.Suit.HEARTS
    # the same discard when the points are shared: the heart goes
    r = position(v, hands, "AH 2H 6H 9H KH 3H 7H TH QH 4H 8H JH")
    assert heuristic_play(v, position(v, {0: "5C", 1: "5H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"}, "5C")).code == "5H"


def test_chooses_the_new_moon_when_the_old_one_would_lose() -> None:
    # the worked example of 000: shooter 90, second 95, leader 63 -> new moon
    v = STANDARD.replace(moon={"kind": "choice"})
    obs = hl.Match(v, seed=1).observation(0)
    agent = HeuristicAgent(1)
    agent.setup(v, 0)
    legal = [hl.Choose(0, "old"), hl.Choose(0, "new")]

    def choice(scores: tuple[int, ...]) -> str:
        decision = attrs.evolve(obs, phase=hl.Phase.DECIDE, decision="moon", options=("old", "new"),
                                scores=scores, to_act=(0,))
        action = agent.act(decision, legal)
        assert isinstance(action, hl.Choose)
        return action.option

    assert choice((90, 95, 63, 50)) == "new"
    assert choice((10, 20, 30, 40)) == "old"  # +26 to everyone else keeps the shooter ahead


def test_lazy_pass_list_holds_nothing_hidden() -> None:
    from heartslib.agents import LazyActions
    from heartslib.engine.choices import PassChoices

    m = hl.Match(hl.preset("standard"), seed=5)
    lazy = LazyActions(m.round, 2)
    held = {type(getattr(lazy, name)) for name in PassChoices.__slots__}
    assert hl.Round not in held and hl.Match not in held
    assert lazy.rules.hand == tuple(c.index for c in m.round.hand(2))
    own = m.round.hand(2)
    other = m.round.hand(3)
    assert hl.Pass(2, own[:3]) in lazy and hl.Pass(2, other[:3]) not in lazy and hl.Pass(2, own[:2]) not in lazy
    assert len(lazy) == 286 and list(lazy) == m.legal_actions(2)


@given(st.integers(0, 2**64 - 1) | st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1]),
       st.integers(-(2**80), 2**80), st.integers(1, 4), st.integers(0, MAX_HAND_NUMBER), st.integers(0, 255),
       st.integers(0, 255), st.integers(0, 255), st.integers(0, 31),
       st.lists(st.integers(0, NUM_CARD_INDICES - 1), max_size=40))
def test_the_compiled_draw_on_32_bit_halves_is_the_64_bit_one(
    key: int, seed: int, code: int, hand_number: int, tricks: int, trick: int, exposed: int, seat: int,
    hand: list[int],
) -> None:
    # compiled, a RandomAgent's play works its key and draw out on 32-bit halves (native ints), act() on Python
    # ints: the same numbers, whatever the seed (negative, past 64 bits), the position and the hand
    from heartslib.agents import _CARD_KEY, _Draws, _first_draw, _first_draw32, _key, _key32

    assert _first_draw32(key >> 32, key & 0xFFFFFFFF) == _first_draw(key)
    whole = _key(seed, code, hand_number, tricks, trick, exposed, seat, sum(_CARD_KEY[c] for c in hand))
    assert _key32(seed, code, hand_number, tricks, trick, exposed, seat, hand) == (whole >> 32, whole & 0xFFFFFFFF)
    # a stream of draws (each build's own _Draws.random) is SplitMix64's, written here on Python ints
    mask, state, draws = 2**64 - 1, key, _Draws(key)
    for _ in range(4):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        assert draws.random() == ((z ^ (z >> 31)) >> 11) / 2**53


def test_a_random_play_is_the_first_draw_of_its_decision() -> None:
    from heartslib.agents import _decision_key, _decision_key32, _Draws, _first_draw

    for key in (0, 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15):
        assert _first_draw(key) == _Draws(key).random()
    m = hl.Match(STANDARD, seed=4)
    agent = RandomAgent(11)
    agent.setup(STANDARD, 0)
    checked = 0
    while not m.is_over and checked < 60:
        seat = m.to_act[0]
        obs, legal = m.observation(seat), actions_for(m, seat)
        key = _decision_key(agent.seed, obs)
        assert _decision_key32(agent.seed, obs) == (key >> 32, key & 0xFFFFFFFF)  # the compiled build's halves
        if obs.phase is hl.Phase.PLAY:
            draw = _Draws(_decision_key(agent.seed, obs)).random()
            assert agent.act(obs, legal) is legal[int(draw * len(legal))]
            checked += 1
        m.apply(RandomAgent(seat).act(obs, legal) if obs.phase is hl.Phase.PLAY else legal[0])
    assert checked == 60
