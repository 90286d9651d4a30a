#!/usr/bin/env python3
"""Writes each fuzz target's seed corpus, OUT/<target>/, from the real inputs of corpus/ and, when
present, ../shared/peer-inputs: packages, the ELF and wrapper entries inside them, logs, traces,
sources, and cores cut to what a fuzzer can mutate quickly (a CPU core to its headers and notes, a
GPU core without its per-lane register and memory sections). Seeds are capped in size: libFuzzer's
speed is per byte, and the parsers' own caps are tested elsewhere.

    fuzz/make_seeds.py OUT
"""
import hashlib
import io
import lzma
import os
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEER = Path(os.environ.get("AOTI_PEER_INPUTS", ROOT.parent / "shared" / "peer-inputs"))
CAP = 256 * 1024


def put(out, target, data, cap=CAP):
    data = data[:cap]
    if not data:
        return
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def windows(data, size, starts_record=lambda line: True):
    """`data` cut at line boundaries into pieces of about `size` bytes, each starting where
    `starts_record` says a record starts: small seeds keep a fuzzer fast on text formats."""
    pieces, current = [], b""
    for line in data.splitlines(keepends=True):
        if len(current) + len(line) > size and current and starts_record(line):
            pieces.append(current)
            current = b""
        current += line
    return pieces + [current] if current else pieces


def files(root, suffixes):
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in suffixes)


def decompress(path):
    if path.suffix == ".xz":
        return lzma.open(path).read()
    if path.suffix == ".zst":
        if not shutil.which("zstd"):
            return b""  # its seed is left out where the zstd tool is missing
        return subprocess.run(["zstd", "-dc", str(path)], check=True, capture_output=True).stdout
    return path.read_bytes()


