"""Cards ranked deck-wide, hardest first, with flags only where the interval says so; the
ranking reaches report.json, ``check`` text and index.html."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from generator.build import Checked, ranking, report_json, write_index
from generator.core.stats import rate
from generator.deckfile import load_deck
from generator.families.base import CheckEntry, Report
from generator.ranking import rank, rank_details, rank_report, ranking_lines

BAND = (0.2, 0.9)


def test_hardest_first_with_flags_from_intervals() -> None:
    cards = [
        ("easy", rank_details(rate(195, 200), reward=2)),        # 97.5%, low end > 90%
        ("wall", rank_details(rate(4, 200), reward=9)),          # 2%, high end < 20%
        ("mid", rank_details(rate(100, 200), reward=5)),
        ("worse-mid", rank_details(rate(60, 200), reward=5)),    # harder than mid, same reward
        ("lucky", rank_details(rate(0, 3), reward=10)),  # 0 of 3: 0%..56%: no flag
    ]
    ranked = rank(cards, BAND)
    assert [r.subject for r in ranked] == ["lucky", "wall", "worse-mid", "mid", "easy"]
    flags = {r.subject: r.flags for r in ranked}
    assert flags == {"lucky": (), "wall": ("too hard",), "worse-mid": ("dominated",),
                     "mid": (), "easy": ("too easy",)}


def test_planning_rate_ranks_when_present() -> None:
    cards = [("a", rank_details(rate(10, 100), rate(90, 100))),
             ("b", rank_details(rate(50, 100), rate(50, 100)))]
    out = rank_report([CheckEntry(s, "difficulty", "info", "", details={"rank": d})
                       for s, d in cards], BAND)
    assert out is not None and out["by"] == "planning"
    assert [c["subject"] for c in out["cards"]] == ["b", "a"]
    lines = ranking_lines(out)
    assert "planning player" in lines[0]
    assert lines[1].strip().startswith("1. b") and "casual 50% (40%..60%, 100 games)" in lines[1]
    assert ranking_lines(out, {"b": "#2 b Bee"})[1].strip().startswith("1. #2 b Bee  ")
    assert rank_report([CheckEntry("x", "c", "info", "")], BAND) is None


def test_ranking_reaches_report_and_index(tmp_path: Path) -> None:
    deck_path = tmp_path / "d.toml"
    deck_path.write_text('family = "cards"\nname = "d"\n[check]\nband = [0.3, 0.6]\n'
                         '[[cards.rows]]\ntitle = "a"\n', encoding="utf-8")
    loaded = load_deck(deck_path)
    entries = (CheckEntry("c1", "difficulty", "info", "",
                          details={"rank": rank_details(rate(80, 100))}),
               CheckEntry("c2", "difficulty", "info", "",
                          details={"rank": rank_details(rate(10, 100))}))
    report = Report("d", "cards", 1, entries)
    checked = Checked(loaded, loaded.deck, loaded.family.generate(loaded.deck), report)
    out = report_json(checked)["ranking"]
    assert out["band"] == {"low": 0.3, "high": 0.6}
    assert [(c["subject"], c["flags"]) for c in out["cards"]] == [
        ("c2", ["too hard"]), ("c1", ["too easy"])]
    write_index(checked, [], tmp_path / "index.html")
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert '<section id="ranking">' in html
    assert "<td>c2</td>" not in html and '<a href="#c2">c2</a>' in html
    assert html.index("#c2") < html.index("#c1")
    assert "too hard" in html and "80% (71%..87%, 100 games)" in html
    # no difficulty anywhere: no section
    plain = replace(checked, report=Report("d", "cards", 1, ()))
    assert ranking(plain) is None
    write_index(plain, [], tmp_path / "plain.html")
    assert "ranking" not in (tmp_path / "plain.html").read_text(encoding="utf-8")
    json.dumps(report_json(checked))
