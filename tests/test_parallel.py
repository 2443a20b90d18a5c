"""``--jobs`` and ``--cluster`` give the same reports as one process; ``sweep`` checks
variants side by side. Decks are the small test decks with few games, to stay cheap."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path

import pytest

from generator.build import check_decks, report_json
from generator.core.stats import Precision, Rate, rate, sample_until
from generator.deckfile import load_deck
from generator.errors import UsageError
from generator.families.base import CheckOptions
from generator.parallel import ClusterPool, ProcessPool
from tests.clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent
DECKS = [str(ROOT / "tests" / "decks" / "parks-small.toml"), str(ROOT / "decks" / "cards.toml"),
         str(ROOT / "tests" / "decks" / "streets-small.toml")]


def _check_json(*extra: str) -> str:
    code, out, err = run_cli("check", *DECKS, "--format", "json", "--simulations", "4", *extra)
    assert code in (0, 1), err
    return out


def test_jobs_give_byte_identical_reports() -> None:
    one = _check_json("--jobs", "1")
    two = _check_json("--jobs", "2")
    assert one == two
    assert [d["deck"] for d in json.loads(one)] == ["parks-small", "player-aid",
                                                    "streets-small"]


def _play(p: float, seed: int, games: int) -> list[bool]:
    rng = random.Random(seed)
    return [rng.random() < p for _ in range(games)]


def _measure(outs: Sequence[bool]) -> list[Rate]:
    return [rate(sum(outs), len(outs))]


def test_sampler_batches_on_a_process_pool_match_serial() -> None:
    args = dict(seed=5, stream=("card", "x"))
    serial = sample_until(partial(_play, 0.3), _measure, Precision(rate=0.08), **args)
    with ProcessPool(2) as pool:
        pooled = sample_until(partial(_play, 0.3), _measure, Precision(rate=0.08), **args,
                              mapper=pool.map, lookahead=pool.workers)
    assert pooled == serial and serial.stopped == "precision"


@pytest.fixture(scope="module")
def cluster() -> Iterator[ClusterPool]:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as lc, distributed.Client(lc) as c:
        yield ClusterPool(c)


def test_cluster_report_equals_the_local_one(cluster: ClusterPool) -> None:
    loaded = [load_deck(Path(d)) for d in DECKS]
    local = check_decks(loaded, options=CheckOptions(simulations=4))
    remote = check_decks(loaded, options=CheckOptions(simulations=4, pool=cluster))
    assert cluster.workers == 2
    for a, b in zip(local, remote, strict=True):
        assert json.dumps(report_json(a), sort_keys=True) == json.dumps(report_json(b),
                                                                        sort_keys=True)


def test_a_cluster_that_does_not_answer_is_a_usage_error() -> None:
    pytest.importorskip("dask.distributed")
    with pytest.raises(UsageError, match="cannot connect"):
        ClusterPool("tcp://127.0.0.1:9", timeout=1.0)


def test_sweep_over_set_values_and_a_table(tmp_path: Path) -> None:
    code, out, err = run_cli("sweep", DECKS[0], "--set", "parks.rounds=3",
                             "--set", "parks.rounds=10", "--simulations", "4", "--jobs", "2",
                             "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [v["label"] for v in data["variants"]] == ["as written", "parks.rounds=3",
                                                      "parks.rounds=10"]
    assert data["variants"][1]["set"] == {"parks.rounds": 3}
    assert all(v["figures"]["ok"] for v in data["variants"])
    code2, out2, _ = run_cli("sweep", DECKS[0], "--set", "parks.rounds=3",
                             "--set", "parks.rounds=10", "--simulations", "4", "--jobs", "1",
                             "--format", "json")
    assert out2 == out

    table = tmp_path / "sweep.toml"
    table.write_text('[[variant]]\nname = "short"\nparks.rounds = 3\n'
                     '[[variant]]\ncheck.seed_note = 1\n', encoding="utf-8")
    code, out, err = run_cli("sweep", DECKS[0], "--table", str(table), "--simulations", "0")
    assert code == 2 and "variant 'check.seed_note=1'" in err and "seed_note" in err
    table.write_text('[[variant]]\nname = "short"\nparks.rounds = 3\n', encoding="utf-8")
    code, out, err = run_cli("sweep", DECKS[0], "--table", str(table), "--simulations", "0")
    assert code == 0, err
    header = out.splitlines()[1].split()
    assert header == ["figure", "as", "written", "short"]


def test_sweep_rejects_bad_input() -> None:
    code, _, err = run_cli("sweep", DECKS[0], "--set", "parks.rounds")
    assert code == 2 and "KEY=VALUE" in err
    code, _, err = run_cli("sweep", DECKS[0])
    assert code == 2 and "--set" in err
    code, _, err = run_cli("sweep", DECKS[0], "--set", "parks.rounds=-4")
    assert code == 2 and "variant 'parks.rounds=-4'" in err
