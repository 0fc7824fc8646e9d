"""Issue 51, item 1: every public object of the library round-trips ``copy.copy``, ``copy.deepcopy`` and ``pickle``
in both builds (the compiled build's classes are rebuilt by calling them: a class whose ``__init__`` needs arguments
fails there unless it says how to rebuild itself).

:data:`EXAMPLES` is the registry: per public class (everything in the ``__all__`` of ``heartslib`` and of its public
submodules), constructed examples of it; :data:`NOT_VALUES` names the classes that are not values to copy, and why.
``test_every_public_class_is_in_the_registry`` fails when a new public class is in neither, so a class added later
is checked too. A module that needs an extra that is not installed (the compiled CI run installs only ``test``) is
left out, as its import is.
"""

from __future__ import annotations

import copy
import enum
import importlib
import inspect
import pickle
import pkgutil
import random
from collections.abc import Callable
from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest

import heartslib as hl
from heartslib import inference, search
from heartslib.agents import SearchAgent
from heartslib.round import engine_state

STD = hl.preset("standard")


def _public_modules() -> list[ModuleType]:
    """``heartslib`` and every submodule whose path has no private part, that imports with the extras installed."""
    names = ["heartslib"] + [m.name for m in pkgutil.walk_packages(hl.__path__, "heartslib.")
                             if not any(part.startswith("_") for part in m.name.split(".")[1:])]
    modules = []
    for name in names:
        try:
            modules.append(importlib.import_module(name))
        except ImportError:  # an extra that is not installed (the message names it)
            continue
    return modules


def _public_classes() -> dict[str, type]:
    """Every class a public module exports (its ``__all__``), by its qualified name where it is defined."""
    found: dict[str, type] = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if inspect.isclass(obj) and obj.__module__.startswith("heartslib"):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


# --------------------------------------------------------------------------- examples


def _played_round(v: hl.Variant = STD, seed: int = 3, actions: int = 9) -> hl.Round:
    r = hl.Round.deal(v, seed=seed)
    rnd = random.Random(seed)
    for _ in range(actions):
        r.apply(rnd.choice(r.legal_actions(r.to_act[0])))
    return r


def _played_match(v: hl.Variant = STD, actions: int = 70) -> hl.Match:
    m = hl.Match(v, seed=4)
    rnd = random.Random(4)
    for _ in range(actions):
        m.apply(rnd.choice(m.legal_actions(m.to_act[0])))
    return m


def _agent_that_played(agent: Any, v: hl.Variant = STD) -> Any:
    """``agent`` after a hand's first decisions (its search, sampler and beliefs built)."""
    m = hl.Match(v, seed=1)
    agent.setup(v, 0)
    acted = 0
    while acted < 3:
        seat = m.to_act[0]
        legal = m.legal_actions(seat)
        if seat == 0:
            m.apply(agent.act(m.observation(0), legal))
            acted += 1
        else:
            m.apply(legal[0])
    return agent


def _sampler() -> inference.Sampler:
    r = _played_round(actions=14)
    sampler = inference.Sampler(r.observation(0), STD)
    sampler.sample(random.Random(0))
    return sampler


def _stock_sampler() -> inference.Sampler:
    v = hl.preset("domino_hearts")
    r = _played_round(v, seed=5, actions=12)
    sampler = inference.Sampler(r.observation(r.to_act[0]), v)
    sampler.sample(random.Random(0))
    return sampler


def _observation() -> hl.Observation:
    return _played_round().observation(0)


def _outcome() -> hl.Outcome:
    m = _played_match()
    return m.rounds[0].outcome


def _errors() -> list[BaseException]:
    return [hl.VariantError("deck.decks", "3 is too large", problems=(("deck.decks", "3 is too large"),)),
            hl.IllegalAction("bad_argument", "no", action=hl.Play(0, hl.Card("QS"))),
            hl.CardError("QX is not a card"), hl.SaveError("digest", "edited"),
            hl.UnknownVariant("standrd", ("standard",), hl.preset_names())]


def _lazy(name: str, attr: str, *args: Any, **kwargs: Any) -> Callable[[], list[object]]:
    """Examples of ``name.attr(*args, **kwargs)``, built when asked (the module may need an extra)."""
    def build() -> list[object]:
        return [getattr(importlib.import_module(name), attr)(*args, **kwargs)]
    return build


