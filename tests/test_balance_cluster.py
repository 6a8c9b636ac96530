"""``simulate --cluster`` (issue 27): the games of a sweep played on a local Dask cluster (a
scheduler and two workers on this machine, reached by its tcp:// address as a real cluster
is) give the same bytes as the local process pool; a scheduler nobody runs is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run

distributed = pytest.importorskip("distributed")

ARGS = ["-q", "simulate", "arche-noah", "--games", "8", "--players", "3,4",
        "--sweep", "rules.scoring.set_of_four_bonus=3,6"]  # fmt: skip


def test_a_dask_cluster_gives_the_process_pool_s_bytes(tmp_path: Path, capsys, monkeypatch) -> None:
    from tts_builder.balance import cluster as dask_cluster

    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", 2)  # nobody listens on port 9
    assert run([*ARGS, "--jobs", "2", "--out", str(tmp_path / "pool")]) == EXIT_OK
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
        dashboard_address=None,
    ) as cluster:  # fmt: skip
        assert cluster.scheduler_address.startswith("tcp://")
        out = tmp_path / "dask"
        assert run([*ARGS, "--cluster", cluster.scheduler_address, "--out", str(out)]) == EXIT_OK
    for name in ("balance.json", "balance.png"):
        pool = (tmp_path / "pool" / "balance_reports" / "arche-noah" / name).read_bytes()
        assert (out / "balance_reports" / "arche-noah" / name).read_bytes() == pool
    capsys.readouterr()
    code = run(["simulate", "arche-noah", "--games", "2", "--out", str(tmp_path / "x"),
                "--cluster", "tcp://127.0.0.1:9"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT and "--cluster tcp://127.0.0.1:9: cannot reach" in err
    assert err.count("\n") == 1 and not (tmp_path / "x").exists()
