"""Named variants, each naming its source (see RULES.md section 9).

>>> import heartslib as hl
>>> hl.preset("standard").moon.kind.value
'old'
>>> "cancellation" in hl.preset_names()
True
>>> hl.preset("standrd")
Traceback (most recent call last):
...
heartslib.errors.UnknownVariant: "no preset named 'standrd'; did you mean standard? ..."
"""

from __future__ import annotations

import difflib
from typing import Any

from heartslib.errors import UnknownVariant
from heartslib.variant import Variant

__all__ = ["ALIASES", "preset", "preset_names"]

_STANDARD: dict[str, Any] = {
    "players": 4,
    "passing": {"cards": 3, "schedule": "four_way"},
    "play": {"opening": "two_of_clubs", "breaking": "hearts", "first_trick": "no_points"},
    "scoring": {"values": {"QS": 13}},
    "moon": {"kind": "old"},
    "end": {"target": 100},
}

_FOSTER_STRIP = {"3": ["2S"], "5": ["2C", "2S"], "6": ["2C", "2D", "2H", "2S"]}

_OLD_PLAY = {"opening": "eldest_any", "breaking": "none", "first_trick": "any"}


def _merge(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _double_deck(players: int, deck: dict[str, Any], source_note: str) -> dict[str, Any]:
    return _merge(
        _STANDARD,
        players=players,
        source="001 (two-deck table, " + source_note + ")",
        deck={"decks": 2, **deck},
        passing={"schedule": "everyone"},
        play={"identical": "first_wins"},
        # 001: "the player who takes all the penalty cards adds +52 to every other player" - 52 also at 9 and
        # 10 players, whose pack holds 51 points (one 2♥ may be stripped)
        moon={"points": 52},
        end={"target": 200},
    )


_PRESETS: dict[str, dict[str, Any]] = {
    "standard": _merge(
        _STANDARD,
        source="002 (modern American hearts, as in the browser game); 000 (Morehead alternatives)",
    ),
    "foster_1909": {
        "source": "000 (Foster 1909: discard hearts / black lady)",
        "players": 4,
        "deck": {"fill": "strip", "strip": _FOSTER_STRIP},
        "passing": {"cards": 3, "schedule": "left"},
        "play": _OLD_PLAY,
        "scoring": {"values": {"QS": 13}, "settlement": "sweepstake"},
        "moon": {"kind": "none"},
        "end": {"target": 100},
    },
    "culbertson_1950": {
        "source": "000 (Culbertson 1950: black lady)",
        "players": 4,
        "deck": {"fill": "strip", "strip": ["2C", "2D", "2S", "2H"]},
        "passing": {"cards": 3, "schedule": "left"},
        "play": _OLD_PLAY,
        "scoring": {"values": {"QS": 13}},
        "moon": {"kind": "no_score"},
        "end": {"target": 100},
    },
    "morehead_2001": {
        "source": "000 (Morehead 2001: modern black lady)",
        "players": 4,
        "deck": {"fill": "strip", "strip": ["2C", "2D", "3C", "2S"]},
        "passing": {"cards": 3, "schedule": "left"},
        "play": _OLD_PLAY,
        "scoring": {"values": {"QS": 13}},
        "moon": {"kind": "old"},
        "end": {"target": 100},
    },
    "omnibus": _merge(
        _STANDARD,
        source="000 (omnibus hearts: Culbertson 1950, Arnold 2011; 10♦ bonus)",
        scoring={"values": {"QS": 13, "TD": -10}},
        moon={"kind": "take_all", "requires": "all_counters"},
    ),
    "omnibus_jd": _merge(
        _STANDARD,
        source="000, 001 (omnibus with the J♦ bonus, the form most software uses)",
        scoring={"values": {"QS": 13, "JD": -10}},
        moon={"kind": "take_all", "requires": "all_counters"},
    ),
    "pink_lady": _merge(
        _STANDARD,
        source="000 (pink lady: Spadaccini 2005, Gibson 1971)",
        scoring={"values": {"QS": 13, "QH": 13}},
    ),
    "spot_hearts": _merge(
        _STANDARD,
        source="001 (spot hearts; the target of 500 is heartslib's choice for 'a higher target')",
        scoring={"hearts": "spot", "values": {"QS": 13}},
        end={"target": 500},
    ),
    "black_jack": {
        "source": "000 (black jack: Foster 1909, Moss 1995; later rule: J♠ must be discarded when void)",
        "players": 4,
        "deck": {"fill": "strip", "strip": _FOSTER_STRIP},
        "passing": {"cards": 3, "schedule": "left"},
        "play": {**_OLD_PLAY, "must_discard": ["JS"]},
        "scoring": {"values": {"JS": 10}},
        "moon": {"kind": "none"},
        "end": {"target": 100},
    },
    "black_maria": {
        "source": "000 (Black Maria, the British game, passing to the right); Parlett 1987 and the rules "
        "collected in docs/research/other-variants.md: three players best (2♣ removed; some sources remove "
        "2♦), five remove the black deuces, six all deuces; pass three to the right; eldest leads; "
        "hearts 1, Q♠ 13, K♠ 10, A♠ 7 (43 a deal); game 100",
        "players": 3,
        "deck": {"fill": "strip", "strip": {"3": ["2C"], "5": ["2C", "2S"], "6": ["2C", "2D", "2H", "2S"]}},
        "passing": {"cards": 3, "schedule": "right"},
        "play": _OLD_PLAY,
        "scoring": {"values": {"QS": 13, "KS": 10, "AS": 7}},
        "moon": {"kind": "none"},
        "end": {"target": 100},
    },
    "cancellation": {
        "source": "000 (cancellation hearts: Culbertson 1950, 6-11 players, two decks)",
        "players": 6,
        "deck": {"decks": 2, "fill": "kitty", "kitty": "first_trick"},
        "passing": {"cards": 3, "schedule": "hold"},
        "play": {**_OLD_PLAY, "identical": "cancel", "cancel_rollover": "two_pairs"},
        "scoring": {"values": {"QS": 13}},
        "moon": {"kind": "no_score"},
        "end": {"target": 100},
    },
    "double_deck_6_dirty": _double_deck(6, {"fill": "kitty", "kitty": "first_and_last"}, "six 'dirty'"),
    "double_deck_6_clean": _double_deck(6, {"fill": "strip", "strip": ["2C", "2D"]}, "six 'clean'"),
    "double_deck_7": _double_deck(7, {"fill": "jokers", "joker": "zero_suits"}, "seven: the black joker as 0♣"),
    "double_deck_8": _double_deck(8, {}, "eight"),
    "double_deck_9": _double_deck(
        9, {"fill": "kitty", "kitty": "first_trick", "strip": {"9": ["2H", "2C", "2D", "2S"]}}, "nine"
    ),
    "double_deck_10": _double_deck(10, {"fill": "strip", "strip": {"10": ["2H", "2C", "2D", "2S"]}}, "ten"),
}

_GONG_ZHU_VALUES = {
    "2H": 0, "3H": 0, "4H": 0, "5H": -10, "6H": -10, "7H": -10, "8H": -10, "9H": -10, "TH": -10,
    "JH": -20, "QH": -30, "KH": -40, "AH": -50, "QS": -100, "JD": 100,
}  # fmt: skip

_GONG_ZHU: dict[str, Any] = {
    "source": "000 (Gong Zhu); pagat.com 'Gong Zhu' (J. McLeod) for the first lead by the holder of 2♠, "
    "later leads by the pig's taker, 10♣ alone +50, 2♥-4♥ as zero-valued counters, all the hearts "
    "turning positive, and the game ending at -1000 with the highest score winning",
    "players": 4,
    "passing": {"schedule": "hold"},
    "play": {"opening": "two_of_clubs", "opening_card": "2S", "opening_taker": "QS", "breaking": "none",
             "first_trick": "any"},
    "scoring": {"values": _GONG_ZHU_VALUES, "multiply": {"TC": 2}, "multiply_alone": {"TC": 50},
                "all_hearts_flips": "penalty_cards"},
    "moon": {"kind": "none"},
    "end": {"target": -1000, "winner": "highest"},
}

_PRESETS.update(
    {
        "complex_hearts": _merge(
            _STANDARD,
            source="000 (complex hearts, Richard Garfield); Rex Dieter's Complex Hearts page for the shooter's "
            "choice of moon; gamerules.com for the play rules (Q♠ breaks hearts)",
            play={"breaking": "penalty_cards"},
            scoring={"values": {"QS": "13i", "JD": -10}, "multiply": {"TC": "2i"}},
            moon={"kind": "choice"},
            end={"target": 100, "measure": "magnitude"},
        ),
        "royal_hearts": _merge(
            _STANDARD,
            source="000 (royal hearts, Parker Brothers); the Parker Brothers leaflet for passing left, across, "
            "right with no hold hand, points on the first trick and Q♠ breaking hearts; no moon rule is given",
            passing={"schedule": ["left", "across", "right"]},
            play={"breaking": "penalty_cards", "first_trick": "any"},
            scoring={"values": {"QS": 26, "QD": -10}, "double_suit": {"QH": "hearts"}, "cancels": {"QC": "QS"}},
            moon={"kind": "none"},
        ),
        "gong_zhu": _GONG_ZHU,
        "gong_zhu_exposed": _merge(
            _GONG_ZHU,
            source="000 (Gong Zhu); pagat.com 'Gong Zhu' (J. McLeod), as gong_zhu, with exposed ('sold') "
            "cards: before the first lead the holders of A♥, Q♠, J♦ and 10♣ may expose them; exposed A♥ doubles "
            "every heart, Q♠ and J♦ double themselves, 10♣ quadruples and is worth +100 alone; an exposed card "
            "may not be played the first time its suit is led unless it is the holder's only card of that suit "
            "(garytang/gongzhu backend/src/engine for the same rules in code)",
            scoring={"exposable": {"AH": "hearts", "QS": "card", "JD": "card", "TC": "card"}},
        ),
        "danger_hearts": _merge(
            _STANDARD,
            source="000 (danger hearts: ten rounds, three lives, 15 or more points in a round costs a life); "
            "who wins is heartslib's decision: most lives left, then the lowest total",
            end={"target": 0, "hands": 10, "lives": 3, "life_threshold": 15},
        ),
        "likha": {
            "source": "000 (Likha/Leekha: partnerships, anticlockwise, Q♠ 13, 10♦ 10, hearts 1, game 101, "
            "the talyeekh forced play when holding both, a 37-point moon penalty); Jawaker's Leekha rules for "
            "passing three cards right then left and the dealer's right leading",
            "players": 4,
            "direction": "anticlockwise",
            "teams": [[0, 2], [1, 3]],
            "passing": {"cards": 3, "schedule": ["left", "right"]},
            "play": {"opening": "eldest_any", "breaking": "none", "first_trick": "any",
                     "must_discard": ["QS", "TD"], "must_discard_if_all": True},
            "scoring": {"values": {"QS": 13, "TD": 10}},
            "moon": {"kind": "penalty", "points": 37},
            "end": {"target": 101},
        },
        "leekha_jawaker": {
            "source": "Jawaker's Leekha as played now (blog.jawaker.com/en/leekha-rules-en): partnerships, "
            "anticlockwise, three cards passed right then left, the dealer's right leads any card, Q♠ 13, 10♦ 10, "
            "hearts 1, a void player holding 10♦ or Q♠ must play one (talyeekh, either when holding both), no "
            "moon rule; a player's 101 ends the match and the team with the lower total wins",
            "players": 4,
            "direction": "anticlockwise",
            "teams": [[0, 2], [1, 3]],
            "passing": {"cards": 3, "schedule": ["left", "right"]},  # as the likha preset reads Jawaker's
            "play": {"opening": "eldest_any", "breaking": "none", "first_trick": "any",
                     "must_discard": ["QS", "TD"]},
            "scoring": {"values": {"QS": 13, "TD": 10}},
            "moon": {"kind": "none"},
            "end": {"target": 101, "losing_team": "worst_team_total"},
        },
        "leekha_aymog": {
            "source": "AyMog's Leekha app (com.AyMog.Leekha, the rules in its store description): four players "
            "each for themselves, anticlockwise, three cards passed to the right (the next player anticlockwise) "
            "every hand, a pass may not take the last card of a suit except Q♠ K♠ A♠ and 10♦ J♦ Q♦ K♦ A♦, the "
            "dealer's right leads any card, a void player holding Q♠ or 10♦ must play one, Q♠ 13, 10♦ 10, hearts 1 "
            "(36 a deal), game 101 (the app also offers 51 and 151), the lowest total wins; it states no moon rule",
            "players": 4,
            "direction": "anticlockwise",
            "passing": {"cards": 3, "schedule": "left", "keep_last_of_suit": True,
                        "last_of_suit_exempt": ["QS", "KS", "AS", "TD", "JD", "QD", "KD", "AD"]},
            "play": {"opening": "eldest_any", "breaking": "none", "first_trick": "any",
                     "must_discard": ["QS", "TD"]},
            "scoring": {"values": {"QS": 13, "TD": 10}},
            "moon": {"kind": "none"},
            "end": {"target": 101},
        },
        "two_handed": {
            "source": "pagat.com's Hearts for two players, as David Parlett's Penguin Book of Card Games gives it "
            "(Draw Hearts): 13 cards each, the other 26 a face-down stock; after each trick the winner draws the "
            "top card of the stock, then the loser, and the winner leads the next trick; with the stock empty "
            "the last 13 cards each are played out; captured cards count as usual (hearts 1, Q♠ 13). Neither "
            "account names a pass or an opening card (2♣ may lie in the stock): no pass, and the non-dealer "
            "leads any card; the standard game's other rules (hearts broken, no points on the first trick, old "
            "moon, game 100)",
            "players": 2,
            "deck": {"stock": "after_trick", "hand_size": 13},
            "passing": {"schedule": "hold"},
            "play": {"opening": "eldest_any"},
        },
        "domino_hearts": {
            "source": "Bicycle's rules (Domino Hearts): six cards each, dealt one at a time, the rest a face-down "
            "stock; the dealer's left leads; play as in Hearts, except that a player who cannot follow suit draws "
            "from the stock until able to, and discards once it is exhausted; players drop out as their cards run "
            "out, a trick's winner with no cards left passes the lead to the first active player on the left, "
            "and the last survivor keeps the cards left in hand; scored as Hearts except that Q♠ is usually not "
            "scored (hearts 1, 13 a deal). The survivor takes the rest of the stock too, and the game is to 31, "
            "as the Hoyle account gives them (both as gamerules.com and yourgametips.com report it); neither "
            "names a pass or a moon rule: no pass, no moon; the standard game's hearts and first-trick rules",
            "deck": {"stock": "to_follow", "hand_size": 6},
            "passing": {"schedule": "hold"},
            "play": {"opening": "eldest_any"},
            "scoring": {"values": {}},
            "moon": {"kind": "none"},
            "end": {"target": 31},
        },
        "auction_hearts": {
            "source": "Bicycle's rules (Auction Hearts; Foster's Complete Hoyle, law 30, for the order): Hearts "
            "without the black lady, except that after the deal each player, once, from the dealer's left round "
            "to the dealer, bids chips for the right to name the suit to avoid or passes, each bid higher than the "
            "last; the highest bidder puts the bid in the pot, names the suit and leads; each player then pays a "
            "chip per card of that suit taken; one player who took none wins the pot, two split it (an odd chip "
            "stays); otherwise nobody wins, the deal passes and the same bidder names the suit without bidding. "
            "Fifty chips each, the game over when a player runs out, and the bid winner not leading the suit to "
            "the first trick nor a void player playing it there, as gamerules.com gives them; the standard game's "
            "breaking rule for the named suit; no pass, no moon",
            "passing": {"schedule": "hold"},
            "scoring": {"values": {}, "settlement": "auction", "chips": 50},
            "moon": {"kind": "none"},
            "end": {"target": 0},
        },
        "likha_idlib": {
            "source": "the Idlib Leekha engine (jehadbaeth/Leekha SPEC.md v1.1, sections 3-4): partnerships, "
            "anticlockwise, three cards passed to the right (the next player anticlockwise) every hand, the "
            "dealer's right leads any card, no first-trick or hearts restrictions, K♣ 14, Q♠ 13, 10♦ 10 and "
            "hearts 1 (50 a deal), a void player holding a leekha card must play one, the undercut rule, no moon "
            "rule, game 201 (the team of the higher busted score loses, then team totals), the biggest eater "
            "deals next (K♣, Q♠, 10♦ break ties)",
            "players": 4,
            "direction": "anticlockwise",
            "teams": [[0, 2], [1, 3]],
            "passing": {"cards": 3, "schedule": "left"},
            "play": {"opening": "eldest_any", "breaking": "none", "first_trick": "any",
                     "must_discard": ["TD", "QS", "KC"], "undercut": True},
            "scoring": {"values": {"QS": 13, "TD": 10, "KC": 14}},
            "moon": {"kind": "none"},
            "end": {"target": 201, "next_dealer": "most_points", "dealer_ties": ["KC", "QS", "TD"]},
        },
    }
)

ALIASES: dict[str, str] = {
    "hearts": "standard",
    "black_lady": "standard",
    "american": "standard",
    "omnibus_hearts": "omnibus",
    "pink_lady_hearts": "pink_lady",
    "black_jack_hearts": "black_jack",
    "cancellation_hearts": "cancellation",
    "foster": "foster_1909",
    "culbertson": "culbertson_1950",
    "morehead": "morehead_2001",
    "leekha": "likha",
    "leekha_idlib": "likha_idlib",
    "aymog_leekha": "leekha_aymog",
    "two_player": "two_handed",
    "draw_hearts": "two_handed",
    "domino": "domino_hearts",
    "auction": "auction_hearts",
    "likha_jawaker": "leekha_jawaker",
    "idlib_leekha": "likha_idlib",
    "chase_the_pig": "gong_zhu",
    "gongzhu": "gong_zhu",
    "gong_zhu_selling": "gong_zhu_exposed",
}

_CACHE: dict[str, Variant] = {}


def preset_names() -> tuple[str, ...]:
    """The names of every preset (aliases not included), in catalogue order."""
    return tuple(_PRESETS)


def preset(name: str) -> Variant:
    """The preset variant called ``name`` (or an alias such as ``"black_lady"``).

    Raises :class:`~heartslib.UnknownVariant` (a ``KeyError``) listing close names.
    """
    if not isinstance(name, str):  # not a name at all: say what was given rather than "no preset named 'None'"
        raise UnknownVariant(f"<{type(name).__name__}>", (), preset_names())
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    key = ALIASES.get(key, key)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    data = _PRESETS.get(key)
    if data is None:
        choices = list(_PRESETS) + list(ALIASES)
        close = tuple(difflib.get_close_matches(key, choices, n=3, cutoff=0.6))
        raise UnknownVariant(name, close, preset_names())
    variant = Variant.from_dict({"name": key, **data})
    _CACHE[key] = variant
    return variant