def _vector_examples() -> dict[str, Callable[[], list[object]]]:
    def env() -> list[object]:
        import numpy as np

        from heartslib.vector import Env
        e = Env(STD)
        state = e.init([1, 2])
        return [e, e.step(state, e.random_actions(state, np.random.default_rng(0)))]

    def env_only() -> list[object]:
        return env()[:1]

    def tables() -> list[object]:
        from heartslib.vector.kernel import Tables
        return [Tables(STD)]

    def learner() -> list[object]:
        from heartslib.vector.gym import LearnerEnv
        e = LearnerEnv("standard", num_envs=2)
        e.reset(seed=1)
        return [e]

    def selfplay() -> list[object]:
        from heartslib.vector.selfplay import SelfPlayEnv
        e = SelfPlayEnv("standard", num_envs=2)
        e.reset(seed=1)
        return [e]

    def deals() -> list[object]:
        from heartslib.vector import Env
        from heartslib.vector.gym import Deals
        return [Deals(Env(STD), None, None)]

    def batched() -> list[object]:
        import gymnasium  # noqa: F401  (without it the name stands for a class that tells the user to install it)

        from heartslib.vector.gym import BatchedActions
        return [BatchedActions([52, 52], seed=1)]

    def functional() -> list[object]:
        import jax

        from heartslib.vector.functional import make
        game = make(STD)
        state = game.init(jax.random.split(jax.random.PRNGKey(0), 2))
        return [game, game.step(state, game.random_action(state, jax.random.PRNGKey(1)))]

    return {
        "heartslib.vector.functional.Game": lambda: functional()[:1],
        "heartslib.vector.functional.State": lambda: functional()[1:],
        "heartslib.vector.env.Env": env_only, "heartslib.vector.env.State": lambda: env()[1:],
        "heartslib.vector.kernel.Tables": tables, "heartslib.vector.gym.LearnerEnv": learner,
        "heartslib.vector.selfplay.SelfPlayEnv": selfplay, "heartslib.vector.gym.Deals": deals,
        "heartslib.vector.gym.BatchedActions": batched,
    }


def _adapter_examples() -> dict[str, Callable[[], list[object]]]:
    def encoding() -> list[object]:
        from heartslib.adapters.encoding import Encoding
        return [Encoding(STD)]

    def turns() -> list[object]:
        from heartslib.adapters.encoding import Encoding, Turns
        return [Turns(Encoding(STD), _played_round())]

    def pettingzoo() -> list[object]:
        from heartslib.adapters.pettingzoo import raw_env
        e = raw_env("standard")
        e.reset(seed=1)
        return [e]

    def openspiel_game() -> list[object]:
        from heartslib.adapters.openspiel import HeartsGame
        return [HeartsGame()]

    def openspiel_state() -> list[object]:
        from heartslib.adapters.openspiel import HeartsGame
        state = HeartsGame().new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        return [state]

    return {
        "heartslib.adapters.encoding.Encoding": encoding, "heartslib.adapters.encoding.Turns": turns,
        "heartslib.adapters.pettingzoo.raw_env": pettingzoo, "heartslib.adapters.openspiel.HeartsGame": openspiel_game,
        "heartslib.adapters.openspiel.HeartsState": openspiel_state,
    }


