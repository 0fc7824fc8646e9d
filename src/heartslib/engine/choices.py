"""A seat's legal passes as a lazy sequence: counted, indexed and searched without being listed.

Passing 3 of 13 cards is 286 choices, a scatter pass at a big table many
thousands; most programs want one of them (a random agent, a playout) or ask
whether one is legal. :class:`PassChoices` is the sequence
:meth:`heartslib.Round.legal_actions` would list, in the same order: ``len``
counts it, ``choices[i]`` unranks the ``i``-th pass
(:func:`~heartslib.engine.legality.nth_pass`), ``in`` checks legality
(:func:`~heartslib.engine.legality.pass_problem`), and iterating lists it.
Under ``passing.keep_last_of_suit``, which judges the cards of a pass
together, counting and indexing list the passes (a few hundred for a
13-card hand) rather than count them from the hand's size.
It holds only what the seat itself knows (:class:`~heartslib.engine.legality.PassRules`).

>>> import heartslib as hl
>>> choices = PassChoices(hl.Round.deal(hl.preset("standard"), seed=1).pass_rules(0))
>>> len(choices), choices[0] == choices.rules.choices()[0], choices[-1] in choices
(286, True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from heartslib.actions import Pass
from heartslib.engine.legality import PassRules, count_passes, nth_pass, pass_choices, pass_of

__all__ = ["PassChoices"]


class PassChoices(Sequence[Pass]):
    """The legal passes of one seat (see the module docstring)."""

    __slots__ = ("_len", "rules")

    def __init__(self, rules: PassRules) -> None:
        self.rules = rules
        """What the seat knows about its pass."""
        self._len = -1

    def __len__(self) -> int:
        if self._len < 0:
            r = self.rules
            self._len = count_passes(r.hand, r.size, r.forbidden, r.ordered, r.keep)
        return self._len

    @overload
    def __getitem__(self, index: int) -> Pass: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Pass]: ...

    def __getitem__(self, index: int | slice) -> Pass | Sequence[Pass]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        r = self.rules
        return pass_of(r.seat, nth_pass(r.hand, r.size, r.forbidden, r.ordered, index, r.keep))

    def __iter__(self) -> Iterator[Pass]:
        r = self.rules
        return (pass_of(r.seat, combo)
                for combo in pass_choices(r.hand, r.size, r.forbidden, r.ordered, r.keep))

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Pass) and self.rules.problem(action) is None

    def __repr__(self) -> str:
        return f"<PassChoices seat {self.rules.seat}: {len(self)} passes>"
