"""The exploration on a Dask cluster that loses a worker mid-run (slow: two explorations
of a MachSuite-style kernel; ``python -m pytest -m slow tests/test_dse_cluster.py``).

A ``dask scheduler`` and two ``dask worker`` processes (no nanny: a killed worker stays
dead) run ``pyhls dse --scheduler``; a watcher kills one worker the first time the
scheduler says it is running a task, so the kill always lands on a task in flight,
whatever the machine's speed.  The scheduler must run that task
again on the other worker, and the exploration give the same points, results and front
as on a local cluster (every task is pure).  ``benchmarks/dse_machsuite.py --cluster``
is the same check on the command line, killing after a number of seconds.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hls.cli import main
from hls.dse._cluster import stop_processes

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ROOT / "benchmarks" / "machsuite" / "spmv_crs.c"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _without_run(doc: dict) -> dict:
    doc = {k: v for k, v in doc.items() if k != "run"}
    return dict(doc, points=[{k: v for k, v in p.items() if k != "seconds"}
                             for p in doc["points"]])


def _wait_workers(addr: str, n: int, timeout: float = 120.0) -> dict:
    from distributed import Client

    with Client(addr, timeout=timeout) as client:
        client.wait_for_workers(n, timeout=timeout)
        return client.run(os.getpid)


def _kill_in_flight(addr: str, pids: dict, started: threading.Event,
                    killed: list, done: threading.Event) -> None:
    """Kill the first worker the scheduler reports running a task (once ``started``:
    the exploration under way)."""
    from distributed import Client

    with Client(addr) as client:
        started.wait()
        while not done.is_set():
            busy = {a: ts for a, ts in client.processing().items() if ts}
            for a in sorted(busy):
                if a in pids:
                    os.kill(pids[a], signal.SIGKILL)
                    killed.append((a, len(busy[a])))
                    return
            time.sleep(0.05)


@pytest.mark.slow
def test_dse_survives_a_killed_worker(tmp_path, monkeypatch):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])
    port = _port()
    addr = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                               "--host", "127.0.0.1", "--port", str(port),
                               "--dashboard-address", ":0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    killed: list = []
    started, done = threading.Event(), threading.Event()
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads", "1",
                 "--nworkers", "1", "--no-nanny", "--dashboard-address", ":0"], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        pids = _wait_workers(addr, 2)
        assert sorted(pids.values()) == sorted(p.pid for p in procs[1:])
        watcher = threading.Thread(target=_kill_in_flight,
                                   args=(addr, pids, started, killed, done), daemon=True)
        watcher.start()

        started.set()
        assert main(["dse", str(KERNEL), "--top", "spmv", "--scheduler", addr,
                     "--max-points", "12", "--no-cache", "--no-cosim",
                     "-o", str(tmp_path / "cluster")]) == 0
        done.set()
        watcher.join(timeout=30)
        assert killed, "no worker was seen running a task"
        alive = [p for p in procs[1:] if p.poll() is None]
        assert len(alive) == 1      # the other one finished the run alone
    finally:
        started.set()
        done.set()
        stop_processes(procs)
    assert main(["dse", str(KERNEL), "--top", "spmv", "--workers", "2", "--max-points", "12",
                 "--no-cache", "--no-cosim", "-o", str(tmp_path / "local")]) == 0
    got, want = (_without_run(json.loads((tmp_path / d / "dse.json").read_text()))
                 for d in ("cluster", "local"))
    assert len(got["points"]) == 12 and got == want