def _core_examples() -> dict[str, Callable[[], list[object]]]:
    from heartslib import actions, observation, scoring, sections, serialize, settlement, solve, streams
    simulate = importlib.import_module("heartslib.simulate")  # the package's attribute is the function
    from heartslib.engine import allowlists, checks, choices, legality

    def stats() -> list[object]:
        return [simulate.simulate(STD, "random", games=2, seed=1)]

    def endgame() -> list[object]:
        r = _played_round(actions=4 + 4 * 10)
        seat = r.to_act[0]
        return [solve.Endgame(engine_state(r), seat, _minus_points)]

    def follower() -> list[object]:
        return [streams.Follower(_played_match(), 0)]

    def pass_rules() -> list[legality.PassRules]:
        hand = tuple(c.index for c in hl.Round.deal(STD, seed=1).hand(0))
        return [legality.PassRules(0, hand, 3, frozenset(), False)]

    match = _played_match
    return {
        "heartslib.cards.Card": lambda: [hl.Card("QS"), hl.Card("10H"), hl.Card("JK"), hl.Card("0C")],
        "heartslib.sections.CardCards": lambda: [STD.replace(scoring={"cancels": {"QS": "KS"}}).scoring.cancels]
        if hasattr(STD.scoring, "cancels") else [sections.CardCards()],
        "heartslib.sections.CardSuits": lambda: [sections.CardSuits({"JD": "hearts"})],
        "heartslib.sections.CardValues": lambda: [STD.scoring.values, sections.CardValues({"QS": 13, "JD": -10})],
        "heartslib.sections.CardExposures": lambda: [hl.preset("gong_zhu_exposed").scoring.exposable],
        "heartslib.sections.CardMap": lambda: [sections.CardMap({"QS": 1})],
        "heartslib.sections.TotalBonuses": lambda: [STD.replace(end={"round_bonuses": {"50": -50}}).end.round_bonuses],
        "heartslib.sections.StripTable": lambda: [sections.StripTable.from_mapping({"3": ["2S"], 5: "2C 2S"})],
        "heartslib.sections.DeckRules": lambda: [STD.deck, hl.preset("two_handed").deck],
        "heartslib.sections.PassingRules": lambda: [STD.passing],
        "heartslib.sections.PlayRules": lambda: [STD.play],
        "heartslib.sections.ScoringRules": lambda: [STD.scoring, hl.preset("complex_hearts").scoring],
        "heartslib.sections.MoonRules": lambda: [STD.moon],
        "heartslib.sections.EndRules": lambda: [STD.end],
        "heartslib.variant.Variant": lambda: [hl.preset(name) for name in hl.preset_names()],
        "heartslib.actions.Choose": lambda: [actions.Choose(0, "new")],
        "heartslib.actions.Pass": lambda: [actions.Pass(0, (hl.Card("QS"), hl.Card("AH"), hl.Card("2C")))],
        "heartslib.actions.Play": lambda: [actions.Play(1, hl.Card("QS"))],
        "heartslib.actions.KittyTaken": lambda: [e for e in match().events if isinstance(e, actions.KittyTaken)][:1]
        or [actions.KittyTaken(0, (hl.Card("2C"),))],
        "heartslib.actions.MoonShot": lambda: [actions.MoonShot(0, hl.Shot.MOON, hl.MoonScoring.OLD)],
        "heartslib.actions.PassesExchanged": lambda: [e for e in match().events
                                                      if isinstance(e, actions.PassesExchanged)][:1],
        "heartslib.actions.RoundScored": lambda: [actions.RoundScored((1, 2, 3, 20))],
        "heartslib.actions.TrickWon": lambda: [e for e in match().events if isinstance(e, actions.TrickWon)][:1],
        "heartslib.enums.Offset": lambda: [hl.Offset(1), hl.Offset(3)],
        "heartslib.scoring.Outcome": lambda: [_outcome()],
        "heartslib.scoring.RoundFacts": lambda: [scoring.RoundFacts(raw=(26, 0, 0, 0), bonus=(0,) * 4,
                                                                    penalty_cards=(14, 0, 0, 0), bonus_cards=(0,) * 4,
                                                                    tricks_won=(13, 0, 0, 0),
                                                                    trick_winners=(0,) * 13)],
        "heartslib.observation.Observation": lambda: [_observation(), hl.Round.deal(STD, seed=1).observation(2)],
        "heartslib.observation.Trick": lambda: list(_observation().tricks[:1]),
        "heartslib.observation.Auction": lambda: [observation.Auction((50, 50, 50, 50), (), None, 0, None)],
        "heartslib.round.Round": lambda: [hl.Round.deal(STD, seed=1), _played_round(),
                                          _played_round(hl.preset("black_maria"), seed=2, actions=20)],
        "heartslib.match.Match": lambda: [hl.Match(STD, seed=1), match()],
        "heartslib.match.RoundResult": lambda: list(match().rounds[:1]),
        "heartslib.agents.BaseAgent": lambda: [hl.agents.BaseAgent(seed=1)],
        "heartslib.agents.RandomAgent": lambda: [hl.agents.RandomAgent(1),
                                                 _agent_that_played(hl.agents.RandomAgent(2))],
        "heartslib.agents.HeuristicAgent": lambda: [_agent_that_played(hl.agents.HeuristicAgent(3))],
        "heartslib.agents.MoonAgent": lambda: [_agent_that_played(hl.agents.MoonAgent(4))],
        "heartslib.agents.DefendingAgent": lambda: [_agent_that_played(hl.agents.DefendingAgent(4))]
        if hasattr(hl.agents, "DefendingAgent") else [],
        "heartslib.agents.SearchAgent": lambda: [SearchAgent(seed=1, playouts=4),
                                                 _agent_that_played(SearchAgent(seed=1, playouts=4)),
                                                 _agent_that_played(SearchAgent(seed=2, playouts=4,
                                                                                beliefs="heuristic"))],
        "heartslib.agents.SearchFactory": lambda: [hl.agents.SearchFactory(playouts=8)],
        "heartslib.agents.LazyActions": lambda: [hl.agents.LazyActions(_played_round(), _played_round().to_act[0])],
        "heartslib.inference.Sampler": lambda: [_sampler(), _stock_sampler()],
        "heartslib.inference.Knowledge": lambda: [inference.knowledge(_observation(), STD)],
        "heartslib.inference.Determinization": lambda: [_sampler().draw(random.Random(2))],
        "heartslib.search.Budget": lambda: [search.Budget(playouts=8)],
        "heartslib.search.RolloutTables": lambda: [search.RolloutTables(STD), search.RolloutTables(
            hl.preset("auction_hearts"), hl.Suit.SPADES)],
        "heartslib.search.RolloutPolicy": lambda: [search.RolloutPolicy(STD, rng=random.Random(3), shooter=1)],
        "heartslib.search.EndgameModel": lambda: [search.EndgameModel(search.RolloutTables(STD), 2)],
        "heartslib.search.Search": lambda: [search.Search(STD, search.Budget(playouts=4)),
                                            _agent_that_played(SearchAgent(seed=3, playouts=4))._search],
        "heartslib.solve.Endgame": endgame,
        "heartslib.serialize.SaveData": lambda: [serialize.read_save(match().to_dict())],
        "heartslib.serialize.SaveDeal": lambda: [d for d in [serialize.read_save(hl.Match.from_deal(
            STD, hl.Round.deal(STD, seed=3).hands, seed=2).to_dict()).deal] if d is not None],
        "heartslib.settlement.AuctionResult": lambda: [settlement.AuctionResult((1, 1, 1, 1), (4, 0, 0, 0),
                                                                                (3, -1, -1, -1), (0,), 4, 0, 2, 0)],
        "heartslib.settlement.AverageResult": lambda: [settlement.AverageResult(
            Fraction(5, 2), (Fraction(1, 2),) * 4, (Fraction(0),) * 4, (Fraction(-1, 2),) * 4)],
        "heartslib.settlement.HowellResult": lambda: [settlement.HowellResult((1, 2, 3, 4), (0, 0, 0, 10),
                                                                              (-1, -2, -3, 6), 0)],
        "heartslib.settlement.SweepstakeResult": lambda: [settlement.SweepstakeResult((1, 1, 1, 1), (4, 0, 0, 0),
                                                                                      (3, -1, -1, -1), (0,), 4, 0)],
        "heartslib.simulate.SimulationStats": stats,
        "heartslib.simulate.SeatStats": lambda: list(stats()[0].seats),  # type: ignore[attr-defined]
        "heartslib.streams.StreamEvent": lambda: list(streams.events_for(match(), 0))[:3],
        "heartslib.streams.Follower": follower,
        "heartslib.engine.rules.Rules": lambda: [STD.rules, hl.preset("auction_hearts").rules.for_suit(1)],
        "heartslib.engine.state.RoundState": lambda: [engine_state(_played_round())],
        "heartslib.engine.legality.PassRules": pass_rules,
        "heartslib.engine.choices.PassChoices": lambda: [choices.PassChoices(pass_rules()[0])],
        "heartslib.engine.allowlists.Only": lambda: [allowlists.Only("whole numbers", bool)],
        "heartslib.engine.checks.Facts": lambda: [checks.Facts(STD), checks.Facts(hl.preset("double_deck_6_dirty"))],
        "heartslib.testing.HiddenSwap": _hidden_swap,
        "heartslib.server.store.TableRecord": _lazy("heartslib.server.store", "TableRecord", "t1", STD.to_dict(), 7,
                                                    ("you", "random", "random", "random")),
        "heartslib.cli.PlaySave": lambda: _lazy("heartslib.cli", "PlaySave", match(), 0, "search")(),
        "heartslib.server.tables.PassSpace": lambda: _lazy("heartslib.server.tables", "PassSpace", pass_rules()[0])(),
        "heartslib.server.tables.Committer": _lazy("heartslib.server.tables", "Committer", None),
        "heartslib.server.tables.Quotas": _lazy("heartslib.server.tables", "Quotas"),
        "heartslib.server.tables.Limiter": lambda: _lazy("heartslib.server.tables", "Limiter",
                                                         _lazy("heartslib.server.tables", "Quotas")()[0])(),
    }


