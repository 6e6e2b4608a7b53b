"""Packaging generated RTL for vendor flows: Vitis RTL kernels for Alveo cards
(``kernel.xml``, the register-map C header, ``package_xo.tcl``, ``connectivity.cfg`` and
an XRT host example), all derived from :func:`hls.rtl._axilite.register_map`."""

from ._vitis import (
    MAxiPort, PackageError, VitisKernel, c_header, connectivity_cfg, header_macros,
    header_name, host_cpp, kernel_xml, package_xo_tcl, write_vitis_package,
)

__all__ = [
    "MAxiPort", "PackageError", "VitisKernel", "c_header", "connectivity_cfg",
    "header_macros", "header_name", "host_cpp", "kernel_xml", "package_xo_tcl",
    "write_vitis_package",
]
