// Hostile inputs through the command line (issue 13), each beside a good case: every one gets a
// diagnostic naming the file and the problem, the good case's finding is still reported, the run
// ends (no crash, no hang) within 30 s and 1 GiB, and it writes nothing but its -o report (run in
// an empty folder with its own TMPDIR). Every input is generated here, in a private folder.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/support.hpp"

namespace {
using namespace aoti::test;
namespace fs = std::filesystem;
using nlohmann::json;

constexpr int k_max_seconds = 30;
constexpr long k_max_peak_kib = 1l << 20;  // 1 GiB

const fs::path k_good = corpus_case("embedding-device-assert");

// Writes the inputs: `python3 gen.py CASE ARGS...` (the script below).
constexpr const char* k_generator =
    R"PY(# Hostile inputs for tests/test_cli_hostile.cpp, written at test time: python3 gen.py CASE ARGS...
import lzma, os, struct, sys, zipfile, zlib

W = 'model/data/aotinductor/model/x.wrapper.cpp'

def zip_write(path, entries):
    """A zip written by hand, so that sizes and names can lie: each entry a dict with name, data
    (the bytes stored), method (0 stored, 8 deflated), size and crc (claimed), local_size."""
    with open(path, 'wb') as f:
        central = []
        for e in entries:
            name, data, method = e['name'].encode(), e['data'], e.get('method', 0)
            size = e.get('size', len(data))
            crc = e.get('crc', zlib.crc32(data) if method == 0 else 0)
            offset = f.tell()
            big = size >= 0xffffffff or len(data) >= 0xffffffff
            extra = struct.pack('<HHQQ', 1, 16, e.get('local_size', size), len(data)) if big else b''
            f.write(struct.pack('<IHHHHHIIIHH', 0x04034b50, 45, 0, method, 0, 0, crc,
                                0xffffffff if big else len(data),
                                0xffffffff if big else e.get('local_size', size),
                                len(name), len(extra)) + name + extra)
            f.write(data)
            central.append((name, method, crc, size, len(data), offset, big))
        cd_offset = f.tell()
        for name, method, crc, size, csize, offset, big in central:
            extra = struct.pack('<HHQQQ', 1, 24, size, csize, offset) if big else b''
            f.write(struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 45, 45, 0, method, 0, 0, crc,
                                0xffffffff if big else csize, 0xffffffff if big else size,
                                len(name), len(extra), 0, 0, 0, 0,
                                0xffffffff if big else offset) + name + extra)
        cd_size, n = f.tell() - cd_offset, len(central)
        if n >= 0xffff:
            z64 = f.tell()
            f.write(struct.pack('<IQHHIIQQQQ', 0x06064b50, 44, 45, 45, 0, 0, n, n, cd_size, cd_offset))
            f.write(struct.pack('<IIQI', 0x07064b50, 0, z64, 1))
            n, cd_size, cd_offset = 0xffff, 0xffffffff, 0xffffffff
        f.write(struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, n, n, cd_size, cd_offset, 0))

def records():
    return [{'name': 'model/archive_format', 'data': b'pt2'},
            {'name': 'model/archive_version', 'data': b'0'}]

