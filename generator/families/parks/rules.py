"""The parks rules engine: one player's sheet, cuts, freed sections, placements and scoring.

Pure and immutable: every move returns a new state, so a search can branch from any state and
a certificate can be replayed step by step. The rules are DESIGN.md "Rules decisions: Parks":

- a cut runs straight along grid lines through exactly its length in unit edges, each edge
  inside the still-attached body (both squares attached) and not cut before;
- it starts on the body's outer boundary or at an endpoint of any earlier cut;
- two cuts of the same round may not share an endpoint while collinear (together they would
  be one longer straight cut); cuts of different rounds may;
- after every cut the body splits into connected parts: the largest stays (on a tie the player
  chooses), the others are freed sections, never cut again;
- BUILD: a freed section that has a legal place on a face-up card (any of the 8
  orientations, inside the outline, no overlap, demands met, a walkway's cells all covered by
  one section) **must** be placed there (the player picks which place, and the order of
  several sections); only a section with no legal place on any face-up card is crumpled. A
  Gardener token waives one feature demand, a Wildlife/Recycling token one icon demand, never
  a walkway; a place that is legal only by spending a token is the player's option, so it
  does not force a placement;
- every choice is explicit: on a tie for the largest part the move names the part that stays
  (:func:`apply_cut` refuses a tie without one), every freed section is placed or crumpled by
  name, and an Extra Cut is a move of its own (:func:`extra_cut`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ...core.answer import IllegalMove
from ...core.grid import Cell, Edge, Vertex, components, components_cut, edge_between
from ...core.polyomino import TRANSFORMS
from .model import DIRECTIONS, STEP, Bonus, Card, Cut, Die, Sheet, Square, Token

RuleError = IllegalMove
"""An illegal move; the message says which rule it breaks (the core's one illegal-move
error, under this family's name)."""


# --------------------------------------------------------------------------------------------
# The sheet


@dataclass(frozen=True)
class SheetState:
    """A player's park sheet during play.

    ``body`` the squares still attached; ``cut`` every edge cut so far; ``endpoints`` the end
    vertices of every cut so far (new cuts may start there); ``round_cuts`` the cuts of the
    current round (for the collinearity rule).
    """

    sheet: Sheet
    body: frozenset[Cell]
    cut: frozenset[Edge] = frozenset()
    endpoints: frozenset[Vertex] = frozenset()
    round_cuts: tuple[Cut, ...] = ()

    @classmethod
    def fresh(cls, sheet: Sheet) -> SheetState:
        return cls(sheet, sheet.cells())

    def new_round(self) -> SheetState:
        # The same object when nothing changes, so its caches (start points, legal cuts)
        # are shared by every face a planner tries from it.
        return self if not self.round_cuts else replace(self, round_cuts=())

    def boundary_vertices(self) -> frozenset[Vertex]:
        """Vertices on the outer boundary of the attached body (where a cut may start)."""
        return self._boundary

    @cached_property
    def _boundary(self) -> frozenset[Vertex]:
        # The corners of every side of a body square whose neighbour is not in the body
        # (what core.grid.boundary_edges gives, without building Edge objects: this ran
        # once per cut and was 15% of a deck check).
        body = self.body
        out: set[Vertex] = set()
        for r, c in body:
            if (r - 1, c) not in body:
                out.update(((r, c), (r, c + 1)))
            if (r + 1, c) not in body:
                out.update(((r + 1, c), (r + 1, c + 1)))
            if (r, c - 1) not in body:
                out.update(((r, c), (r + 1, c)))
            if (r, c + 1) not in body:
                out.update(((r, c + 1), (r + 1, c + 1)))
        return frozenset(out)

    @cached_property
    def _network(self) -> frozenset[Vertex]:
        """Vertices on the body's boundary or on any cut edge."""
        out = set(self._boundary)
        for e in self.cut:
            out.add(e.a)
            out.add(e.b)
        return frozenset(out)

    @cached_property
    def legal_cache(self) -> dict[int, list[Cut]]:
        """Memo of :func:`legal_cuts` by length (the state is immutable)."""
        return {}

    def start_points(self) -> frozenset[Vertex]:
        return self._starts

    @cached_property
    def _starts(self) -> frozenset[Vertex]:
        return self._boundary | self.endpoints

    @cached_property
    def cut_keys(self) -> frozenset[tuple[Vertex, Vertex]]:
        """The cut edges as ``(a, b)`` vertex pairs (see :meth:`Cut.keys`)."""
        return frozenset((e.a, e.b) for e in self.cut)

    def edge_inside(self, e: Edge) -> bool:
        """True when ``e`` separates two attached squares and is not cut yet."""
        a, b = e.cells()
        return a in self.body and b in self.body and e not in self.cut


def _collinear_touch(a: Cut, b: Cut) -> bool:
    if a.horizontal != b.horizontal:
        return False
    line_a = a.start[0] if a.horizontal else a.start[1]
    line_b = b.start[0] if b.horizontal else b.start[1]
    if line_a != line_b:
        return False
    return bool({a.start, a.end} & {b.start, b.end})


def cut_problem(state: SheetState, cut: Cut) -> str:
    """Why ``cut`` is illegal now, or ``""`` when it is legal."""
    if cut.length < 1:
        return "a cut has length 1 or more"
    if cut.start not in state.start_points():
        return (f"cut {cut} starts at {cut.start[0]},{cut.start[1]}, which is neither on the "
                "sheet's outer boundary nor the end of an earlier cut")
    for e in cut.edges():
        if e in state.cut:
            return f"cut {cut} runs along edge {e}, which is already cut"
        a, b = e.cells()
        if a not in state.body or b not in state.body:
            return (f"cut {cut} runs along edge {e}, which is not inside the attached sheet "
                    "(it is its border or the border of a freed section)")
    for other in state.round_cuts:
        if _collinear_touch(cut, other):
            return (f"cut {cut} continues cut {other} of the same round in a straight line "
                    "(that would be one cut longer than the die allows)")
    return ""


def legal_cuts(state: SheetState, length: int) -> list[Cut]:
    """Every legal cut of ``length`` now, in a deterministic order."""
    memo = state.legal_cache
    if length in memo:
        return list(memo[length])
    out: list[Cut] = []
    for v in sorted(state.start_points()):
        for d in DIRECTIONS:
            cut = Cut(v, d, length)
            if _fast_legal(state, cut):
                out.append(cut)
    memo[length] = out
    return list(out)


def _fast_legal(state: SheetState, cut: Cut) -> bool:
    # Same as cut_problem() == "" minus the start test (callers start from start_points()),
    # on plain tuples: building Edge objects here cost 60% of a check (profiled).
    dr, dc = STEP[cut.direction]
    r, c = cut.start
    body, done = state.body, state.cut_keys
    for _ in range(cut.length):
        nr, nc = r + dr, c + dc
        key = ((r, c), (nr, nc)) if (r, c) < (nr, nc) else ((nr, nc), (r, c))
        if key in done:
            return False
        (r1, c1), _ = key
        if dr == 0:  # along a row line: the squares above and below
            a, b = (r1 - 1, c1), (r1, c1)
        else:  # along a column line: the squares left and right
            a, b = (r1, c1 - 1), (r1, c1)
        if a not in body or b not in body:
            return False
        r, c = nr, nc
    return all(not _collinear_touch(cut, o) for o in state.round_cuts)


@dataclass(frozen=True)
class CutResult:
    """The state after a cut, the sections it freed, and whether the kept part was a tie."""

    state: SheetState
    freed: tuple[frozenset[Cell], ...]
    tie: bool = False


def _split(state: SheetState, cut: Cut, trusted: bool = False
           ) -> tuple[frozenset[Edge], frozenset[Vertex], list[frozenset[Cell]] | None]:
    """The cut edges and endpoints after a legal ``cut``, and the body's parts (None when the
    cut cannot split the body). ``trusted``: the cut came from :func:`legal_cuts` of this
    state, so its legality is not checked again."""
    problem = "" if trusted else cut_problem(state, cut)
    if problem:
        raise RuleError(problem)
    new_cut = state.cut | frozenset(cut.edges())
    endpoints = state.endpoints | {cut.start, cut.end}
    net = state._network
    if not any(v in net for v in cut.vertices()[1:]):
        # A slit hanging from one point of the boundary/cut network closes no loop, so it
        # cannot split the body (planar duality); skip the component search.
        return new_cut, endpoints, None
    # Cut edges as vertex pairs: no Edge objects in the component search (measured on the
    # default deck's completability: 0.36 -> 0.15 s of the component search per run).
    return new_cut, endpoints, components_cut(state.body, state.cut_keys.union(cut.keys()))


def apply_cut(state: SheetState, cut: Cut, keep: Cell | None = None) -> CutResult:
    """Make ``cut``; the largest part stays attached, the others are freed.

    On a tie for largest, ``keep`` (a square of the part to keep) says which: the player's
    choice, never assumed, so a tie without ``keep`` raises :class:`RuleError`, as do an
    illegal cut and a ``keep`` square outside the part that stays.
    """
    new_cut, endpoints, parts = _split(state, cut)
    rc = state.round_cuts + (cut,)
    if parts is None or len(parts) == 1:
        if keep is not None and keep not in state.body:
            raise RuleError(f"square {keep[0]},{keep[1]} is not on the attached sheet")
        return CutResult(SheetState(state.sheet, state.body, new_cut, endpoints, rc), ())
    return _choose(state, cut, new_cut, endpoints, parts, keep)


def _choose(state: SheetState, cut: Cut, new_cut: frozenset[Edge], endpoints: frozenset[Vertex],
            parts: list[frozenset[Cell]], keep: Cell | None) -> CutResult:
    big = max(len(p) for p in parts)
    largest = [p for p in parts if len(p) == big]
    if len(largest) > 1 and keep is None:
        raise RuleError(f"cut {cut} splits the sheet into {len(largest)} parts of {big} squares "
                        "(a tie for the largest): the move must name a square of the part "
                        "that stays")
    kept = largest[0]
    if keep is not None:
        chosen = [p for p in largest if keep in p]
        if not chosen:
            raise RuleError(f"square {keep[0]},{keep[1]} is not in the part that stays; the "
                            f"largest part(s) have {big} squares")
        kept = chosen[0]
    freed = tuple(p for p in parts if p is not kept)
    new = SheetState(state.sheet, kept, new_cut, endpoints, state.round_cuts + (cut,))
    return CutResult(new, freed, tie=len(largest) > 1)


def cut_outcomes(state: SheetState, cut: Cut, trusted: bool = False
                 ) -> list[tuple[CutResult, Cell | None]]:
    """Every outcome of a legal ``cut``: one, or on a tie one per part that may stay, each with
    the ``keep`` square that names it (None without a tie). The sheet is split once;
    ``trusted`` as in :func:`_split` (planners pass cuts from :func:`legal_cuts`)."""
    new_cut, endpoints, parts = _split(state, cut, trusted)
    if parts is None or len(parts) == 1:
        rc = state.round_cuts + (cut,)
        return [(CutResult(SheetState(state.sheet, state.body, new_cut, endpoints, rc), ()),
                 None)]
    big = max(len(p) for p in parts)
    largest = [p for p in parts if len(p) == big]
    if len(largest) == 1:
        return [(_choose(state, cut, new_cut, endpoints, parts, None), None)]
    return [(_choose(state, cut, new_cut, endpoints, parts, min(p)), min(p)) for p in largest]


# --------------------------------------------------------------------------------------------
# Placements on cards


@dataclass(frozen=True)
class Placement:
    """A freed section laid on a card: card square = TRANSFORMS[transform](sheet square) +
    offset. ``waive`` lists card squares whose feature ("feature") or icon ("icon") demand a
    token waives."""

    section: frozenset[Cell]
    transform: int
    offset: tuple[int, int]
    waive: tuple[tuple[Cell, str], ...] = ()

    def mapping(self) -> dict[Cell, Cell]:
        """Sheet square -> card square."""
        t = TRANSFORMS[self.transform]
        dr, dc = self.offset
        out: dict[Cell, Cell] = {}
        for cell in self.section:
            r, c = t(cell)
            out[cell] = (r + dr, c + dc)
        return out

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "section": [list(c) for c in sorted(self.section)],
            "transform": self.transform, "offset": list(self.offset)}
        if self.waive:
            out["waive"] = [[c[0], c[1], what] for c, what in self.waive]
        return out

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Placement:
        section = data["section"]
        offset = data["offset"]
        waive = data.get("waive", [])
        assert isinstance(section, list) and isinstance(offset, list) and isinstance(waive, list)
        return cls(frozenset((int(r), int(c)) for r, c in section), int(str(data["transform"])),
                   (int(offset[0]), int(offset[1])),
                   tuple(((int(r), int(c)), str(w)) for r, c, w in waive))


