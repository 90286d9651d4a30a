"""Minimizes an x86-64 ELF core against an oracle: drops the memory the analysis does not read.

Always kept: every PT_NOTE; each thread's stack from one page below its stack pointer (rounded
down to a page) to the end of its segment; the first page of each file mapping at file offset 0
that holds an ELF header (build ids, program headers); the pages libdwfl's link-map walk reads
(AT_PHDR's program headers, PT_DYNAMIC, r_debug, each link_map entry and its name). Everything
else in the PT_LOADs is dropped by bisection over groups of segments (delta debugging), address
order: a group is dropped only when ORACLE (a command, exit status 0 = the analyzer's output is
unchanged) still accepts the core.
Dropped data keeps its header with p_filesz = 0, as in a truncated core; a segment whose kept data
does not start at its start is split into two headers (the lower one with p_filesz 0). With
--zero, dropped data is zeroed in place instead: every header, offset and the file size stay as
they were (for the seed cores that tests cut and patch at fixed sizes), and zeros compress away.

Usage: min_core.py [--zero] SRC DST ORACLE...   (DST is where ORACLE expects the core)
"""
import mmap, struct, subprocess, sys

PAGE = 4096


def parse(buf):
    phoff, = struct.unpack_from("<Q", buf, 32)
    phnum, = struct.unpack_from("<H", buf, 56)
    ph = [list(struct.unpack_from("<IIQQQQQQ", buf, phoff + 56 * i)) for i in range(phnum)]
    sps, files, auxv = [], [], {}
    for p in ph:
        if p[0] != 4:
            continue
        off, end = p[2], p[2] + p[5]
        while off + 12 <= end:
            namesz, descsz, typ = struct.unpack_from("<III", buf, off); off += 12
            name = bytes(buf[off:off + namesz]); off += (namesz + 3) & ~3
            d = off; off += (descsz + 3) & ~3
            if name.startswith(b"CORE") and typ == 1:  # NT_PRSTATUS: rsp
                sps.append(struct.unpack_from("<Q", buf, d + 112 + 19 * 8)[0])
            if name.startswith(b"CORE") and typ == 0x46494C45:  # NT_FILE
                count, = struct.unpack_from("<Q", buf, d)
                files += [struct.unpack_from("<QQQ", buf, d + 16 + 24 * i) for i in range(count)]
            if name.startswith(b"CORE") and typ == 6:  # NT_AUXV
                auxv.update(struct.unpack_from("<QQ", buf, d + k) for k in range(0, descsz - 15, 16))
    return ph, sps, files, auxv