def deflate_zeros(total, chunk=1 << 20):
    """A real deflate stream of `total` zeros, cheaply: one chunk ending in a full flush, repeated."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(b'\0' * chunk) + c.flush(zlib.Z_FULL_FLUSH)
    return block * (total // chunk) + zlib.compressobj(9, zlib.DEFLATED, -15).flush()

def bombs(out):
    data = deflate_zeros(10 << 30)
    zip_write(out + '/bomb.pt2', records() + [{'name': W, 'data': data, 'method': 8, 'size': 10 << 30}])
    zip_write(out + '/liar.pt2', records() + [{'name': W, 'data': data, 'method': 8, 'size': 4096}])
    zip_write(out + '/sizes-differ.pt2',
              records() + [{'name': W, 'data': b'x' * 100, 'local_size': 5000}])
    zip_write(out + '/entries.pt2',
              records() + [{'name': 'model/extra/%06d' % i, 'data': b''} for i in range(100000)])
    zip_write(out + '/models.pt2', records() + [
        {'name': 'model/data/aotinductor/m%06d/x.wrapper.cpp' % i, 'data': b'// x\n'}
        for i in range(100000)])

def long_line(out, how):
    n = 500 << 20
    if how == 'deflated':
        entry = {'name': W, 'data': deflate_zeros(n), 'method': 8, 'size': n}
    else:
        entry = {'name': W, 'data': b'// ' + b'a' * (n - 3), 'crc': 0}
    zip_write(out + '/line-%s.pt2' % how, records() + [entry])

def traversal(out):
    zip_write(out + '/traversal.pt2', records() + [
        {'name': 'model/../../etc/aoti-x', 'data': b'x'}, {'name': '../../etc/aoti-y', 'data': b'y'},
        {'name': '/aoti-abs/path', 'data': b'z'}])

def corpus_wrapper(package):
    z = zipfile.ZipFile(package)
    name = next(n for n in z.namelist() if n.endswith('.wrapper.cpp'))
    return z, name

def models48(package, out):
    """48 models, each a copy of a real wrapper padded to 63 MiB (deflated to a few KiB)."""
    z, name = corpus_wrapper(package)
    text = z.read(name)
    text += b'\n/*' + b' ' * ((63 << 20) - len(text) - 6) + b'*/\n'
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = c.compress(text) + c.flush()
    zip_write(out + '/models48.pt2', records() + [
        {'name': 'model/data/aotinductor/m%02d/x.wrapper.cpp' % i, 'data': data, 'method': 8,
         'size': len(text), 'crc': zlib.crc32(text)} for i in range(48)])

def huge_name(package, out, size):
    """The real package, its input arg3_1 named with `size` bytes where the wrapper declares it and
    where the failing kernel is launched with it."""
    z, wrapper = corpus_wrapper(package)
    name = b'arg3_1' + b'x' * (int(size) - 6)
    with zipfile.ZipFile(out + '/huge-name.pt2', 'w') as zout:
        for info in z.infolist():
            data = z.read(info)
            if info.filename == wrapper:
                lines = data.split(b'\n')
                for i, line in enumerate(lines):
                    if b'inputs_info_[0].name' in line or b'call_triton_poi_fused_embedding_0(' in line:
                        lines[i] = line.replace(b'arg3_1', name)
                data = b'\n'.join(lines)
            zout.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)

def sparse(path, text, size):
    with open(path, 'wb') as f:
        f.write(text)
        f.truncate(size)

def long_lines(trace, out):
    """A log and a TORCH_TRACE log whose second line is 2 GiB long (sparse: no disk)."""
    sparse(out + '/line.log', b'Traceback (most recent call last):\n' + b'a' * (1 << 20), 2 << 30)
    head = open(trace, 'rb').readline()
    sparse(out + '/line.trace.log', head + head[:head.index(b']') + 2] + b'{"str": ["' +
           b'a' * (1 << 20), 2 << 30)

# ---- cores ----
def phdrs(core):
    phoff, = struct.unpack_from('<Q', core, 0x20)
    phnum, = struct.unpack_from('<H', core, 0x38)
    return [struct.unpack_from('<IIQQQQQQ', core, phoff + 56 * i) for i in range(phnum)]

def notes(core):
    """(offset of the note, type, offset of its desc, desc size) of each note."""
    out = []
    for p in phdrs(core):
        if p[0] != 4: continue
        at, end = p[2], p[2] + p[5]
        while at + 12 <= end:
            namesz, descsz, kind = struct.unpack_from('<III', core, at)
            desc = at + 12 + ((namesz + 3) & ~3)
            out.append((at, kind, desc, descsz))
            at = desc + ((descsz + 3) & ~3)
    return out

def plain_core(core_xz):
    return bytearray(lzma.open(core_xz).read())

def core_notes(core_xz, out):
    core = plain_core(core_xz)
    note_index = next(i for i, p in enumerate(phdrs(core)) if p[0] == 4)
    phdr_at = struct.unpack_from('<Q', core, 0x20)[0] + 56 * note_index
    def write(name, data):
        open(os.path.join(out, name), 'wb').write(data)
    def changed(at, fmt, *values):
        c = bytearray(core)
        struct.pack_into(fmt, c, at, *values)
        return c
    write('note-huge.core', changed(phdr_at + 32, '<Q', 1 << 62))             # p_filesz
    write('note-past-end.core', changed(phdr_at + 8, '<Q', len(core) + (1 << 40)))  # p_offset
    first = notes(core)[0][0]
    write('note-sizes.core', changed(first, '<II', 0xfffffff0, 0xfffffff0))  # namesz, descsz
    nt_file = next(n for n in notes(core) if n[1] == 0x46494c45)
    write('file-count.core', changed(nt_file[2], '<Q', 1 << 60))             # NT_FILE's count
    real = struct.unpack_from('<H', core, 0x38)[0]
    def xnum(count, shoff):
        """e_phnum PN_XNUM, the count in section header 0's sh_info, that header at the end"""
        c = bytearray(core)
        struct.pack_into('<Q', c, 0x28, shoff)
        struct.pack_into('<HHHHH', c, 0x36, 56, 0xffff, 64, 1, 0)
        return c + struct.pack('<IIQQQQIIQQ', 0, 0, 0, 0, 0, 0, 0, count, 0, 0)
    write('xnum-valid.core', xnum(real, len(core)))
    write('xnum-huge.core', xnum(0xffffffff, len(core)))
    write('xnum-past-end.core', xnum(real, 1 << 50)[:len(core)])