def placement_for(section: Iterable[Cell], mapping: dict[Cell, Cell]) -> Placement:
    """The :class:`Placement` realising ``mapping`` (sheet -> card); RuleError if no symmetry
    of the square does."""
    cells = frozenset(section)
    anchor = min(cells)
    for k, t in enumerate(TRANSFORMS):
        ar, ac = t(anchor)
        off = (mapping[anchor][0] - ar, mapping[anchor][1] - ac)
        p = Placement(cells, k, off)
        if p.mapping() == {c: mapping[c] for c in cells}:
            return p
    raise RuleError("the mapping is not a rotation/reflection of the section")


@dataclass(frozen=True)
class CardState:
    """A face-up card and what covers it: card square -> (sheet square, its Square)."""

    card: Card
    covered: tuple[tuple[Cell, Square], ...] = ()
    sections: tuple[int, ...] = ()
    """Sizes of the sections placed on it (for 'largest placed section')."""

    def covered_cells(self) -> frozenset[Cell]:
        return frozenset(c for c, _ in self.covered)

    @property
    def complete(self) -> bool:
        return self.covered_cells() == self.card.cells


def placement_problem(cs: CardState, sheet: Sheet, p: Placement,
                      tokens: Sequence[Token] = ()) -> str:
    """Why ``p`` cannot go on the card now, or ``""`` when it can. ``tokens`` are the tokens
    the player holds (waivers must be paid from them)."""
    card = cs.card
    m = p.mapping()
    covered = cs.covered_cells()
    targets = list(m.values())
    if len(set(targets)) != len(targets):
        return "two squares of the section land on one card space"
    for sq, cc in m.items():
        if cc not in card.cells:
            return f"square {sq[0]},{sq[1]} lands at {cc[0]},{cc[1]}, outside the park outline"
        if cc in covered:
            return f"card space {cc[0]},{cc[1]} is already covered"
    need = {"feature": 0, "icon": 0}
    waived = {(c, w) for c, w in p.waive}
    for sq, cc in m.items():
        d = card.demand(cc)
        wf = (cc, "feature") in waived
        wi = (cc, "icon") in waived
        if not d.accepts(sheet.at(sq), wf, wi):
            have = sheet.at(sq)
            return (f"card space {cc[0]},{cc[1]} demands {d.words()}; square {sq[0]},{sq[1]} "
                    f"is {have.feature.value}"
                    + (f" with {have.icon.value}" if have.icon else ""))
        need["feature"] += wf
        need["icon"] += wi
    if need["feature"] > sum(1 for t in tokens if t is Token.GARDENER):
        return "the placement waives more feature demands than Gardener tokens held"
    if need["icon"] > sum(1 for t in tokens if t is Token.WILDLIFE):
        return "the placement waives more icon demands than Wildlife/Recycling tokens held"
    placed = set(targets)
    for i, w in enumerate(card.walkways):
        hit = w & placed
        if hit and hit != w:
            return (f"walkway {i + 1} must be covered by one section; this section covers "
                    f"{len(hit)} of its {len(w)} spaces")
    if not sheet_connected(p.section):
        return "a section is one connected piece"
    return ""


