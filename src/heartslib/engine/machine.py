"""The state machine's steps: who acts now, what they may do, and applying one action.

:func:`apply` is the flat loop over the phases: a play goes to
:mod:`heartslib.engine.tricks`, a pass to :mod:`heartslib.engine.dealing`
once every seat has chosen, a decision to the module that owns it. Legality
comes from :mod:`heartslib.engine.legality` only; a refused action raises
:class:`~heartslib.IllegalAction` before anything changes.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

from heartslib.actions import Action, Choose, Pass, Play, make_choose
from heartslib.engine.auction import bid, name_suit
from heartslib.engine.bits import cards_in
from heartslib.engine.dealing import choose_pass, exchange, script_problem
from heartslib.engine.finishing import choose_moon
from heartslib.engine.legality import is_ordered, legal_mask, pass_choices, pass_of, why_action
from heartslib.engine.rules import Rules
from heartslib.engine.state import RoundState
from heartslib.engine.tables import (
    BID_DECISION,
    DECIDE,
    EXPOSE_DECISION,
    NAME_DECISION,
    PASS,
    PASS_DECISION,
    PLAY,
    PLAY_CODE,
    PLAYS,
    SUIT_DECISION,
)
from heartslib.engine.tricks import call_suit, expose, play_card
from heartslib.errors import IllegalAction

__all__ = ["apply", "choice", "choose", "choose_cards", "decide", "legal_actions", "legal_cards", "to_act"]


def to_act(s: RoundState) -> tuple[int, ...]:
    """Seats that must act now (several while passing)."""
    phase = s.phase
    if phase is PLAY:
        return (s.turn,)
    if phase is PASS:
        return tuple(seat for seat in range(s.n) if s.passes[seat] is None)
    if phase is DECIDE:
        assert s.decision is not None
        return (s.decision[1],)
    return ()


def legal_cards(s: RoundState) -> int:
    """The cards the seat to play may play, as a mask, remembered until the next change."""
    memo = s.memo
    if memo < 0:
        memo = s.memo = legal_mask(s, s.turn, None)
    return memo


def legal_actions(s: RoundState, seat: int) -> list[Action]:
    """Every legal action for ``seat`` (a checked seat number); empty when it is not to act."""
    phase = s.phase
    if phase is PLAY:
        if seat != s.turn:
            return []
        plays = PLAYS[seat]
        return [plays[c] for c in cards_in(legal_cards(s))]
    if seat not in to_act(s):
        return []
    if phase is DECIDE:
        assert s.decision is not None
        # the decision's own seat (a plain int, as the converter would make it) and options: no converters
        return [choice(s.rules, s.decision[1], o) for o in s.decision[2]]
    return [pass_of(seat, combo)
            for combo in pass_choices(s.held(seat), s.pass_size, s.rules.forbidden, is_ordered(s.passing),
                                      s.rules.pass_keep)]


def choice(rules: Rules, seat: int, option: str) -> Choose:
    """``Choose(seat, option)`` for an option the engine offers ``seat``, made once per variant and shared
    (:attr:`Rules.choices`; frozen values): building one costs a random playout's decision more than the rest
    of it."""
    key = (seat, option)
    made = rules.choices.get(key)
    if made is None:
        made = rules.choices[key] = make_choose(seat, option)
    return made


def apply(s: RoundState, action: Action) -> None:
    """Apply a legal action; raise :class:`~heartslib.IllegalAction` (state unchanged) otherwise.

    :meth:`heartslib.Round.apply` first tries the common step itself (a legal play, known by identity when
    it is one that ``legal_actions`` handed out) and comes here for everything else.
    """
    why = why_action(s, action)
    if why is None and isinstance(action, Pass) and s.scripted is not None and to_act(s) == (action.seat,):
        # the last pass starts the exchange: the scripted outcome must fit the pile before anything changes
        pile = [c for p in s.passes if p is not None for c in p] + [c.index for c in action.cards]
        problem = script_problem(s, pile)
        if problem is not None:
            why = ("script_mismatch", f"{action}: the scripted shuffle pass does not fit: {problem}")
    if why is not None:
        raise IllegalAction(why[0], why[1], action=action)
    if isinstance(action, Play):
        s.events.append(action.seat * PLAY_CODE + action.card.index)
        play_card(s, action.seat, action.card.index)
    elif isinstance(action, Pass):
        choose_cards(s, action, tuple(c.index for c in action.cards))
    else:
        choose(s, action)


def choose_cards(s: RoundState, action: Pass, cards: tuple[int, ...]) -> None:
    """Record a legal pass (``cards`` are its card indices); the exchange follows once every seat has chosen."""
    s.memo = -1
    s.events.append(action)
    s.passes[action.seat] = cards
    if all(p is not None for p in s.passes):
        exchange(s)


def choose(s: RoundState, action: Choose) -> None:
    """Record a decision's chosen option (one of those offered: checked by the caller) and carry it out."""
    s.memo = -1
    s.events.append(action)
    decide(s, action.option)


def decide(s: RoundState, option: str) -> None:
    """Carry out the pending decision with ``option`` (checked by the caller)."""
    assert s.decision is not None
    what, seat, _ = s.decision
    s.decision = None
    if what is BID_DECISION:
        bid(s, seat, option)
    elif what is NAME_DECISION:
        name_suit(s, option)
    elif what is PASS_DECISION:
        choose_pass(s, option)
    elif what is SUIT_DECISION:
        call_suit(s, option)
    elif what is EXPOSE_DECISION:
        expose(s, option)
    else:
        assert s.outcome is None
        choose_moon(s, option)

