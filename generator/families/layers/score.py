"""``paperproof score DECK LANDSCAPE``: score one player's finished landscape written in TOML.

```toml
hand = 2                 # cards still in hand       (-1 point each)
discard = 1              # cards in the discard pile (-1 point each)
tokens = [4, 2]          # objective tokens won
scissors = "1,2"         # where the scissors token sits, if on this landscape
[stacks]                 # "row,col" = cards from the bottom up
"0,0" = ["fern 1 start", "fern 2", "fern 3"]
"0,1" = ["lagoon 1", "lagoon 3"]          # a skip: 2 was jumped
```

The landscape holds exactly one starting card (at the bottom of its stack), and the tokens
must be ones the deck offers, each from a different objective card, no more than the
objectives in play. Every stack is checked with the stacking rules (one colour, values
rising by one or by two with a skip, starting at the lowest value or the starting card), the
landscape must fit a 3x3 and hang together, each card must exist in the deck (and not more
often than printed), and the scissors token must sit on a top card with the logo. Every
problem is reported at file:line.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ...core.matching import match_all
from ...errors import DeckError, Problem
from ...tomldoc import parse_toml
from ..base import ScoreLine, ScoreResult
from .model import Card, LayersParams, LayersSet, Pos, parse_card_text
from .objectives import objective_met
from .rules import FRAME, Landscape, Player, Rules, fits_frame, score_player

_KEYS = ("hand", "discard", "tokens", "scissors", "stacks")


def _pos(text: str) -> Pos | None:
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return (int(parts[0].strip()), int(parts[1].strip()))
    except ValueError:
        return None


def token_problem(gen: LayersSet, tokens: list[int], per_game: int | None) -> str:
    """Why these tokens cannot be one player's (empty when they can): each token comes from a
    different objective card that offers its value, at most ``per_game`` of them."""
    if per_game is not None and len(tokens) > per_game:
        return f"{len(tokens)} tokens, but only {per_game} objectives are in play per game"
    offered = sorted({t for o in gen.objectives for t in o.tokens})
    for t in tokens:
        if t not in offered:
            return (f"no objective card offers a token of {t} (token values: "
                    + ", ".join(map(str, offered)) + ")")
    # Bipartite matching of tokens to objectives (a dozen cards at most).
    _, unmatched = match_all(len(tokens), len(gen.objectives),
                             lambda i, j: tokens[i] in gen.objectives[j].tokens)
    if unmatched is not None:
        holders = sum(1 for o in gen.objectives if tokens[unmatched] in o.tokens)
        return ("the tokens " + str(tokens) + " cannot each come from a different "
                f"objective card (cards offering a {tokens[unmatched]}: {holders})")
    return ""


def read_landscape(gen: LayersSet, source: Path, text: str,
                   per_game: int | None = None) -> tuple[Player, list[str]]:
    """The player the file describes, and notes (skips seen); DeckError lists every problem."""
    doc = parse_toml(text, str(source))
    data: dict[str, Any] = doc.data
    problems: list[Problem] = []

    def bad(code: str, path: tuple[str | int, ...], msg: str, hint: str = "") -> None:
        problems.append(doc.problem(code, path, msg, hint))

    for key in data:
        if key not in _KEYS:
            bad("E-LAYERS-SCORE-KEY", (key,), f"unknown key {key!r}",
                "valid keys: " + ", ".join(_KEYS))
    counts: dict[str, int] = {}
    for key in ("hand", "discard"):
        v = data.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            bad("E-LAYERS-SCORE-COUNT", (key,), f"{key} must be a whole number >= 0, got {v!r}",
                f"{key} = 0")
            v = 0
        counts[key] = v
    tokens_raw = data.get("tokens", [])
    tokens: list[int] = []
    if not isinstance(tokens_raw, list):
        bad("E-LAYERS-SCORE-TOKENS", ("tokens",), "tokens must be a list of numbers",
            "tokens = [4, 2]")
    else:
        for i, t in enumerate(tokens_raw):
            if isinstance(t, bool) or not isinstance(t, int) or t < 0:
                bad("E-LAYERS-SCORE-TOKENS", ("tokens", i), f"{t!r} is not a token value",
                    "token values are whole numbers >= 0")
            else:
                tokens.append(t)
    stacks_raw = data.get("stacks", {})
    stacks: dict[Pos, tuple[Card, ...]] = {}
    used: Counter[tuple[str, int, bool]] = Counter()
    starts_used: Counter[str] = Counter()
    notes: list[str] = []
    printed = Counter(c.card.kind for c in gen.landscape)
    lo = gen.values[0]
    start_of = {s.card.colour: s.card for s in gen.starts}
    if not isinstance(stacks_raw, dict) or not stacks_raw:
        bad("E-LAYERS-SCORE-STACKS", ("stacks",), "no [stacks] table",
            'add [stacks] with "row,col" = ["fern 1", "fern 2"]')
        stacks_raw = {}
    for key, cards_raw in stacks_raw.items():
        path: tuple[str | int, ...] = ("stacks", key)
        pos = _pos(key)
        if pos is None:
            bad("E-LAYERS-SCORE-POS", path, f"{key!r} is not a position", 'write "row,col"')
            continue
        if not isinstance(cards_raw, list) or not cards_raw:
            bad("E-LAYERS-SCORE-STACK", path, "a stack is a non-empty list of cards",
                '["fern 1", "fern 2"]')
            continue
        cards: list[Card] = []
        for i, raw in enumerate(cards_raw):
            if not isinstance(raw, str):
                bad("E-LAYERS-SCORE-CARD", path + (i,), f"{raw!r} is not a card",
                    "write '<colour> <value>' or '<colour> <value> scissors'")
                break
            is_start = raw.strip().endswith(" start")
            body = raw.strip()[: -len(" start")] if is_start else raw
            try:
                colour, value, sc = parse_card_text(body)
            except ValueError as e:
                bad("E-LAYERS-SCORE-CARD", path + (i,), str(e),
                    "add ' start' for a starting card")
                break
            if is_start:
                sc_card = start_of.get(colour)
                if sc_card is None or sc_card.value != value or sc:
                    bad("E-LAYERS-SCORE-CARD", path + (i,), f"{raw!r} is not a starting card",
                        "starting cards: " + ", ".join(f"{c.text} start"
                                                       for c in start_of.values()))
                    break
                if i != 0:
                    bad("E-LAYERS-SCORE-STACK", path + (i,),
                        "a starting card lies at the bottom of its stack", "move it first")
                    break
                starts_used[colour] += 1
                cards.append(sc_card)
                continue
            if (colour, value, sc) not in printed:
                names = ", ".join(c.name for c in gen.colours)
                bad("E-LAYERS-SCORE-CARD", path + (i,), f"the deck has no {raw!r} card",
                    f"colours: {names}; values {lo}-{gen.values[-1]}"
                    + ("; check the scissors logo" if (colour, value, not sc) in printed else ""))
                break
            card = gen.make_card(colour, value, sc)
            prev = cards[-1] if cards else None
            if prev is not None and prev.colour != colour:
                bad("E-LAYERS-SCORE-STACK", path + (i,),
                    f"{card.text} on a {prev.colour} stack", "a stack holds one colour")
                break
            step = value - (prev.value if prev is not None else lo - 1)
            if step not in (1, 2):
                below = f"on a {prev.value}" if prev is not None else "to start a stack"
                bad("E-LAYERS-SCORE-STACK", path + (i,), f"{card.text} {below}",
                    "values rise by one, or by two with a skip")
                break
            if step == 2:
                notes.append(f"{key}: skip to {card.text}")
            used[card.kind] += 1
            cards.append(card)
        else:
            stacks[pos] = tuple(cards)
    for kind, n in sorted(used.items()):
        if n > printed[kind]:
            card = gen.make_card(*kind)
            bad("E-LAYERS-SCORE-SUPPLY", ("stacks",),
                f"{n} x {card.text} but the deck prints {printed[kind]}", "use fewer")
    for colour, n in starts_used.items():
        if n > 1:
            bad("E-LAYERS-SCORE-SUPPLY", ("stacks",), f"{n} starting cards of {colour}",
                "there is one starting card per colour")
    if stacks and sum(starts_used.values()) != 1:
        bad("E-LAYERS-SCORE-START", ("stacks",),
            "the landscape has no starting card" if not starts_used else
            f"{sum(starts_used.values())} starting cards in one landscape",
            "every player starts with one starting card: write it at the bottom of its "
            "stack, e.g. " + ", ".join(f'"{c.text} start"' for c in start_of.values()))
    if tokens:
        why = token_problem(gen, tokens, per_game)
        if why:
            bad("E-LAYERS-SCORE-TOKENS", ("tokens",), why,
                "a player takes at most one token of each objective card in play")
    if stacks:
        ps = list(stacks)
        if not fits_frame(ps):
            bad("E-LAYERS-SCORE-FRAME", ("stacks",), "the stacks do not fit a 3x3",
                f"use at most {FRAME} rows and {FRAME} columns")
        from ...core.grid import is_connected

        if not is_connected(ps):
            bad("E-LAYERS-SCORE-FRAME", ("stacks",),
                "the stacks do not hang together",
                "each new stack is placed orthogonally next to one already there")
    scissors_at: Pos | None = None
    if "scissors" in data:
        raw = data["scissors"]
        scissors_at = _pos(raw) if isinstance(raw, str) else None
        if scissors_at is None:
            bad("E-LAYERS-SCORE-SCISSORS", ("scissors",), f"{raw!r} is not a position",
                'scissors = "row,col"')
        elif scissors_at not in stacks:
            bad("E-LAYERS-SCORE-SCISSORS", ("scissors",), f"no stack at {raw}",
                "the token sits on one of your stacks")
            scissors_at = None
        elif not stacks[scissors_at][-1].scissors:
            bad("E-LAYERS-SCORE-SCISSORS", ("scissors",),
                f"the top of {raw} ({stacks[scissors_at][-1].text}) has no scissors logo",
                "the token sits on the scissors card that took it, which stays on top")
            scissors_at = None
    if problems:
        raise DeckError(problems)
    land = Landscape(tuple(sorted(stacks.items())), scissors_at)
    hand = tuple(gen.make_card(gen.colours[0].name, lo) for _ in range(counts["hand"]))
    discard = tuple(gen.make_card(gen.colours[0].name, lo) for _ in range(counts["discard"]))
    return Player(land, hand, discard, tuple(tokens)), notes


def score(p: LayersParams, gen: LayersSet, source: Path, text: str) -> ScoreResult:
    player, notes = read_landscape(gen, source, text, p.objectives_per_game)
    rules = Rules(values=gen.values, hand_limit=p.hand_limit, end_piles=p.end_piles,
                  scissors_bonus=p.scissors_bonus)
    s = score_player(rules, player)
    tops = player.land.tops()
    star_detail = ", ".join(f"{r},{c} {t.text}: {t.stars}" for (r, c), t in sorted(tops.items()))
    lines = [
        ScoreLine("stars on top cards", s.stars, star_detail),
        ScoreLine("objective tokens", s.tokens,
                  " + ".join(str(t) for t in player.tokens) or "none"),
        ScoreLine("scissors token", s.scissors,
                  "on " + ",".join(map(str, player.land.scissors_at))
                  if player.land.scissors_at is not None else "not on this landscape"),
        ScoreLine("cards in hand", -s.hand, f"{s.hand} cards"),
        ScoreLine("cards in discard", -s.discard, f"{s.discard} cards"),
        ScoreLine("tie-break", 0, f"{s.discard} cards in the discard; on equal totals "
                  "fewer cards in the discard win"),
    ]
    for obj in gen.objectives:
        if objective_met(obj, tops, gen.values):
            lines.append(ScoreLine(f"meets {obj.id} {obj.title}", 0,
                                   "its token counts when listed in tokens"))
    for note in notes:
        lines.append(ScoreLine("note", 0, note))
    return ScoreResult(total=s.total, lines=tuple(lines))
