"""Game records: a match as a document other tools can read, as JSON and as text, both replayed on loading.

A save (:meth:`heartslib.Match.to_json`) is for resuming a match; a record
is for reading one: every hand's dealer, pass direction and deal, its actions
in the order they were made, its tricks, points and totals, and the result.
Both forms carry the rules (a preset's name, or the whole variant), the seed
and the start, so :func:`from_record` and :func:`from_record_text` rebuild
the :class:`~heartslib.Match` by replaying every action through
:meth:`~heartslib.Match.apply` and check each deal, trick and total the
record states against the replay; anything wrong raises
:class:`~heartslib.SaveError` with the place (``hands[2].actions[17]``).

The JSON form is described by a JSON Schema, ``docs/record.schema.json``
(format ``"heartslib-record"``, version 1). The text form is in the spirit
of PBN: a header, then one block a hand, one line a trick::

    % heartslib record 1
    Variant: standard
    Seed: 7
    Dealer: 0

    Hand 1: dealer 0, pass left
    Deal: 2C 7C JC ... | 6C TC KC ... | 3C 5C 9C ... | 4C 8C QC ...
    Pass 1: 9D QH TS
    ...
    Trick 1: 0:2C 1:KC 2:5C 3:4C -> 1
    ...
    Points: 0 13 13 0
    Totals: 0 13 13 0

    Result: over, winners 2

Cards are written as codes (``QS``) or, with ``symbols=True``, as ``Q♠``;
both are read. A trick a decision interrupts (a joker's called suit) is
written as two ``Trick`` lines around its ``Choose`` line. Lines starting
with ``%`` are comments, but for ``% heartslib record N``, whose version
must be one this release reads.

>>> import heartslib as hl, random
>>> from heartslib import strategies as hst
>>> m = hl.Match(hl.preset("standard"), seed=7)
>>> rng = random.Random(1)
>>> for _ in range(80):
...     m.apply(hst.random_action(m, rng))
>>> from_record(to_record(m)) == m, from_record_text(record_text(m)) == m
(True, True)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from heartslib.actions import Action, Choose, Pass, Play, action_from_text
from heartslib.cards import Card
from heartslib.enums import pass_name
from heartslib.errors import CardError, IllegalAction, SaveError, VariantError
from heartslib.match import Match, from_saved_deal
from heartslib.points import Score
from heartslib.presets import preset, preset_names
from heartslib.round import Round
from heartslib.serialize import RECORD_FORMAT, direction_data, parse_score, read_deal, read_direction, score_data
from heartslib.variant import Variant

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "from_record", "from_record_text", "record_text", "to_record"]

#: The version of the record format this release writes and reads.
RECORD_VERSION = 1


# --------------------------------------------------------------------------- writing


def _action_text(action: Action, symbols: bool) -> str:
    def card(c: Card) -> str:
        return str(c) if symbols else c.code

    if isinstance(action, Play):
        return f"{action.seat}:play {card(action.card)}"
    if isinstance(action, Pass):
        return f"{action.seat}:pass " + " ".join(card(c) for c in action.cards)
    assert isinstance(action, Choose)
    return f"{action.seat}:choose {action.option}"


def _variant_data(v: Variant) -> str | dict[str, Any]:
    """A preset's name when the variant is that preset, else the whole variant."""
    if v.name in preset_names() and preset(v.name) == v:
        return v.name
    return v.to_dict()


def _save_start(save: Mapping[str, Any]) -> dict[str, Any] | None:
    """A save's set position as a record's ``start``: None for a match dealt from its seed."""
    if save["deal"] is None:
        return None
    return {"hand_number": save["hand_number"], "scores": save["scores"], "deal": save["deal"]}


