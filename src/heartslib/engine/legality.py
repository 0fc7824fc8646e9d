"""Legality: the one place that answers "may this seat do this now, and if not, why".

* **Plays**: :func:`candidates` narrows a seat's cards rule by rule (the
  opening lead, jokers, the hearts lock, the first-trick rule, following
  suit, forced plays); with a ``why`` list it records which rule removed which
  cards, which :func:`why_play` turns into the :class:`~heartslib.IllegalAction`
  code and message. ``legal_actions``, ``is_legal`` and ``apply`` all ask it.
* **Passes**: :func:`pass_problem` checks one pass without listing any,
  :func:`pass_choices` lists them, :func:`passable` gives the cards a seat may
  pass (agents and the command line ask it rather than the variant's tables),
  :func:`pass_extensions` the cards that may join a pass being chosen card by
  card (a rule such as ``passing.keep_last_of_suit`` judges the cards together),
  and :class:`PassRules` is one seat's view of its pass.
* **Decisions**: :func:`callable_suits` (a joker's leader calling a suit),
  :func:`exposure_options` (exposing cards before the first lead) and
  :func:`why_action`, the checks every action goes through.

This module is compiled by the optional mypyc build: keep it strictly typed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, permutations
from math import comb, factorial, perm
from typing import Final

import attrs

from heartslib.actions import Choose, Pass, Play, make_pass
from heartslib.cards import Card
from heartslib.engine.args import action_problem
from heartslib.engine.bits import BIT, cards_in, count, mask_of
from heartslib.engine.rules import Rules
from heartslib.engine.state import RoundState
from heartslib.engine.tables import (
    BID_DECISION,
    CARD,
    CODE,
    DECIDE,
    JK,
    NO_SUIT,
    ORDER,
    OVER,
    PASS,
    PLAY,
    QS,
    SPADE,
    SUIT_NAMES,
)
from heartslib.enums import DEALERS_CHOICE, SCATTER, STAR, PassDirection

__all__ = [
    "PassRules",
    "Why",
    "binds",
    "callable_suits",
    "candidates",
    "count_passes",
    "exposure_options",
    "followed",
    "is_ordered",
    "legal_mask",
    "locked",
    "nth_pass",
    "pass_choices",
    "pass_extensions",
    "pass_impossible",
    "pass_of",
    "pass_problem",
    "pass_room",
    "passable",
    "random_pass",
    "seat_pass_rules",
    "why_action",
    "why_play",
]

JK_BIT: Final = BIT[JK]
QS_BIT: Final = BIT[QS]

Why = list[tuple[str, str, frozenset[int]]]
"""What each rule removed: ``(code, message, cards)`` per narrowing."""


def _record(why: Why, before: int, after: int, code: str, message: str) -> None:
    """Note which cards a legality rule removed (``before & ~after``), for the explanation of an illegal play."""
    if before & ~after:
        why.append((code, message, frozenset(cards_in(before & ~after))))


def _first_trick_text(code: str) -> str:
    if code == "no_hearts_on_first_trick":
        return "no heart may be played to the first trick while the player has another card"
    return "no penalty card may be played to the first trick while the player has another card"


def candidates(s: RoundState, seat: int, why: Why | None) -> list[int]:
    """The distinct cards ``seat`` may play, in hand order (:func:`legal_mask`'s cards)."""
    return cards_in(legal_mask(s, seat, why))


def legal_mask(s: RoundState, seat: int, why: Why | None) -> int:
    """The cards ``seat`` may play, as a mask (:mod:`heartslib.engine.bits`): the single source of play legality.

    Each rule narrows the mask in turn and never leaves it empty; when ``why`` is a list, each narrowing
    records its code, its explanation and the cards it removed (messages are only built then: this runs at
    every step of a playout).
    """
    rules = s.rules
    hand = s.hands[seat]
    if not s.tcards:
        return _lead(s, rules, seat, hand, why)
    cands = hand
    led = s.tsuit
    if led != NO_SUIT:
        cands = followed(rules, hand, led)
        if why is not None:
            _record(why, hand, cands, "must_follow_suit", f"must follow suit ({SUIT_NAMES[led]} led)")
    if s.exposed:
        cands = _exposed(s, rules, seat, cands, why)
    if s.trick_no == 0 and rules.first_trick_mask:
        cands = _first_trick(rules.first_trick_mask, rules.first_trick_code, cands, why)
    if rules.forces:
        return _forced(s, rules, hand, cands, led == NO_SUIT or not hand & rules.suit_masks[led], why)
    return cands


def followed(rules: Rules, hand: int, led: int) -> int:
    """Following suit: the cards of ``hand`` of the suit ``led`` (and a suitless joker, which may be played at
    any time under ``deck.joker_play = "any_time"``), or the whole hand when it has none."""
    follow = hand & rules.suit_masks[led]
    if not follow:
        return hand
    return follow | hand & JK_BIT if rules.joker_play_any_time else follow


def _forced(s: RoundState, rules: Rules, hand: int, cands: int, void: bool, why: Why | None) -> int:
    """The rules that force a play among the cards allowed so far (``Rules.forces``): Q♠ at the first
    opportunity (club play), a void player's forced discards and the undercut."""
    led = s.tsuit
    if (rules.queen_forced and cands & QS_BIT) and (
        void or (led == SPADE and any(rules.suit[c] == SPADE and rules.rank[c] > 12 for c in s.tcards))
    ):
        if why is not None:
            _record(why, cands, QS_BIT, "queen_forced", "Q♠ must be played at the first opportunity (club play)")
        return QS_BIT
    forced = False
    discard = rules.must_discard_mask
    if discard and void:
        held = cands & discard
        if held and (not rules.must_discard_if_all or hand & discard == discard):
            if why is not None:
                names = " or ".join(CODE[c] for c in sorted(rules.must_discard, key=ORDER.__getitem__))
                _record(why, cands, held, "must_discard", f"void in the suit led, the player must discard {names}")
            if not rules.undercut:
                return held
            cands = held
            forced = True
    if rules.undercut and (forced or not void or rules.undercut_discards):
        return _undercut(s, rules, cands, why)
    return cands


def _undercut(s: RoundState, rules: Rules, cands: int, why: Why | None) -> int:
    """The undercut rule (Idlib Leekha): once a leekha card (``play.must_discard``) lies on the trick, play a
    card ranked below the ceiling if the cards allowed so far hold one. The ceiling is the highest of the
    leekha cards there or, with ``play.undercut_ceiling = "winning_card"``, the highest card of the suit led."""
    rank = rules.rank
    top = -1
    for c in s.tcards:
        if c in rules.must_discard and (top < 0 or rank[c] > rank[top]):
            top = c
    if top < 0:
        return cands
    leekha = top
    if rules.undercut_winning:
        top = -1
        for c in s.tcards:
            if rules.suit[c] == s.tsuit and (top < 0 or rank[c] > rank[top]):
                top = c
        if top < 0:
            return cands  # nothing of the suit led on the trick (a joker led): nothing to play below
    ceiling = rank[top]
    keep = mask_of([c for c in cards_in(cands) if rank[c] < ceiling])
    if keep:
        if why is not None:
            text = (f"{CODE[top]} is on the trick: a card ranked below it" if top == leekha else
                    f"{CODE[leekha]} is on the trick and {CODE[top]} is winning it: a card ranked below {CODE[top]}")
            _record(why, cands, keep, "must_undercut", f"{text} must be played (the undercut rule)")
        return keep
    return cands


def _lead(s: RoundState, rules: Rules, seat: int, cands: int, why: Why | None) -> int:
    """The cards that may lead: the opening lead, then jokers, the hearts lock, exposed cards and the first-trick
    rule."""
    first = s.trick_no == 0
    if first and s.opening >= 0:
        opened = _opening(s, rules, seat, cands, why)
        if opened >= 0:
            return opened
    if rules.valueless and rules.joker_may_not_lead:
        keep = cands & ~JK_BIT
        if keep:
            if why is not None:
                _record(why, cands, keep, "joker_cannot_lead", "a joker may not lead a trick")
            cands = keep
    if not s.broken and rules.locks_hearts:
        cands = locked(rules, cands, why)
    if s.exposed:
        cands = _exposed(s, rules, seat, cands, why)
    if first and rules.first_trick_mask:
        cands = _first_trick(rules.first_trick_mask, rules.first_trick_code, cands, why)
    return cands


def _opening(s: RoundState, rules: Rules, seat: int, cands: int, why: Why | None) -> int:
    """The opening lead of the first trick: the opening card itself, or a card of its suit while the leader has
    one (then the exposed-card and first-trick rules among those); -1 when the leader has none of the suit
    (the lead is then free, as any other)."""
    # every opening obeys the first-trick rule too (among the cards the opening allows; a fixed opening card
    # is the only one, so it is led whatever it scores)
    opening = s.opening
    banned = rules.first_trick_mask
    if rules.opening_card_leads:
        keep = cands & BIT[opening]
        if why is not None:
            _record(why, cands, keep, "must_lead_opening_card", f"the first trick must be led with {CODE[opening]}")
        return _first_trick(banned, rules.first_trick_code, keep, why) if banned else keep
    osuit = rules.suit[opening]
    same = cands & rules.suit_masks[osuit]
    if not same:
        return -1
    if why is not None:
        _record(why, cands, same, "must_lead_club", f"the first trick must be led with a {SUIT_NAMES[osuit][:-1]}")
    if s.exposed:
        same = _exposed(s, rules, seat, same, why)
    return _first_trick(banned, rules.first_trick_code, same, why) if banned else same


def locked(rules: Rules, cands: int, why: Why | None) -> int:
    """The hearts lock on a lead while hearts are not broken (``play.breaking``; the suit an auction named, in
    an auction): no heart (and with ``play.queen_needs_broken`` no Q♠) while the leader holds another card,
    unless ``play.lead_hearts_unbroken`` lets a hand of nothing but penalty cards and hearts lead anything."""
    locked = rules.suit_masks[rules.locked_suit]
    if rules.penalty_hands_lead_any and not cands & ~(rules.penalty_mask | locked):
        return cands
    keep = cands & ~locked
    if rules.queen_needs_broken:
        keep &= ~QS_BIT
    if not keep or keep == cands:
        return cands
    if why is not None:
        removed = cands & ~keep
        name = SUIT_NAMES[rules.locked_suit]
        if removed & QS_BIT:
            why.append(("queen_not_broken", f"Q♠ may not be led until {name} are broken", frozenset((QS,))))
        why.append(("hearts_not_broken",
                    f"{name} may not be led until {name} are broken (the leader holds other cards)",
                    frozenset(cards_in(removed))))
    return keep


def _exposed(s: RoundState, rules: Rules, seat: int, cands: int, why: Why | None) -> int:
    """Exposed cards (``scoring.exposable``): not played the first time their suit is led, the lead included, unless
    the holder has no other card of that suit (and never so as to leave no legal card)."""
    suit = rules.suit
    barred = 0
    for c in s.exposed:
        if cands >> c & 1 and not (s.tcards and suit[c] != s.tsuit) and binds(s, c) and (
                count(s.hands[seat] & rules.suit_masks[suit[c]])
                + sum([1 for x in s.spares[seat] if suit[x] == suit[c]]) > 1):
            barred |= BIT[c]
    if not barred or barred == cands:
        return cands
    keep = cands & ~barred
    if why is not None:
        _record(why, cands, keep, "exposed_card_first_lead",
                "an exposed card may not be played the first time its suit is led, unless it is the player's only "
                "card of that suit")
    return keep


def binds(s: RoundState, card: int) -> bool:
    """Whether the exposed-card rule may still bar the exposed ``card``: its suit has not been led yet."""
    st = s.rules.suit[card]
    return all(t[5] != st for t in s.tricks)


def _first_trick(banned: int, code: str, cands: int, why: Why | None) -> int:
    """The first-trick rule: no banned card while the player holds another."""
    keep = cands & ~banned
    if not keep or keep == cands:
        return cands
    if why is not None:
        _record(why, cands, keep, code, _first_trick_text(code))
    return keep


def why_play(s: RoundState, seat: int, card: int) -> tuple[str, str] | None:
    """Why ``seat`` may not play ``card`` now, as ``(code, message)``; None when it may (its turn assumed)."""
    if not s.hands[seat] >> card & 1:
        return ("card_not_held", f"{seat}:play {CODE[card]}: seat {seat} does not hold {CODE[card]}")
    why: Why = []
    if legal_mask(s, seat, why) >> card & 1:
        return None
    for code, message, removed in why:
        if card in removed:
            return (code, f"{seat}:play {CODE[card]}: {message}")
    return ("illegal_play", f"{seat}:play {CODE[card]} is not allowed now")  # pragma: no cover


def why_action(s: RoundState, action: object) -> tuple[str, str] | None:
    """Why ``action`` may not be applied now, as ``(code, message)``; None when it may."""
    malformed = action_problem(action, s.n)
    if malformed is not None:
        return malformed
    assert isinstance(action, Pass | Play | Choose)
    seat = action.seat
    phase = s.phase
    if phase is OVER:
        return ("round_over", f"{action}: the round is over")
    if isinstance(action, Play):
        if phase is not PLAY:
            return ("not_playing", f"{action}: cards are not being played now (phase {phase.value})")
        if seat != s.turn:
            return ("not_your_turn", f"{action}: it is seat {s.turn}'s turn to play")
        return why_play(s, seat, action.card.index)
    if isinstance(action, Pass):
        if phase is not PASS:
            return ("not_passing", f"{action}: cards are not being passed now (phase {phase.value})")
        if s.passes[seat] is not None:
            return ("already_passed", f"{action}: seat {seat} has already passed")
        rules = s.rules
        return pass_problem(seat, s.held(seat), [c.index for c in action.cards], s.pass_size, rules.forbidden,
                            rules.pass_keep)
    if phase is not DECIDE:
        return ("no_decision", f"{action}: there is no decision to make now (phase {phase.value})")
    assert s.decision is not None
    _, who, options = s.decision
    if seat != who:
        return ("not_your_turn", f"{action}: seat {who} makes this decision")
    if action.option not in options:
        if s.decision[0] is BID_DECISION:  # the bids run to the bidder's chips: say the range, not each one
            amounts = [o for o in options if o.isdigit()]
            allowed = (f"a bid from {amounts[0]} to {amounts[-1]}" if amounts else "no bid") + (
                " or \"pass\"" if "pass" in options else " (the dealer bids when every other seat passed)")
            return ("bid_not_allowed", f"{action}: {action.option!r} is not a bid seat {seat} may make now: "
                    f"{allowed} (higher than the highest bid, at most the bidder's chips and scoring.max_bid)")
        return ("choice_not_offered", f"{action}: {action.option!r} is not an option; choose one of "
                + ", ".join(options))
    return None


def exposure_options(s: RoundState, seat: int) -> tuple[str, ...]:
    """What ``seat`` may expose before the first lead: ``"none"``, then every set of the exposable cards it holds
    (``"AH"``, ``"AH QS"``, ...), smaller sets first, each in hand order."""
    rules = s.rules
    hand = s.hands[seat]
    held = tuple([c for c in rules.exposable_order if hand >> c & 1])
    options = rules.exposure_memo.get(held)
    if options is None:
        names = ["none"]
        for size in range(1, len(held) + 1):
            for combo in combinations(held, size):
                text = " ".join([CODE[c] for c in combo])
                rules.exposure_cards[text] = combo
                names.append(text)
        options = rules.exposure_memo[held] = tuple(names)
    return options


def callable_suits(s: RoundState, seat: int) -> tuple[str, ...]:
    """Suits a joker's leader may call: hearts only under the rules for leading a heart."""
    rules = s.rules
    if s.broken or not rules.locks_hearts:
        return SUIT_NAMES
    real = s.hands[seat] & ~rules.suit_masks[NO_SUIT]
    locked = rules.locked_suit
    hearts = rules.suit_masks[locked]
    hearts_ok = not real & ~hearts or (rules.penalty_hands_lead_any and not real & ~(rules.penalty_mask | hearts))
    return SUIT_NAMES if hearts_ok else tuple(name for name in SUIT_NAMES if name != SUIT_NAMES[locked])


# --------------------------------------------------------------------------- passes


_TIMES = {1: "once", 2: "twice"}
#: Each card index's suit number (``NO_SUIT`` for the suitless joker), for the rule that keeps a suit.
_SUIT = tuple(NO_SUIT if c.suit is None else int(c.suit) for c in CARD)

Keep = frozenset[int] | None
"""The suit-keeping pass rule (``passing.keep_last_of_suit``) as the pass functions take it: None when it is off,
else the cards that may always be passed (``passing.last_of_suit_exempt``)."""


def pass_problem(
    seat: int, hand: Sequence[int], cards: Sequence[int], size: int, forbidden: frozenset[int], keep: Keep = None
) -> tuple[str, str] | None:
    """Why passing ``cards`` (indices) from ``hand`` is illegal, as ``(code, message)``; None if it is legal.

    The one source of pass legality: rounds and :class:`PassRules` both ask it.
    """
    if len(cards) == size and keep is None:
        distinct_cards = set(cards)
        if len(distinct_cards) == size and distinct_cards.issubset(hand) and distinct_cards.isdisjoint(forbidden):
            return None  # the common pass, decided without counting: distinct cards, all held, none forbidden
    text = " ".join(CODE[c] for c in cards)
    if len(cards) != size:
        cards_text = "1 card" if size == 1 else f"{size} cards"
        return ("pass_wrong_size", f"{seat}:pass {text}: pass exactly {cards_text} this hand")
    want = Counter(cards)
    held = Counter(hand)
    short = want - held
    if short:
        if all(held[c] for c in short):  # every card is held, but one is listed more often than it is held
            c = next(iter(short))
            listed, copies = (_TIMES.get(k, f"{k} times") for k in (want[c], held[c]))
            return ("pass_duplicate_card", f"{seat}:pass {text}: {CODE[c]} is listed {listed}, but "
                    f"seat {seat} holds it {copies}")
        missing = " ".join(CODE[c] for c in short if not held[c])
        return ("card_not_held", f"{seat}:pass {text}: seat {seat} does not hold {missing}")
    bad = [c for c in cards if c in forbidden]
    if bad:
        return ("pass_forbidden_card", f"{seat}:pass {text}: {CODE[bad[0]]} may not be passed")
    if keep is not None:
        last = _emptied(hand, cards, keep)
        if last >= 0:
            exempt = " ".join(CODE[c] for c in sorted(keep, key=ORDER.__getitem__))
            return ("pass_last_of_suit", f"{seat}:pass {text}: passing {CODE[last]} leaves seat {seat} no "
                    f"{SUIT_NAMES[_SUIT[last]]}; a pass must leave a card of each suit it takes from "
                    "(passing.keep_last_of_suit)"
                    + (f", except for {exempt}, which may always be passed" if exempt else ""))
    return None


def _emptied(hand: Sequence[int], cards: Sequence[int], keep: frozenset[int]) -> int:
    """The first card of ``cards`` (a pass from ``hand``, or part of one) that takes the last card of its suit from
    the hand, not being one of the ``keep`` cards that may always be passed; -1 when there is none."""
    for c in cards:
        suit = _SUIT[c]
        if suit != NO_SUIT and c not in keep and (
            sum(1 for h in hand if _SUIT[h] == suit) <= sum(1 for x in cards if _SUIT[x] == suit)
        ):
            return c
    return -1


def pass_room(hand: Sequence[int], chosen: Sequence[int], forbidden: frozenset[int], keep: Keep = None) -> int:
    """The most cards that may still join ``chosen`` (a pass from ``hand`` chosen so far): every card left that is
    not forbidden, less a card of each suit a pass must keep; -1 when ``chosen`` already breaks the suit-keeping
    rule. Any smaller number can be chosen too (one suit at a time, the exempt cards first)."""
    rest = list(hand)
    for c in chosen:
        rest.remove(c)
    free = [c for c in rest if c not in forbidden]
    if keep is None:
        return len(free)
    if _emptied(hand, chosen, keep) >= 0:
        return -1
    room = sum(1 for c in free if _SUIT[c] == NO_SUIT)
    for suit in range(NO_SUIT):
        passable_here = [c for c in free if _SUIT[c] == suit]
        exempt = sum(1 for c in passable_here if c in keep)
        if len(passable_here) == exempt and not any(_SUIT[c] == suit and c not in keep for c in chosen):
            room += exempt  # only exempt cards may go, and nothing yet taken binds the suit
            continue
        # a card of the suit that is not exempt goes (or went): the hand keeps one, a forbidden one if it has it
        held_back = sum(1 for c in rest if _SUIT[c] == suit) > len(passable_here)
        room += len(passable_here) - (0 if held_back else 1)
    return room


def pass_extensions(hand: Sequence[int], chosen: Sequence[int], size: int, forbidden: frozenset[int],
                    keep: Keep = None) -> list[int]:
    """The cards of ``hand`` that may join ``chosen`` (a pass of ``size`` being chosen card by card, as the
    agents and the adapters choose it) so that a legal pass can still be completed: each card left once per copy,
    in hand order."""
    rest = list(hand)
    for c in chosen:
        rest.remove(c)
    need = size - len(chosen) - 1
    if need < 0:
        return []
    out: list[int] = []
    for c in rest:
        if c not in forbidden and (keep is None or pass_room(hand, [*chosen, c], forbidden, keep) >= need):
            out.append(c)
    if keep is None and len(out) <= need:
        return []
    return out


def pass_choices(hand: Sequence[int], size: int, forbidden: frozenset[int], ordered: bool,
                 keep: Keep = None) -> list[tuple[int, ...]]:
    """Every legal pass from ``hand`` (card indices): combinations, or orderings for scatter and star passes."""
    cards = [c for c in hand if c not in forbidden]
    held = [0] * (NO_SUIT + 1)  # the hand's cards per suit, for the suit-keeping rule
    for c in hand:
        held[_SUIT[c]] += 1
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    for combo in permutations(cards, size) if ordered else combinations(cards, size):
        if combo not in seen:
            seen.add(combo)
            if keep is None or _keeps_suits(combo, held, keep):
                out.append(combo)
    return out


def _keeps_suits(combo: tuple[int, ...], held: list[int], keep: frozenset[int]) -> bool:
    """Whether the pass ``combo`` leaves the hand a card of each suit it takes a card not in ``keep`` from
    (``held``: the hand's cards per suit); :func:`_emptied` for a whole pass, made cheap for listing."""
    for c in combo:
        suit = _SUIT[c]
        if suit != NO_SUIT and c not in keep and sum(1 for x in combo if _SUIT[x] == suit) >= held[suit]:
            return False
    return True


def _risky(hand: Sequence[int], cards: list[int], size: int, keep: frozenset[int]) -> list[list[int]]:
    """The suits a pass of ``size`` from ``cards`` (the passable cards of ``hand``) could take whole against the
    suit-keeping rule: each as its cards, every one passable, at most ``size`` of them, one at least not in
    ``keep``. A pass is legal exactly when it holds none of them whole."""
    out: list[list[int]] = []
    for suit in range(NO_SUIT):
        whole = [c for c in hand if _SUIT[c] == suit]
        if whole and len(whole) <= size and all(c in cards for c in whole) and any(c not in keep for c in whole):
            out.append(whole)
    return out


def _completions(chosen: set[int], pool: list[int], need: int, risky: list[list[int]]) -> int:
    """How many sets of ``need`` cards from ``pool`` make, with ``chosen``, a pass holding none of the ``risky``
    suits whole: by inclusion and exclusion over the suits (each set of suits taken whole fixes its cards)."""
    if need < 0:
        return 0
    free = set(pool)
    total = 0
    for mask in range(1 << len(risky)):
        required, possible, odd = 0, True, False
        for k, whole in enumerate(risky):
            if mask >> k & 1:
                odd = not odd
                for c in whole:
                    if c not in chosen:
                        required += 1
                        possible = possible and c in free
        if possible and required <= need:
            ways = comb(len(pool) - required, need - required)
            total += -ways if odd else ways
    return total


def _nth_kept(cards: list[int], size: int, ordered: bool, i: int, risky: list[list[int]]) -> tuple[int, ...]:
    """The ``i``-th legal pass under the suit-keeping rule in ``itertools`` order (combinations, or orderings when
    ``ordered``), found card by card from the count of legal completions of each choice."""
    sets = _completions(set(), cards, size, risky)
    if not 0 <= i < (sets * factorial(size) if ordered else sets):
        raise IndexError(i)
    out: list[int] = []
    chosen: set[int] = set()
    pool = cards[:]
    start = 0
    for slot in range(size):
        need = size - slot - 1
        for x in range(0 if ordered else start, len(pool)):
            c = pool[x]
            rest = pool[:x] + pool[x + 1:] if ordered else pool[x + 1:]
            count = _completions(chosen | {c}, rest, need, risky) * (factorial(need) if ordered else 1)
            if i < count:
                out.append(c)
                chosen.add(c)
                if ordered:
                    pool = rest
                else:
                    start = x + 1
                break
            i -= count
    return tuple(out)


def random_pass(hand: Sequence[int], size: int, forbidden: frozenset[int], ordered: bool, keep: Keep,
                rng: random.Random) -> tuple[int, ...]:
    """The legal pass at index ``int(rng.random() * count)`` in listing order (the random playout): unranked from
    the count, without listing the passes. Like a play, a pass draws only when there are two or more to choose
    from (a seat passing its whole hand has one)."""
    count = count_passes(hand, size, forbidden, ordered, keep)
    return nth_pass(hand, size, forbidden, ordered, int(rng.random() * count) if count > 1 else 0, keep)


def count_passes(hand: Sequence[int], size: int, forbidden: frozenset[int], ordered: bool, keep: Keep = None) -> int:
    """How many passes :func:`pass_choices` lists, without listing them (unless a card is held twice)."""
    cards = _passable(hand, forbidden)
    if _has_copies(cards):  # listed: copies make one pass several ways, listed once
        return len(pass_choices(hand, size, forbidden, ordered, keep))
    if keep is not None:
        sets = _completions(set(), cards, size, _risky(hand, cards, size, keep))
        return sets * factorial(size) if ordered else sets
    return perm(len(cards), size) if ordered else comb(len(cards), size)


def nth_pass(hand: Sequence[int], size: int, forbidden: frozenset[int], ordered: bool, i: int,
             keep: Keep = None) -> tuple[int, ...]:
    """``pass_choices(hand, size, forbidden, ordered, keep)[i]``, found by unranking rather than by listing (unless
    a card is held twice): the ``i``-th combination (or ordering, for scatter and star passes) of the passable
    cards in ``itertools`` order, among those the suit-keeping rule allows."""
    cards = _passable(hand, forbidden)
    if _has_copies(cards):
        return pass_choices(hand, size, forbidden, ordered, keep)[i]
    if keep is not None:
        return _nth_kept(cards, size, ordered, i, _risky(hand, cards, size, keep))
    m = len(cards)
    if not 0 <= i < (perm(m, size) if ordered else comb(m, size)):
        raise IndexError(i)
    out: list[int] = []
    if not size:
        return ()
    # each count below follows from the one before by a multiplication and a division (exact): compiled,
    # math.comb and math.perm are generic calls, a dozen a pass
    if ordered:
        pool = cards[:]
        block = perm(m - 1, size - 1)  # the orderings that start with a given card
        for j in range(size):
            q, i = divmod(i, block)
            out.append(pool.pop(q))
            if j < size - 1:
                block //= m - j - 1
        return tuple(out)
    x = 0
    n, r = m - 1, size - 1
    block = comb(n, r)  # comb(m - x - 1, size - slot - 1): the combinations that take cards[x] next
    for slot in range(size):
        while i >= block:  # skip every combination whose next card comes before cards[x]
            i -= block
            x += 1
            block = block * (n - r) // n  # comb(n - 1, r)
            n -= 1
        out.append(cards[x])
        x += 1
        if slot < size - 1:
            block = block * r // n  # comb(n - 1, r - 1): the next card after this one
            n -= 1
            r -= 1
    return tuple(out)


def _passable(hand: Sequence[int], forbidden: frozenset[int]) -> list[int]:
    """The cards of ``hand`` that may be passed, in its order."""
    return [c for c in hand if c not in forbidden] if forbidden else list(hand)


def _has_copies(cards: list[int]) -> bool:
    """Whether a card appears twice among ``cards``."""
    return len(set(cards)) < len(cards)


def is_ordered(passing: PassDirection) -> bool:
    """Whether the order of a pass's cards matters (scatter and star passes send each to its own seat)."""
    return passing is SCATTER or passing is STAR


def pass_impossible(rules: Rules, hands: Sequence[Sequence[int]], passing: PassDirection, size: int) -> str | None:
    """Why the seats holding ``hands`` (card indices) cannot pass ``size`` cards in direction ``passing``, or
    None: a star pass needs five players, and every hand enough cards that may be passed (for a dealer's
    choice, as many as the dealer may name)."""
    n = rules.players
    if passing == STAR and n != 5:
        return f"a star pass needs five players, not {n}"
    need = rules.pass_cards if passing == DEALERS_CHOICE else size
    if not need:
        return None
    forbidden, keep = rules.forbidden, rules.pass_keep
    for seat, hand in enumerate(hands):
        free = pass_room(hand, (), forbidden, keep)
        if free < need:
            what = "a dealer's choice may name" if passing == DEALERS_CHOICE else "this pass needs"
            why = [name for name, on in (("passing.forbidden", forbidden), ("passing.keep_last_of_suit",
                                                                           keep is not None)) if on]
            return (f"{what} {need} card(s) from every hand, but seat {seat} holds only {free} that may be passed"
                    + (f" ({', '.join(why)})" if why else ""))
    return None


def pass_of(seat: int, combo: Iterable[int]) -> Pass:
    """``seat``'s pass of the card indices ``combo`` (one the engine or a built-in agent chose from the seat's
    hand), built with :func:`heartslib.actions.make_pass`: the cards are known, so the converters are skipped."""
    return make_pass(seat, tuple([CARD[c] for c in combo]))


def seat_pass_rules(s: RoundState, seat: int) -> PassRules:
    """``seat``'s view of its pass in the hand ``s`` (:meth:`heartslib.Round.pass_rules`)."""
    rules = s.rules
    return PassRules(seat, tuple(s.held(seat)), s.pass_size, rules.forbidden, is_ordered(s.passing), rules.pass_keep)


def passable(rules: Rules, cards: Iterable[Card]) -> list[Card]:
    """The cards among ``cards`` (a hand) that may be passed under ``rules``, in order."""
    forbidden = rules.forbidden
    return [c for c in cards if c.index not in forbidden]


@attrs.frozen
class PassRules:
    """One seat's view of its pass (see :meth:`heartslib.Round.pass_rules`): it holds no other seat's cards."""

    seat: int
    hand: tuple[int, ...]
    """The seat's cards, as card indices."""
    size: int
    """How many cards to pass."""
    forbidden: frozenset[int]
    """Card indices that may not be passed."""
    ordered: bool
    """Whether the order of the cards matters (scatter and star passes)."""
    keep: Keep = None
    """With ``passing.keep_last_of_suit``, the cards that may always be passed; None when a pass may empty a
    suit."""

    def choices(self) -> list[Pass]:
        """Every legal pass, in the order :meth:`heartslib.Round.legal_actions` lists them."""
        return [pass_of(self.seat, combo)
                for combo in pass_choices(self.hand, self.size, self.forbidden, self.ordered, self.keep)]

    def problem(self, action: Pass) -> tuple[str, str] | None:
        """Why ``action`` is not a legal pass for this seat (None when it is)."""
        if action.seat != self.seat:
            return ("not_your_turn", f"{action}: this is seat {self.seat}'s pass")
        return pass_problem(self.seat, self.hand, [c.index for c in action.cards], self.size, self.forbidden,
                            self.keep)
