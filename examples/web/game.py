"""The page's Python side: heartslib driven through a few JSON-friendly functions.

The browser game (``app.js``) loads this module into Pyodide and asks it
everything that depends on the rules: what the human may do, why a card
may not be played, what the computer players do, and the scores. The
JavaScript side only draws the answers and forwards clicks, so every rule
comes from heartslib itself.

Every public function takes plain values and returns JSON text, which
crosses the JavaScript/Python boundary without proxies to free.

The human sits at seat 0 ("You", south); play goes clockwise, so seat 1
(west) is on the human's left. The computer players are heartslib agents
that receive only their own :class:`heartslib.Observation`, never the
match, other hands or the shuffle seed.

>>> import json
>>> s = json.loads(new_game("standard", seed=7, agent_seed=1))
>>> s["phase"], s["pass_direction"], len(s["hand"])
('pass', 'left', 13)
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, Protocol

import heartslib as hl

try:  # the built-in computer player; a stand-in keeps the page usable on a heartslib without agents
    from heartslib.agents import HeuristicAgent as _Agent
    from heartslib.agents import actions_for, setup_agent
except ImportError:  # pragma: no cover - only on an older heartslib
    _Agent = None  # type: ignore[assignment,misc]

    def actions_for(match: hl.Match, seat: int) -> list[hl.Action]:  # type: ignore[misc]
        return match.legal_actions(seat)

    def setup_agent(agent: object, variant: hl.Variant, seat: int) -> None:
        pass

HUMAN = 0
NAMES = ("You", "West", "North", "East")
PRESETS = ("standard", "pink_lady", "omnibus", "spot_hearts")
"""The variants the page offers (all four-player games with a three-card pass)."""


class Agent(Protocol):
    """What the page needs from a computer player."""

    def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action: ...


class _StandIn:
    """A plain player used only when heartslib has no ``agents`` module: it sees only its observation."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action:
        if observation.phase == hl.Phase.PLAY:
            # Duck: the lowest legal card, ties broken at random.
            plays = [a for a in legal_actions if isinstance(a, hl.Play)]
            low = min(int(a.card.rank) for a in plays)
            return self._rng.choice([a for a in plays if int(a.card.rank) == low])
        if observation.phase == hl.Phase.PASS:
            # Pass away the highest cards.
            return max(legal_actions, key=lambda a: sum(int(c.rank) for c in getattr(a, "cards", ())))
        return legal_actions[0]


def _make_agent(seed: int) -> Agent:
    return _Agent(seed) if _Agent is not None else _StandIn(seed)


class _Session:
    """One match in progress with its three computer players."""

    def __init__(self, match: hl.Match, preset_name: str, agent_seed: int) -> None:
        self.match = match
        self.preset = preset_name
        self.agent_seed = agent_seed
        self.agents: dict[int, Agent] = {}
        for seat in range(1, 4):
            agent = _make_agent(agent_seed * 8 + seat)
            # The public rules (card values, cards that may not be passed): what any player at the table knows.
            setup_agent(agent, match.variant, seat)
            self.agents[seat] = agent


_session: _Session | None = None


def _current() -> _Session:
    if _session is None:
        raise RuntimeError("no game: call new_game() or load() first")
    return _session


# --------------------------------------------------------------------------- describing


def _card(card: hl.Card) -> dict[str, Any]:
    suit = card.suit
    return {
        "code": card.code,
        "label": str(card),
        "rank": str(card)[:-1] if suit is not None else str(card),
        "suit": suit.symbol if suit is not None else "",
        "red": suit in (hl.Suit.HEARTS, hl.Suit.DIAMONDS),
    }


def _direction(d: hl.PassDirection, players: int) -> str:
    return d.name(players) if isinstance(d, hl.Offset) else d.value


def _counters(v: hl.Variant, cards: tuple[hl.Card, ...]) -> list[dict[str, Any]]:
    """The cards among ``cards`` that score (penalty or bonus), from the variant's own table."""
    value = v.rules.value
    return [_card(c) for c in cards if value[c.index]]