def _hands(m: Match) -> list[dict[str, Any]]:
    """Each hand of ``m`` as record data, from a replay of its save: the deal is read as each hand starts."""
    save = m.to_dict()  # refuses a match dealt from scripted chance outcomes, which a record cannot replay
    replay = _start(m.variant, save["seed"], save["dealer"], _save_start(save))
    hands: list[dict[str, Any]] = []
    for action in m.actions:
        if not hands or replay.hand_number != hands[-1]["number"]:
            hands.append(_hand_start(replay))
        hands[-1]["actions"].append(action)
        replay.apply(action)
    if replay.hand_number != (hands[-1]["number"] if hands else -1) and not replay.is_over:
        hands.append(_hand_start(replay))  # the hand just dealt, no action yet
    results = {r.hand_number: r for r in m.rounds}
    for hand in hands:
        result = results.get(hand["number"])
        rnd = result.round if result is not None else m.round
        hand["tricks"] = _tricks_data(rnd)
        if result is not None:
            hand["points"] = [score_data(x) for x in result.points]
            hand["totals"] = [score_data(x) for x in result.totals]
    return hands


def _tricks_data(rnd: Round) -> list[dict[str, Any]]:
    """A hand's tricks as a record states them: leader, plays as ``[seat, card]``, winner (None: cancelled)."""
    return [{"leader": t.leader, "plays": [[s, c.code] for s, c in t.plays], "winner": t.winner} for t in rnd.tricks]


def _hand_start(m: Match) -> dict[str, Any]:
    r = m.round
    return {"number": m.hand_number, "dealer": r.dealer, "passing": direction_data(r.passing),
            "deal": [[c.code for c in h] for h in r.hands], "kitty": [c.code for c in r.kitty], "actions": []}


def to_record(m: Match) -> dict[str, Any]:
    """The record of ``m`` as plain data (the JSON form; ``json.dumps`` writes it).

    Raises :class:`~heartslib.SaveError` for a match dealt from scripted chance outcomes (a record, like a
    save, replays its seed).
    """
    save = m.to_dict()
    hands = _hands(m)
    for hand in hands:
        hand["actions"] = [_action_text(a, False) for a in hand["actions"]]
    data: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": _variant_data(m.variant),
        "seed": m.seed,
        "dealer": save["dealer"],
        "start": _save_start(save),
        "hands": hands,
        "result": {"over": m.is_over, "totals": [score_data(x) for x in m.scores], "winners": list(m.winners)},
    }
    return data


def _score_text(x: Score) -> str:
    return str(score_data(x))


def record_text(m: Match, *, symbols: bool = False) -> str:
    """The record of ``m`` as text (see the module docs); ``symbols`` writes cards as ``Q♠``, not ``QS``."""
    save = m.to_dict()
    v = m.variant
    variant = _variant_data(v)
    lines = [f"% heartslib record {RECORD_VERSION}",
             f"Variant: {variant if isinstance(variant, str) else json.dumps(variant, ensure_ascii=False)}",
             f"Seed: {m.seed}", f"Dealer: {save['dealer']}"]
    if save["deal"] is not None:
        lines.append("Start: " + json.dumps({"hand_number": save["hand_number"], "scores": save["scores"],
                                             "deal": save["deal"]}, ensure_ascii=False))

    def cards(codes: Sequence[str]) -> str:
        return " ".join(str(Card.parse(c)) if symbols else c for c in codes) or "-"

    for hand in _hands(m):
        passing = read_direction(hand["passing"])
        lines += ["", f"Hand {hand['number'] + 1}: dealer {hand['dealer']}, pass {pass_name(passing, v.players)}",
                  "Deal: " + " | ".join(cards(h) for h in hand["deal"])]
        if hand["kitty"]:
            lines.append("Kitty: " + cards(hand["kitty"]))
        lines += _hand_lines(hand, symbols)
        if "points" in hand:
            lines += ["Points: " + " ".join(map(str, hand["points"])), "Totals: " + " ".join(map(str, hand["totals"]))]
    winners = " ".join(map(str, m.winners)) or "-"
    lines += ["", f"Result: {'over' if m.is_over else 'in progress'}, winners {winners}, totals "
              + " ".join(_score_text(x) for x in m.scores)]
    return "\n".join(lines) + "\n"


