"""The Family contract, enforced over the whole registry: one signature per hook in every
family, every completability question answered through the one answer type, every reported
certificate replayed by the family's rules engine (and a tampered one refused), and every
report entry naming a real component."""

from __future__ import annotations

import copy
import inspect
from pathlib import Path
from typing import Any

import pytest

from generator.build import render_starter
from generator.core.answer import Answer, IllegalMove
from generator.core.budget import Budget
from generator.core.verdict import Verdict
from generator.deckfile import LoadedDeck, load_deck, load_deck_text
from generator.families import REGISTRY, family_names, find_family
from generator.families.base import REPLAY_FAILED, CheckOptions, Family

DECKS = Path(__file__).resolve().parent / "decks"
SMALL = {"parks": "parks-small.toml", "streets": "streets-small.toml",
         "habitats": "habitats-small.toml", "layers": "layers-small.toml"}
"""A small deck per family (the others use their starter deck)."""
HOOKS = ("validate", "generate", "questions", "solve", "replay", "check", "layout", "score")


def _deck(name: str, tmp_path: Path) -> LoadedDeck:
    if name in SMALL:
        return load_deck(DECKS / SMALL[name])
    return load_deck_text(render_starter(name, "contract"), str(tmp_path / "contract.toml"),
                          base_dir=tmp_path)


def test_the_registry_is_lazy_and_complete() -> None:
    assert set(family_names()) == set(REGISTRY) and len(REGISTRY) == 6
    for name in family_names():
        assert find_family(name).name == name
        assert find_family(name) is find_family(name)


@pytest.mark.parametrize("name", family_names())
def test_every_hook_has_the_one_signature(name: str) -> None:
    family = find_family(name)
    assert isinstance(family, Family)
    for hook in HOOKS:
        ours = inspect.signature(getattr(type(family), hook))
        base = inspect.signature(getattr(Family, hook))
        assert list(ours.parameters) == list(base.parameters), (name, hook)
    # the hooks delegate to the family's modules: each function has the hook's arguments
    check = family.modules("check")
    functions = {"check": ["deck", 3], "questions": ["deck", 2], "solve": ["deck", 4],
                 "replay_certificate": ["deck", 4]}
    for function, (first, count) in functions.items():
        fn = getattr(check, function, None)
        if fn is None:
            assert function != "check" and not hasattr(check, "questions"), (name, function)
            continue
        params = list(inspect.signature(fn).parameters)
        assert params[0] == first and len(params) == count, (name, function, params)
    layout = list(inspect.signature(family.modules("layout").layout).parameters)
    assert layout[0] == "deck" and len(layout) == 3, name


def _tamper(cert: Any) -> Any:
    """The certificate with its last recorded choice dropped: no longer a proof."""
    bad = copy.deepcopy(cert)
    for key in ("rounds", "moves", "turns", "placements"):
        if isinstance(bad, dict) and isinstance(bad.get(key), list) and bad[key]:
            bad[key] = bad[key][:-1]
            return bad
    return None


@pytest.mark.parametrize("name", family_names())
def test_questions_answer_and_certificates_replay(name: str, tmp_path: Path) -> None:
    loaded = _deck(name, tmp_path)
    family, deck = loaded.family, loaded.deck
    generated = family.generate(deck)
    report = family.check(deck, generated, CheckOptions(simulations=0))
    entries = {(e.subject, e.check): e for e in report.entries}
    questions = family.questions(deck, generated)
    if name != "cards":
        assert questions, f"{name} asks no completability question"
    tampered = 0
    for q in questions:
        entry = entries[(q.subject, q.check)]
        assert entry.status in ("completable", "impossible", "unknown"), entry
        if entry.status == "completable":
            cert = entry.details["certificate"]
            family.replay(deck, generated, q, cert)  # the reported object replays
            bad = _tamper(cert)
            if bad is not None:
                with pytest.raises(IllegalMove):
                    family.replay(deck, generated, q, bad)
                tampered += 1
        elif entry.status == REPLAY_FAILED:
            assert entry.code.endswith("-REPLAY") or entry.code.endswith("-UNKNOWN"), entry
    if any(entries[(q.subject, q.check)].status == "completable" for q in questions):
        assert tampered, f"{name}: no certificate could be tampered with"
    if questions:  # solve answers one question alone, as the report did
        q = questions[0]
        answer = family.solve(deck, generated, q, Budget(nodes=deck.check.budget_nodes))
        assert isinstance(answer, Answer)
        assert answer.verdict.value == entries[(q.subject, q.check)].status or (
            answer.verdict is Verdict.COMPLETABLE
            and entries[(q.subject, q.check)].status == REPLAY_FAILED)
        if answer.verdict is Verdict.COMPLETABLE:
            family.replay(deck, generated, q, answer.certificate)


@pytest.mark.parametrize("name", family_names())
def test_every_report_entry_names_a_real_component(name: str, tmp_path: Path) -> None:
    loaded = _deck(name, tmp_path)
    family, deck = loaded.family, loaded.deck
    generated = family.generate(deck)
    report = family.check(deck, generated, CheckOptions(simulations=0))
    components = family.layout(deck, generated, report)
    real = {"deck"} | {c.id for c in components} | {s for c in components for s in c.subjects}
    strays = sorted({e.subject for e in report.entries} - real)
    assert not strays, f"{name}: entries about no printed component: {strays}"