def _hidden_swap() -> list[object]:
    from heartslib import testing
    r = _played_round(actions=14)
    return [testing.HiddenSwap(r, r.copy(), 0, (hl.Card("QS"), hl.Card("2H")), (1, 2), ())]


def _minus_points(points: Any) -> float:
    """An endgame's value: the first seat's points, negated (a module-level function: it pickles)."""
    return -float(points[0])


def _interrupted() -> list[object]:
    simulate = importlib.import_module("heartslib.simulate")
    return [simulate.SimulationInterrupted(simulate.simulate(STD, "random", games=1), 5)]


def _exceptions() -> dict[str, Callable[[], list[object]]]:
    def module_error(name: str, attr: str, *args: Any) -> Callable[[], list[object]]:
        return lambda: [getattr(importlib.import_module(name), attr)(*args)]

    return {
        "heartslib.errors.VariantError": lambda: [e for e in _errors() if isinstance(e, hl.VariantError)],
        "heartslib.errors.IllegalAction": lambda: [e for e in _errors() if type(e) is hl.IllegalAction],
        "heartslib.errors.CardError": lambda: [e for e in _errors() if isinstance(e, hl.CardError)],
        "heartslib.errors.SaveError": lambda: [e for e in _errors() if isinstance(e, hl.SaveError)],
        "heartslib.errors.UnknownVariant": lambda: [e for e in _errors() if isinstance(e, hl.UnknownVariant)],
        "heartslib.inference.ImpossibleHistory": module_error("heartslib.inference", "ImpossibleHistory", "no deal"),
        "heartslib.simulate.SimulationInterrupted": _interrupted,
        "heartslib.cli.UserError": module_error("heartslib.cli", "UserError", "no such file"),
        "heartslib.client.ServerError": module_error("heartslib.client", "ServerError", "bad_argument", "no"),
        "heartslib.server.store.StoreConflict": module_error("heartslib.server.store", "StoreConflict", "actions[3]",
                                                             "stored already"),
        "heartslib.server.store.StoreUnavailable": module_error("heartslib.server.store", "StoreUnavailable",
                                                                "store", "the disk is full"),
        "heartslib.server.tables.ProtocolError": module_error("heartslib.server.tables", "ProtocolError",
                                                              "bad_message", "no"),
        "heartslib.server.store.RecordRefused": module_error("heartslib.server.store", "RecordRefused", "t1",
                                                            "the table is still being played", "in_progress"),
    }