def _round_summary(v: hl.Variant, result: hl.RoundResult) -> dict[str, Any]:
    outcome = result.outcome
    tricks = [e for e in result.events if isinstance(e, hl.TrickWon)]
    taken: list[list[hl.Card]] = [[] for _ in range(v.players)]
    for t in tricks:
        if t.winner is not None:
            taken[t.winner].extend(c for _, c in t.plays)
    note = ""
    if outcome.shooter is not None:
        who = "You" if outcome.shooter == HUMAN else NAMES[outcome.shooter]
        note = f"{who} shot the {outcome.kind or 'moon'}!"
    last = tricks[-1] if tricks else None
    return {
        "hand": result.hand_number + 1,
        "pass": _direction(result.passing, v.players),
        "points": list(result.points),
        "totals": list(result.totals),
        "tricks_won": list(result.tricks_won),
        "shooter": outcome.shooter,
        "moon": note,
        "taken": [_counters(v, tuple(hl.sort_cards(t))) for t in taken],
        "last_trick": None if last is None else {
            "plays": [{"seat": s, "card": _card(c)} for s, c in last.plays],
            "winner": last.winner,
        },
    }


def _state() -> dict[str, Any]:
    """Everything the page draws, from the human seat's point of view only."""
    sess = _current()
    m = sess.match
    v = m.variant
    obs = m.observation(HUMAN)
    rnd = m.round
    legal: list[str] = []
    if obs.phase == hl.Phase.PLAY and obs.my_turn and not m.is_over:
        legal = [c.code for c in rnd.legal_cards(HUMAN)]
    taken: list[list[hl.Card]] = [[] for _ in range(v.players)]
    for t in obs.tricks:
        if t.winner is not None:
            taken[t.winner].extend(t.cards)
    last = obs.tricks[-1] if obs.tricks else None
    passable: list[str] = []
    if obs.phase == hl.Phase.PASS and obs.my_turn:
        forbidden = v.rules.forbidden
        passable = [c.code for c in obs.hand if c.index not in forbidden]
    sender = receiver = None
    if isinstance(obs.passing, hl.Offset) and obs.pass_count:
        # Seat s passes to s + k seats on in the direction of play.
        shift = v.rules.step * obs.passing.k
        receiver = (HUMAN + shift) % v.players
        sender = (HUMAN - shift) % v.players
    phase = "over" if m.is_over else obs.phase.value
    if m.is_over:
        turn = "over"
    elif obs.my_turn:
        turn = "you"
    else:
        turn = "agents"
    return {
        "preset": sess.preset,
        "variant_title": v.name.replace("_", " ").capitalize(),
        "names": list(NAMES),
        "phase": phase,
        "turn": turn,
        "agents_to_act": any(s != HUMAN for s in m.to_act),
        "to_act": list(m.to_act),
        "hand_number": m.hand_number + 1,
        "target": v.end.target,
        "hand": [_card(c) for c in obs.hand],
        "hand_sizes": list(obs.hand_sizes),
        "legal": legal,
        "pass_direction": _direction(obs.passing, v.players),
        "pass_count": obs.pass_count,
        "passable": passable,
        "pass_to": receiver,
        "receive_from": sender,
        "passed": None if obs.passed is None else [c.code for c in obs.passed],
        "received": None if obs.received is None else [c.code for c in obs.received],
        "trick": [{"seat": s, "card": _card(c)} for s, c in obs.trick],
        "leader": obs.leader,
        "last_trick": None if last is None else {
            "plays": [{"seat": s, "card": _card(c)} for s, c in last.plays],
            "winner": last.winner,
        },
        "tricks_played": len(obs.tricks),
        "tricks_won": list(obs.tricks_won),
        "taken": [_counters(v, tuple(hl.sort_cards(t))) for t in taken],
        "hearts_broken": obs.hearts_broken,
        "decision": obs.decision if obs.my_turn else None,
        "options": list(obs.options),
        "scores": list(m.scores),
        "rounds": [_round_summary(v, r) for r in m.rounds],
        "is_over": m.is_over,
        "winners": list(m.winners),
    }


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def _reason(err: hl.IllegalAction, action: hl.Action) -> str:
    """The engine's explanation without its ``"0:play QS: "`` prefix, seats named as the page names them."""
    text = str(err)
    prefix = f"{action}: "
    if text.startswith(prefix):
        text = text[len(prefix):]
    if err.code == "not_your_turn":
        waiting = [NAMES[s] for s in _current().match.to_act]
        return f"it is {' and '.join(waiting)}'s turn"
    return text


# --------------------------------------------------------------------------- the page's calls


