"""The list-based play legality from before hands were masks (issue 49), kept one release as an oracle.

Copied from ``heartslib.engine.legality`` as it was at the commit before the change (only reading the hand
through ``RoundState.held``): :func:`candidates` narrows a hand held as a list rule by rule. The differential
tests in ``tests/test_mask_legality.py`` hold the mask legality to it. Delete it with those tests in the release
after.
"""

from __future__ import annotations

from heartslib.engine.rules import Rules
from heartslib.engine.state import RoundState
from heartslib.engine.tables import CODE, JK, NO_SUIT, ORDER, QS, SPADE, SUIT_NAMES

Why = list[tuple[str, str, frozenset[int]]]


def distinct(hand: list[int]) -> list[int]:
    """A hand with copies of a card listed once, in order (two decks: both copies are one choice).

    ``hand`` is in hand order, or a part of a hand kept in it, as every hand of the state is (the deal and the
    exchange sort them, and cards only leave them): the copies of a card are neighbours.
    """
    return list(dict.fromkeys(hand))  # one C-level pass (the order of first copies is kept)


def _record(why: Why, cands: list[int], keep: list[int], code: str, message: str) -> None:
    """Note which cards a legality rule removed, for the explanation of an illegal play."""
    if len(keep) < len(cands):
        why.append((code, message, frozenset(cands) - frozenset(keep)))


def _first_trick_text(code: str) -> str:
    if code == "no_hearts_on_first_trick":
        return "no heart may be played to the first trick while the player has another card"
    return "no penalty card may be played to the first trick while the player has another card"


def candidates(s: RoundState, seat: int, why: Why | None) -> list[int]:
    """The distinct cards ``seat`` may play: the single source of play legality.

    Each rule narrows the candidates in turn; when ``why`` is a list, each
    narrowing records its code, its explanation and the cards it removed
    (messages are only built then: this runs at every step of a playout).
    The answer may be the hand list itself: callers must not change it.
    """
    rules = s.rules
    hand = s.held(seat)
    cands = distinct(hand) if rules.repeats else hand
    if not s.tcards:
        return _lead(s, rules, seat, cands, why)
    led = s.tsuit
    void = True
    if led != NO_SUIT:
        of_suit = rules.of_suit[led]
        follow = list(filter(of_suit.__getitem__, cands))
        if follow:
            void = False
            if rules.joker_play_any_time and JK in cands:
                follow.append(JK)
            if why is not None:
                _record(why, cands, follow, "must_follow_suit", f"must follow suit ({SUIT_NAMES[led]} led)")
            cands = follow
    if s.exposed:
        cands = _exposed(s, rules, seat, cands, why)
    if s.trick_no == 0 and rules.first_trick_banned is not None:
        cands = _first_trick(rules.first_trick_banned, rules.first_trick_code, cands, why)
    if rules.forces:
        return _forced(s, rules, hand, cands, void, why)
    return cands


def _forced(s: RoundState, rules: Rules, hand: list[int], cands: list[int], void: bool, why: Why | None) -> list[int]:
    """The rules that force a play among the cards allowed so far (``Rules.forces``): Q♠ at the first
    opportunity (club play), a void player's forced discards and the undercut."""
    led = s.tsuit
    if (rules.queen_forced and QS in cands) and (
        void or (led == SPADE and any(rules.suit[c] == SPADE and rules.rank[c] > 12 for c in s.tcards))
    ):
        if why is not None:
            _record(why, cands, [QS], "queen_forced", "Q♠ must be played at the first opportunity (club play)")
        return [QS]
    forced = False
    if rules.must_discard and void:
        held = [c for c in cands if c in rules.must_discard]
        if held and (not rules.must_discard_if_all or all(c in hand for c in rules.must_discard)):
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


def _undercut(s: RoundState, rules: Rules, cands: list[int], why: Why | None) -> list[int]:
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
    keep = [c for c in cands if rank[c] < ceiling]
    if keep:
        if why is not None:
            text = (f"{CODE[top]} is on the trick: a card ranked below it" if top == leekha else
                    f"{CODE[leekha]} is on the trick and {CODE[top]} is winning it: a card ranked below {CODE[top]}")
            _record(why, cands, keep, "must_undercut", f"{text} must be played (the undercut rule)")
        return keep
    return cands


def _lead(s: RoundState, rules: Rules, seat: int, cands: list[int], why: Why | None) -> list[int]:
    """The cards that may lead: the opening lead, then jokers, the hearts lock, exposed cards and the first-trick
    rule."""
    first = s.trick_no == 0
    if first and s.opening >= 0:
        opened = _opening(s, rules, seat, cands, why)
        if opened is not None:
            return opened
    if rules.valueless and rules.joker_may_not_lead:
        keep = [c for c in cands if c != JK]
        if keep:
            if why is not None:
                _record(why, cands, keep, "joker_cannot_lead", "a joker may not lead a trick")
            cands = keep
    if not s.broken and rules.locks_hearts:
        cands = _locked(rules, cands, why)
    if s.exposed:
        cands = _exposed(s, rules, seat, cands, why)
    if first and rules.first_trick_banned is not None:
        cands = _first_trick(rules.first_trick_banned, rules.first_trick_code, cands, why)
    return cands