def link_map(buf, ph, auxv):
    """The address ranges libdwfl's link-map walk reads: AT_PHDR's program headers, PT_DYNAMIC,
    DT_DEBUG's r_debug, each link_map entry and its l_name."""
    def at(va):
        return next((p[2] + va - p[3] for p in ph if p[0] == 1 and p[3] <= va < p[3] + p[5]), None)
    def u64(va):
        o = at(va)
        return struct.unpack_from("<Q", buf, o)[0] if o is not None and at(va + 7) else None
    read, bias, dynamic = [], 0, None
    phdr, phnum = auxv.get(3), auxv.get(5, 0)
    if phdr is None or at(phdr) is None:
        return read
    read.append((phdr, phdr + 56 * phnum))
    for k in range(phnum):
        o = at(phdr + 56 * k)
        if o is None:
            return read
        t, _, _, va, _, fsz, _, _ = struct.unpack_from("<IIQQQQQQ", buf, o)
        if t == 6: bias = phdr - va
        if t == 2: dynamic = (va, fsz)
    if dynamic is None:
        return read
    d = bias + dynamic[0]
    read.append((d, d + dynamic[1]))
    r_debug = next((u64(d + 16 * k + 8) for k in range(dynamic[1] // 16) if u64(d + 16 * k) == 21), None)
    if not r_debug:
        return read
    read.append((r_debug, r_debug + 40))
    entry, seen = u64(r_debug + 8), set()
    while entry and entry not in seen and at(entry) is not None and len(seen) < 4096:
        seen.add(entry)
        read.append((entry, entry + 40))
        name = u64(entry + 8)
        if name and at(name) is not None:
            o = at(name)
            read.append((name, name + buf.find(b"\0", o) + 1 - o))
        entry = u64(entry + 24)
    return read


def units(buf, ph, sps, files, auxv):
    """Per PT_LOAD, its dumped range cut into (start, end, forced) pieces, in address order."""
    elf_pages = {s for s, e, pgoff in files if pgoff == 0}
    pages = [(a & ~(PAGE - 1), (b + PAGE - 1) & ~(PAGE - 1)) for a, b in link_map(buf, ph, auxv)]
    out = []
    for i, (typ, _, off, va, _, fsz, msz, _) in enumerate(ph):
        if typ != 1 or fsz == 0:
            continue
        cuts = {va, va + fsz}
        keep = []
        low = [sp for sp in sps if va <= sp < va + msz]
        if low:
            lo = max(va, (min(low) & ~(PAGE - 1)) - PAGE)
            if lo < va + fsz:
                cuts.add(lo); keep.append((lo, va + fsz))
        if va in elf_pages and fsz >= PAGE and buf[off:off + 4] == b"\x7fELF":
            cuts.add(va + PAGE); keep.append((va, va + PAGE))
        for a, b in pages:
            a, b = max(a, va), min(b, va + fsz)
            if a < b:
                cuts.update((a, b)); keep.append((a, b))
        c = sorted(cuts)
        out += [(i, a, b, any(k0 <= a and b <= k1 for k0, k1 in keep)) for a, b in zip(c, c[1:])]
    return out


def write(buf, ph, pieces, dropped, dst, zero=False):
    """Writes the core with the pieces in `dropped` left out (with `zero`: zeroed in place)."""
    if zero:
        holes = sorted((ph[i][2] + a - ph[i][3], ph[i][2] + b - ph[i][3])
                       for n, (i, a, b, _) in enumerate(pieces) if n in dropped)
        with open(dst, "wb") as out:
            out.truncate(len(buf))
            pos = 0
            for a, b in holes + [(len(buf), len(buf))]:
                out.seek(pos); out.write(buf[pos:a]); pos = max(pos, b)
        return len(buf)
    kept = {}
    for n, (i, a, b, _) in enumerate(pieces):
        if n not in dropped:
            kept.setdefault(i, []).append([a, b])
    headers = []  # (phdr, source offset or None)
    for i, p in enumerate(ph):
        if p[0] != 1:
            headers.append((list(p), p[2] if p[5] else None)); continue
        runs = []
        for a, b in kept.get(i, []):
            if runs and runs[-1][1] == a:
                runs[-1][1] = b
            else:
                runs.append([a, b])
        starts = sorted({p[3]} | {a for a, _ in runs})
        ends = starts[1:] + [p[3] + p[6]]
        for s, e in zip(starts, ends):
            run = next((r for r in runs if r[0] == s), None)
            q = list(p); q[3] = s; q[6] = e - s; q[5] = run[1] - s if run else 0
            headers.append((q, p[2] + (s - p[3]) if run else None))
    pos = (64 + 56 * len(headers) + PAGE - 1) & ~(PAGE - 1)
    for q, src in headers:
        if src is not None:
            if q[0] == 1:
                pos = (pos + PAGE - 1) & ~(PAGE - 1)
            q[2] = pos; pos += q[5]
    ehdr = bytearray(buf[:64])
    struct.pack_into("<Q", ehdr, 32, 64)
    struct.pack_into("<H", ehdr, 56, len(headers))
    with open(dst, "wb") as out:
        out.write(ehdr)
        for q, src in headers:
            if src is None:
                q[2] = pos; q[5] = 0
            out.write(struct.pack("<IIQQQQQQ", *q))
        for q, src in headers:
            if src is not None:
                out.seek(q[2]); out.write(buf[src:src + q[5]])
        out.truncate(pos)
    return pos


def ddmin(test, candidates, dropped):
    """Drops as many of `candidates` as `test` allows, adding them to `dropped`."""
    if not candidates:
        return
    if test(dropped | set(candidates)):
        dropped.update(candidates); return
    if len(candidates) == 1:
        return
    half = len(candidates) // 2
    ddmin(test, candidates[:half], dropped)
    ddmin(test, candidates[half:], dropped)


def main(argv):
    zero = argv[0] == "--zero"
    src, dst, oracle = argv[zero:][0], argv[zero:][1], argv[zero:][2:]
    f = open(src, "rb")
    buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    ph, sps, files, auxv = parse(buf)
    pieces = units(buf, ph, sps, files, auxv)
    runs = [0]

    def test(dropped):
        write(buf, ph, pieces, dropped, dst, zero); runs[0] += 1
        return subprocess.run(oracle).returncode == 0

    dropped = set()
    ddmin(test, [n for n, u in enumerate(pieces) if not u[3]], dropped)
    size = write(buf, ph, pieces, dropped, dst, zero)
    if subprocess.run(oracle).returncode != 0:
        sys.exit("the final core fails the oracle")
    segs = {}
    for n, (i, a, b, forced) in enumerate(pieces):
        segs.setdefault(i, []).append("forced" if forced else "dropped" if n in dropped else "kept")
    stacks = {i for i in segs if any(ph[i][3] <= sp < ph[i][3] + ph[i][6] for sp in sps)}
    gone = [i for i, k in segs.items() if set(k) == {"dropped"}]
    heads = [i for i, k in segs.items() if i not in stacks and "forced" in k and "kept" not in k]
    kept = [i for i, k in segs.items() if i not in stacks and "kept" in k]
    kept_bytes = sum(b - a for n, (i, a, b, _) in enumerate(pieces) if n not in dropped)
    all_bytes = sum(p[5] for p in ph if p[0] == 1)
    print(f"{src}: {len(buf)} -> {size} bytes, {runs[0]} tries; of {len(segs)} PT_LOADs with "
          f"data: {len(stacks)} thread stacks cut below their stack pointers, {len(gone)} dropped "
          f"whole, {len(heads)} cut to ELF header / link-map pages, {len(kept)} kept "
          f"({sum(ph[i][5] for i in kept)} bytes); {kept_bytes} of {all_bytes} data bytes kept")


if __name__ == "__main__":
    main(sys.argv[1:])