#: The registry: per public class, by qualified name, a function building examples of it.
EXAMPLES: dict[str, Callable[[], list[object]]] = {**_core_examples(), **_vector_examples(), **_adapter_examples(),
                                                   **_exceptions()}

#: Public classes that are not values to copy, and why.
NOT_VALUES: dict[str, str] = {
    "heartslib._agent_protocol.Agent": "a Protocol: the agents that implement it are in the registry",
    "heartslib.engine.playout.Policy": "a Protocol (RolloutPolicy, in the registry, implements it)",
    "heartslib.engine.rules.Compiled": "a Protocol (Variant, in the registry, implements it)",
    "heartslib.sections.VariantFields": "a Protocol (Variant, in the registry, implements it)",
    "heartslib.sections.Record": "the sections' base class (each section is in the registry)",
    "heartslib.strategies.HeartsStateMachine": "Hypothesis's stateful test of a match, built and run by Hypothesis",
    "heartslib.cli.PlaySession": "a terminal session: it holds the player's input and output streams",
    "heartslib.cli.ProgressBar": "writes to an open stream (stderr)",
    "heartslib.client.Client": "an open HTTP session with a server",
    "heartslib.server.store.Store": "an open database connection",
    "heartslib.server.store.SQLiteStore": "an open database connection",
    "heartslib.server.store.PostgresStore": "an open database connection",
    "heartslib.server.tables.Connection": "a live websocket connection",
    "heartslib.server.tables.Hub": "the server's live tables, their connections and timers",
    "heartslib.adapters.openspiel.HeartsObserver": "OpenSpiel builds it for a game (HeartsGame, in the registry)",
    "heartslib.adapters.openspiel.HeartsCore": "the OpenSpiel state's engine part (HeartsState is in the registry)",
    "heartslib.vector.jaxenv.JaxBackend": "jax's compiled functions (an Env with it pickles without them)",
}


def test_every_public_class_is_in_the_registry() -> None:
    """A public class added later must be given examples (or a reason it is not a value): then the round trips
    below check it in both builds."""
    classes = _public_classes()
    missing = sorted(name for name, cls in classes.items()
                     if name not in EXAMPLES and name not in NOT_VALUES and not issubclass(cls, enum.Enum))
    assert not missing, f"public classes with no examples in tests/test_pickle_registry.py: {missing}"


