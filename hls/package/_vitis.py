"""Vitis packaging of an RTL kernel: ``kernel.xml``, the register-map C header,
``package_xo.tcl``, a ``connectivity.cfg`` example and an XRT host example.

Everything about the control registers comes from :func:`hls.rtl.register_map`, the
register map the ``s_axi_control`` slave (:class:`hls.rtl.AxiLiteControl`) implements.

``kernel.xml`` follows the RTL-kernel format of the Vitis documentation and of Xilinx's
``Vitis_Accel_Examples/rtl_kernels`` (``<root versionMajor="1" versionMinor="6">``,
``language="ip_c"``, ``hwControlProtocol="ap_ctrl_hs"``): one ``s_axi_control`` slave port
(range 0x1000, 32-bit data), one ``m_axi_<bundle>`` master port per bundle (range
``2**address_width - 1``), and one ``<arg>`` per C argument in argument order (``id`` is
the index that ``xrt::kernel::set_arg`` and ``group_id`` take).  A return value has a
register (0x10) but no ``<arg>``: Vitis kernels are ``void``, and the host reads it
with ``xrt::kernel::read_register`` (see the host example).

The C types (kernel.xml's ``type`` and ``hostSize``, the header's comments, host.cpp's
buffers and scalars) are the declared ones where the flow knows them
(:class:`hls.interface.CType` on the interface's scalars, argument memories and return
value, copied onto the registers: ``float*``, ``short*`` for ``const int16_t *``,
``unsigned int*``, ``int``, ``float``, ``struct pt*``; typedefs resolved, qualifiers
dropped), else types of the widths (an ``int*`` for any 4-byte element, ``unsigned`` for
every scalar).  Vitis does not read the type names; the host code does use them.

The m_axi side is described by :class:`MAxiPort` (or plain ``(bundle, data_width[,
address_width])`` tuples) and a mapping from pointer-argument name to bundle.

AXI4-Stream arguments (memories of the interface with ``stream`` set: ``--interface
ARG=axis``) have no control register.  In kernel.xml each is a ``<port name="ARG"
mode="read_only"|"write_only" portType="stream">`` (TDATA width) and an ``<arg>`` with
``addressQualifier="4"``, ``offset="0x0"``, as in Xilinx's RTL-kernel stream examples; the
header and package_xo.tcl's register list leave them out; the host example sets only the
other arguments (``xrt::run::set_arg`` by argument id) and connectivity.cfg shows where
``stream_connect`` lines go.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..errors import HLSError
from ..interface import MAxiPort, MemoryPort, TopInterface
from ..rtl import (
    AP_DONE, AP_IDLE, AP_READY, AP_START, AUTO_RESTART, CTRL_INTERRUPT, Reg,
    control_addr_width, register_map,
)

__all__ = [
    "MAxiPort", "VitisKernel", "kernel_xml", "c_header", "package_xo_tcl",
    "connectivity_cfg", "host_cpp", "write_vitis_package",
]

S_AXI_CONTROL = "s_axi_control"
CONTROL_RANGE = 0x1000


class PackageError(HLSError):
    phase = "package"


def _as_maxi(p) -> MAxiPort:
    if isinstance(p, MAxiPort):
        return p
    if isinstance(p, tuple):
        return MAxiPort(*p)
    return MAxiPort(p.bundle, p.data_width, getattr(p, "address_width", 64))


@dataclass(frozen=True)
class VitisKernel:
    """Everything the generators need: the interface, its register map, the m_axi
    bundles and which bundle each pointer argument uses."""

    interface: TopInterface
    regs: tuple[Reg, ...]
    m_axi: tuple[MAxiPort, ...]
    bundle_of: Mapping[str, str]        # pointer argument -> bundle
    vendor: str = "pyhls.org"
    library: str = "kernel"
    version: str = "1.0"

    @classmethod
    def build(cls, interface: TopInterface, m_axi: Iterable = (),
              bundles: Mapping[str, str] | None = None, **kw) -> VitisKernel:
        """``m_axi``: bundle descriptions; default one ``gmem`` bundle as wide as the
        widest pointer word (at least 32 bits).  ``bundles``: pointer argument -> bundle;
        default every pointer on the first bundle."""
        regs = tuple(register_map(interface))
        ptrs = [r for r in regs if r.kind == "pointer"]
        ports = tuple(_as_maxi(p) for p in m_axi)
        if not ports and ptrs:
            words = [m.word_bytes for m in interface.memories
                 if m.arg_index is not None and not m.stream]
            ports = (MAxiPort("gmem", max(32, 8 * max(words))),)
        names = [p.bundle for p in ports]
        if len(set(names)) != len(names):
            raise PackageError(f"m_axi bundle names must be unique, not {names}")
        for p in ports:
            if not re.fullmatch(r"[A-Za-z_]\w*", p.bundle):
                raise PackageError(f"an m_axi bundle name must be an identifier, not {p.bundle!r}")
            if p.data_width not in (32, 64, 128, 256, 512, 1024):
                raise PackageError(f"m_axi data width must be 32..1024 (a power of two), "
                                   f"not {p.data_width} (bundle {p.bundle})")
        bundle_of = dict(bundles or {})
        unknown = set(bundle_of) - {r.name for r in ptrs}
        if unknown:
            raise PackageError(f"bundle assignment names no pointer argument: {sorted(unknown)}")
        for r in ptrs:
            b = bundle_of.setdefault(r.name, ports[0].bundle)
            if b not in names:
                raise PackageError(f"pointer argument {r.name} is assigned to bundle {b!r}, "
                                   f"which is not one of {names}")
        return cls(interface, regs, ports, bundle_of, **kw)

    @property
    def name(self) -> str:
        return self.interface.module_name

    @property
    def args(self) -> list[Reg]:
        """The arguments with a control register (scalars and m_axi pointers)."""
        return [r for r in self.regs if r.is_arg]

    @property
    def streams(self) -> list[MemoryPort]:
        """The AXI4-Stream arguments, in argument order."""
        return sorted((m for m in self.interface.memories if m.stream and m.arg_index is not None),
                      key=lambda m: m.arg_index)

    def all_args(self) -> list[Reg | MemoryPort]:
        """Every C argument in order: registers and streams (kernel.xml's ``id``)."""
        return sorted([*self.args, *self.streams], key=lambda a: a.arg_index)

    def arg_id(self, a: Reg | MemoryPort) -> int:
        return next(i for i, x in enumerate(self.all_args()) if x.arg_index == a.arg_index)

    @property
    def ret(self) -> Reg | None:
        return next((r for r in self.regs if r.kind == "return"), None)

    def port_of(self, r: Reg) -> str:
        if r.kind == "pointer":
            return f"m_axi_{self.bundle_of[r.name]}"
        return S_AXI_CONTROL

    def memory_of(self, r: Reg) -> MemoryPort:
        return next(m for m in self.interface.memories if m.arg_index == r.arg_index)


# ----------------------------------------------------------------------------- C types

_INT_NAMES = {1: "char", 2: "short", 4: "int", 8: "long long"}
_INT_STDINT = {1: "int8_t", 2: "int16_t", 4: "int32_t", 8: "int64_t"}


def _host_bytes(width: int) -> int:
    for n in (1, 2, 4, 8):
        if width <= 8 * n:
            return n
    return 4 * ((width + 31) // 32)


def c_type(r: Reg) -> str:
    """The C type of an argument register as kernel.xml names it: the declared one
    (:class:`hls.interface.CType`; a pointer's element type with ``*``) when the flow
    knows it, else one of the register's width (pointers: of the element's bytes)."""
    if r.ctype is not None:
        return r.ctype.name + ("*" if r.kind == "pointer" else "")
    if r.kind == "pointer":
        return f"{_INT_NAMES[r.elem_bytes]}*" if r.elem_bytes in _INT_NAMES else "unsigned char*"
    n = _host_bytes(r.width)
    if n > 8:
        return f"ap_uint<{r.width}>"
    base = _INT_NAMES[n]
    return base if r.signed else f"unsigned {base}"


def _host_size(r: Reg) -> int:
    """kernel.xml's ``hostSize``: the bytes the host passes (a pointer: 8)."""
    if r.kind == "pointer":
        return 8
    return r.ctype.size if r.ctype is not None else _host_bytes(r.width)


def _stdint(r: Reg) -> str:
    """The host C++ type holding an argument (pointers: one element, or one byte of an
    element without a C++ type of its own, see :func:`_bytes_per_elem`)."""
    t = r.ctype
    if r.kind == "pointer" and t is not None and t.kind == "bool":
        return "uint8_t"        # a std::vector<bool> is packed bits, without data()
    if t is not None and t.host is not None:
        return t.host
    if r.kind == "pointer":
        if t is not None:
            return "uint8_t"
        return _INT_STDINT.get(r.elem_bytes, "uint8_t")
    if _bytes_value(r):             # a struct, an ap_uint<100>: its bytes
        return f"std::array<uint8_t, {_bytes_value(r)}>"
    n = _host_bytes(r.width)
    return f"{'' if r.signed else 'u'}int{8 * n}_t"


def _bytes_value(r: Reg) -> int:
    """A scalar or return value the host holds as its bytes (a struct by value, an
    integer of more than 64 bits): how many (``sizeof``, else the register's); else 0.
    ``xrt::run::set_arg`` copies them into the argument's register words as
    ``clSetKernelArg`` does."""
    if r.kind == "pointer":
        return 0
    t = r.ctype
    if t is not None and t.host is None:
        return t.size
    n = _host_bytes(r.width)
    return n if n > 8 else 0


def _bytes_per_elem(r: Reg) -> int:
    """A pointer whose element type has no C++ type of its own (a struct, a union):
    the host moves each element as this many bytes (``sizeof``); else 1."""
    t = r.ctype
    return t.size if t is not None and t.host is None else 1


def _elem_count(k: VitisKernel, r: Reg) -> int:
    """C elements of a pointer argument's buffer."""
    size = k.memory_of(r).whole_bytes
    eb = r.ctype.size if r.ctype is not None else (
        r.elem_bytes if r.elem_bytes in _INT_STDINT else 1)
    return -(-size // eb)


def _is_float(r: Reg) -> bool:
    return r.ctype is not None and r.ctype.kind == "float" and r.ctype.host is not None


# ----------------------------------------------------------------------------- kernel.xml

def kernel_xml(k: VitisKernel) -> str:
    """``kernel.xml`` text (UTF-8 declaration, two-space indentation)."""
    root = ET.Element("root", {"versionMajor": "1", "versionMinor": "6"})
    kern = ET.SubElement(root, "kernel", {
        "name": k.name,
        "language": "ip_c",
        "vlnv": f"{k.vendor}:{k.library}:{k.name}:{k.version}",
        "attributes": "",
        "preferredWorkGroupSizeMultiple": "0",
        "workGroupSize": "1",
        "interrupt": "true",
        "hwControlProtocol": "ap_ctrl_hs",
    })
    ports = ET.SubElement(kern, "ports")
    ET.SubElement(ports, "port", {
        "name": S_AXI_CONTROL, "mode": "slave", "range": f"0x{CONTROL_RANGE:X}",
        "dataWidth": "32", "portType": "addressable", "base": "0x0"})
    for p in k.m_axi:
        ET.SubElement(ports, "port", {
            "name": p.port, "mode": "master", "range": f"0x{(1 << p.address_width) - 1:X}",
            "dataWidth": str(p.data_width), "portType": "addressable", "base": "0x0"})
    for st in k.streams:
        ET.SubElement(ports, "port", {
            "name": st.name, "mode": "read_only" if st.stream == "in" else "write_only",
            "dataWidth": str(8 * st.word_bytes), "portType": "stream"})
    args = ET.SubElement(kern, "args")
    for i, r in enumerate(k.all_args()):
        if isinstance(r, MemoryPort):         # an AXI4-Stream: no register
            t = r.ctype
            elem = (t.host if t is not None and t.host is not None and t.size == r.word_bytes
                    else _INT_STDINT[r.word_bytes] if r.word_bytes in _INT_STDINT
                    else f"ap_uint<{8 * r.word_bytes}>")
            ET.SubElement(args, "arg", {
                "name": r.name, "addressQualifier": "4", "id": str(i), "port": r.name,
                "size": "0x4", "offset": "0x0", "hostOffset": "0x0", "hostSize": "0x4",
                "type": f"stream<{elem}>&",
            })
            continue
        ptr = r.kind == "pointer"
        ET.SubElement(args, "arg", {
            "name": r.name,
            "addressQualifier": "1" if ptr else "0",
            "id": str(i),
            "port": k.port_of(r),
            "size": f"0x{4 * r.words:X}",
            "offset": f"0x{r.offset:X}",
            "hostOffset": "0x0",
            "hostSize": f"0x{_host_size(r):X}",
            "type": c_type(r),
        })
    ET.indent(root, "  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ----------------------------------------------------------------------------- C header

def _macro(s: str) -> str:
    return re.sub(r"\W", "_", s).upper()


def header_name(k: VitisKernel) -> str:
    """Vitis names the header ``x<kernel>_hw.h``."""
    return f"x{k.name.lower()}_hw.h"


def header_prefix(k: VitisKernel) -> str:
    return f"X{_macro(k.name)}_CONTROL"


def header_macros(k: VitisKernel) -> dict[str, int]:
    """Macro name -> value of every ``#define`` in :func:`c_header` (tests use it)."""
    p = header_prefix(k)
    out = {f"{p}_ADDR_AP_CTRL": 0x00, f"{p}_ADDR_GIE": 0x04, f"{p}_ADDR_IER": 0x08,
           f"{p}_ADDR_ISR": 0x0C}
    for r in k.regs:
        if r.kind == "return":
            out[f"{p}_ADDR_AP_RETURN"] = r.offset
            out[f"{p}_BITS_AP_RETURN"] = r.width
        elif r.is_arg:
            out[f"{p}_ADDR_{_macro(r.name)}_DATA"] = r.offset
            out[f"{p}_BITS_{_macro(r.name)}_DATA"] = r.width
    out.update({f"{p}_AP_START": AP_START, f"{p}_AP_DONE": AP_DONE, f"{p}_AP_IDLE": AP_IDLE,
                f"{p}_AP_READY": AP_READY, f"{p}_AUTO_RESTART": AUTO_RESTART,
                f"{p}_INTERRUPT": CTRL_INTERRUPT})
    return out


def c_header(k: VitisKernel) -> str:
    """The ``x<kernel>_hw.h`` register-map header, in Vitis HLS's format."""
    p = header_prefix(k)
    lines = [
        f"// {k.name}: s_axi_control register map (generated by pyhls, Vitis HLS layout)",
        "// 0x00 : Control signals",
        "//        bit 0  - ap_start (Read/Write/COH)",
        "//        bit 1  - ap_done (Read/COR)",
        "//        bit 2  - ap_idle (Read)",
        "//        bit 3  - ap_ready (Read/COR)",
        "//        bit 7  - auto_restart (Read/Write)",
        "//        bit 9  - interrupt (Read)",
        "//        others - reserved",
        "// 0x04 : Global Interrupt Enable Register",
        "//        bit 0  - Global Interrupt Enable (Read/Write)",
        "//        others - reserved",
        "// 0x08 : IP Interrupt Enable Register (Read/Write)",
        "//        bit 0  - enable ap_done interrupt (Read/Write)",
        "//        bit 1  - enable ap_ready interrupt (Read/Write)",
        "//        others - reserved",
        "// 0x0c : IP Interrupt Status Register (Read/TOW)",
        "//        bit 0  - ap_done (Read/TOW)",
        "//        bit 1  - ap_ready (Read/TOW)",
        "//        others - reserved",
    ]
    for r in k.regs:
        if r.kind not in ("return", "scalar", "pointer"):
            continue
        mode = "Read" if r.kind == "return" else "Read/Write"
        # the declared C type, where the flow knows it (a pointer: its buffer's address)
        typed = f" ({c_type(r)})" if r.ctype is not None else ""
        for w in range(r.words):
            lo, hi = 32 * w, min(32 * w + 31, r.width - 1)
            lines.append(f"// 0x{r.offset + 4 * w:02x} : Data signal of {r.name}{typed}")
            lines.append(f"//        bit {hi - lo}~0 - {r.name}[{hi}:{lo}] ({mode})")
            if hi - lo < 31:
                lines.append("//        others - reserved")
        lines.append(f"// 0x{r.offset + 4 * r.words:02x} : reserved")
    lines.append("// (SC = Self Clear, COR = Clear on Read, TOW = Toggle on Write, "
                 "COH = Clear on Handshake)")
    lines.append("")
    guard = f"{p}_HW_H"
    lines += [f"#ifndef {guard}", f"#define {guard}", ""]
    macros = header_macros(k)
    width = max(len(n) for n in macros)
    for name, value in macros.items():
        if name == f"{p}_AP_START":
            lines.append("")
            lines.append("/* bits of the control register (ADDR_AP_CTRL) */")
        lines.append(f"#define {name:<{width}} 0x{value:02x}" if "_BITS_" not in name
                     else f"#define {name:<{width}} {value}")
    lines += ["", f"#endif /* {guard} */", ""]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- package_xo.tcl

def package_xo_tcl(k: VitisKernel, sources: Sequence[str], *, part: str | None = None) -> str:
    """A Vivado batch script packaging the RTL (``sources``, paths relative to the
    script's directory) as an IP and then as ``<kernel>.xo`` with ``package_xo``.

    Run: ``vivado -mode batch -source package_xo.tcl [-tclargs OUT.xo]``."""
    n = k.name
    srcs = " ".join(f"[file join $root {{{s}}}]" for s in sources)
    lines = [
        f"# Package the pyhls RTL kernel {n} as a Vitis .xo (generated by pyhls).",
        "# usage: vivado -mode batch -source package_xo.tcl [-tclargs <out.xo>]",
        "set root [file dirname [file normalize [info script]]]",
        f"set kernel_name {n}",
        f"set xo_path [file join $root {n}.xo]",
        "if {$::argc > 0} { set xo_path [lindex $::argv 0] }",
        "set ip_dir [file join $root packaged_kernel]",
        "set tmp_dir [file join $root _kernel_pack]",
        "",
        "create_project -force kernel_pack $tmp_dir" + (f" -part {part}" if part else ""),
        f"add_files -norecurse [list {srcs}]",
        "set_property top $kernel_name [current_fileset]",
        "update_compile_order -fileset sources_1",
        "",
        f"ipx::package_project -root_dir $ip_dir -vendor {k.vendor} -library {k.library} "
        "-taxonomy /KernelIP -import_files -set_current false",
        "ipx::unload_core [file join $ip_dir component.xml]",
        "ipx::edit_ip_in_project -upgrade true -name tmp_edit_project -directory $ip_dir "
        "[file join $ip_dir component.xml]",
        "set core [ipx::current_core]",
        f"set_property version {k.version} $core",
        "set_property core_revision 1 $core",
        "foreach up [ipx::get_user_parameters -of_objects $core] {",
        "  ipx::remove_user_parameter [get_property NAME $up] $core",
        "}",
        "set_property sdx_kernel true $core",
        "set_property sdx_kernel_type rtl $core",
        "set_property vitis_drc {ctrl_protocol ap_ctrl_hs} $core",
        "set_property ipi_drc {ignore_freq_hz true} $core",
        "",
        "# clock, reset and the interfaces clocked by ap_clk",
        "ipx::infer_bus_interface ap_clk xilinx.com:signal:clock_rtl:1.0 $core",
        "ipx::infer_bus_interface ap_rst_n xilinx.com:signal:reset_rtl:1.0 $core",
        "ipx::infer_bus_interface interrupt xilinx.com:signal:interrupt_rtl:1.0 $core",
        f"ipx::associate_bus_interfaces -busif {S_AXI_CONTROL} -clock ap_clk $core",
    ]
    for p in k.m_axi:
        lines.append(f"ipx::associate_bus_interfaces -busif {p.port} -clock ap_clk $core")
    lines += [
        "ipx::associate_bus_interfaces -clock ap_clk -reset ap_rst_n $core",
        "",
        "# the register map (the same as kernel.xml's offsets)",
        f"set mm [ipx::add_memory_map -quiet {S_AXI_CONTROL} $core]",
        f"set_property slave_memory_map_ref {S_AXI_CONTROL} "
        f"[ipx::get_bus_interfaces {S_AXI_CONTROL} -of_objects $core]",
        "set ab [ipx::add_address_block -quiet reg0 $mm]",
        f"set_property range 0x{CONTROL_RANGE:x} $ab",
        "proc add_reg {ab name offset size {busif {}}} {",
        "  set reg [ipx::add_register -quiet $name $ab]",
        "  set_property address_offset $offset $reg",
        "  set_property size $size $reg",
        "  if {$busif ne {}} {",
        "    set prm [ipx::add_register_parameter -quiet ASSOCIATED_BUSIF $reg]",
        "    set_property value $busif $prm",
        "  }",
        "}",
        "add_reg $ab CTRL 0x000 32",
        "add_reg $ab GIER 0x004 32",
        "add_reg $ab IP_IER 0x008 32",
        "add_reg $ab IP_ISR 0x00C 32",
    ]
    for r in k.regs:
        if r.kind == "return":
            lines.append(f"add_reg $ab ap_return 0x{r.offset:03X} {32 * r.words}")
        elif r.is_arg:
            busif = f" {k.port_of(r)}" if r.kind == "pointer" else ""
            lines.append(f"add_reg $ab {r.name} 0x{r.offset:03X} {32 * r.words}{busif}")
    lines += [
        "",
        "ipx::create_xgui_files $core",
        "ipx::update_checksums $core",
        "ipx::check_integrity -kernel $core",
        "ipx::save_core $core",
        "close_project -delete",
        "",
        "package_xo -force -xo_path $xo_path -kernel_name $kernel_name -ip_directory $ip_dir "
        "-kernel_xml [file join $root kernel.xml]",
        "",
    ]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- connectivity.cfg

def connectivity_cfg(k: VitisKernel, memory: str | Mapping[str, str] = "HBM[0]",
                     count: int = 1) -> str:
    """A ``v++ --link --config`` example: ``count`` compute units, every m_axi bundle
    on ``memory`` (a bank such as ``HBM[0]`` or ``DDR[0]``, or bundle -> bank)."""
    lines = ["# v++ --link --config connectivity.cfg (generated by pyhls; adjust the banks",
             "# to the platform: HBM[0..31] on U280/U55C, DDR[0..3] on U250)",
             "[connectivity]",
             f"nk={k.name}:{count}:" + ".".join(f"{k.name}_{i + 1}" for i in range(count))]
    for i in range(count):
        for p in k.m_axi:
            bank = memory if isinstance(memory, str) else memory[p.bundle]
            lines.append(f"sp={k.name}_{i + 1}.{p.port}:{bank}")
        for st in k.streams:
            if st.stream == "in":
                lines.append(f"# stream_connect=<producer>_1.<out_port>:{k.name}_{i + 1}.{st.name}")
            else:
                lines.append(f"# stream_connect={k.name}_{i + 1}.{st.name}:<consumer>_1.<in_port>")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- XRT host

def host_cpp(k: VitisKernel) -> str:
    """An XRT native-API (C++) host example: one ``xrt::bo`` per pointer argument, sync
    to the device, run with the arguments in order, wait, sync back, compare with the
    output of a reference function the user fills in.

    Buffers are vectors of the arguments' declared C element types (``float``,
    ``int16_t``, ...: :class:`hls.interface.CType`); an element type without a C++ type
    of its own (a struct, a union) is moved as its ``sizeof`` bytes.  A scalar is passed
    as a value of its C type (``float scale``): ``xrt::run::set_arg`` copies its bytes
    into the register, as ``clSetKernelArg`` does; a float return value is its bits read
    back from ``ap_return``.  Without declared types, the types of the widths."""
    args = k.args
    ptrs = [r for r in args if r.kind == "pointer"]
    scal = [r for r in args if r.kind == "scalar"]
    ret = k.ret
    hdr = header_name(k)
    P = header_prefix(k)
    ref_params = []
    for r in args:
        t = _stdint(r)
        ref_params.append(f"{t} *{r.name}" if r.kind == "pointer" else f"{t} {r.name}")
    ret_t = _stdint(ret) if ret is not None else "void"

    def length(r: Reg) -> str:        # host values in a pointer's buffer
        n = f"{r.name.upper()}_COUNT"
        return n if _bytes_per_elem(r) == 1 else f"{n} * {r.name.upper()}_ELEM_BYTES"

    def shown(r: Reg, v: str) -> str:  # a value as std::cerr prints it
        if _bytes_value(r):
            return f"hex_bytes({v})"
        return f"(double){v}" if _is_float(r) else f"(long long){v}"

    def differ(r: Reg, a: str, b: str) -> str:
        if _is_float(r):               # NaNs compare equal, whatever their payload
            return f"!({a} == {b} || (std::isnan({a}) && std::isnan({b})))"
        return f"{a} != {b}"

    L: list[str] = []
    a = L.append
    a(f"// XRT host example for the pyhls RTL kernel {k.name} (generated by pyhls).")
    a("// Build: g++ -std=c++17 host.cpp -I$XILINX_XRT/include -L$XILINX_XRT/lib "
      "-lxrt_coreutil -pthread -o host")
    a(f"// Run:   ./host {k.name}.xclbin")
    if any(_bytes_value(r) for r in args + ([ret] if ret is not None else [])):
        a("#include <algorithm>")
        a("#include <array>")
    a("#include <cmath>")
    a("#include <cstdint>")
    a("#include <cstdio>")
    a("#include <cstring>")
    a("#include <iostream>")
    a("#include <string>")
    a("#include <vector>")
    a("")
    a("#include <xrt/xrt_bo.h>")
    a("#include <xrt/xrt_device.h>")
    a("#include <xrt/xrt_kernel.h>")
    a("")
    a(f'#include "{hdr}"')
    a("")
    if ret is not None and _bytes_value(ret):
        a("// a value held as its bytes (a struct, an integer of more than 64 bits), shown")
        a("// in hexadecimal, most significant byte first")
        a("template <size_t N> static std::string hex_bytes(const std::array<uint8_t, N> &v) {")
        a('    std::string s = "0x";')
        a('    for (size_t i = N; i-- > 0;) { char b[3]; std::snprintf(b, 3, "%02x", v[i]); s += b; }')
        a("    return s;")
        a("}")
        a("")
    for r in ptrs:
        mem = k.memory_of(r)
        a(f"static const size_t {r.name.upper()}_COUNT = {_elem_count(k, r)};  "
          f"// elements of {r.name} ({mem.whole_bytes} bytes)")
        if _bytes_per_elem(r) > 1:
            a(f"static const size_t {r.name.upper()}_ELEM_BYTES = {_bytes_per_elem(r)};  "
              f"// sizeof({r.ctype.name}): {r.name} moves as bytes")
    a("")
    a("// ======================================================================")
    a("// USER: fill in.  The C function the kernel was synthesised from, run on")
    a("// the host, computes the expected outputs in place (pointer arguments) and")
    a("// the expected return value.  Replace the body with a call of that function.")
    a("// Return false to skip the comparison (as this placeholder does).")
    a("// ======================================================================")
    for r in ptrs:
        if _bytes_per_elem(r) > 1:
            a(f"// {r.name}: {r.name.upper()}_COUNT elements of {r.ctype.name} as bytes: pass "
              f"({r.ctype.name} *){r.name}")
    params = ", ".join(ref_params + ([f"{ret_t} *ret"] if ret is not None else []))
    a(f"static bool reference_{k.name}({params or 'void'}) {{")
    for r in args:
        a(f"    (void){r.name};")
    if ret is not None:
        a("    (void)ret;")
    a(f"    // e.g.: {'*ret = ' if ret is not None else ''}{k.interface.function}"
      f"({', '.join(r.name for r in args)});")
    a("    return false;  // USER: return true once the reference is filled in")
    a("}")
    a("")
    a("// USER: fill in the input values (scalars and the initial buffer contents).")
    a("static void init_inputs(" + ", ".join(
        [f"{_stdint(r)} *{r.name}" for r in scal] + [f"std::vector<{_stdint(r)}> &{r.name}"
                                                    for r in ptrs]) + ") {")
    for r in scal:
        a(f"    *{r.name} = {{}};  // USER" if _bytes_value(r) else f"    *{r.name} = 0;  // USER")
    for r in ptrs:
        a(f"    for (size_t i = 0; i < {r.name}.size(); ++i) {r.name}[i] = "
          f"({_stdint(r)})i;  // USER")
    a("}")
    a("")
    a("int main(int argc, char **argv) {")
    a("    if (argc < 2) {")
    a('        std::cerr << "usage: " << argv[0] << " <xclbin> [device index]\\n";')
    a("        return 2;")
    a("    }")
    a("    unsigned index = argc > 2 ? std::stoul(argv[2]) : 0;")
    a("    xrt::device device(index);")
    a("    auto uuid = device.load_xclbin(argv[1]);")
    if ret is not None:
        a("    // exclusive access lets the host read ap_return from the control registers")
        a(f'    xrt::kernel krnl(device, uuid, "{k.name}", '
          "xrt::kernel::cu_access_mode::exclusive);")
    else:
        a(f'    xrt::kernel krnl(device, uuid, "{k.name}");')
    a("")
    for r in scal:
        a(f"    {_stdint(r)} {r.name};")
    for r in ptrs:
        a(f"    std::vector<{_stdint(r)}> {r.name}_host({length(r)});")
    a("    init_inputs(" + ", ".join([f"&{r.name}" for r in scal] + [f"{r.name}_host"
                                                                     for r in ptrs]) + ");")
    a("")
    for r in ptrs:
        i = k.arg_id(r)
        t = _stdint(r)
        a(f"    xrt::bo {r.name}_bo(device, {r.name}_host.size() * sizeof({t}), "
          f"krnl.group_id({i}));")
        a(f"    std::memcpy({r.name}_bo.map<{t} *>(), {r.name}_host.data(), "
          f"{r.name}_bo.size());")
        a(f"    {r.name}_bo.sync(XCL_BO_SYNC_BO_TO_DEVICE);")
    a("")
    if k.streams:
        a("    // stream arguments (" + ", ".join(st.name for st in k.streams) + ") are "
          "connected at link time (connectivity.cfg), not set here")
        a("    xrt::run run(krnl);")
        for r in args:
            a(f"    run.set_arg({k.arg_id(r)}, {r.name}_bo);" if r.kind == "pointer"
              else f"    run.set_arg({k.arg_id(r)}, {r.name});")
        a("    run.start();")
    else:
        call = ", ".join(f"{r.name}_bo" if r.kind == "pointer" else r.name for r in args)
        a(f"    auto run = krnl({call});")
    a("    auto state = run.wait();")
    a("    if (state != ERT_CMD_STATE_COMPLETED) {")
    a('        std::cerr << "kernel run failed, state " << state << "\\n";')
    a("        return 1;")
    a("    }")
    for r in ptrs:
        if not k.memory_of(r).readonly:
            a(f"    {r.name}_bo.sync(XCL_BO_SYNC_BO_FROM_DEVICE);")
    if ret is not None:
        t = ret_t
        raw = f"krnl.read_register({P}_ADDR_AP_RETURN)"
        if ret.words > 1:
            raw = (f"((uint64_t){raw} |\n        ((uint64_t)krnl.read_register("
                   f"{P}_ADDR_AP_RETURN + 4) << 32))")
        if _bytes_value(ret):          # its register words, least significant first
            a(f"    {t} ret{{}};")
            a(f"    for (size_t w = 0; w < {ret.words}; ++w) {{")
            a(f"        uint32_t word = krnl.read_register({P}_ADDR_AP_RETURN + 4 * w);")
            a("        std::memcpy(ret.data() + 4 * w, &word,")
            a("                    std::min<size_t>(4, ret.size() - 4 * w));")
            a("    }")
        elif _is_float(ret):           # the register holds the value's bits
            bits = f"uint{8 * ret.ctype.size}_t"
            a(f"    {bits} ret_bits = ({bits}){raw};")
            a(f"    {t} ret;")
            a("    std::memcpy(&ret, &ret_bits, sizeof ret);")
        else:
            a(f"    {t} ret = ({t}){raw};")
    a("")
    a("    // expected values: the reference applied to copies of the inputs")
    for r in ptrs:
        a(f"    std::vector<{_stdint(r)}> {r.name}_expected = {r.name}_host;")
    ref_args = [f"{r.name}_expected.data()" if r.kind == "pointer" else r.name for r in args]
    if ret is not None:
        a(f"    {ret_t} ret_expected{{}};")
        ref_args.append("&ret_expected")
    a(f"    if (!reference_{k.name}({', '.join(ref_args)})) {{")
    a('        std::cout << "kernel ran; no reference filled in, outputs not checked\\n";')
    a("        return 0;")
    a("    }")
    a("    size_t errors = 0;")
    for r in ptrs:
        t = _stdint(r)
        n = r.name
        a(f"    const {t} *{n}_out = {n}_bo.map<const {t} *>();")
        a(f"    for (size_t i = 0; i < {n}_expected.size(); ++i)")
        a(f"        if ({differ(r, f'{n}_out[i]', f'{n}_expected[i]')}) {{")
        what = f"{n}[" if _bytes_per_elem(r) == 1 else f"{n} byte ["
        a(f'            if (errors < 10) std::cerr << "{what}" << i << "] = " '
          f"<< {shown(r, f'{n}_out[i]')} << \", expected \" << {shown(r, f'{n}_expected[i]')} "
          '<< "\\n";')
        a("            ++errors;")
        a("        }")
    if ret is not None:
        a(f"    if ({differ(ret, 'ret', 'ret_expected')}) {{")
        a(f'        std::cerr << "return value " << {shown(ret, "ret")} << ", expected " '
          f'<< {shown(ret, "ret_expected")} << "\\n";')
        a("        ++errors;")
        a("    }")
    a('    std::cout << (errors ? "TEST FAILED" : "TEST PASSED") << "\\n";')
    a("    return errors ? 1 : 0;")
    a("}")
    return "\n".join(L) + "\n"


# ----------------------------------------------------------------------------- writer

def write_vitis_package(outdir: str | Path, interface: TopInterface, *,
                        verilog: str | None = None, sources: Sequence[str] = (),
                        m_axi: Iterable = (), bundles: Mapping[str, str] | None = None,
                        memory: str | Mapping[str, str] = "HBM[0]", part: str | None = None,
                        vendor: str = "pyhls.org", version: str = "1.0") -> dict[str, Path]:
    """Write the Vitis packaging files of ``interface`` into ``outdir``:
    ``kernel.xml``, ``x<kernel>_hw.h``, ``package_xo.tcl``, ``connectivity.cfg``,
    ``host.cpp`` and, when ``verilog`` text is given, ``<kernel>.v``.

    ``sources``: RTL files (relative to ``outdir``) that ``package_xo.tcl`` reads; by
    default ``<kernel>.v``.  Returns the role -> path of each file written."""
    k = VitisKernel.build(interface, m_axi, bundles, vendor=vendor, version=version)
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    rtl = f"{k.name}.v"
    if verilog is not None:
        files["verilog"] = out / rtl
        files["verilog"].write_text(verilog)
    texts = {
        "kernel_xml": ("kernel.xml", kernel_xml(k)),
        "header": (header_name(k), c_header(k)),
        "package_xo": ("package_xo.tcl", package_xo_tcl(k, list(sources) or [rtl], part=part)),
        "connectivity": ("connectivity.cfg", connectivity_cfg(k, memory)),
        "host": ("host.cpp", host_cpp(k)),
    }
    for role, (name, text) in texts.items():
        files[role] = out / name
        files[role].write_text(text)
    return files


def control_map_summary(k: VitisKernel) -> str:
    """One line per register (``0x18 a 32 RW``): a stable text dump for reports/tests."""
    return "\n".join(f"0x{r.offset:02x} {r.name} {r.width} {r.access}" for r in k.regs) + \
        f"\naddr_width {control_addr_width(k.regs)}\n"