def fits(card: Card, free: frozenset[Cell], sheet: Sheet, section: frozenset[Cell]
         ) -> Placement | None:
    """A legal place for ``section`` on ``card`` whose uncovered spaces are ``free``, spending no
    token (inside the outline, no overlap, every demand met, each walkway covered whole or not
    at all), or None when it has none. This is the forced-placement test: a freed section with
    such a place must be placed; a place that needs a token is the player's option."""
    if len(section) > len(free):
        return None
    dm = card.demand_map()
    walkways = card.walkways
    at = sheet.at
    squares = sorted(section)
    targets = sorted(free)
    for k, t in enumerate(TRANSFORMS):
        img = [t(c) for c in squares]
        ar, ac = img[0]
        for fr, fc in targets:
            dr, dc = fr - ar, fc - ac
            cells = [(r + dr, c + dc) for r, c in img]
            if not all(cc in free for cc in cells):
                continue
            if any(cc in dm and not dm[cc].accepts(at(sq))
                   for sq, cc in zip(squares, cells, strict=True)):
                continue
            placed = set(cells)
            if any((w & placed) and not w <= placed for w in walkways):
                continue
            return Placement(section, k, (dr, dc))
    return None


def free_spaces(cs: CardState) -> frozenset[Cell]:
    """The card's spaces not covered yet."""
    return cs.card.cells - cs.covered_cells()


