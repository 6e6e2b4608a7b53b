"""Co-simulation of saxpy.c in pytest through the pyhls plugin (README "Co-simulation in
pytest"): run with ``pytest examples/pytest`` (``-n 2`` with pytest-xdist)."""

import pytest

X = [i - 4 for i in range(16)]
Y = [100 - i for i in range(16)]


@pytest.mark.hls(directives={
    "rolled": {"loop": [{"function": "saxpy", "label": "mac", "pipeline": False}]},
    "unroll2": {"loop": [{"function": "saxpy", "label": "mac", "unroll": 2}]},
})
def test_saxpy(hls):
    run = hls.cosim("saxpy.c", top="saxpy", tb="tb_saxpy.c",
                    expect={"y": [y + 3 * x for x, y in zip(X, Y)]})
    assert run.passed and len(run.cycles) == 1
    assert run.report["loops"][0]["name"] == "mac"