def _round_trips(obj: object) -> None:
    for how, copier in (("copy.copy", copy.copy), ("copy.deepcopy", copy.deepcopy),
                        ("pickle", lambda o: pickle.loads(pickle.dumps(o)))):
        try:
            again = copier(obj)
        except Exception as exc:  # reported with the object and the way it was copied
            raise AssertionError(f"{how} of {type(obj).__qualname__} failed: {type(exc).__name__}: {exc}") from exc
        assert type(again) is type(obj), how
        if isinstance(obj, BaseException):
            assert str(again) == str(obj) and again.args == obj.args, how
        elif type(obj).__eq__ is not object.__eq__ and not _array_like(obj):
            assert again == obj, f"{how} of {type(obj).__qualname__} is not equal to it"


def _array_like(obj: object) -> bool:
    return type(obj).__module__.startswith("heartslib.vector")  # arrays inside: == is elementwise


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_public_object_round_trips_copy_deepcopy_and_pickle(name: str) -> None:
    classes = _public_classes()
    if name not in classes:
        pytest.skip(f"{name} is not importable here (an extra that is not installed)")
    try:
        examples = EXAMPLES[name]()
    except ImportError as exc:  # the class's module imports, but building one needs an extra (pyspiel, ...)
        pytest.skip(f"{name} needs an extra that is not installed: {exc}")
    assert examples, f"the registry builds no example of {name}"
    for obj in examples:
        assert isinstance(obj, classes[name]), (name, type(obj))
        _round_trips(obj)


@pytest.mark.parametrize("cls", sorted({c for c in _public_classes().values() if issubclass(c, enum.Enum)},
                                       key=lambda c: c.__qualname__), ids=lambda c: c.__qualname__)
def test_every_enum_member_round_trips(cls: type[enum.Enum]) -> None:
    for member in cls:
        for again in (copy.copy(member), copy.deepcopy(member), pickle.loads(pickle.dumps(member))):
            assert again is member


# --------------------------------------------------------------------------- the copies play on as the original


def test_a_search_agent_that_has_played_plays_on_as_its_copies() -> None:
    # compiled, a SearchAgent that had played raised TypeError on deepcopy and pickle (loading called Search()
    # without its variant), so simulate(v, [agent_that_played, ...]) failed in the compiled build only
    agent = _agent_that_played(SearchAgent(seed=7, playouts=8))
    m = hl.Match(STD, seed=9)
    while m.to_act[0] != 0 or m.phase != hl.Phase.PLAY:
        m.apply(m.legal_actions(m.to_act[0])[0])
    obs, legal = m.observation(0), m.legal_actions(0)
    copies = [copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))]
    want = agent.act(obs, legal)
    assert [c.act(obs, legal) for c in copies] == [want, want]
    stats = hl.simulate(STD, [agent, "random", "random", "random"], games=1, seed=1)
    assert stats.games == 1


@pytest.mark.parametrize("make", [_sampler, _stock_sampler], ids=["standard", "domino_hearts"])
def test_a_sampler_and_its_copies_draw_the_same_worlds(make: Callable[[], inference.Sampler]) -> None:
    # compiled: "__init__() missing required argument 'obs'" on copy, deepcopy and pickle
    sampler = make()
    copies = [copy.copy(sampler), copy.deepcopy(sampler), pickle.loads(pickle.dumps(sampler))]
    want = [sampler.sample(random.Random(seed)) for seed in range(3)]
    for other in copies:
        assert [other.sample(random.Random(seed)) for seed in range(3)] == want


def test_search_objects_copied_value_as_the_original() -> None:
    v = hl.preset("black_maria")
    tables = search.RolloutTables(v)
    for again in (copy.deepcopy(tables), pickle.loads(pickle.dumps(tables))):
        assert (again.cost, again.suit_cards, again.moon_alarm, again.players) == (
            tables.cost, tables.suit_cards, tables.moon_alarm, tables.players)
    r = hl.Round.from_hands(v, hl.Round.deal(v, seed=3).hands, passing=hl.HOLD)
    want = r.copy().policy_playout(search.RolloutPolicy(tables), random.Random(1))
    for policy in (copy.deepcopy(search.RolloutPolicy(tables)), pickle.loads(pickle.dumps(search.RolloutPolicy(v)))):
        assert r.copy().policy_playout(policy, random.Random(1)) == want