def _hand_lines(hand: dict[str, Any], symbols: bool) -> list[str]:
    """A hand's actions as lines: ``Pass`` and ``Choose`` lines, and the plays as ``Trick`` lines, split at
    each completed trick (with ``-> winner``, ``-`` for a cancelled one) and at any decision between plays."""
    out: list[str] = []
    sizes = [len(t["plays"]) for t in hand["tricks"]]
    number = 0
    tokens: list[str] = []

    def flush(complete: bool) -> None:
        nonlocal tokens
        if tokens:
            winner = hand["tricks"][number]["winner"] if complete else None
            tail = f" -> {'-' if winner is None else winner}" if complete else ""
            out.append(f"Trick {number + 1}: " + " ".join(tokens) + tail)
            tokens = []

    played = 0  # plays of the trick in progress, over its lines
    for action in hand["actions"]:
        if isinstance(action, Play):
            tokens.append(f"{action.seat}:{str(action.card) if symbols else action.card.code}")
            played += 1
            if number < len(sizes) and played == sizes[number]:
                flush(True)
                number, played = number + 1, 0
            continue
        flush(False)
        seat, _, rest = _action_text(action, symbols).partition(":")
        kind, _, arg = rest.partition(" ")
        out.append(f"{'Pass' if kind == 'pass' else 'Choose'} {seat}: {arg}")
    flush(False)
    return out


# --------------------------------------------------------------------------- reading


def _variant(data: Any, path: str) -> Variant:
    try:
        if isinstance(data, str):
            return preset(data)
        if isinstance(data, Mapping):
            return Variant.from_dict(dict(data))
    except (KeyError, VariantError) as exc:
        raise SaveError(path, str(exc).strip("'\"")) from exc
    raise SaveError(path, "the variant is a preset's name or a variant as a table of fields")


def _int(data: Any, path: str, low: int, high: int) -> int:
    if not isinstance(data, int) or isinstance(data, bool) or not low <= data <= high:
        raise SaveError(path, f"a whole number from {low} to {high} is expected, not {data!r:.60}")
    return data


def _start(v: Variant, seed: Any, dealer: Any, start: Mapping[str, Any] | None) -> Match:
    """The match a record starts from: a deal from its seed, or its set deal (``start``)."""
    seed = _int(seed, "seed", 0, 2**64 - 1)
    dealer = _int(dealer, "dealer", 0, v.players - 1)
    # a start is all of a set position or none of one: a part of one would be ignored, and the record would lie
    if start is not None and (not isinstance(start, Mapping) or set(start) != {"hand_number", "scores", "deal"}):
        raise SaveError("start", f"the start is null or a table of hand_number, scores and deal, not {start!r:.60}")
    try:
        if start is None:
            return Match(v, seed, dealer=dealer)
        return from_saved_deal(Match, v, read_deal(start["deal"], "start.deal"),
                               scores=[parse_score(x) for x in start["scores"]], dealer=dealer,
                               hand_number=start["hand_number"], seed=seed)
    except SaveError:
        raise
    except (KeyError, TypeError, CardError, IllegalAction, ValueError) as exc:
        raise SaveError("start", str(exc)) from exc


#: What every hand of a JSON record states (``record.schema.json`` requires them); ``points`` and ``totals`` follow
#: once the hand is over.
_HAND_KEYS = ("number", "dealer", "passing", "deal", "kitty", "actions", "tricks")


def _check(path: str, stated: Any, replayed: Any, what: str) -> None:
    if stated is not None and stated != replayed:
        raise SaveError(path, f"the record says {what} {stated!r:.80}, but the replay gives {replayed!r:.80}")


