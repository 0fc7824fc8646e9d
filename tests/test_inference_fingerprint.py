"""heartslib.inference: a fingerprint of the worlds the sampler draws, so that a change meant to leave sampling
alone (splitting ``Sampler._replay`` or ``_Plan.__init__`` into named steps, issue 50) is shown to draw the
same worlds.

Every preset, six positions each reached by seeded random play (from the deal to late in the hand), three
uniform worlds a position and, at two of them, two worlds weighed by the heuristic's choices (their
log-likelihoods included). The digest is of the worlds' hands (each sorted, so a change of the hands' own
order is not a change of the world), phase and seats to act, and of any refusal's type and message.

When sampling is changed on purpose (other worlds, equally valid), the pinned digest is printed by running
this file as a script (``python tests/test_inference_fingerprint.py``); say in the commit why it moved.
"""

from __future__ import annotations

import hashlib
import random

import heartslib as hl
from heartslib.agents import HeuristicAgent
from heartslib.inference import ImpossibleHistory, Sampler
from heartslib.presets import preset_names
from heartslib.strategies import random_action

#: The actions played before each position is observed, one position per entry.
STEPS = (0, 3, 9, 20, 35, 60)
#: The digest of :func:`fingerprint` (first 16 hex digits of its SHA-256), pinned at 1477058 before the split.
PINNED = "d9f34168a694b4c1"


def _world(round_: hl.Round) -> list[list[str]]:
    return [sorted(c.code for c in hand) for hand in round_.hands]


def _position(v: hl.Variant, seed: int, steps: int) -> hl.Round:
    rng = random.Random(seed)
    r = hl.Round.deal(v, seed=seed, hand_number=seed % 4)
    for _ in range(steps):
        if not r.to_act:
            break
        r.apply(random_action(r, rng))
    return r


def fingerprint() -> tuple[int, str]:
    """The number of worlds drawn and the digest of them all (see the module docs)."""
    digest = hashlib.sha256()
    worlds = 0
    for name in preset_names():
        v = hl.preset(name)
        for seed, steps in enumerate(STEPS):
            r = _position(v, seed, steps)
            seat = r.to_act[0] if r.to_act else 0
            obs = r.observation(seat)
            try:
                sampler = Sampler(obs, v)
                for w in range(3):
                    world = sampler.sample(random.Random(seed * 31 + w))
                    digest.update(repr((name, seed, _world(world), str(world.phase), world.to_act)).encode())
                    worlds += 1
                if seed in (1, 3):
                    model = HeuristicAgent(7)
                    model.setup(v, seat)
                    for w in range(2):
                        drawn, log = sampler.draw_scored(random.Random(seed * 17 + w), model.act, epsilon=0.1)
                        digest.update(repr((name, seed, _world(drawn.round), round(log, 9))).encode())
                        worlds += 1
            except (ImpossibleHistory, NotImplementedError, RuntimeError) as exc:
                digest.update(repr((name, seed, type(exc).__name__, str(exc))).encode())
    return worlds, digest.hexdigest()[:16]


def test_the_sampler_draws_the_pinned_worlds() -> None:
    worlds, digest = fingerprint()
    assert worlds > 8 * len(preset_names())  # most positions sampled, not refused
    assert digest == PINNED, f"the sampled worlds changed ({worlds} worlds, digest {digest}); see the module docs"


if __name__ == "__main__":
    print(*fingerprint())
