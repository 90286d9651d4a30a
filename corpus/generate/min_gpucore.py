"""Minimizes an NVIDIA GPU core dump (cudacore ELF) against an oracle, as min_core.py does a CPU core.

Every section header is kept. The tables (devices, contexts, SMs, grids, blocks, warps, lanes,
modules, metadata) and the string tables are always kept whole. The data of the other sections
(device memory: .cudbg.global/local/shared/param, registers, predicates, cubin images) is emptied
(sh_size 0, bytes removed) by bisection over groups of sections (delta debugging), a group only when
ORACLE (a command, exit status 0 = the analyzer's output is unchanged) still accepts the dump; what
cannot be emptied is then zeroed in place, the same way (zeros compress to nothing).

Usage: min_gpucore.py SRC DST ORACLE...   (DST is where ORACLE expects the GPU core)
"""
import struct, subprocess, sys

TABLES = {0x80000009, 0x8000000A, 0x8000000B, 0x8000000C, 0x8000000D, 0x8000000E, 0x8000000F,
          0x80000010, 0x80000016}
SHT_STRTAB, SHT_NOBITS = 3, 8


def parse(b):
    shoff, = struct.unpack_from("<Q", b, 40)
    shnum, = struct.unpack_from("<H", b, 60)
    first = list(struct.unpack_from("<IIQQQQIIQQ", b, shoff))
    if shnum == 0:  # extended numbering: the count in section 0's sh_size, the index in sh_link
        shnum = first[5]
    return [list(struct.unpack_from("<IIQQQQIIQQ", b, shoff + 64 * i)) for i in range(shnum)]


def write(b, sh, action, dst):
    """action: section index -> "empty" or "zero"."""
    out = bytearray(b[:64])
    new = [list(s) for s in sh]
    for i in sorted(range(1, len(sh)), key=lambda i: sh[i][4]):
        s, q = sh[i], new[i]
        align = max(1, s[8])
        out += bytes(-len(out) % align)
        q[4] = len(out)
        if action.get(i) == "empty":
            q[5] = 0
        elif s[1] != SHT_NOBITS:
            out += bytes(s[5]) if action.get(i) == "zero" else b[s[4]:s[4] + s[5]]
    out += bytes(-len(out) % 8)
    struct.pack_into("<Q", out, 40, len(out))
    for q in new:
        out += struct.pack("<IIQQQQIIQQ", *q)
    open(dst, "wb").write(out)
    return len(out)


def ddmin(test, candidates, done):
    if not candidates:
        return
    if test(done | set(candidates)):
        done.update(candidates); return
    if len(candidates) == 1:
        return
    half = len(candidates) // 2
    ddmin(test, candidates[:half], done)
    ddmin(test, candidates[half:], done)


def main(argv):
    src, dst, oracle = argv[0], argv[1], argv[2:]
    b = open(src, "rb").read()
    sh = parse(b)
    runs = [0]
    todo = [i for i, s in enumerate(sh)
            if i and s[5] and s[1] not in TABLES and s[1] != SHT_STRTAB and s[1] != SHT_NOBITS]
    emptied, zeroed = set(), set()

    def test_with(emptied, zeroed):
        action = {i: "zero" for i in zeroed}
        action.update({i: "empty" for i in emptied})
        write(b, sh, action, dst); runs[0] += 1
        return subprocess.run(oracle).returncode == 0

    ddmin(lambda e: test_with(e, zeroed), todo, emptied)
    ddmin(lambda z: test_with(emptied, z), [i for i in todo if i not in emptied], zeroed)
    if not test_with(emptied, zeroed):
        sys.exit("the final dump fails the oracle")
    size = len(open(dst, "rb").read())
    kept = [i for i in todo if i not in emptied | zeroed]
    shstrndx, = struct.unpack_from("<H", b, 62)
    strtab = sh[sh[0][6] if shstrndx == 0xFFFF else shstrndx]
    name = lambda i: b[strtab[4] + sh[i][0]:].split(b"\0", 1)[0].decode()
    kinds = {}
    for i in emptied:
        kinds[name(i).split(".")[2]] = kinds.get(name(i).split(".")[2], 0) + 1
    print(f"{src}: {len(b)} -> {size} bytes, {runs[0]} tries; {len(sh)} sections, "
          f"{len(todo)} with data tried: {len(emptied)} emptied "
          f"({sum(sh[i][5] for i in emptied)} bytes), {len(zeroed)} zeroed "
          f"({sum(sh[i][5] for i in zeroed)} bytes), {len(kept)} kept "
          f"({sum(sh[i][5] for i in kept)} bytes: {' '.join(name(i) for i in kept[:16])}); emptied by kind: {' '.join(f'{k}={v}' for k, v in sorted(kinds.items()))}")
    return sh, emptied, zeroed, kept


if __name__ == "__main__":
    main(sys.argv[1:])