def from_record(data: Any) -> Match:
    """The match a record (plain data, as :func:`to_record` gives or ``json.loads`` reads) describes,
    replayed and checked; raises :class:`~heartslib.SaveError` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise SaveError("", f"a record is a JSON object, not {type(data).__name__}")
    if data.get("format") != RECORD_FORMAT:
        raise SaveError("format", f"not a heartslib record (format {data.get('format')!r:.40}, expected "
                        f"{RECORD_FORMAT!r})")
    if data.get("version") != RECORD_VERSION:
        raise SaveError("version", f"this release reads record version {RECORD_VERSION}, not "
                        f"{data.get('version')!r:.20}")
    v = _variant(data.get("variant"), "variant")
    m = _start(v, data.get("seed"), data.get("dealer"), data.get("start"))
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise SaveError("hands", "the hands are a list")
    for h, hand in enumerate(hands):
        where = f"hands[{h}]"
        if not isinstance(hand, Mapping) or not isinstance(hand.get("actions"), list):
            raise SaveError(where, "a hand is a table with its actions (a list of action texts)")
        missing = [key for key in _HAND_KEYS if hand.get(key) is None]
        if missing:  # what the schema requires: a part left out or null would go unchecked
            raise SaveError(f"{where}.{missing[0]}", f"a hand has {', '.join(_HAND_KEYS)}: "
                            f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing or null")
        if m.is_over:
            raise SaveError(where, "the match is already over")
        _check(f"{where}.number", hand.get("number"), m.hand_number, "hand number")
        _check(f"{where}.dealer", hand.get("dealer"), m.round.dealer, "the dealer")
        _check(f"{where}.passing", hand.get("passing"), direction_data(m.round.passing), "the pass")
        _check(f"{where}.deal", hand.get("deal"), [[c.code for c in x] for x in m.round.hands], "the deal")
        _check(f"{where}.kitty", hand.get("kitty"), [c.code for c in m.round.kitty], "the kitty")
        number, rnd = m.hand_number, m.round
        for i, text in enumerate(hand["actions"]):
            _apply(m, text, f"{where}.actions[{i}]")
            if m.hand_number != number and i + 1 < len(hand["actions"]):
                raise SaveError(f"{where}.actions[{i + 1}]", "the hand is over: its next actions belong to the "
                                "next hand")
        _check(f"{where}.tricks", hand.get("tricks"), _tricks_data(rnd), "the tricks")
        result = next((r for r in m.rounds if r.hand_number == number), None)
        if result is not None:
            _check(f"{where}.points", hand.get("points"), [score_data(x) for x in result.points], "the points")
            _check(f"{where}.totals", hand.get("totals"), [score_data(x) for x in result.totals], "the totals")
    result = data.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise SaveError("result", f"the result is a table of over, totals and winners, not {result!r:.60}")
    if isinstance(result, Mapping):
        _check("result.over", result.get("over"), m.is_over, "the match over")
        _check("result.totals", result.get("totals"), [score_data(x) for x in m.scores], "the totals")
        _check("result.winners", result.get("winners"), list(m.winners), "the winners")
    return m


def _apply(m: Match, text: Any, path: str) -> None:
    try:
        action = action_from_text(text)
        m.apply(action)
    except (CardError, IllegalAction, ValueError) as exc:
        raise SaveError(path, str(exc)) from exc


def from_record_text(text: str) -> Match:
    """The match a text record (see the module docs) describes, replayed and checked; raises
    :class:`~heartslib.SaveError` naming the line that is wrong."""
    if not isinstance(text, str):
        raise SaveError("", f"a text record is a str, not {type(text).__name__}")
    header: dict[str, str] = {}
    m: Match | None = None
    hand_number = -1
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"line {no}"
        if line.startswith("%"):
            version = re.fullmatch(r"%\s*heartslib record\s+(\S+)", line)
            if version is not None and version.group(1) != str(RECORD_VERSION):
                raise SaveError(where, f"this release reads record version {RECORD_VERSION}, not "
                                f"{version.group(1)!r:.20}")
            continue
        if not line:
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise SaveError(where, f"expected 'Name: value', not {line!r:.60}")
        if m is None and key in ("Variant", "Seed", "Dealer", "Start"):
            header[key] = value
            continue
        if m is None:
            m = _text_start(header)
        try:
            hand_number = _text_line(m, key, value, where, hand_number)
        except SaveError:
            raise
        except (CardError, IllegalAction) as exc:  # a card or a score that cannot be read: this line's fault
            raise SaveError(where, str(exc)) from exc
    if m is None:
        m = _text_start(header)
    return m


def _result_part(value: str, name: str) -> str | None:
    """The ``winners`` or ``totals`` part of a ``Result`` line (spaces made single), None where it has none."""
    for part in value.split(","):
        word, _, rest = part.strip().partition(" ")
        if word == name:
            return " ".join(rest.split())
    return None


def _text_start(header: Mapping[str, str]) -> Match:
    if "Variant" not in header:
        raise SaveError("Variant", "a record names its variant first ('Variant: standard')")
    name = header["Variant"]
    try:
        data = json.loads(name) if name.startswith("{") else name
    except ValueError as exc:
        raise SaveError("Variant", f"a variant written as a table is JSON ({exc})") from None
    v = _variant(data, "Variant")
    values: dict[str, int] = {}
    for key, default in (("Seed", ""), ("Dealer", "0")):
        text = header.get(key, default)
        try:
            values[key] = int(text)
        except ValueError:
            raise SaveError(key, f"the header's {key} is a whole number, not {text!r:.40}") from None
    try:
        start = json.loads(header["Start"]) if "Start" in header else None
    except ValueError as exc:
        raise SaveError("Start", f"the header's Start is a JSON table of hand_number, scores and deal "
                        f"({exc})") from None
    return _start(v, values["Seed"], values["Dealer"], start)


def _text_line(m: Match, key: str, value: str, where: str, hand_number: int) -> int:
    """Read one body line of a text record into ``m``; returns the hand number its ``Hand`` line announced."""
    head, _, arg = key.partition(" ")
    if head == "Hand":
        _check(where, arg, str(m.hand_number + 1), "hand")
        # the dealer and the pass are the replay's, and a record that says otherwise lies about its game
        said = " ".join(value.split())
        _check(where, said, f"dealer {m.round.dealer}, pass {pass_name(m.round.passing, m.variant.players)}",
               "the hand's dealer and pass")
        return m.hand_number
    if head == "Deal":
        codes = [[Card.parse(c).code for c in part.split() if c != "-"] for part in value.split("|")]
        _check(where, codes, [[c.code for c in h] for h in m.round.hands], "the deal")
    elif head == "Kitty":
        _check(where, [Card.parse(c).code for c in value.split() if c != "-"], [c.code for c in m.round.kitty],
               "the kitty")
    elif head in ("Pass", "Choose"):
        _apply(m, f"{arg}:{head.lower()} {value}", where)
    elif head == "Trick":
        plays, arrow, winner = value.partition("->")
        rnd, done = m.round, len(m.round.tricks)
        for token in plays.split():
            seat, _, card = token.partition(":")
            _apply(m, f"{seat}:play {card}", where)
        if arrow:  # the line says who took the trick (``-``: cancelled): the replay's taker
            if len(rnd.tricks) == done:
                raise SaveError(where, "the line says who took the trick, but its plays do not complete one")
            taker = rnd.tricks[-1].winner
            _check(where, winner.strip(), "-" if taker is None else str(taker), "the trick's taker")
    elif head in ("Points", "Totals"):
        result = m.rounds[-1] if m.rounds else None
        if result is None:
            raise SaveError(where, f"{head} before any hand is over")
        stated = [str(score_data(parse_score(x))) for x in value.split()]
        values = result.points if head == "Points" else result.totals
        _check(where, stated, [_score_text(x) for x in values], head.lower())
    elif head == "Result":
        over = value.startswith("over")
        _check(where, over, m.is_over, "the match over")
        _check(where, _result_part(value, "winners"), " ".join(map(str, m.winners)) or "-", "the winners")
        totals = _result_part(value, "totals")
        _check(where, None if totals is None else [str(score_data(parse_score(x))) for x in totals.split()],
               [_score_text(x) for x in m.scores], "the totals")
    else:
        raise SaveError(where, f"unknown line {key!r:.40}: expected Hand, Deal, Kitty, Pass, Choose, Trick, Points, "
                        "Totals or Result")
    return hand_number
