"""Regenerate the golden playthroughs in tests/golden/ (one seeded round per preset, as readable text).

    python scripts/regen_golden.py            # rewrite every file
    python scripts/regen_golden.py standard   # only these presets
    git diff tests/golden                     # review what changed, rule by rule

Each file is the first round of ``Match(preset, seed=SEED)`` played by
``random.Random(SEED)`` through :func:`heartslib.strategies.random_action`
(which only uses ``random()``, so the game is the same on every Python).
Every step is three lines, then the action taken:

``state``  the truth: phase, who acts, the trick, the kitty, cards taken (every hand at the start of a trick);
``obs``    the acting seat's :class:`~heartslib.Observation`;
``legal``  that seat's legal actions (passes are counted, not listed: 3 of 13 is 286).

tests/test_golden.py replays the same game and compares it line by line.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import heartslib as hl
from heartslib import strategies as hst

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
SEED = 2024
MAX_LINES = 320  # a cap on file size; a longer round is cut with a marker line


def _cards(cards: Iterable[hl.Card]) -> str:
    return " ".join(c.code for c in cards) or "-"


def _trick(plays: Iterable[tuple[int, hl.Card]]) -> str:
    return " ".join(f"{s}:{c.code}" for s, c in plays) or "-"


def state_line(m: hl.Match, *, with_hands: bool) -> str:
    """The state of the current round on one line; every hand only when ``with_hands`` (a trick's start)."""
    r = m.round
    n = m.variant.players
    out = (
        f"state phase={r.phase.value} to_act={','.join(map(str, r.to_act)) or '-'} "
        f"pass={hl.pass_name(r.passing, n)}x{r.pass_count} leader={r.leader} trick=[{_trick(r.trick)}] "
        f"broken={int(r.hearts_broken)} kitty=[{_cards(r.kitty)}] taken={','.join(str(len(t)) for t in r.taken)}"
    )
    if with_hands:
        out += " hands=[" + " | ".join(_cards(h) for h in r.hands) + "]"
    return out


def obs_line(o: hl.Observation) -> str:
    """One seat's observation on one line (completed tricks as a count and the last one, to keep files small)."""
    n = o.players
    last = o.tricks[-1] if o.tricks else None
    last_text = "-" if last is None else (
        f"#{last.number} {_trick(last.plays)} >{'x' if last.winner is None else last.winner}"
    )
    parts = [
        f"obs seat={o.seat} phase={o.phase.value} to_act={','.join(map(str, o.to_act)) or '-'}",
        f"hand={_cards(o.hand)} sizes={','.join(map(str, o.hand_sizes))}",
        f"pass={hl.pass_name(o.passing, n)}x{o.pass_count}",
        f"passed={'?' if o.passed is None else _cards(o.passed)}",
        f"received={'?' if o.received is None else _cards(o.received)}",
        f"leader={o.leader} trick=[{_trick(o.trick)}] led={o.led_suit.letter if o.led_suit is not None else '-'}",
        f"tricks={len(o.tricks)} last=[{last_text}] won={','.join(map(str, o.tricks_won))}",
        f"broken={int(o.hearts_broken)}",
        f"kitty={o.kitty_size}:{'?' if o.kitty is None else _cards(o.kitty)}",
        f"scores={','.join(map(str, o.scores))}",
        f"points={'-' if o.round_points is None else ','.join(map(str, o.round_points))}",
        f"decision={o.decision or '-'} options={'|'.join(o.options) or '-'}",
    ]
    return " ".join(parts)


def legal_line(m: hl.Match, seat: int) -> str:
    """The acting seat's legal actions."""
    if m.phase == hl.Phase.PASS:
        count = len(m.legal_actions(seat))
        return f"legal {seat}: {count} passes"
    return f"legal {seat}: " + " ".join(
        a.card.code if isinstance(a, hl.Play) else a.text() for a in m.legal_actions(seat)
    )


def changed_fields(v: hl.Variant) -> dict[str, Any]:
    """The fields of ``v`` whose values differ from a default ``hl.Variant()``'s, by dotted path in field order:
    a golden's header names only those, so a new field with a default rewrites no golden."""
    default = hl.Variant().to_dict()
    out: dict[str, Any] = {}
    for key, value in v.to_dict().items():
        if isinstance(value, dict) and isinstance(default.get(key), dict):
            out.update({f"{key}.{k}": x for k, x in value.items() if default[key].get(k) != x})
        elif default.get(key) != value:
            out[key] = value
    return out


def transcript(name: str, seed: int = SEED) -> str:
    """The golden text of preset ``name``: its first round, step by step."""
    v = hl.preset(name)
    m = hl.Match(v, seed)
    rng = random.Random(seed)
    lines = [
        f"# golden playthrough: preset {name}, Match(seed={seed}), actions by random.Random({seed}); "
        "regenerate with scripts/regen_golden.py",
        f"variant {changed_fields(v)}",
    ]
    step = 0
    while m.hand_number == 0 and not m.is_over:
        action = hst.random_action(m, rng)
        trick_start = step == 0 or (m.phase == hl.Phase.PLAY and not m.round.trick)
        lines += [state_line(m, with_hands=trick_start), obs_line(m.observation(action.seat)),
                  legal_line(m, action.seat), f"step {step}: {action.text()}"]
        m.apply(action)
        step += 1
    if len(lines) > MAX_LINES:
        lines = [*lines[: MAX_LINES - 1], f"... cut at {MAX_LINES} lines"]
    result = m.rounds[0]
    lines += [
        f"result points={','.join(map(str, result.points))} totals={','.join(map(str, result.totals))} "
        f"shooter={result.outcome.shooter} kind={result.outcome.kind or '-'} scoring={result.outcome.scoring or '-'}",
        f"next {'over' if m.is_over else state_line(m, with_hands=True)}",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    names = argv or list(hl.preset_names())
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in names:
        path = GOLDEN / f"{name}.txt"
        text = transcript(name)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if text != old:
            path.write_text(text, encoding="utf-8")
            print(f"{'updated' if old is not None else 'created'} {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