def head_of(core_xz):
    """The core's ELF header, program headers and notes: what a stream of zeros follows."""
    head = bytes(lzma.open(core_xz).read(1 << 20))
    return head[:max(p[2] + p[5] for p in phdrs(head) if p[0] == 4)]

def core_bombs(core_xz, out, total=50 << 30):
    head = head_of(core_xz)
    with open(out + '/bomb.end', 'w') as f:  # where the program headers say the core ends
        f.write(str(max(p[2] + p[5] for p in phdrs(head))))
    zeros = lzma.compress(b'\0' * (64 << 20), preset=0)
    with open(out + '/bomb.core.xz', 'wb') as f:  # concatenated streams: the reader takes them all
        f.write(lzma.compress(head, preset=0))
        f.write(zeros * ((total - len(head)) // (64 << 20)))
    block = 128 << 10  # one zstd frame: the head as raw blocks, then RLE blocks of zeros
    with open(out + '/bomb.core.zst', 'wb') as f:
        f.write(struct.pack('<IBB', 0xFD2FB528, 0, 7 << 3))
        for at in range(0, len(head), block):
            f.write(struct.pack('<I', len(head[at:at + block]) << 3)[:3] + head[at:at + block])
        rle = lambda last: struct.pack('<I', (block << 3) | 2 | last)[:3] + b'\0'
        f.write(rle(0) * ((total - len(head)) // block - 1) + rle(1))

def link_map(core):
    """(file offset of l_name's text, the name) of each link map entry, walked as libdwfl walks it:
    AT_PHDR, PT_PHDR and PT_DYNAMIC, DT_DEBUG, r_debug.r_map."""
    loads = [(p[3], p[2], p[5]) for p in phdrs(core) if p[0] == 1]
    def at(va):
        return next((off + va - start for start, off, size in loads if start <= va < start + size), None)
    def u64(va):
        return struct.unpack_from('<Q', core, at(va))[0] if at(va) is not None else None
    auxv = {}
    for note, kind, desc, size in notes(core):
        if kind == 6:
            for k in range(0, size - 15, 16):
                key, value = struct.unpack_from('<QQ', core, desc + k)
                auxv[key] = value
    bias, dynamic = 0, None
    for k in range(auxv[5]):
        p = struct.unpack_from('<IIQQQQQQ', core, at(auxv[3] + 56 * k))
        if p[0] == 6: bias = auxv[3] - p[3]
        if p[0] == 2: dynamic = (p[3], p[5])
    r_debug = next(u64(bias + dynamic[0] + 16 * k + 8) for k in range(dynamic[1] // 16)
                   if u64(bias + dynamic[0] + 16 * k) == 21)
    names, entry = [], u64(r_debug + 8)
    while entry and at(entry) is not None:
        name, ld, entry = u64(entry + 8), u64(entry + 16), u64(entry + 24)
        if ld and name and at(name) is not None:
            o = at(name)
            names.append((o, bytes(core[o:core.index(b'\0', o)]).decode()))
    return names

def link_map_fifo(core_xz, out, fifo_dir):
    """The core with its longest link map name (not its NT_FILE path) turned into a FIFO's."""
    core = plain_core(core_xz)
    offset, name = max(link_map(core), key=lambda e: len(e[1]))
    prefix = os.path.join(fifo_dir, 'f-')
    fifo = prefix + 'x' * (len(name) - len(prefix))
    assert len(fifo) == len(name), 'the FIFO folder is too long for ' + name
    core[offset:offset + len(name)] = fifo.encode()
    os.mkfifo(fifo)
    open(out, 'wb').write(core)

if __name__ == '__main__':
    globals()[sys.argv[1]](*sys.argv[2:])
)PY";

struct Folder {
  TempDir dir;
  fs::path in = dir.path / "in", cwd = dir.path / "cwd", tmp = dir.path / "tmp";
  Folder() {
    for (const auto& d : {in, cwd, tmp}) fs::create_directory(d);
    write_file(in / "gen.py", k_generator);
  }
  void generate(const std::string& arguments) const {
    const std::string command =
        "cd " + shell_quote(in.string()) + " && python3 gen.py " + arguments;
    REQUIRE(std::system(command.c_str()) == 0);
  }
  std::string quoted(const std::string& name) const { return shell_quote((in / name).string()); }
};

std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    names.insert(entry.path().string());
  return names;
}

struct Report {
  MeasuredRun run;
  json document;
  std::uintmax_t bytes = 0;
  // The diagnostics whose artifact names `file`.
  std::vector<std::string> about(const std::string& file) const {
    std::vector<std::string> out;
    for (const auto& d : document["diagnostics"])
      if (d["artifact"].get<std::string>().find(file) != std::string::npos)
        out.push_back(d["message"]);
    return out;
  }
  bool says(const std::string& file, const std::string& text) const {
    for (const std::string& message : about(file))
      if (message.find(text) != std::string::npos) return true;
    return false;
  }
  bool has_finding(const std::string& check) const {
    for (const auto& f : document["findings"])
      if (f["check"] == check) return true;
    return false;
  }
};

// Runs `inputs` beside the good case's package and stderr, in the folder's empty cwd with its own
// TMPDIR, the report to cwd/report.<format>; checks the bounds, the exit and where it wrote.
Report analyze(const Folder& folder, const std::string& inputs, const std::string& format = "json",
               bool with_good = true) {
  const auto before = listing(folder.in);
  const fs::path out = folder.cwd / ("report." + format);
  const std::string good = with_good ? " " + shell_quote((k_good / "model.pt2").string()) + " " +
                                           shell_quote((k_good / "stderr.txt").string())
                                     : std::string();
  Report report;
  report.run = run_cli_measured(
      "--format " + format + " -o " + shell_quote(out.string()) + " " + inputs + good,
      k_max_seconds + 30, folder.cwd, folder.tmp);
  MESSAGE(inputs.substr(0, 200) << ": " << report.run.seconds << " s, " << report.run.peak_kib
                                << " KiB peak, exit " << report.run.exit_code);
  CHECK(report.run.exit_code == 0);  // not a crash (134, 139), a hang (124, 137) or a usage error
  CHECK(report.run.seconds >= 0);
  CHECK(report.run.seconds <= k_max_seconds);
  CHECK(report.run.peak_kib > 0);
  CHECK(report.run.peak_kib <= k_max_peak_kib);
  CHECK(listing(folder.cwd) == std::set<std::string>{out.string()});
  CHECK(listing(folder.in) == before);
  REQUIRE(fs::exists(out));
  report.bytes = fs::file_size(out);
  if (format == "json") {
    report.document = json::parse(read_file(out));
    if (with_good) CHECK(report.has_finding("triton.index-out-of-bounds"));
  }
  fs::remove(out);
  return report;
}

}  // namespace

TEST_CASE("zip bombs: a 10 GB entry, sizes that lie, 100k entries, 100k model folders") {
  Folder folder;
  folder.generate("bombs .");
  const std::map<std::string, std::string> expected = {
      {"bomb.pt2", "is 10 GiB, more than the 64 MiB limit"},
      {"liar.pt2", "inflates to more than its declared 4 KiB"},
      {"sizes-differ.pt2", "inconsistent zip archive"},
      {"entries.pt2", "no model under model/data/aotinductor/"},
      {"models.pt2",
       "99936 more model folders not read (a package is read for its first 64 models)"},
  };
  for (const auto& [file, text] : expected) {
    INFO(file);
    const Report report = analyze(folder, folder.quoted(file));
    CHECK(report.says(file, text));
    CHECK(report.document["diagnostics"].size() < 200);
  }
}

TEST_CASE("a 500 MB one-line wrapper, deflated and stored") {
  for (const std::string how : {"deflated", "stored"}) {
    INFO(how);
    Folder folder;
    folder.generate("long_line . " + how);
    const std::string file = "line-" + how + ".pt2";
    const Report report = analyze(folder, folder.quoted(file));
    CHECK(report.says(file, "is 500 MiB, more than the 64 MiB limit"));
  }
}

TEST_CASE("entry names that climb out of the folder or are absolute: named, nothing written") {
  Folder folder;
  folder.generate("traversal .");
  const Report report = analyze(folder, folder.quoted("traversal.pt2"));
  CHECK(report.says("traversal.pt2",
                    "3 entries have names that would extract outside the target folder (absolute "
                    "or with '..'; nothing was extracted), e.g. model/../../etc/aoti-x"));
  for (const fs::path& written : {fs::path("/etc/aoti-x"), fs::path("/etc/aoti-y"),
                                  fs::path("/aoti-abs"), folder.dir.path / "etc"})
    CHECK_FALSE(fs::exists(written));
}

TEST_CASE("cores whose notes lie, and PN_XNUM program header counts, valid and absurd") {
  Folder folder;
  folder.generate("core_notes " + shell_quote((k_good / "core.xz").string()) + " .");
  std::string inputs;
  for (const char* name :
       {"note-huge.core", "note-past-end.core", "note-sizes.core", "file-count.core",
        "xnum-valid.core", "xnum-huge.core", "xnum-past-end.core"})
    inputs += folder.quoted(name) + " ";
  const Report report = analyze(folder, inputs);
  CHECK(report.says("note-huge.core", "the notes are cut short after"));
  CHECK(report.says("note-past-end.core", "the notes are past the end of the file"));
  CHECK(report.says("note-sizes.core", "the notes are cut short after 0 of"));
  CHECK(report.says("file-count.core", "NT_FILE is malformed"));
  CHECK(report.says("xnum-huge.core",
                    "the program header table claims 4294967295 entries "
                    "(PN_XNUM: from section header 0)"));
  CHECK(report.says("xnum-past-end.core",
                    "e_phnum is PN_XNUM (the count is in section header 0), "
                    "but section header 0 is not in the file"));
  // Used as the ELF specification says, PN_XNUM reads like the plain count.
  CHECK(report.about("xnum-valid.core").empty());
  bool valid_read = false;
  for (const auto& a : report.document["artifacts"])
    if (a["path"].get<std::string>().ends_with("xnum-valid.core"))
      valid_read = a["analyzed"].get<bool>() &&
                   a["note"].get<std::string>().find("SIGABRT, 19 thread(s)") != std::string::npos;
  CHECK(valid_read);
}

TEST_CASE("an xz and a zstd core that inflate to 50 GB: cut where the core's headers end") {
  Folder folder;
  folder.generate("core_bombs " + shell_quote((k_good / "core.xz").string()) + " .");
  const std::string end = read_file(folder.in / "bomb.end");
  for (const std::string file : {"bomb.core.xz", "bomb.core.zst"}) {
    INFO(file);
    const Report report = analyze(folder, folder.quoted(file));
    CHECK(report.says(file, "the compressed core was cut at " + end +
                                " bytes, where its ELF headers say it ends: the stream goes on "
                                "past that and the rest was not decoded"));
  }
}

TEST_CASE("2 GB lines in a log and in a TORCH_TRACE log") {
  Folder folder;
  folder.generate("long_lines " +
                  shell_quote((k_good / "trace/dedicated_log_torch_trace_owfhquit.log").string()) +
                  " .");
  const Report report =
      analyze(folder, folder.quoted("line.log") + " " + folder.quoted("line.trace.log"));
  CHECK(report.says("line.log", "line 2 is longer than 65536 bytes (2147483613 bytes)"));
  CHECK(report.says("line.trace.log", "is longer than the 16777216-byte cap; skipped"));
}

TEST_CASE("FIFOs, /dev/zero, link loops, unreadable files and one file given twice") {
  Folder folder;
  REQUIRE(::mkfifo((folder.in / "fifo").c_str(), 0600) == 0);
  fs::create_symlink("loop", folder.in / "loop");
  std::string inputs = folder.quoted("fifo") + " /dev/zero " + folder.quoted("loop") + " " +
                       shell_quote((k_good / "model.pt2").string()) + " " +
                       shell_quote(k_good.string());
  const bool root = ::geteuid() == 0;
  if (root) {
    MESSAGE("running as root, which reads any file: the unreadable file is not tried");
  } else {
    write_file(folder.in / "locked.log", "Error: something\n");
    fs::permissions(folder.in / "locked.log", fs::perms::none);
    inputs += " " + folder.quoted("locked.log");
  }
  const Report report = analyze(folder, inputs);
  CHECK(report.says("fifo", "not a regular file: a FIFO"));
  CHECK(report.says("/dev/zero", "not a regular file: a character device"));
  CHECK(report.says("loop", "Too many levels of symbolic links"));
  if (!root) CHECK(report.says("locked.log", "cannot read"));
  CHECK(report.says("model.pt2", "given again; read once"));
  CHECK(report.document["models"].size() == 1);
}

TEST_CASE("a core whose link map names a FIFO: libdwfl is not asked to open it") {
  // The FIFO's path has the length of the name it replaces: a short folder, removed however the
  // test ends.
  std::string short_dir = "/tmp/aoti-XXXXXX";
  REQUIRE(::mkdtemp(short_dir.data()));
  const std::unique_ptr<const std::string, void (*)(const std::string*)> remove(
      &short_dir, [](const std::string* dir) { fs::remove_all(*dir); });
  Folder folder;
  folder.generate("link_map_fifo " + shell_quote((k_good / "core.xz").string()) + " linkmap.core " +
                  shell_quote(short_dir));
  const Report report = analyze(folder, folder.quoted("linkmap.core"));
  CHECK(report.says("linkmap.core", "the core's link map names " + short_dir + "/f-"));
  CHECK(report.says("linkmap.core",
                    "a FIFO, on this machine; libdwfl, which would open it, was not asked"));
}

TEST_CASE("a 30 MiB input name: every report stays small, the name cut and said to be") {
  Folder folder;
  folder.generate("huge_name " + shell_quote((k_good / "model.pt2").string()) + " . 31457280");
  const std::string package = folder.quoted("huge-name.pt2");
  const std::string log = shell_quote((k_good / "stderr.txt").string());
  const Report report = analyze(folder, package + " " + log, "json", false);
  CHECK(report.bytes < (1u << 20));
  CHECK(report.has_finding("triton.index-out-of-bounds"));
  CHECK(report.says("huge-name.pt2",
                    "input 0's name is 31457280 bytes long: reports cut it after 4096 bytes"));
  const std::string input = report.document["models"][0]["inputs"][0]["name"];
  CHECK(input.ends_with("… (31453184 bytes cut)"));
  for (const std::string format : {"text", "markdown", "html", "sarif"}) {
    INFO(format);
    CHECK(analyze(folder, package + " " + log, format, false).bytes < (1u << 20));
  }
}

TEST_CASE("a package of 48 models of 63 MiB each: read within the memory bound") {
  Folder folder;
  folder.generate("models48 " + shell_quote((k_good / "model.pt2").string()) + " .");
  const Report report = analyze(folder, folder.quoted("models48.pt2"));
  CHECK(report.says("models48.pt2",
                    "m04/x.wrapper.cpp: not read: the package's sources already "
                    "read take 252 MiB and this one 63 MiB, more than the 256 MiB "
                    "read from one package"));
  CHECK(report.document["models"].size() == 49);
}

TEST_CASE("debugging-flag output: a forged .pt that names os.system, a printer block cut short") {
  Folder folder;
  // A torch.save-shaped zip whose pickle calls os.system: read as data, nothing in it run.
  write_zip(folder.in / "forged.pt",
            {{"forged/data.pkl", std::string("\x80\x02") + "cos\nsystem\nq\x00X\x02\x00\x00\x00id"
                                                           "q\x01\x85q\x02Rq\x03."},
             {"forged/version", "3\n"},
             {"forged/byteorder", "little"}});
  // The intermediate value printer's block that the log cuts inside its statistics.
  write_file(folder.in / "printer.log",
             "[  before_launch - triton_poi_fused_0 - buf0  ]:\nNumber of elements: 4\n");
  const Report report =
      analyze(folder, folder.quoted("forged.pt") + " " + folder.quoted("printer.log"));
  CHECK(report.says("forged.pt", "os.system"));
  CHECK(report.says("printer.log", "the printer's block `buf0` is cut"));
}
