"""Where a boardai command spends its time inside numba's compiled code, instruction by
instruction, on a machine with no hardware counters (a virtual machine): perf samples the
CPU clock, and the compiled code, which perf cannot see (it lives in anonymous memory that
llvmlite maps), is read back from the process's memory as the command ends and disassembled
at its own addresses.

    python benchmarks/jit_profile.py [--out DIR] [--freq HZ] -- BOARDAI ARGS...

for example

    python benchmarks/jit_profile.py --out runs/prof -- 2048 bench ntuple --patterns 4x6 \\
        --episodes 5000 --repeat 1 --seed 1 --method online-fast

writes DIR/profile.txt: the executable regions that hold samples, then the instructions of
the hottest (``--regions K``: of the K hottest), each with its sample count and its share,
and its hottest 128-byte blocks (a kernel's phases, read against the listing). Needs
``perf`` (Debian's linux-perf) and ``objdump`` (binutils). Read the counts with the usual
skid: a sample lands on the instruction after the one that waited (after a load that missed,
or a prefetch that found no free miss buffer).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
from pathlib import Path


def _dump_code(out: Path) -> None:
    """Copy every executable anonymous mapping of this process into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
        for line in maps:
            parts = line.split()
            path = parts[5] if len(parts) > 5 else ""
            if "x" not in parts[1] or path:
                continue  # not code, or a file's (perf names those itself)
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            try:
                mem.seek(lo)
                code = mem.read(hi - lo)
            except (OSError, OverflowError, ValueError):
                continue
            (out / f"{lo:x}-{hi:x}.bin").write_bytes(code)


def _child(out: Path, args: list[str]) -> int:
    from boardai.cli import main

    rc = main(args)
    _dump_code(out)
    return rc


def _listing(region: Path, lo: int) -> list[tuple[int, str]]:
    text = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-mi386:x86-64", f"--adjust-vma={lo:#x}", str(region)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\t(?:[0-9a-f]{2} )+\s*\t(.*)", line)
        if m:
            rows.append((int(m[1], 16), m[2].strip()))
    return rows


def _report(out: Path, data: Path, listed: int) -> str:
    script = subprocess.run(
        ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True, check=True
    ).stdout
    ips = collections.Counter(int(x, 16) for x in script.split())
    regions = []
    for f in out.glob("*.bin"):
        lo, hi = (int(x, 16) for x in f.stem.split("-"))
        n = sum(c for ip, c in ips.items() if lo <= ip < hi)
        if n:
            regions.append((n, lo, hi, f))
    total = sum(ips.values())
    lines = [f"{total:,} samples; in compiled code:"]
    regions.sort(reverse=True)
    for n, lo, hi, _ in regions:
        lines.append(f"  {lo:#x}-{hi:#x}: {n:,} ({100 * n / total:.1f}%)")
    if not regions:
        return "\n".join([*lines, "  none"])
    for n_top, lo, _, path in regions[:listed]:
        listing = _listing(path, lo)
        blocks: collections.Counter[int] = collections.Counter()
        for addr, _ in listing:
            blocks[addr // 128 * 128] += ips.get(addr, 0)
        lines.append(f"\nhottest 128-byte blocks of {lo:#x} (share of its {n_top:,} samples):")
        for addr, c in blocks.most_common(24):
            if c:
                lines.append(f"  +{addr - lo:#07x}: {c:6,} ({100 * c / n_top:.1f}%)")
        lines.append(f"\ninstructions of {lo:#x} (offset, samples, share):")
        for addr, text in listing:
            c = ips.get(addr, 0)
            lines.append(f"  +{addr - lo:#07x} {c:6}  {100 * c / n_top:5.1f}%  {text}")
    return "\n".join(lines)


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        return _child(Path(sys.argv[2]), sys.argv[4:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("runs/jit-profile"))
    parser.add_argument("--freq", type=int, default=10000, help="samples a second (default 10000)")
    parser.add_argument(
        "--regions", type=int, default=1, help="regions listed, hottest first (default 1)"
    )
    parser.add_argument("args", nargs=argparse.REMAINDER, help="-- then boardai's arguments")
    opts = parser.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    if not args:
        parser.error("give the boardai command after --")
    code, data = opts.out / "code", opts.out / "perf.data"
    code.mkdir(parents=True, exist_ok=True)
    for f in code.glob("*.bin"):
        f.unlink()
    cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", str(opts.freq), "-o", str(data)]
    cmd += ["--", sys.executable, __file__, "--child", str(code), "--", *args]
    rc = subprocess.run(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"}).returncode
    (opts.out / "profile.txt").write_text(_report(code, data, opts.regions) + "\n")
    print(f"{opts.out / 'profile.txt'} written (the command's exit code {rc})")
    return rc


if __name__ == "__main__":
    sys.exit(main())