def presets() -> str:
    """The variants on offer: ``[{"name", "title", "blurb", "rules"}]`` (``rules`` is ``describe()``)."""
    out = []
    for name in PRESETS:
        v = hl.preset(name)
        rules = v.describe()
        # The picker's one-liner: describe()'s sentence on card values, and the target.
        scoring = next((line for line in rules.splitlines() if line.startswith("Each heart")), "")
        blurb = f"{scoring} Match to {v.end.target}.".strip()
        out.append({"name": name, "title": name.replace("_", " ").capitalize(), "blurb": blurb, "rules": rules})
    return _dump(out)


def new_game(preset_name: str = "standard", seed: int | None = None, agent_seed: int | None = None) -> str:
    """Start a match of ``preset_name``; ``seed`` fixes the deals (None: a fresh one). Returns the state."""
    global _session
    if preset_name not in PRESETS:
        raise ValueError(f"the page offers {', '.join(PRESETS)}, not {preset_name!r}")
    if agent_seed is None:
        agent_seed = random.SystemRandom().randrange(2**31)
    _session = _Session(hl.Match(hl.preset(preset_name), seed=seed), preset_name, agent_seed)
    return state()


def replay() -> str:
    """Restart the current match from its first deal (the same seed, so the same cards)."""
    sess = _current()
    return new_game(sess.preset, seed=sess.match.seed, agent_seed=sess.agent_seed)


def load(record: str) -> str:
    """Resume a match from :func:`save`'s text; raises ``ValueError`` (``SaveError``) on a bad record."""
    global _session
    data = json.loads(record)
    if not isinstance(data, dict) or set(data) != {"preset", "agent_seed", "match"}:
        raise hl.SaveError("", "not a saved page game")
    if data["preset"] not in PRESETS or not isinstance(data["agent_seed"], int):
        raise hl.SaveError("preset", f"unknown preset {data['preset']!r}")
    match = hl.Match.from_json(data["match"])
    _session = _Session(match, data["preset"], data["agent_seed"])
    return state()


def save() -> str:
    """The unfinished match as text (``Match.to_json`` plus the page's choices), for ``localStorage``."""
    sess = _current()
    return _dump({"preset": sess.preset, "agent_seed": sess.agent_seed, "match": sess.match.to_json()})


def state() -> str:
    """The state as the human seat sees it (JSON)."""
    return _dump(_state())


def why(code: str) -> str:
    """Whether the human may play card ``code`` now: ``{"legal": bool, "code": ..., "message": ...}``."""
    m = _current().match
    action = hl.Play(HUMAN, code)
    err = m.why_illegal(action)
    if err is None:
        return _dump({"legal": True, "code": None, "message": ""})
    return _dump({"legal": False, "code": err.code, "message": _reason(err, action)})


def _apply(action: hl.Action) -> str:
    m = _current().match
    err = m.why_illegal(action)
    if err is not None:
        return _dump({"ok": False, "code": err.code, "message": _reason(err, action), "state": _state()})
    m.apply(action)
    return _dump({"ok": True, "state": _state()})


def play(code: str) -> str:
    """The human plays card ``code``: ``{"ok", "state"}``, or ``{"ok": false, "message"}`` with the rule broken."""
    return _apply(hl.Play(HUMAN, code))


def pass_cards(codes: str) -> str:
    """The human passes ``codes`` (``"AS KS QS"``); the exchange happens once everyone has chosen."""
    try:
        action = hl.Pass(HUMAN, codes)
    except hl.CardError as exc:
        return _dump({"ok": False, "code": "bad_card", "message": str(exc), "state": _state()})
    return _apply(action)


def choose(option: str) -> str:
    """The human makes the pending decision (only variants with a choice ask for one)."""
    return _apply(hl.Choose(HUMAN, option))


def agent_step() -> str:
    """Let one computer player act, if one must: ``{"acted": seat or null, "action": ..., "state"}``.

    While passing, each computer player chooses in turn and the exchange
    happens when the last of the four (the human or a computer) has chosen.
    """
    sess = _current()
    m = sess.match
    seat = next((s for s in m.to_act if s != HUMAN), None)
    if seat is None:
        return _dump({"acted": None, "action": None, "state": _state()})
    obs = m.observation(seat)
    action = sess.agents[seat].act(obs, actions_for(m, seat))
    m.apply(action)
    shown: dict[str, Any] = {"type": "pass"} if isinstance(action, hl.Pass) else action.to_dict()
    return _dump({"acted": seat, "action": shown, "state": _state()})


def agent_name() -> str:
    """Which computer player the page is using (``HeuristicAgent`` or the stand-in)."""
    return "HeuristicAgent" if _Agent is not None else "stand-in"