def _cells(section: frozenset[Cell], limit: int = 6) -> str:
    sq = sorted(section)
    text = " ".join(f"{r},{c}" for r, c in sq[:limit])
    return text + (f" ... ({len(sq)} squares)" if len(sq) > limit else "")


def sheet_connected(cells: frozenset[Cell]) -> bool:
    return len(components(cells)) == 1


def place(cs: CardState, sheet: Sheet, p: Placement, tokens: Sequence[Token] = ()) -> CardState:
    """Lay ``p`` on the card; raises :class:`RuleError` when illegal."""
    problem = placement_problem(cs, sheet, p, tokens)
    if problem:
        raise RuleError(problem)
    m = p.mapping()
    added = tuple((cc, sheet.at(sq)) for sq, cc in m.items())
    return CardState(cs.card, tuple(sorted(cs.covered + added)), cs.sections + (len(m),))


def spend(tokens: Sequence[Token], p: Placement) -> tuple[Token, ...]:
    """Tokens left after paying the waivers of ``p``."""
    left = list(tokens)
    for _, what in p.waive:
        left.remove(Token.GARDENER if what == "feature" else Token.WILDLIFE)
    return tuple(left)


# --------------------------------------------------------------------------------------------
# The player and the round loop


@dataclass(frozen=True)
class PlayerState:
    """One player's whole area: sheet, face-up cards, pile, completed cards, tokens."""

    sheet: SheetState
    face_up: tuple[CardState, ...]
    pile: tuple[Card, ...] = ()
    completed: tuple[Card, ...] = ()
    tokens: tuple[Token, ...] = ()
    crumpled: tuple[frozenset[Cell], ...] = ()
    largest_placed: int = 0
    extra_cuts: int = 0
    rounds: int = 0

    @classmethod
    def start(cls, sheet: Sheet, face_up: Sequence[Card], pile: Sequence[Card] = ()
              ) -> PlayerState:
        return cls(SheetState.fresh(sheet), tuple(CardState(c) for c in face_up), tuple(pile))


