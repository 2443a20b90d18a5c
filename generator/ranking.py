"""Deck-wide ranking of cards, hardest to easiest, with intervals and balance flags.

Why: a designer balancing a deck asks "which cards are walls, which are gimmes, and which is
never worth taking", across the whole deck rather than within one level. Families say how
hard each card is by putting :func:`rank_details` under ``details["rank"]`` of the card's
entry (the completion rate for a casual, greedy bot and, where the family has one, for a
planning bot; optionally the card's reward); :func:`rank_report` reads every such entry and
ranks them. Pure: it reads a report and writes JSON-able data.

Flags (each only when the interval, not just the point, lies outside):
- ``too hard``: the whole interval is below the deck's band (``[check] band``);
- ``too easy``: the whole interval is above it;
- ``dominated``: another card is surely easier (its interval lies wholly above) and is worth
  at least as much, so a player has no reason to pick this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .core.stats import Rate, pct

FLAGS = ("too hard", "too easy", "dominated")


def rank_details(casual: Rate, planning: Rate | None = None, *,
                 reward: float | None = None) -> dict[str, Any]:
    """What a family puts under ``details["rank"]`` of a card's entry: the rate at which a
    casual (greedy) bot completes the card, the planning bot's rate if the family has one,
    and the card's reward (points) if it has one."""
    out: dict[str, Any] = {"casual": casual.to_json()}
    if planning is not None:
        out["planning"] = planning.to_json()
    if reward is not None:
        out["reward"] = reward
    return out


@dataclass(frozen=True)
class Ranked:
    """One card in the ranking: ``by`` is the rate it is ranked by (the planning player's
    when the family has one: it measures the card more than the bot)."""

    subject: str
    casual: Rate
    planning: Rate | None
    reward: float | None
    flags: tuple[str, ...] = ()

    @property
    def by(self) -> Rate:
        return self.planning if self.planning is not None else self.casual

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"subject": self.subject, "casual": self.casual.to_json(),
                               "flags": list(self.flags)}
        if self.planning is not None:
            out["planning"] = self.planning.to_json()
        if self.reward is not None:
            out["reward"] = self.reward
        return out

    def text(self) -> str:
        both = (f"casual {self.casual.text()} / planning {self.planning.text()}"
                if self.planning is not None else self.casual.text())
        reward = f", worth {self.reward:g}" if self.reward is not None else ""
        flags = f"  [{', '.join(self.flags)}]" if self.flags else ""
        return f"{both}{reward}{flags}"


def rank(cards: Sequence[tuple[str, dict[str, Any]]],
         band: tuple[float, float]) -> list[Ranked]:
    """Rank ``(subject, rank details)`` pairs hardest first and flag them against ``band``
    (low, high completion rates)."""
    low, high = band
    items = [Ranked(s, Rate.from_json(d["casual"]),
                    Rate.from_json(d["planning"]) if "planning" in d else None,
                    float(d["reward"]) if d.get("reward") is not None else None)
             for s, d in cards]
    items.sort(key=lambda r: (r.by.value, r.by.high, r.subject))
    out = []
    for r in items:
        flags = []
        if r.by.trials and r.by.high < low:
            flags.append("too hard")
        if r.by.trials and r.by.low > high:
            flags.append("too easy")
        if r.reward is not None and r.by.trials and any(
                o is not r and o.reward is not None and o.reward >= r.reward
                and o.by.trials and o.by.low > r.by.high for o in items):
            flags.append("dominated")
        out.append(Ranked(r.subject, r.casual, r.planning, r.reward, tuple(flags)))
    return out


def rank_report(entries: Sequence[Any], band: tuple[float, float]) -> dict[str, Any] | None:
    """The ``ranking`` section of report.json, from every entry with ``details["rank"]``;
    None when no card has a difficulty."""
    cards = [(e.subject, e.details["rank"]) for e in entries
             if isinstance(e.details.get("rank"), dict)]
    if not cards:
        return None
    ranked = rank(cards, band)
    counts = {f: sum(f in r.flags for r in ranked) for f in FLAGS}
    return {
        "order": "hardest first",
        "by": "planning" if any(r.planning is not None for r in ranked) else "casual",
        "band": {"low": band[0], "high": band[1]},
        "flagged": counts,
        "cards": [r.to_json() for r in ranked],
    }


def ranking_lines(ranking: dict[str, Any], labels: dict[str, str] | None = None) -> list[str]:
    """The ranking as text lines (``paperproof check``); ``labels`` name the subjects the way
    the rest of the output does (``#32 plan-05 Plan 3: Busy``)."""
    names = labels or {}
    band = ranking["band"]
    lines = [f"ranking, hardest first (completion rate of the {ranking['by']} player; "
             f"band {pct(band['low'])}..{pct(band['high'])}):"]
    width = max(len(names.get(c["subject"], c["subject"])) for c in ranking["cards"])
    for i, c in enumerate(ranking["cards"], start=1):
        r = Ranked(c["subject"], Rate.from_json(c["casual"]),
                   Rate.from_json(c["planning"]) if "planning" in c else None, c.get("reward"),
                   tuple(c["flags"]))
        label = names.get(r.subject, r.subject)
        lines.append(f"{i:>3}. {label:<{width}}  {r.text()}")
    return lines
