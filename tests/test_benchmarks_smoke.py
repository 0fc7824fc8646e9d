"""The benchmark suite runs, and its yardsticks play heartslib's rules (no timing is asserted).

The floor (benchmarks/floor.py) and the OpenSpiel driver are only fair
yardsticks if they play the same game as heartslib's ``standard`` preset, so
these tests replay random games step by step against heartslib's legal cards.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import heartslib as hl
from helpers import BENCH, load_benchmark

floor = load_benchmark("floor")
openspiel_driver = load_benchmark("openspiel_driver")
run = load_benchmark("run")

STANDARD = hl.preset("standard")


def _deals(count: int, seed: int) -> list[hl.Round]:
    return run.post_pass_rounds(STANDARD, count, seed)


def _indices(cards: tuple[hl.Card, ...]) -> list[int]:
    return sorted(c.index for c in cards)


def test_post_pass_deals_start_at_the_first_play() -> None:
    rounds = _deals(3, 11)
    for r in rounds:
        assert r.phase == hl.Phase.PLAY
        assert r.legal_cards() == (hl.Card("2C"),)
        assert sorted(c.index for h in r.hands for c in h) == list(range(52))
    # the pass happened: the hands differ from the plain deal of the same seed
    assert rounds[0].hands != hl.Round.deal(STANDARD, seed=11).hands
    assert _deals(3, 11)[2].hands == rounds[2].hands  # and the deals are reproducible


def test_floor_legal_cards_equal_heartslib_at_every_step() -> None:
    rng = random.Random(5)
    steps = 0
    for r in _deals(40, 100):
        r = r.copy()
        while not r.is_over:
            seat = r.to_act[0]
            trick = [c.index for _, c in r.trick]
            expected = _indices(r.legal_cards())
            got = floor.legal_cards(_indices(r.hand(seat)), trick, r.hearts_broken, not r.tricks)
            assert got == expected, (r.tricks, r.trick, r.hand(seat))
            r.apply(hl.Play(seat, hl.Card.from_index(got[int(rng.random() * len(got))])))
            steps += 1
    assert steps == 40 * 52


def _heartslib_game(r: hl.Round, rng: random.Random) -> tuple[int, ...]:
    """heartslib's public API playing the floor's convention: legal cards in index order, draw only if 2+."""
    r = r.copy()
    while not r.is_over:
        cands = sorted(r.legal_cards(), key=lambda c: c.index)
        card = cands[int(rng.random() * len(cands))] if len(cands) > 1 else cands[0]
        r.apply(hl.Play(r.to_act[0], card))
    assert r.points is not None
    return r.points


def test_floor_playout_plays_the_same_game_as_heartslib() -> None:
    for i, r in enumerate(_deals(60, 300)):
        deal = floor.prepare(run.hand_indices(r))
        a, b = random.Random(i), random.Random(i)
        expected = _heartslib_game(r, a)
        assert floor.playout(deal, b) == expected
        assert a.getstate() == b.getstate()  # the same number of choices were made
    assert floor.playout(deal, random.Random(0)) == floor.playout(deal, random.Random(0))  # deal left untouched


def test_floor_scores_a_forced_moon() -> None:
    # seat 0 holds every club, so it leads and wins all 13 tricks whatever anyone plays
    hands = [list(range(0, 13)), list(range(13, 26)), list(range(26, 39)), list(range(39, 52))]
    r = hl.Round.from_hands(STANDARD, [[hl.Card.from_index(c) for c in h] for h in hands], passing=hl.HOLD)
    for seed in range(5):
        assert floor.playout(floor.prepare(hands), random.Random(seed)) == (0, 26, 26, 26)
        assert _heartslib_game(r, random.Random(seed)) == (0, 26, 26, 26)


def test_prepare_rejects_a_bad_deal() -> None:
    with pytest.raises(ValueError, match="52 cards"):
        floor.prepare([[0, 1], [2], [3], [4]])


def test_benchmark_cases_run() -> None:
    rounds = _deals(2, 0)
    cases = {
        "fast": run.heartslib_playouts(rounds, 0),
        "api": run.heartslib_api_loop(rounds, 0),
        "floor": run.floor_playouts([floor.prepare(run.hand_indices(r)) for r in rounds], 0),
        "copy": run.repeat_case(rounds[0].copy, 3),
    }
    result = run.measure(cases, reps=2, block=0.0)
    assert set(result) == set(cases)
    assert all(r["median"] > 0 and r["reps"] == 2 for r in result.values())
    assert all(r.phase == hl.Phase.PLAY for r in rounds)  # the cases play on copies


def test_other_variants_reach_the_play_phase() -> None:
    for make in run.VARIANTS.values():
        v = make()
        (r,) = run.post_pass_rounds(v, 1, 7)
        assert r.phase == hl.Phase.PLAY
        assert r.copy().random_playout(random.Random(0)) is not None


def test_run_main_quick(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    args = ["--deals", "2", "--variant-deals", "1", "--reps", "1", "--block", "0", "--json", str(out)]
    for section in ("play", "copy", "variants"):
        args += ["--only", section]
    assert run.main(args) == 0
    text = capsys.readouterr().out
    assert "heartslib random_playout" in text and "floor" in text and "Targets" in text
    assert "random_playout / floor" in out.read_text()


def test_presets_are_timed_in_pairs_with_standard(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    assert run.main(["--variant-deals", "1", "--reps", "2", "--block", "0", "--only", "presets", "--json",
                     str(out)]) == 0
    figures = json.loads(out.read_text())
    presets = figures["presets"]
    assert set(presets) == set(hl.preset_names())
    assert presets["standard"]["per_card"] == 1.0
    assert presets["standard"]["reps"] == 2 * (len(presets) - 1)  # standard ran beside every other preset
    assert all(r["per_card"] > 0 and len(r["rates"]) == r["reps"] for r in presets.values())
    (target,) = [t for t in figures["targets"] if t["target"].startswith("slowest preset")]
    assert target["measured"] == max(r["per_card"] for r in presets.values())
    assert "median of the pairs' ratios" in capsys.readouterr().out


def test_openspiel_plays_heartslib_rules() -> None:
    if openspiel_driver.available() is not None:
        pytest.skip("open-spiel is not installed (the [bench] extra)")
    game = openspiel_driver.load()
    rng = random.Random(9)
    for r in _deals(8, 50):
        r = r.copy()
        state = openspiel_driver.start(game, run.hand_indices(r))
        while not r.is_over:
            assert state.current_player() == r.to_act[0]
            legal = sorted(openspiel_driver.card_action(c.index) for c in r.legal_cards())
            assert sorted(state.legal_actions()) == legal
            card = r.legal_cards()[int(rng.random() * len(legal))]
            r.apply(hl.Play(r.to_act[0], card))
            state.apply_action(openspiel_driver.card_action(card.index))
        assert state.is_terminal()
        assert r.points is not None
        # OpenSpiel returns 26 minus the points, except that a shooter's return is 26 and the others' 0
        returns = [int(x) for x in state.returns()]
        if 26 in r.points:
            assert returns == [26 if p == 0 else 0 for p in r.points]
        else:
            assert [26 - x for x in returns] == list(r.points)


def test_openspiel_scores_the_forced_moon() -> None:
    if openspiel_driver.available() is not None:
        pytest.skip("open-spiel is not installed (the [bench] extra)")
    hands = [list(range(0, 13)), list(range(13, 26)), list(range(26, 39)), list(range(39, 52))]
    state = openspiel_driver.start(openspiel_driver.load(), hands)
    assert openspiel_driver.playout(state, random.Random(0)) == [26.0, 0.0, 0.0, 0.0]
    assert not state.is_terminal()  # playout works on a clone


def test_the_compiled_build_lists_modules_that_exist_and_are_mypyc_ready() -> None:
    # benchmarks/run.py --build compiled and the package's build hook compile the same modules, listed once
    # in pyproject.toml; each must exist and be constructed without object.__new__ (which mypyc refuses)
    import tomllib

    pyproject = tomllib.loads((BENCH.parent / "pyproject.toml").read_text())
    hook = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    assert hook["enable-by-default"] is False, "the default install stays pure Python"
    assert hook["include"], "the hook compiles nothing"
    for path in hook["include"]:
        source = BENCH.parent / path
        assert source.is_file(), f"{path} (compiled by the mypyc hook) does not exist"
        assert "object.__new__(" not in source.read_text(), f"{path}: mypyc cannot compile object.__new__"


def test_the_instruction_counter_plays_what_it_counts() -> None:
    # benchmarks/instructions.py runs itself under valgrind twice (deal only, deal and play); its child plays
    # the presets' post-pass deals out (valgrind itself is not needed here, nor run: a minute of CI)
    instructions = load_benchmark("instructions")
    assert instructions.main(["--child", "--play", "--deals", "2", "--passes", "2", "black_jack"]) == 0
    assert instructions.main(["--child", "--deal-only", "--deals", "2", "--passes", "1", "standard"]) == 0
    assert instructions.main(["--child", "--play", "--api", "--deals", "2", "--passes", "1", "standard"]) == 0
    assert instructions.main(["--child", "--play", "--rollout", "--deals", "2", "--passes", "1", "black_maria"]) == 0
