"""No surprise (issue 20): the model and the docs say what they do."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

import heartslib as hl
from heartslib.describe import SOURCES

STD = hl.preset("standard")
DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_a_replaced_variant_says_it_is_not_the_preset() -> None:
    five = STD.replace(players=5, deck={"fill": "kitty"}, name="five_kitty")
    assert five.name == "five_kitty" and five.source.startswith("based on standard: 002")
    assert five.describe().startswith("Five kitty.\n")
    house = STD.replace(moon={"kind": "new"})
    assert (house.name, house.source) == ("standard (modified)", "based on standard: " + STD.source)
    again = house.replace(end={"target": 50})
    assert (again.name, again.source) == (house.name, house.source)  # not "(modified) (modified)"
    assert STD.replace(players=4) == STD  # the same rules keep their name
    mine = STD.replace(players=5, name="mine", source="our kitchen table")
    assert (mine.name, mine.source) == ("mine", "our kitchen table")


@pytest.mark.parametrize("name", hl.preset_names())
def test_rules_text_names_no_source_codes_and_only_cases_that_can_happen(name: str) -> None:
    v = hl.preset(name)
    text = v.describe()
    # the sources are named in the rules reference (docs/rules/index.md), not in the text a player reads
    for key in re.findall(r"\b00[0-2]\b", v.source):
        assert key in SOURCES and not re.search(rf"\b{key}\b", text), key
    assert "source" not in text.lower()
    if v.deck.decks == 1 and not v.rules.jokers:
        assert "3♣ when it is stripped" not in text and not re.search("(?<!1)0♣", text)
    if hl.Card("QS") not in v.scoring.values:
        assert "Q♠ scores nothing" in text


def test_the_opening_names_the_lowest_club_of_the_pack() -> None:
    stripped = STD.replace(players=3, passing={"schedule": "left_right"}, deck={"strip": ["2C"]})
    assert "The holder of 3♣ must lead it." in stripped.describe()
    jokers = STD.replace(players=3, deck={"fill": "jokers"}, passing={"schedule": "left"})
    assert "The holder of 0♣ must lead it." in jokers.describe()
    kitty = hl.preset("double_deck_9")
    assert "The holder of 2♣ (or, when it is in the kitty, of the lowest club dealt) must lead it." in kitty.describe()


def test_the_rules_reference_shows_no_python_types() -> None:
    for page in sorted((DOCS / "rules").glob("*.md")):
        types = [line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("- **Type**")]
        for line in types:
            assert not any(raw in line for raw in ("<class", "int | complex", "heartslib.", "tuple[")), (page, line)
    scoring = (DOCS / "rules" / "scoring.md").read_text(encoding="utf-8")
    multiply = scoring[scoring.index("## `scoring.multiply`"):scoring.index("## `scoring.multiply_alone`")]
    assert "QS = 13" not in multiply and "card = factor" in multiply


def test_trick_shaping_pays_only_for_cards_everyone_saw() -> None:
    """double_deck_9 deals one card to a kitty the first trick's winner takes unseen: a trick reward must not
    reveal it (issue 20: a first trick worth 0 paid its winner -1 for an unseen 10♥)."""
    pytest.importorskip("pettingzoo")
    import random as _random

    from heartslib.adapters import pettingzoo as hpz

    v = hl.preset("double_deck_9")
    env = hpz.raw_env(v, shaping="trick")
    checked = 0
    for seed in range(12):
        env.reset(seed=seed)
        pick = _random.Random(seed)
        while not env.game.is_over:
            rnd = env.game
            before = len(rnd.tricks)
            agent = env.agent_selection
            legal = [i for i, ok in enumerate(env.observe(agent)["action_mask"]) if ok]
            env.step(legal[pick.randrange(len(legal))])
            if len(rnd.tricks) > before and not rnd.is_over:
                trick = rnd.tricks[-1]
                seen = -float(sum(v.rules.value[c.index] for c in trick.cards))
                assert trick.winner is not None
                assert env.rewards[f"player_{trick.winner}"] == seen, (seed, trick)
                taken = -float(sum(v.rules.value[c.index] for c in rnd.taken[trick.winner]))
                checked += before == 0 and taken != seen  # the winner took a scoring kitty card, unpaid
    assert checked, "no first trick took a scoring kitty card in these deals"


def test_the_openspiel_game_takes_variant_as_the_pettingzoo_environment_does(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from heartslib.adapters import openspiel as hos

    by_variant = pyspiel.load_game(hos.GAME_NAME, {"variant": "omnibus"})
    assert hos.Setup.from_params({"variant": "omnibus"}).variant == hl.preset("omnibus")
    assert by_variant.num_distinct_actions() == pyspiel.load_game(hos.GAME_NAME, {"preset": "omnibus"}) \
        .num_distinct_actions()
    rules = tmp_path / "five.toml"
    rules.write_text(STD.replace(players=5, passing={"schedule": "left"}).to_toml(), encoding="utf-8")
    assert hos.Setup.from_params({"variant": str(rules)}).variant.players == 5
    with pytest.raises(ValueError, match="one of the parameters"):
        hos.Setup.from_params({"variant": "omnibus", "preset": "pink_lady"})
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('name = "Cœur"\n'.encode("cp1252"))
    for params in ({"variant_file": str(latin1)}, {"variant": str(latin1)}):
        with pytest.raises(hl.VariantError, match="not UTF-8"):
            hos.Setup.from_params(params)


def test_an_observation_has_a_readable_form_and_plain_data() -> None:
    import json
    import random as _random

    from heartslib import strategies as hst

    for v in (STD, hl.preset("complex_hearts"), hl.preset("double_deck_6_dirty"), hl.preset("cancellation")):
        m = hl.Match(v, seed=3)
        rng = _random.Random(3)
        for step in range(80):
            obs = m.observation(step % v.players)
            data = obs.to_dict()
            assert json.loads(json.dumps(data)) == data  # plain JSON data
            assert data["hand"] == [c.code for c in obs.hand] and data["phase"] == obs.phase.value
            assert data["scores"] == [p if isinstance(p, int) else hl.score_text(p) for p in obs.scores]
            assert len(data["tricks"]) == len(obs.tricks)
            assert list(data) == [f.name for f in attrs.fields(hl.Observation)]
            text = str(obs)
            assert text.startswith(f"seat {obs.seat} of {v.players}") and " ".join(map(str, obs.hand)) in text
            if m.is_over:
                break
            m.apply(hst.random_action(m, rng))


def test_a_bad_card_value_is_explained_once() -> None:
    with pytest.raises(hl.VariantError) as info:
        STD.replace(scoring={"values": {"QS": "x"}})
    text = str(info.value)
    assert text.count("is not a score") == 1 and text.count("13i") == 1, text


def test_a_pettingzoo_variant_file_that_is_not_utf8_is_a_variant_error(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo")
    from heartslib.adapters import pettingzoo as hpz

    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('name = "Cœur"\n'.encode("cp1252"))
    for given in (latin1, str(latin1)):
        with pytest.raises(hl.VariantError, match="not UTF-8"):
            hpz.raw_env(given)
