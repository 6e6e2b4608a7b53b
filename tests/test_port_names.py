"""Names pyhls generates never capture the user's: a kernel whose functions, arguments
and labels are named after every port of the generated top (the handshake, the deadlock
monitor, the loop probes, another argument's memory ports) co-simulates, each clashing
argument's port renamed with a warning at the function (hls.rtl.port_names)."""

from __future__ import annotations

import re

from hls.cli import main
from hls.rtl import CONTROL_PORTS

SRC = """
static int ap_start(int x) { return x * 3 + 1; }
static int df_deadlock(const int *v, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s ^= v[i];
    return s;
}
int k(int ap_clk, int ap_rst_n, int ap_done, int ap_idle, int ap_ready, int ap_return,
      int df_waits, int prof0, int a_q0, int a[8], int state) {
    int s = 0;
prof1:
    for (int i = 0; i < 8; i++) {
        a[i] = a[i] * ap_clk + ap_rst_n - ap_done + (ap_idle ^ ap_ready) + ap_return + a_q0;
        s += a[i] + df_waits * prof0 + ap_start(state);
    }
    return s + df_deadlock(a, 8);
}
int main(void) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = i * 7 - 20;
    int r = k(3, 5, 7, 11, 13, 17, 19, 23, 29, a, 31);
    r += k(-1, 2, -3, 4, -5, 6, -7, 8, -9, a, 10);
    return r == 12345 ? 1 : 0;
}
"""


def test_arguments_named_like_generated_ports(tmp_path, capsys):
    src = tmp_path / "clash.c"
    src.write_text(SRC)
    out = tmp_path / "o"
    assert main(["cosim", str(src), "--top", "k", "--tb", str(src), "-o", str(out)]) == 0
    cap = capsys.readouterr()
    assert "2 call(s)" in cap.out and "PASSED" in cap.out, cap.out + cap.err
    verilog = (out / "rtl" / "k.v").read_text()
    m = re.search(r"^module k\(([^;]*)\);", verilog, re.M)
    names = [n.strip() for n in m.group(1).split(",")]
    assert not any("$" in n or "\\" in n for n in names), names   # none left to Amaranth
    for clash in ("ap_clk", "ap_rst_n", "ap_done", "ap_idle", "ap_ready", "ap_return",
                  "df_waits", "prof0"):
        assert clash in CONTROL_PORTS or clash == "prof0"
        assert f"clash.c:8: warning: argument '{clash}' of k is named like a port" in cap.err
        assert f"{clash}_2" in names, names
    # a scalar named like the ports of the memory a: the memory's prefix moves
    assert "a_q0" in names and "a_2_q0" in names and "a_q0_2" not in names
    assert "argument 'a' of k is named like a port" in cap.err
    assert "state" in names and "warning: argument 'state'" not in cap.err
