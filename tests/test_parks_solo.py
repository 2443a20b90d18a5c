"""The parks solo game: the bot's games replay through the engine and score the same from
their move logs (also through ``paperproof score``); broken logs and impossible tallies are
refused with a reason."""

from __future__ import annotations

import json
import random
from pathlib import Path

from clirun import run_cli as run

from generator.core.budget import Budget
from generator.families.parks.cert import RoundPlan
from generator.families.parks.model import Card, Die, Sheet
from generator.families.parks.rules import solo_score
from generator.families.parks.solo import SoloLog, game_over, play_solo, replay_solo

SHEET = Sheet.from_text("GGWAP\nGGWAP\nAAPGG\nPWGGA\n\nicons:\n..w..\n.....\nr....\n...w.")
DIE = Die.from_text("1 | 2 | 1,1")
DEAL = [Card.from_rows("grand-01", "Big", ["###", "###"], grand=True),
        Card.from_rows("park-01", "One", ["#"]),
        Card.from_rows("park-02", "Two", ["##"], bonus="gardener"),
        Card.from_rows("park-03", "Green", ["G#"]),
        Card.from_rows("park-04", "Tall", ["#", "#"]),
        Card.from_rows("park-05", "Ell", ["##", "#."])]

DECK = """family = "parks"
name = "solo-small"
seed = 3
[check]
simulations = 2
[parks]
sheet = ["GGWAP", "GGWAP", "AAPGG", "PWGGA"]
sheet_icons = ["..w..", ".....", "r....", "...w."]
cards = 0
grand_cards = 0
hands = 0
die = [[1], [2], [1, 1]]
[[parks.card]]
shape = ["###", "###"]
grand = true
[[parks.card]]
shape = ["#"]
[[parks.card]]
shape = ["##"]
bonus = "gardener"
[[parks.card]]
shape = ["G#"]
[[parks.card]]
shape = ["#", "#"]
[[parks.card]]
shape = ["##", "#."]
"""


def _game(seed: int) -> tuple[SoloLog, dict[str, int]]:
    game = play_solo(SHEET, DIE, DEAL, 1, random.Random(seed), Budget(nodes=20_000).start())
    return game.log, game.points


def test_a_bot_solo_game_replays_and_scores_from_its_log() -> None:
    for seed in range(4):
        log, points = _game(seed)
        again = SoloLog.from_json(json.loads(json.dumps(log.to_json())))
        assert again == log
        player, problem = replay_solo(SHEET, DIE, DEAL, again)
        assert problem == "" and player is not None
        assert solo_score(player) == points
        # it ended by a rule: every card gone, or a face that could not be cut in full
        last = log.rounds[-1]
        assert game_over(player) or len(last.cuts) < len(last.face)
        assert len(player.pile) == 0 or len(last.cuts) < len(last.face)


def test_a_broken_or_unfinished_log_is_refused() -> None:
    log, _ = _game(1)
    if len(log.rounds) > 1:
        short = SoloLog(log.deal, log.grands, log.rounds[:-1])
        player, problem = replay_solo(SHEET, DIE, DEAL, short)
        assert player is None and ("not over" in problem or "cut only in part" in problem)
    first = log.rounds[0]
    odd = RoundPlan((3,), first.cuts, first.keeps, first.placed, first.crumpled)
    player, problem = replay_solo(SHEET, DIE, DEAL, SoloLog(log.deal, log.grands,
                                                             (odd,) + log.rounds[1:]))
    assert player is None and problem.startswith("round 1:")
    player, problem = replay_solo(SHEET, DIE, DEAL[::-1], log)
    assert player is None and "deal" in problem


def test_paperproof_score_replays_a_move_log_and_refuses_impossible_tallies(
        tmp_path: Path) -> None:
    deck = tmp_path / "solo.toml"
    deck.write_text(DECK, encoding="utf-8")
    # the ids the deck gives its hand-written cards, in order: grand-01, park-01..05
    log, points = _game(2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log.to_json()), encoding="utf-8")
    code, out, err = run("score", str(deck), str(path), "--format", "json")
    assert code == 0, err + out
    assert json.loads(out)["total"] == points["total"]
    data = log.to_json()
    data["rounds"] = data["rounds"][:1] if len(data["rounds"]) > 1 else []
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run("score", str(deck), str(path))
    assert code == 2 and "breaks the rules" in out + err
    tally = tmp_path / "tally.toml"
    tally.write_text('completed = ["park-01"]\nlargest_section = 30\ntokens = 2\n',
                     encoding="utf-8")
    code, out, err = run("score", str(deck), str(tally))
    text = out + err
    assert code == 2
    assert "a placed section of 30 squares" in text and "2 tokens held" in text


def test_the_certificate_schema_accepts_every_written_form() -> None:
    import pytest

    jsonschema = pytest.importorskip("jsonschema")
    code, out, err = run("schema", "parks-certificate")
    assert code == 0, err
    schema = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(schema)
    log, _ = _game(0)
    jsonschema.validate(log.to_json(), schema)
    from generator.families.parks.planner import completability

    v = completability(SHEET, DIE, DEAL[5], Budget(nodes=50_000))
    assert v.certificate is not None
    jsonschema.validate(v.certificate.to_json(), schema)
    bad = v.certificate.to_json()
    bad["rounds"][0]["cuts"] = ["north 2"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
