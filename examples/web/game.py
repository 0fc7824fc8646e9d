"""The page's Python side: heartslib driven through a few JSON-friendly functions.

The browser game loads this module into Pyodide (in a web worker, see
``engine.js``) and asks it everything that depends on the rules: what the
human may do, why a card may not be played, what the computer players do,
and the scores. The JavaScript side only draws the answers, in Thai or
English, and forwards clicks, so every rule comes from heartslib itself.

Every public function takes plain values and returns JSON text, which
crosses the JavaScript/Python boundary without proxies to free. Nothing
here is worded for people: refusals come back as heartslib's
``IllegalAction.code`` plus the cards they are about, and the page words
them in the player's language.

The human sits at seat 0 (south); play goes clockwise, so seat 1 (west) is
on the human's left. The computer players are heartslib agents that
receive only their own :class:`heartslib.Observation`, never the match,
other hands or the shuffle seed.

>>> import json
>>> s = json.loads(new_game("standard", seed=7, agent_seed=1))
>>> s["phase"], s["pass_direction"], len(s["hand"]), s["level"]
('pass', 'left', 13, 'normal')
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import heartslib as hl
from heartslib.agents import HeuristicAgent, RandomAgent, SearchAgent, actions_for, setup_agent

HUMAN = 0
PRESETS = ("standard", "pink_lady", "omnibus", "spot_hearts")
"""The variants the page offers (all four-player games with a three-card pass)."""


class Agent(Protocol):
    """What the page needs from a computer player (heartslib's agent protocol)."""

    def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action: ...


class _Casual:
    """The easy level: heartslib's heuristic player's card half the time, a random legal one otherwise.

    Both halves see only this seat's observation, like every computer player. Which half plays
    depends only on the seed and the position (as the built-in agents' choices do), so a match
    resumed from a save goes on exactly as it would have.
    """

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._good = HeuristicAgent(seed)
        self._any = RandomAgent(seed + 1)

    def setup(self, variant: hl.Variant, seat: int) -> None:
        setup_agent(self._good, variant, seat)
        setup_agent(self._any, variant, seat)

    def act(self, observation: hl.Observation, legal_actions: Sequence[hl.Action]) -> hl.Action:
        position = (observation.hand_number, len(observation.tricks), len(observation.trick), len(observation.hand))
        coin = random.Random(self._seed * 1_000_003 + hash(position)).random()  # a tuple of ints hashes stably
        agent: Agent = self._good if coin < 0.5 else self._any
        return agent.act(observation, legal_actions)


LEVELS: dict[str, Callable[[int], Agent]] = {
    "easy": _Casual,
    "normal": HeuristicAgent,
    # The search player on a browser's budget: 24 worlds a decision instead of 64 keep each of its
    # turns to a few tenths of a second in Pyodide, and no time limit, so a resumed match replays exactly.
    "hard": lambda seed: SearchAgent(seed, playouts=24),
}
"""The difficulty levels on offer, weakest first: a name and how to build one computer player from a seed."""
DEFAULT_LEVEL = "normal"


class _Session:
    """One match in progress with its three computer players."""

    def __init__(self, match: hl.Match, preset_name: str, agent_seed: int, level: str) -> None:
        self.match = match
        self.preset = preset_name
        self.agent_seed = agent_seed
        self.level = level
        self.agents: dict[int, Agent] = {}
        for seat in range(1, match.variant.players):
            agent = LEVELS[level](agent_seed * 8 + seat)
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
    """A card as the page draws it: ``rank`` is ``"10"``, ``"Q"``...; ``suit`` is ``"S"``, ``"H"``, ``"D"``, ``"C"``."""
    suit = card.suit
    return {
        "code": card.code,
        "rank": str(card)[:-1] if suit is not None else str(card),
        "suit": suit.name[0] if suit is not None else "",
        "red": suit in (hl.Suit.HEARTS, hl.Suit.DIAMONDS),
    }


def _direction(d: hl.PassDirection, players: int) -> str:
    """``"left"``, ``"right"``, ``"across"``, ``"hold"`` (and heartslib's names for other passes)."""
    return d.name(players) if isinstance(d, hl.Offset) else d.value


def card_value(v: hl.Variant, card: hl.Card) -> int:
    """What ``card`` scores for its taker in ``v``, from the variant's public scoring fields.

    ``scoring.values`` replaces the heart rule for any card it lists; otherwise a heart scores
    1 (``hearts = "one"``) or its pip value (``"spot"``: J 11, Q 12, K 13, A 14). Good for the
    variants the page offers (no multipliers, doublers or cancelling cards: :func:`rules_facts`
    checks that).

    >>> v = hl.preset("spot_hearts")
    >>> card_value(v, hl.Card("QH")), card_value(v, hl.Card("QS")), card_value(v, hl.Card("2C"))
    (12, 13, 0)
    """
    values = v.scoring.values
    if card in values:
        return int(values[card])
    if card.suit == hl.Suit.HEARTS:
        return int(card.rank) if v.scoring.hearts == hl.HeartsScoring.SPOT else 1
    return 0


def _taken_points(v: hl.Variant, tricks: Sequence[Any]) -> tuple[list[list[hl.Card]], list[int]]:
    taken: list[list[hl.Card]] = [[] for _ in range(v.players)]
    for t in tricks:
        if t.winner is not None:
            taken[t.winner].extend(c for _, c in t.plays)
    points = [sum(card_value(v, c) for c in cards) for cards in taken]
    return taken, points


def _counters(v: hl.Variant, cards: Sequence[hl.Card]) -> list[dict[str, Any]]:
    """The cards among ``cards`` that score (penalty or bonus)."""
    return [_card(c) for c in hl.sort_cards(cards) if card_value(v, c)]


def _trick(v: hl.Variant, trick: Any) -> dict[str, Any] | None:
    """A finished trick as the page tells its story: the plays in order (the first is the lead),
    who led, who took it and what its cards score for the taker (``points``, from the variant)."""
    if trick is None:
        return None
    return {
        "plays": [{"seat": s, "card": _card(c)} for s, c in trick.plays],
        "leader": trick.plays[0][0] if trick.plays else None,
        "winner": trick.winner,
        "points": sum(card_value(v, c) for _, c in trick.plays),
    }


def _round_summary(v: hl.Variant, result: hl.RoundResult) -> dict[str, Any]:
    outcome = result.outcome
    tricks = [e for e in result.events if isinstance(e, hl.TrickWon)]
    taken, _ = _taken_points(v, tricks)
    last = tricks[-1] if tricks else None
    return {
        "hand": result.hand_number + 1,
        "pass": _direction(result.passing, v.players),
        "points": [int(p) for p in result.points],
        "totals": [int(t) for t in result.totals],
        "tricks_won": list(result.tricks_won),
        "shooter": outcome.shooter,
        "shot": outcome.kind or None,
        "taken": [_counters(v, t) for t in taken],
        "last_trick": _trick(v, last),
    }


def _state() -> dict[str, Any]:
    """Everything the page draws, from the human seat's point of view only."""
    sess = _current()
    m = sess.match
    v = m.variant
    obs = m.observation(HUMAN)
    legal: list[str] = []
    if obs.phase == hl.Phase.PLAY and obs.my_turn and not m.is_over:
        legal = sorted({a.card.code for a in m.legal_actions(HUMAN) if isinstance(a, hl.Play)})
    taken, points = _taken_points(v, obs.tricks)
    last = obs.tricks[-1] if obs.tricks else None
    passable: list[str] = []
    if obs.phase == hl.Phase.PASS and obs.my_turn:
        forbidden = set(v.passing.forbidden)
        passable = [c.code for c in obs.hand if c not in forbidden]
    sender = receiver = None
    if isinstance(obs.passing, hl.Offset) and obs.pass_count:
        # Seat s passes to the seat k places on in the direction of play.
        step = 1 if v.direction == hl.Direction.CLOCKWISE else -1
        shift = step * obs.passing.k
        receiver = (HUMAN + shift) % v.players
        sender = (HUMAN - shift) % v.players
    if m.is_over:
        turn = "over"
    elif obs.my_turn:
        turn = "you"
    else:
        turn = "agents"
    return {
        "preset": sess.preset,
        "level": sess.level,
        "players": v.players,
        "phase": "over" if m.is_over else obs.phase.value,
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
        "last_trick": _trick(v, last),
        "tricks_played": len(obs.tricks),
        "tricks_won": list(obs.tricks_won),
        "taken": [_counters(v, t) for t in taken],
        "hand_points": points,
        "hearts_broken": obs.hearts_broken,
        "decision": obs.decision if obs.my_turn else None,
        "options": list(obs.options),
        "scores": [int(s) for s in m.scores],
        "rounds": [_round_summary(v, r) for r in m.rounds],
        "is_over": m.is_over,
        "winners": list(m.winners),
        "seed": m.seed,
    }


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def _refusal(err: hl.IllegalAction, action: hl.Action) -> dict[str, Any]:
    """A refused action as data the page words in the player's language.

    ``code`` is heartslib's ``IllegalAction.code``; the other keys are the cards and seats the
    rule is about, taken from the human's observation and the variant's public fields (never
    from other hands). ``detail`` is heartslib's English sentence, for a code the page does not
    know yet.
    """
    m = _current().match
    v = m.variant
    obs = m.observation(HUMAN)
    out: dict[str, Any] = {"code": err.code, "detail": str(err)}
    if isinstance(action, hl.Play):
        out["card"] = _card(action.card)
        out["led"] = obs.led_suit.name[0] if obs.led_suit is not None else None
    if err.code in ("must_lead_opening_card", "must_lead_club", "queen_forced", "must_discard"):
        # The cards the rule leaves: the opening card, the clubs, Q♠, the card to discard.
        out["cards"] = [_card(c) for c in hl.sort_cards(
            {a.card for a in m.legal_actions(HUMAN) if isinstance(a, hl.Play)})]
    elif err.code == "pass_forbidden_card":
        out["cards"] = [_card(c) for c in v.passing.forbidden]
    elif err.code == "pass_wrong_size":
        out["count"] = obs.pass_count
    elif err.code == "not_your_turn":
        out["waiting"] = list(m.to_act)
    return out


# --------------------------------------------------------------------------- the rules, as data for the guide

# What the page's "rules in detail" can word: every rule of the offered variants must be one of these.
_SUPPORTED = {
    "players": {4},
    "direction": {"clockwise"},
    "deck.decks": {1},
    "deck.jokers": {0},
    "play.opening": {"two_of_clubs"},
    "play.breaking": {"hearts"},
    "play.lead_hearts_unbroken": {"only_hearts"},
    "play.queen_needs_broken": {False},
    "play.first_trick": {"no_points"},
    "play.queen_forced": {False},
    "play.must_discard": {()},
    "play.booster_nines": {False},
    "scoring.hearts": {"one", "spot"},
    "scoring.no_tricks": {0},
    "scoring.multiply": {()},
    "scoring.double_suit": {()},
    "scoring.cancels": {()},
    "scoring.settlement": {"none"},
    "moon.kind": {"old", "take_all"},
    "moon.requires": {"penalty_cards", "all_counters"},
    "moon.sun": {"none"},
    "moon.new_after": {0},
    "moon.shooter_cannot_win": {False},
    "moon.continue_after_moon": {False},
    "end.winner": {"lowest"},
    "end.lives": {0},
    "end.hands": {0},
    "end.reset_at_exact": {False},
}


def _field(v: hl.Variant, path: str) -> Any:
    value: Any = v
    for part in path.split("."):
        value = getattr(value, part)
    if hasattr(value, "value") and not isinstance(value, (int, bool)):
        value = value.value  # an enum
    if isinstance(value, (tuple, list)) or hasattr(value, "items"):
        value = tuple(value)
    return value


def rules_facts(v: hl.Variant) -> dict[str, Any]:
    """The rules of ``v`` as facts the page words in Thai or English ("rules in detail").

    Raises ``ValueError`` naming the field when ``v`` has a rule the page cannot word, so a
    variant added to :data:`PRESETS` without words fails the tests instead of being misdescribed.

    >>> f = rules_facts(hl.preset("pink_lady"))
    >>> f["values"], f["penalty_total"], f["target"]
    ([['QH', 13], ['QS', 13]], 38, 100)
    """
    for path, allowed in _SUPPORTED.items():
        value = _field(v, path)
        if value not in allowed:
            raise ValueError(f"{v.name}: {path} = {value!r}; the page can only word {sorted(map(repr, allowed))}")
    schedule = v.passing.schedule
    if schedule != "four_way":
        raise ValueError(f"{v.name}: passing.schedule = {schedule!r}; the page can only word 'four_way'")
    deck = [hl.Card(r + s) for s in "CDHS" for r in "23456789TJQKA"]
    values = [[c.code, int(p)] for c, p in sorted(v.scoring.values.items(), key=lambda item: item[0].index)]
    penalty = sum(max(card_value(v, c), 0) for c in deck)
    return {
        "pass_count": v.passing.cards,
        "schedule": ["left", "right", "across", "hold"],
        "hearts": _field(v, "scoring.hearts"),
        "values": values,
        "penalty_total": penalty,
        "moon": {"kind": _field(v, "moon.kind"), "requires": _field(v, "moon.requires"),
                 "points": v.moon.points or penalty},
        "target": v.end.target,
    }


# --------------------------------------------------------------------------- the page's calls


def catalog() -> str:
    """What the page offers: ``{"presets": [{"name", "facts"}], "levels": [...], "default_level", "heartslib"}``."""
    return _dump({
        "presets": [{"name": name, "facts": rules_facts(hl.preset(name))} for name in PRESETS],
        "levels": list(LEVELS),
        "default_level": DEFAULT_LEVEL,
        "heartslib": hl.__version__,
    })


def new_game(preset_name: str = "standard", seed: int | None = None, agent_seed: int | None = None,
             level: str = DEFAULT_LEVEL) -> str:
    """Start a match of ``preset_name``; ``seed`` fixes the deals (None: a fresh one). Returns the state."""
    global _session
    if preset_name not in PRESETS:
        raise ValueError(f"the page offers {', '.join(PRESETS)}, not {preset_name!r}")
    if level not in LEVELS:
        raise ValueError(f"the levels are {', '.join(LEVELS)}, not {level!r}")
    if agent_seed is None:
        agent_seed = random.SystemRandom().randrange(2**31)
    _session = _Session(hl.Match(hl.preset(preset_name), seed=seed), preset_name, agent_seed, level)
    return state()


def replay() -> str:
    """Restart the current match from its first deal (the same seed, so the same cards)."""
    sess = _current()
    return new_game(sess.preset, seed=sess.match.seed, agent_seed=sess.agent_seed, level=sess.level)


def load(record: str) -> str:
    """Resume a match from :func:`save`'s text.

    Returns ``{"ok": true, "state"}``, or ``{"ok": false, "problem", "detail"}`` for a record that
    cannot be resumed: ``problem`` is ``"not_json"``, ``"not_a_save"`` (not this page's record) or
    ``"damaged"`` (heartslib refused the match: ``SaveError``); ``detail`` is the English reason.
    The current game is left as it was when the record is refused.
    """
    global _session
    try:
        data = json.loads(record)
    except (ValueError, TypeError) as exc:
        return _dump({"ok": False, "problem": "not_json", "detail": str(exc)})
    keys = {"preset", "agent_seed", "match"}
    if not isinstance(data, dict) or not keys <= set(data) or not set(data) <= {*keys, "level"}:
        return _dump({"ok": False, "problem": "not_a_save", "detail": "not a saved game of this page"})
    if not isinstance(data["preset"], str) or data["preset"] not in PRESETS \
            or type(data["agent_seed"]) is not int or not isinstance(data["match"], str):
        return _dump({"ok": False, "problem": "not_a_save",
                      "detail": f"preset {data['preset']!r}, agent_seed {data['agent_seed']!r}: not this page's"})
    level = data.get("level", DEFAULT_LEVEL)
    if not isinstance(level, str):
        return _dump({"ok": False, "problem": "not_a_save", "detail": f"the level is not a name: {level!r}"})
    # A level this build does not have (a save from a build with "hard") plays on at the default level.
    if level not in LEVELS:
        level = DEFAULT_LEVEL
    try:
        match = hl.Match.from_json(data["match"])
    except Exception as exc:  # SaveError, and anything else a damaged record makes heartslib raise
        where = f" at {exc.path}" if isinstance(exc, hl.SaveError) and exc.path else ""
        return _dump({"ok": False, "problem": "damaged", "detail": f"{type(exc).__name__}{where}: {exc}"})
    if match.variant != hl.preset(data["preset"]):
        return _dump({"ok": False, "problem": "damaged", "detail": "the match's rules are not its preset's"})
    _session = _Session(match, data["preset"], data["agent_seed"], level)
    return _dump({"ok": True, "state": _state()})


def save() -> str:
    """The match as text (``Match.to_json`` plus the page's choices), for ``localStorage``."""
    sess = _current()
    return _dump({"preset": sess.preset, "agent_seed": sess.agent_seed, "level": sess.level,
                  "match": sess.match.to_json()})


def state() -> str:
    """The state as the human seat sees it (JSON)."""
    return _dump(_state())


def why(code: str) -> str:
    """Whether the human may play card ``code`` now: ``{"legal": true}`` or ``{"legal": false, "refusal"}``."""
    m = _current().match
    action = hl.Play(HUMAN, code)
    err = m.why_illegal(action)
    if err is None:
        return _dump({"legal": True})
    return _dump({"legal": False, "refusal": _refusal(err, action)})


def _apply(action: hl.Action) -> str:
    m = _current().match
    err = m.why_illegal(action)
    if err is not None:
        return _dump({"ok": False, "refusal": _refusal(err, action), "state": _state()})
    m.apply(action)
    return _dump({"ok": True, "state": _state()})


def play(code: str) -> str:
    """The human plays card ``code``: ``{"ok", "state"}``, with ``"refusal"`` when the rules say no."""
    return _apply(hl.Play(HUMAN, code))


def pass_cards(codes: str) -> str:
    """The human passes ``codes`` (``"AS KS QS"``); the exchange happens once everyone has chosen."""
    try:
        action = hl.Pass(HUMAN, codes)
    except hl.CardError as exc:
        refusal = {"code": "bad_card", "detail": str(exc)}
        return _dump({"ok": False, "refusal": refusal, "state": _state()})
    return _apply(action)


def choose(option: str) -> str:
    """The human makes the pending decision (only variants with a choice ask for one)."""
    return _apply(hl.Choose(HUMAN, option))


def agent_step() -> str:
    """Let one computer player act, if one must: ``{"acted": seat or null, "action", "state"}``.

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