@dataclass(frozen=True)
class Build:
    """What to do with one freed section: place it on face-up card ``card`` (an index) with
    ``placement``, or crumple it (``card`` None)."""

    section: frozenset[Cell]
    card: int | None = None
    placement: Placement | None = None


def forced_builds(cards: Sequence[CardState], sheet: Sheet, freed: Sequence[frozenset[Cell]],
                  preferred: dict[frozenset[Cell], tuple[int, Placement]] | None = None,
                  tokens: Sequence[Token] = ()) -> list[Build]:
    """A legal BUILD for ``freed`` (what a bot does): each section with a ``preferred``
    (card position, placement) that is legal now goes there first; every other section goes
    on the first legal place :func:`fits` finds on a face-up card (the rules force it),
    and only a section with no place is crumpled."""
    boards = list(cards)
    want = preferred or {}
    out: list[Build] = []
    rest: list[frozenset[Cell]] = []
    for part in freed:
        if part in want:
            k, pl = want[part]
            if 0 <= k < len(boards) and not placement_problem(boards[k], sheet, pl, tokens):
                boards[k] = _cover(boards[k], sheet, pl)
                out.append(Build(part, k, pl))
                continue
        rest.append(part)
    tail: list[Build] = []
    for part in rest:
        for k, cs in enumerate(boards):
            if cs.complete:
                continue
            spot = fits(cs.card, free_spaces(cs), sheet, part)
            if spot is not None:
                boards[k] = _cover(cs, sheet, spot)
                out.append(Build(part, k, spot))
                break
        else:
            tail.append(Build(part))
    return out + tail