def _opening(s: RoundState, rules: Rules, seat: int, cands: list[int], why: Why | None) -> list[int] | None:
    """The opening lead of the first trick: the opening card itself, or a card of its suit while the leader has
    one (then the exposed-card and first-trick rules among those); None when the leader has none of the suit
    (the lead is then free, as any other)."""
    # every opening obeys the first-trick rule too (among the cards the opening allows; a fixed opening card
    # is the only one, so it is led whatever it scores)
    opening = s.opening
    banned = rules.first_trick_banned
    if rules.opening_card_leads:
        keep = [opening] if opening in cands else []
        if why is not None:
            _record(why, cands, keep, "must_lead_opening_card", f"the first trick must be led with {CODE[opening]}")
        return keep if banned is None else _first_trick(banned, rules.first_trick_code, keep, why)
    osuit = rules.suit[opening]
    same = [c for c in cands if rules.suit[c] == osuit]
    if not same:
        return None
    if why is not None:
        _record(why, cands, same, "must_lead_club", f"the first trick must be led with a {SUIT_NAMES[osuit][:-1]}")
    if s.exposed:
        same = _exposed(s, rules, seat, same, why)
    return same if banned is None else _first_trick(banned, rules.first_trick_code, same, why)


def _locked(rules: Rules, cands: list[int], why: Why | None) -> list[int]:
    """The hearts lock on a lead while hearts are not broken (``play.breaking``; the suit an auction named, in
    an auction): no heart (and with ``play.queen_needs_broken`` no Q♠) while the leader holds another card,
    unless ``play.lead_hearts_unbroken`` lets a hand of nothing but penalty cards and hearts lead anything."""
    suit = rules.suit
    locked = rules.locked_suit
    if rules.penalty_hands_lead_any and all(
        rules.penalty[c] or suit[c] == locked for c in cands
    ):
        return cands
    qlock = rules.queen_needs_broken
    keep = [c for c in cands if suit[c] != locked and not (qlock and c == QS)]
    if not keep or len(keep) == len(cands):
        return cands
    if why is not None:
        removed = frozenset(cands) - frozenset(keep)
        name = SUIT_NAMES[locked]
        if QS in removed:
            why.append(("queen_not_broken", f"Q♠ may not be led until {name} are broken", frozenset((QS,))))
        why.append(("hearts_not_broken",
                    f"{name} may not be led until {name} are broken (the leader holds other cards)", removed))
    return keep


def _exposed(s: RoundState, rules: Rules, seat: int, cands: list[int], why: Why | None) -> list[int]:
    """Exposed cards (``scoring.exposable``): not played the first time their suit is led, the lead included, unless
    the holder has no other card of that suit (and never so as to leave no legal card)."""
    suit = rules.suit
    exposed = s.exposed
    led = s.tsuit if s.tcards else NO_SUIT
    led_before = {t[5] for t in s.tricks}
    hand = s.held(seat)
    barred = [c for c in cands if c in exposed and suit[c] not in led_before and (not s.tcards or suit[c] == led)
              and sum(1 for h in hand if suit[h] == suit[c]) > 1]
    if not barred or len(barred) == len(cands):
        return cands
    keep = [c for c in cands if c not in barred]
    if why is not None:
        _record(why, cands, keep, "exposed_card_first_lead",
                "an exposed card may not be played the first time its suit is led, unless it is the player's only "
                "card of that suit")
    return keep


def _first_trick(banned: list[bool], code: str, cands: list[int], why: Why | None) -> list[int]:
    """The first-trick rule: no banned card while the player holds another."""
    for c in cands:
        if banned[c]:
            break
    else:
        return cands  # nothing banned among them (following suit, mostly): no list built
    keep = [c for c in cands if not banned[c]]
    if not keep:
        return cands
    if why is not None:
        _record(why, cands, keep, code, _first_trick_text(code))
    return keep


def why_play(s: RoundState, seat: int, card: int) -> tuple[str, str] | None:
    """Why ``seat`` may not play ``card`` now, as ``(code, message)``; None when it may (its turn assumed)."""
    if card not in s.held(seat):
        return ("card_not_held", f"{seat}:play {CODE[card]}: seat {seat} does not hold {CODE[card]}")
    why: Why = []
    legal = candidates(s, seat, why)
    if card in legal:
        return None
    for code, message, removed in why:
        if card in removed:
            return (code, f"{seat}:play {CODE[card]}: {message}")
    return ("illegal_play", f"{seat}:play {CODE[card]} is not allowed now")  # pragma: no cover
