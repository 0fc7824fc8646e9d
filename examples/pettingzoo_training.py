"""A training-loop skeleton on heartslib's PettingZoo environment (needs the ``pettingzoo`` extra).

One linear softmax policy plays every seat (self-play) and learns with
REINFORCE from the per-trick shaped rewards; swap in your own network and
algorithm where the comments say so.

Run::

    pip install 'heartslib[pettingzoo]'     # from a checkout: pip install -e '.[pettingzoo]'
    python examples/pettingzoo_training.py [VARIANT] [EPISODES]

e.g. ``python examples/pettingzoo_training.py omnibus 500``. Without the
extra it prints the missing module and the install command on stderr and
exits with status 2, so a script can tell a skip from a run.
"""

from __future__ import annotations

import sys

try:
    import numpy as np
    import pettingzoo  # noqa: F401 - only to say which extra is missing
except ImportError as exc:
    # not a success: a script running the examples must be able to tell that this one did not run
    print(f"{type(exc).__name__}: {exc}\nthis example needs the 'pettingzoo' extra: pip install "
          "'heartslib[pettingzoo]' (from a checkout: pip install -e '.[pettingzoo]')", file=sys.stderr)
    sys.exit(2)

from heartslib.adapters.pettingzoo import env as make_env


class LinearPolicy:
    """Softmax over ``weights @ observation``, restricted to the legal actions (the action mask)."""

    def __init__(self, observation_size: int, actions: int) -> None:
        self.weights = np.zeros((actions, observation_size), dtype=np.float32)

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> tuple[int, np.ndarray]:
        logits = self.weights @ observation
        logits[mask == 0] = -np.inf
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        return int(rng.choice(len(probs), p=probs)), probs

    def update(self, steps: list[tuple[np.ndarray, np.ndarray, int]], advantage: float, lr: float) -> None:
        for observation, probs, action in steps:
            grad = -probs
            grad[action] += 1.0
            self.weights += lr * advantage * np.outer(grad, observation)


def main(variant: str = "standard", episodes: int = 30) -> None:
    env = make_env(variant, episode="round", shaping="trick")
    env.reset(seed=0)
    agent0 = env.possible_agents[0]
    space = env.observation_space(agent0)["observation"]
    policy = LinearPolicy(space.shape[0], env.action_space(agent0).n)
    rng = np.random.default_rng(0)
    recent: list[float] = []
    for episode in range(episodes):
        env.reset(seed=episode)
        steps: dict[str, list[tuple[np.ndarray, np.ndarray, int]]] = {a: [] for a in env.possible_agents}
        returns = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            if terminated or truncated:
                env.step(None)  # the AEC contract: a finished agent is stepped with None
                continue
            action, probs = policy.act(obs["observation"], obs["action_mask"], rng)
            steps[agent].append((obs["observation"], probs, action))
            env.step(action)
        # learning step: replace with your algorithm (PPO, DQN with masking, ...)
        baseline = float(np.mean(list(returns.values())))
        for agent, agent_steps in steps.items():
            policy.update(agent_steps, returns[agent] - baseline, lr=0.01)
        recent.append(returns[agent0])
        if (episode + 1) % 10 == 0 or episode + 1 == episodes:
            print(f"episode {episode + 1}: {agent0} averaged {np.mean(recent):+.1f} over the last {len(recent)} rounds")
            recent = []
    print(f"trained on {episodes} rounds of {variant}; weights norm {np.linalg.norm(policy.weights):.2f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "standard", int(sys.argv[2]) if len(sys.argv) > 2 else 30)
