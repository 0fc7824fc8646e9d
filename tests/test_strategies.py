"""heartslib.strategies itself: the extra it needs, the entry point, pins, shrinking and coverage."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from importlib.metadata import entry_points

import attrs
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

import heartslib as hl
from heartslib import strategies as hst


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)


def test_importing_heartslib_does_not_import_hypothesis() -> None:
    done = _run("import sys, heartslib; print('hypothesis' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_without_hypothesis_the_import_error_names_the_extra() -> None:
    done = _run(
        "import sys; sys.modules['hypothesis'] = None\n"  # makes `import hypothesis` fail
        "import heartslib\n"
        "try:\n    import heartslib.strategies\n"
        "except ImportError as exc:\n    print(exc)\n"
    )
    assert done.returncode == 0, done.stderr
    assert "pip install heartslib[testing]" in done.stdout


def test_importing_strategies_first_works() -> None:
    # importing heartslib.strategies imports Hypothesis, which runs its entry points, which load
    # heartslib.strategies again (half-imported): the hook must cope
    done = _run("import heartslib.strategies as hst; from hypothesis import strategies as st; "
                "import heartslib as hl; print(type(st.from_type(hl.Variant).example()).__name__)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("Variant")


def test_the_hypothesis_entry_point_is_declared() -> None:
    hooks = [ep for ep in entry_points(group="hypothesis") if ep.name == "heartslib"]
    assert [ep.value for ep in hooks] == ["heartslib.strategies:_hypothesis_setup_hook"]


@given(st.from_type(hl.Variant))
def test_from_type_draws_our_variants(v: hl.Variant) -> None:
    assert v.name.startswith("standard")  # variants() names each variant after its differences


@given(hst.variants(players=st.integers(3, 6), decks=1, moon_kind="new", end={"target": 50}))
def test_pins_are_respected(v: hl.Variant) -> None:
    assert 3 <= v.players <= 6 and v.deck.decks == 1
    assert v.moon.kind == hl.MoonKind.NEW and v.end.target == 50


@given(hst.variants(schedule=("scatter",), players=5))
def test_pinned_passes_are_kept(v: hl.Variant) -> None:
    assert v.passing.schedule == ("scatter",)


def test_unknown_pins_are_refused() -> None:
    with pytest.raises(TypeError, match="unknown field"):
        hst.variants(player=4)
    with pytest.raises(TypeError, match="no field"):
        hst.variants(moon={"knd": "new"})


def test_variants_shrink_to_the_standard_game() -> None:
    drawn: list[hl.Variant] = []

    # Hypothesis' first example is its simplest one, which shrinking aims at
    @settings(max_examples=1, phases=[Phase.generate], database=None)
    @given(hst.variants())
    def first(v: hl.Variant) -> None:
        drawn.append(v)

    first()
    v = drawn[0]
    assert v.replace(name="standard", source=hl.preset("standard").source) == hl.preset("standard")
    assert v.name == "standard"


def test_a_failing_example_shrinks_to_one_difference() -> None:
    v = find(hst.variants(), lambda v: v.players == 6, settings=settings(database=None, max_examples=500))
    assert v.name == "standard with players=6"


def _schedule_words(v: hl.Variant) -> set[str]:
    sched = v.passing.schedule
    return {sched} if isinstance(sched, str) else set(sched)


def _found(strategy: st.SearchStrategy[hl.Variant], condition: Callable[[hl.Variant], bool]) -> bool:
    """Whether ``strategy`` generates a variant meeting ``condition`` when looked for (no shrinking)."""
    try:
        find(strategy, condition, settings=settings(phases=[Phase.generate], max_examples=600, database=None))
    except NoSuchExample:
        return False
    return True


def test_every_option_is_generated() -> None:
    seen: dict[str, set[object]] = {}

    @settings(max_examples=250, database=None, derandomize=True)
    @given(hst.variants())
    def collect(v: hl.Variant) -> None:
        seen.setdefault("players", set()).add(v.players)
        seen.setdefault("decks", set()).add(v.deck.decks)
        for section in hl.Variant.SECTION_NAMES:
            for f in attrs.fields(type(getattr(v, section))):
                value = getattr(getattr(v, section), f.name)
                if hasattr(value, "value"):
                    seen.setdefault(f"{section}.{f.name}", set()).add(value.value)
        seen.setdefault("schedule", set()).update(_schedule_words(v))

    collect()
    # a value these 250 draws missed (a new field shifts the draws) must still come up when looked for
    for n in sorted(set(range(3, 12)) - seen["players"]):
        if _found(hst.variants(), lambda v, n=n: v.players == n):
            seen["players"].add(n)
    assert seen["players"] == set(range(3, 12))
    assert seen["decks"] == {1, 2}
    for name, values in seen.items():
        if name.count(".") == 1:
            section, field = name.split(".")
            options = {m.value for m in type(getattr(getattr(hl.Variant(), section), field))}
            if (section, field) in hst._DEFAULTS:
                for value in sorted(options - values):
                    # a stock and an auction are drawn only when pinned (the strategy's docs say why): looked for
                    # that way
                    strategy = (hst.variants(stock=value) if name == "deck.stock"
                                else hst.variants(settlement=value) if name == "scoring.settlement"
                                else hst.variants())
                    if _found(strategy, lambda v, s=section, f=field, x=value: getattr(getattr(v, s), f) == x):
                        values.add(value)
                assert values == options, f"{name}: never generated {sorted(options - values)}"
    words = {"scatter", "star", "shuffle", "dealers_choice", "hold", "across", "everyone", "rotating"}
    for word in sorted(words - seen["schedule"]):
        # scatter passes survive only at small tables
        strategy = hst.variants(players=st.integers(3, 5)) if word == "scatter" else hst.variants()
        if _found(strategy, lambda v, w=word: w in _schedule_words(v)):
            seen["schedule"].add(word)
    assert words <= seen["schedule"], f"never generated {sorted(words - seen['schedule'])}"


def test_every_generated_field_exists() -> None:
    for section, field in hst._DEFAULTS:
        cls = hl.Variant if section is None else type(getattr(hl.Variant(), section))
        assert field in attrs.fields_dict(cls), f"variants() draws {section}.{field}, which the Variant lacks"


@given(hst.rounds(), st.data())
def test_actions_are_legal(r: hl.Round, data: st.DataObject) -> None:
    if r.to_act:
        assert r.is_legal(data.draw(hst.actions(r)))
    else:
        with pytest.raises(hl.IllegalAction):
            hst.actions(r)


@given(hst.deals())
def test_deals_are_the_pack(deal: tuple[hl.Variant, tuple[tuple[hl.Card, ...], ...], tuple[hl.Card, ...]]) -> None:
    v, dealt, kitty = deal
    assert Counter(c for h in dealt for c in h) + Counter(kitty) == Counter(v.pack)
    r = hl.Round.from_hands(v, dealt, kitty=kitty)
    assert r.hands == dealt and r.kitty == kitty


@given(hst.hands(hl.preset("double_deck_8")), hst.cards(hl.preset("double_deck_7")))
def test_hands_and_cards(hand: tuple[hl.Card, ...], card: hl.Card) -> None:
    assert len(hand) == 13 and hl.sort_cards(hand) == hand
    assert card in hl.preset("double_deck_7").pack


@given(hst.playouts())
def test_playouts_are_finished(r: hl.Round) -> None:
    assert r.is_over and r.points is not None