def _cover(cs: CardState, sheet: Sheet, p: Placement) -> CardState:
    added = tuple((cc, sheet.at(sq)) for sq, cc in p.mapping().items())
    return CardState(cs.card, cs.covered + added, cs.sections + (len(p.section),))


def check_face(die: Die, face: Sequence[int], cuts: Sequence[Cut]) -> str:
    if tuple(face) not in die.faces:
        return f"face {list(face)} is not a face of the die"
    if sorted(c.length for c in cuts) != sorted(face):
        return (f"face {list(face)} asks for cuts of lengths {sorted(face)}, got "
                f"{sorted(c.length for c in cuts)}")
    return ""


def build(player: PlayerState, builds: Sequence[Build], freed: Sequence[frozenset[Cell]]
          ) -> PlayerState:
    """BUILD and CHECK: every freed section placed or crumpled, in the order of ``builds``
    (a crumpled section must have no legal place on any face-up card at its turn, see
    :func:`fits`); completed cards are set aside, their bonus gained and the next card drawn
    from the pile."""
    todo = list(freed)
    sheet = player.sheet.sheet
    cards = list(player.face_up)
    tokens = player.tokens
    crumpled = list(player.crumpled)
    largest = player.largest_placed
    for b in builds:
        if b.section not in todo:
            raise RuleError("a build names a section that was not freed this round")
        todo.remove(b.section)
        if b.card is None or b.placement is None:
            for cs in cards:
                if cs.complete:
                    continue
                spot = fits(cs.card, free_spaces(cs), sheet, b.section)
                if spot is not None:
                    raise RuleError(
                        f"the section of squares {_cells(b.section)} is crumpled, but it has a "
                        f"legal place on face-up card {cs.card.id} (transform {spot.transform}, "
                        f"offset {spot.offset[0]},{spot.offset[1]}); a freed section that can "
                        "be placed must be placed")
            crumpled.append(b.section)
            continue
        if not 0 <= b.card < len(cards):
            raise RuleError(f"no face-up card {b.card}")
        if b.placement.section != b.section:
            raise RuleError("a placement must lay exactly the freed section")
        cards[b.card] = place(cards[b.card], sheet, b.placement, tokens)
        tokens = spend(tokens, b.placement)
        largest = max(largest, len(b.section))
    if todo:
        raise RuleError(f"{len(todo)} freed section(s) neither placed nor crumpled")
    completed = list(player.completed)
    pile = list(player.pile)
    extra = player.extra_cuts
    kept: list[CardState] = []
    for cs in cards:
        if cs.complete:
            completed.append(cs.card)
            if cs.card.bonus is Bonus.GARDENER:
                tokens = tokens + (Token.GARDENER,)
            elif cs.card.bonus is Bonus.WILDLIFE_TOKEN:
                tokens = tokens + (Token.WILDLIFE,)
            elif cs.card.bonus is Bonus.EXTRA_CUT:
                extra += 1
            if pile:
                kept.append(CardState(pile.pop(0)))
        else:
            kept.append(cs)
    return replace(player, face_up=tuple(kept), pile=tuple(pile), completed=tuple(completed),
                   tokens=tokens, crumpled=tuple(crumpled), largest_placed=largest,
                   extra_cuts=extra)


def play_cuts(player: PlayerState, die: Die, face: Sequence[int], cuts: Sequence[Cut],
              keeps: Sequence[Cell | None] = ()) -> tuple[PlayerState, list[frozenset[Cell]]]:
    """ROLL + CUT: make the round's cuts (checked against the face); returns the player and
    the sections freed."""
    problem = check_face(die, face, cuts)
    if problem:
        raise RuleError(problem)
    state = player.sheet.new_round()
    freed: list[frozenset[Cell]] = []
    for i, cut in enumerate(cuts):
        res = apply_cut(state, cut, keeps[i] if i < len(keeps) else None)
        state = res.state
        freed.extend(res.freed)
    # An Extra Cut is made at once or not at all: one left from an earlier round is gone.
    return replace(player, sheet=state, rounds=player.rounds + 1, extra_cuts=0), freed


