"""Score files: one or more players' finished maps written in TOML (``paperproof score``).

One player::

    cards = ["card-heron-b"]      # optional: the scoring card per species (default: the A cards)
    starter = "starter-1"         # optional: puts that starter group's three tiles in place
    nature = 2                    # unspent nature tokens
    [[tiles]]
    tile = "tile-07"              # a box tile id, or habitats = [...] and species = [...]
    q = 1
    r = 0
    rotation = 2                  # 0-5 sixth turns (default 0)
    token = "heron"               # optional: the token on this tile
    [[tokens]]                    # tokens may also be listed on their own
    q = 0
    r = 0
    species = "badger"

Several players: ``[[players]]`` tables, each with ``name`` and the keys above
(``[[players.tiles]]``, ``[[players.tokens]]``), at most the deck's ``max_players``;
majorities then apply, and ties on points go to more unspent nature tokens (the seed's rule).

Every problem is collected with its file and line (E-HABITATS-MAP-*).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.hexgrid import Hex
from ...errors import DeckError, Problem
from ...tomldoc import KeyPath, TomlDoc, parse_toml
from .model import HabitatsSet, ScoringCard, Tile
from .rules import START_SPOTS, Placed, PlayerMap, one_card_per_species


@dataclass(frozen=True)
class ParsedScore:
    """The maps of a score file and the scoring cards to use."""

    names: tuple[str, ...]
    maps: tuple[PlayerMap, ...]
    cards: tuple[ScoringCard, ...]


class _Collector:
    def __init__(self, doc: TomlDoc) -> None:
        self.doc = doc
        self.problems: list[Problem] = []

    def add(self, what: str, path: KeyPath, message: str, hint: str = "") -> None:
        self.problems.append(self.doc.problem(f"E-HABITATS-MAP-{what}", path, message, hint))


def _int(c: _Collector, table: dict[str, Any], key: str, path: KeyPath,
         default: int | None = None) -> int | None:
    v = table.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        c.add("VALUE", (*path, key), f"'{key}' must be an integer, got {v!r}",
              f"write {key} = 0")
        return None
    return v


def _parse_player(c: _Collector, box: HabitatsSet, table: dict[str, Any],
                  path: KeyPath) -> PlayerMap:
    m = PlayerMap()
    known = {"name", "cards", "starter", "nature", "tiles", "tokens"}
    for k in table:
        if k not in known:
            c.add("KEY", (*path, k), f"unknown key {k!r}", "valid: " + ", ".join(sorted(known)))
    nature = _int(c, table, "nature", path, 0)
    if nature is not None and nature < 0:
        c.add("VALUE", (*path, "nature"), "nature cannot be negative")
    m.nature = max(0, nature or 0)
    used: set[str] = set()
    starter = table.get("starter")
    if starter is not None:
        group = next((g for g in box.starters if g.id == starter), None)
        if group is None:
            c.add("STARTER", (*path, "starter"), f"unknown starter group {starter!r}",
                  "valid: " + ", ".join(g.id for g in box.starters))
        else:
            for st, at in zip(group.tiles, START_SPOTS, strict=True):
                m.tiles[at] = Placed(st, at, 0, st.edges(0))
                used.add(st.id)
    tiles = table.get("tiles", [])
    if not isinstance(tiles, list):
        c.add("VALUE", (*path, "tiles"), "'tiles' must be a list of [[tiles]] tables")
        tiles = []
    pending_tokens: list[tuple[str, Hex, KeyPath]] = []
    custom = 0
    for i, t in enumerate(tiles):
        tp = (*path, "tiles", i)
        if not isinstance(t, dict):
            c.add("VALUE", tp, "each tile must be a table with q, r and tile")
            continue
        for k in t:
            if k not in {"tile", "habitats", "species", "q", "r", "rotation", "token"}:
                c.add("KEY", (*tp, k), f"unknown key {k!r}",
                      "valid: tile, habitats, species, q, r, rotation, token")
        q, r = _int(c, t, "q", tp), _int(c, t, "r", tp)
        rot = _int(c, t, "rotation", tp, 0)
        if rot is not None and not 0 <= rot <= 5:
            c.add("VALUE", (*tp, "rotation"), f"rotation {rot} is out of range", "use 0-5")
            rot = None
        tile: Tile | None = None
        if "tile" in t:
            tile = box.tile(str(t["tile"]))
            if tile is None:
                c.add("TILE", (*tp, "tile"), f"unknown tile {t['tile']!r}",
                      f"box tiles are {box.tiles[0].id} .. {box.tiles[-1].id}, starter tiles "
                      f"{box.starters[0].tiles[0].id} ..")
            elif tile.id in used:
                c.add("TILE", (*tp, "tile"), f"tile {tile.id} is used twice",
                      "each tile exists once")
                tile = None
            else:
                used.add(tile.id)
        else:
            habs = t.get("habitats")
            sps = t.get("species")
            ok = True
            if (not isinstance(habs, list) or not 1 <= len(habs) <= 2
                    or any(h not in box.rules.habitats for h in habs)):
                c.add("TILE", (*tp, "habitats"), f"habitats must list 1-2 of "
                      f"{', '.join(box.rules.habitats)}, got {habs!r}",
                      "or give tile = \"<id>\"")
                ok = False
            if (not isinstance(sps, list) or not 1 <= len(sps) <= 3
                    or any(s not in box.rules.species for s in sps)):
                c.add("TILE", (*tp, "species"), f"species must list 1-3 of "
                      f"{', '.join(box.rules.species)}, got {sps!r}", "")
                ok = False
            if ok:
                custom += 1
                tile = Tile(f"custom-{custom}", tuple(habs), tuple(sps))  # type: ignore[arg-type]
        if tile is None or q is None or r is None or rot is None:
            continue
        at = Hex(q, r)
        if at in m.tiles:
            c.add("PLACE", tp, f"hex {at} already holds tile {m.tiles[at].tile.id}",
                  "put each tile on its own hex")
            continue
        # Tiles of a finished map are listed in any order, so adjacency is checked once at
        # the end (connectedness), not tile by tile.
        m.tiles[at] = Placed(tile, at, rot, tile.edges(rot))
        if "token" in t:
            pending_tokens.append((str(t["token"]), at, (*tp, "token")))
    toks = table.get("tokens", [])
    if not isinstance(toks, list):
        c.add("VALUE", (*path, "tokens"), "'tokens' must be a list of [[tokens]] tables")
        toks = []
    for i, k in enumerate(toks):
        kp = (*path, "tokens", i)
        if not isinstance(k, dict):
            c.add("VALUE", kp, "each token must be a table with q, r and species")
            continue
        q, r = _int(c, k, "q", kp), _int(c, k, "r", kp)
        if q is not None and r is not None:
            pending_tokens.append((str(k.get("species", "")), Hex(q, r), (*kp, "species")))
    for sp, at, tp in pending_tokens:
        if sp not in box.rules.species:
            c.add("TOKEN", tp, f"unknown species {sp!r}",
                  "valid: " + ", ".join(box.rules.species))
            continue
        why = m.check_token(sp, at)
        if why:
            c.add("TOKEN", tp, why, "a token goes on an empty tile that shows its symbol")
            continue
        m.tokens[at] = sp
    counts = Counter(m.tokens.values())
    for sp, n in counts.items():
        if n > box.rules.tokens_per_species:
            c.add("TOKEN", (*path, "tokens"), f"{n} {sp} tokens; the box has "
                  f"{box.rules.tokens_per_species}")
    if len(m.tiles) > box.rules.turns + 3:
        c.add("SIZE", (*path, "tiles"), f"{len(m.tiles)} tiles; a finished map has "
              f"{box.rules.turns + 3} (starter group + {box.rules.turns} turns)")
    if not m.is_connected():
        c.add("CONNECTED", (*path, "tiles"), "the tiles do not form one connected map",
              "every tile touches the map it was placed on")
    return m


def parse_score(box: HabitatsSet, source: Path, text: str) -> ParsedScore:
    doc = parse_toml(text, str(source))
    c = _Collector(doc)
    data = doc.data
    if "players" in data:
        players = data["players"]
        tables = players if isinstance(players, list) else []
        paths: list[KeyPath] = [("players", i) for i in range(len(tables))]
        for k in data:
            if k not in ("players", "cards"):
                c.add("KEY", (k,), f"key {k!r} outside [[players]]",
                      "with [[players]], put tiles and tokens inside each player")
        if not tables:
            c.add("VALUE", ("players",), "'players' must be [[players]] tables")
        elif len(tables) > box.rules.max_players:
            c.add("PLAYERS", ("players",), f"{len(tables)} players; the deck allows at most "
                  f"{box.rules.max_players} (max_players)",
                  "score at most max_players maps, or raise max_players in the deck")
    else:
        tables = [data]
        paths = [()]
    maps, names = [], []
    for i, (t, p) in enumerate(zip(tables, paths, strict=True)):
        if not isinstance(t, dict):
            c.add("VALUE", p, "each player must be a table")
            continue
        maps.append(_parse_player(c, box, {k: v for k, v in t.items() if k != "cards"}, p))
        names.append(str(t.get("name", f"player {i + 1}")))
    cards = list(one_card_per_species(box.cards, box.rules.species, 0))
    chosen = data.get("cards")
    if chosen is not None:
        if not isinstance(chosen, list):
            c.add("CARDS", ("cards",), "'cards' must be a list of card ids")
        else:
            for j, cid in enumerate(chosen):
                card = box.card(str(cid))
                if card is None:
                    c.add("CARDS", ("cards", j), f"unknown card {cid!r}",
                          "valid: " + ", ".join(x.id for x in box.cards))
                    continue
                cards = [x for x in cards if x.species != card.species] + [card]
            cards.sort(key=lambda x: box.rules.species.index(x.species))
    if c.problems:
        raise DeckError(c.problems)
    return ParsedScore(tuple(names), tuple(maps), tuple(cards))
