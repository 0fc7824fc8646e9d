"""Helpers for the tests: building positions, playing seeded matches, loading the benchmark scripts."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

import heartslib as hl
from heartslib import strategies as hst


def fill_hands(
    v: hl.Variant, fixed: Mapping[int, str], kitty: str = "", void: Mapping[int, str] = {}
) -> list[list[hl.Card]]:
    """Hands holding the ``fixed`` cards per seat; the rest of the pack fills the other slots in pack order,
    never giving a seat a card of a suit listed for it in ``void`` (suit letters, e.g. ``{2: "H"}``)."""
    size = v.deal_size
    rest = Counter(v.pack)
    hands: list[list[hl.Card]] = [[] for _ in range(v.players)]
    for seat, text in fixed.items():
        for card in hl.parse_cards(text):
            assert rest[card] > 0, f"{card} twice or not in the pack"
            rest[card] -= 1
            hands[seat].append(card)
    kitty_cards = list(hl.parse_cards(kitty))
    for card in kitty_cards:
        assert rest[card] > 0
        rest[card] -= 1
    pool = sorted(rest.elements())
    need_kitty = v.kitty_size - len(kitty_cards)
    leftover = []

    def scarcity(card: hl.Card) -> int:
        letter = card.suit.letter if card.suit is not None else "J"
        return -sum(letter in suits for suits in void.values())

    for card in sorted(pool, key=scarcity):
        letter = card.suit.letter if card.suit is not None else "J"
        for seat in range(v.players):
            if len(hands[seat]) < size and letter not in void.get(seat, ""):
                hands[seat].append(card)
                break
        else:
            leftover.append(card)
    pool = sorted(leftover)
    assert all(len(h) == size for h in hands), "the void constraints cannot be met"
    kitty_cards += pool[:need_kitty]
    del pool[:need_kitty]
    assert not pool, pool
    return [*hands, kitty_cards]


def round_from(
    v: hl.Variant,
    fixed: Mapping[int, str],
    *,
    kitty: str = "",
    void: Mapping[int, str] = {},
    dealer: int = 0,
    passing: hl.PassDirection | None = hl.HOLD,
    scores: Sequence[int] | None = None,
) -> hl.Round:
    """A round whose seats hold ``fixed`` cards (others filled from the pack), by default with no pass."""
    *hands, kit = fill_hands(v, fixed, kitty, void)
    return hl.Round.from_hands(v, hands, dealer=dealer, passing=passing, kitty=kit, scores=scores)


def play(r: hl.Round | hl.Match, *moves: str) -> None:
    """Apply plays given as "seat:card" texts, e.g. play(r, "0:2C", "1:3C")."""
    for move in moves:
        seat, card = move.split(":")
        r.apply(hl.Play(int(seat), card))


def legal(r: hl.Round, seat: int | None = None) -> set[str]:
    """The codes of the cards ``seat`` (default: the seat to play) may play."""
    return {c.code for c in r.legal_cards(seat)}


def finish_randomly(r: hl.Round, seed: int = 0) -> tuple[int, ...]:
    return r.random_playout(random.Random(seed))


def finish_hand(m: hl.Match, seed: int = 0, *, to_the_end: bool = False) -> None:
    """Play the current hand (or the whole match) with random legal actions."""
    rng = random.Random(seed)
    hand = m.hand_number
    while not m.is_over and (to_the_end or m.hand_number == hand):
        seat = m.to_act[rng.randrange(len(m.to_act))]
        acts = m.legal_actions(seat)
        m.apply(acts[rng.randrange(len(acts))])


def played_match(v: hl.Variant, seed: int, steps: int | None = None) -> hl.Match:
    """A match of ``v`` dealt from ``seed`` and played with random legal actions drawn from ``seed``: to its end,
    or for ``steps`` actions."""
    m = hl.Match(v, seed=seed)
    rng = random.Random(seed)
    count = 0
    while not m.is_over and (steps is None or count < steps):
        m.apply(hst.random_action(m, rng))
        count += 1
    return m


BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py`` as a module, loaded once (benchmarks/ is a folder of scripts, not a
    package, and its scripts import their siblings by plain names: the folder goes on ``sys.path``)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module