def play_round(player: PlayerState, die: Die, face: Sequence[int], cuts: Sequence[Cut],
               builds: Sequence[Build], keeps: Sequence[Cell | None] = ()) -> PlayerState:
    """One whole round for one player: CUT with the rolled face, then BUILD and CHECK."""
    player, freed = play_cuts(player, die, face, cuts, keeps)
    return build(player, builds, freed)


def extra_cut(player: PlayerState, face: Sequence[int], cut: Cut, builds: Sequence[Build],
              keep: Cell | None = None) -> PlayerState:
    """Spend an Extra Cut bonus: one more cut at once, of a length of the round's ``face``
    (it counts as a cut of this round for the collinearity rule); the sections it frees are
    placed (or, with no legal place, crumpled) straight away, which may complete another card
    and chain. A bonus is spent in the round it is earned or not at all."""
    if player.extra_cuts < 1:
        raise RuleError("no Extra Cut bonus to spend")
    if cut.length not in face:
        raise RuleError(f"an Extra Cut has a length of the round's face {list(face)}, "
                        f"not {cut.length}")
    res = apply_cut(player.sheet, cut, keep)
    player = replace(player, sheet=res.state, extra_cuts=player.extra_cuts - 1)
    return build(player, builds, list(res.freed))


def solo_discard(player: PlayerState) -> PlayerState:
    """Solo: one card of the draw pile is discarded before every roll."""
    return replace(player, pile=player.pile[1:])


# --------------------------------------------------------------------------------------------
# End of game and scoring


def solo_points(parks: int, grands: int, tokens: int, largest: int, crumpled: int,
                incomplete: int) -> dict[str, int]:
    """The solo points table: +3 per completed park card, +5 per completed grand park card,
    +1 per token held, +1 per square of the largest placed section, -1 per crumpled section,
    -1 per incomplete face-up card; ``total`` last."""
    lines = {
        "completed park cards": 3 * parks,
        "completed grand park cards": 5 * grands,
        "tokens held": tokens,
        "largest placed section": largest,
        "crumpled sections": -crumpled,
        "incomplete face-up cards": -incomplete,
    }
    lines["total"] = sum(lines.values())
    return lines


def solo_score(player: PlayerState) -> dict[str, int]:
    """Solo points of a player's area (see :func:`solo_points`)."""
    return solo_points(
        sum(1 for c in player.completed if not c.grand),
        sum(1 for c in player.completed if c.grand),
        len(player.tokens), player.largest_placed, len(player.crumpled),
        sum(1 for c in player.face_up if not c.complete))


def race_winner(players: Sequence[PlayerState], target: int = 5) -> int | None:
    """Index of the winner once some player has completed ``target`` cards: most cards, then
    fewest crumpled sections, then largest placed section; None if nobody has finished or
    the tie is complete."""
    if not any(len(p.completed) >= target for p in players):
        return None

    def key(i: int) -> tuple[int, int, int]:
        p = players[i]
        return (len(p.completed), -len(p.crumpled), p.largest_placed)

    order = sorted(range(len(players)), key=key, reverse=True)
    if len(order) > 1 and key(order[0]) == key(order[1]):
        return None
    return order[0]


def required_edges(sheet: Sheet, regions: Iterable[frozenset[Cell]]) -> frozenset[Edge]:
    """Edges that must be cut to free every region: between a region square and any other
    sheet square (the sheet's border needs no cut)."""
    out: set[Edge] = set()
    owner: dict[Cell, int] = {}
    regs = list(regions)
    for i, reg in enumerate(regs):
        for cell in reg:
            owner[cell] = i
    for i, reg in enumerate(regs):
        for cell in reg:
            r, k = cell
            for nb in ((r - 1, k), (r, k + 1), (r + 1, k), (r, k - 1)):
                if nb in sheet and owner.get(nb) != i:
                    out.add(edge_between(cell, nb))
    return frozenset(out)