def slim_package(data):
    """The package with every entry over 64 KiB cut to 64 KiB: the structure, not the bulk."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info)[: 64 * 1024])
    return out.getvalue()


def cut_cpu_core(core):
    """An x86-64 ELF core cut after its program headers, its notes and 4 KiB of each segment's start
    (what the reader's health checks and fault lookup see; the rest reads as truncated)."""
    if core[:4] != b"\x7fELF" or core[4] != 2:
        return None
    phoff, = struct.unpack_from("<Q", core, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", core, 0x36)
    end = phoff + phentsize * phnum
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", core, phoff + i * phentsize)
        if p_type == 4:  # PT_NOTE
            end = max(end, p_offset + p_filesz)
    return core[:end]


def slim_gpu_core(dump):
    """A GPU core without the sections the reader never reads: per-lane registers, local and shared
    memory, global memory (types 0x80000002/3/5/8/11). The kept sections are renumbered, and their
    sh_link (how the reader follows lane -> warp -> CTA -> SM tables) and the name table's index with
    them."""
    drop = {0x80000002, 0x80000003, 0x80000005, 0x80000008, 0x80000011}
    shoff, = struct.unpack_from("<Q", dump, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", dump, 0x3A)
    first = list(struct.unpack_from("<IIQQQQIIQQ", dump, shoff))
    count = shnum or first[5]
    if shstrndx == 0xFFFF:  # SHN_XINDEX: the real index is section 0's sh_link
        shstrndx = first[6]
    headers = [list(struct.unpack_from("<IIQQQQIIQQ", dump, shoff + i * shentsize)) for i in range(count)]
    kept = [i for i, h in enumerate(headers) if i == 0 or h[1] not in drop]
    new_index = {old: new for new, old in enumerate(kept)}
    body = bytearray(dump[:64])
    out_headers = []
    for old in kept:
        h = list(headers[old])
        if old:
            data = dump[h[4] : h[4] + h[5]] if h[1] != 8 else b""  # SHT_NOBITS holds no bytes
            h[4] = len(body)
            body += data
            h[6] = new_index.get(h[6], 0)
        out_headers.append(h)
    strndx = new_index.get(shstrndx, 0)
    big = len(out_headers) >= 0xFF00
    out_headers[0][5] = len(out_headers) if big else 0
    out_headers[0][6] = strndx if strndx >= 0xFF00 else 0
    struct.pack_into("<Q", body, 0x28, len(body))
    struct.pack_into("<HH", body, 0x3C, 0 if big else len(out_headers), 0xFFFF if strndx >= 0xFF00 else strndx)
    for h in out_headers:
        body += struct.pack("<IIQQQQIIQQ", *h)
    return bytes(body)


def main():
    out = Path(sys.argv[1])
    corpus = ROOT / "corpus"
    for path in files(corpus, {".pt2", ".so"}):
        data = path.read_bytes()
        if path.suffix == ".so":
            put(out, "elf", data, cap=1 << 20)
            continue
        slim = slim_package(data)
        put(out, "zip", slim, cap=1 << 20)
        put(out, "pt2", slim, cap=1 << 20)
        with zipfile.ZipFile(path) as package:
            for info in package.infolist():
                if info.filename.endswith(".so"):
                    put(out, "elf", package.read(info), cap=1 << 20)
                elif info.filename.endswith(".wrapper.cpp"):
                    put(out, "wrapper", package.read(info))
                elif info.filename.endswith(".kernel.cpp"):
                    put(out, "cpp_source", package.read(info), cap=16 * 1024)
    # torch.save files: the printer's dumps (mode 1), a zip of a pickle and a storage each.
    for path in files(corpus, {".pt"}):
        put(out, "pt", path.read_bytes())
    for path in files(corpus, {".txt", ".log", ".jsonl"}):
        data = path.read_bytes()
        is_trace = data.startswith(b"V") and b"torch/_logging" in data[:4096] or path.suffix == ".jsonl"
        if is_trace:
            for piece in windows(data, 8 * 1024, lambda line: not line.startswith(b"\t")):
                put(out, "trace", piece)
        else:
            for piece in windows(data, 8 * 1024):
                put(out, "logs", piece)
    for path in files(PEER / "tlparse", {".log", ".jsonl"}):
        for piece in windows(path.read_bytes(), 8 * 1024, lambda line: not line.startswith(b"\t")):
            put(out, "trace", piece)
    for path in files(corpus, {".xz", ".zst"}):
        data = decompress(path)
        if data[:4] != b"\x7fELF":
            continue
        e_machine, = struct.unpack_from("<H", data, 0x12)
        if e_machine == 190:
            slim = slim_gpu_core(data)
            if len(slim) <= 8 << 20:  # cut, it would lose its section table
                put(out, "gpu_core", slim, cap=8 << 20)
        else:
            cut = cut_cpu_core(data)
            if cut:
                put(out, "core", cut, cap=1 << 20)
                put(out, "core", lzma.compress(cut, preset=0), cap=1 << 20)
                # Two streams of a block each: decoded block by block, by our LZMA2 decoder.
                half = len(cut) // 2
                put(out, "core", lzma.compress(cut[:half], preset=0) + lzma.compress(cut[half:], preset=0),
                    cap=1 << 20)
                # Raw LZMA2 of pieces of it, behind the byte that picks the dictionary size.
                for preset, dict_index in ((0, 0), (6, 4), (9 | lzma.PRESET_EXTREME, 8)):  # 4 KiB, 64 KiB, 1 MiB
                    for piece in (cut[:64 << 10], cut[-(64 << 10):], bytes(300 << 10)):
                        raw = lzma.compress(piece, format=lzma.FORMAT_RAW, filters=[
                            {"id": lzma.FILTER_LZMA2, "preset": preset, "dict_size": 4096 << dict_index}])
                        put(out, "lzma2", bytes([dict_index]) + raw)
    top_level = lambda line: line[:1] not in (b" ", b"\t", b"\n", b")", b"]", b"}")
    for path in files(corpus, {".py"}) + files(PEER / "sources", {".py"}):
        for piece in windows(path.read_bytes(), 4 * 1024, top_level):
            put(out, "python_source", piece)
    for path in files(corpus, {".cpp", ".cu", ".h"}) + files(PEER / "sources", {".cpp", ".cu", ".h", ".cuh"}):
        put(out, "cpp_source", path.read_bytes(), cap=16 * 1024)
    for target in sorted(p.name for p in out.iterdir()):
        print(f"seeds: {target}: {len(list((out / target).iterdir()))}")


if __name__ == "__main__":
    main()
