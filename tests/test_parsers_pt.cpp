// torch.save files read without Python: the real dumps of the intermediate value printer (mode 1)
// in corpus/printer1-nan-dumps, and hostile ones written here (pickles that name other
// globals, cut storages, forged sizes and strides).
#include <bit>
#include <cmath>
#include <cstring>

#include "parsers/pt/pickle.hpp"
#include "parsers/pt/tensor_dump.hpp"
#include "tests/support.hpp"

namespace {

using aoti::parsers::pt::looks_like_tensor_dump;
using aoti::parsers::pt::read_tensor_dump;
using aoti::parsers::pt::read_tensor_pickle;

const std::filesystem::path k_case = aoti::test::corpus_dir() / "printer1-nan-dumps";

std::filesystem::path saved(const std::string& phase, const std::string& kernel,
                            const std::string& arg) {
  return k_case / "tmp" / ("aoti_torch" + phase + "_" + kernel + "_" + arg + "_cuda:0.pt");
}

// A pickle written opcode by opcode, as torch's writers emit them.
struct Pickle {
  std::string bytes;
  Pickle& op(unsigned char opcode) {
    bytes += static_cast<char>(opcode);
    return *this;
  }
  Pickle& global(const std::string& module, const std::string& name) {
    bytes += "c" + module + "\n" + name + "\n";
    return *this;
  }
  Pickle& text(const std::string& value) {
    op('X');
    for (int i = 0; i < 4; ++i) bytes += static_cast<char>((value.size() >> (8 * i)) & 0xff);
    bytes += value;
    return *this;
  }
  Pickle& integer(std::int64_t value) {  // BININT when it fits, else LONG1 of 8 bytes
    const bool fits = value >= INT32_MIN && value <= INT32_MAX;
    op(fits ? 'J' : 0x8a);
    if (!fits) op(8);
    for (int i = 0; i < (fits ? 4 : 8); ++i)
      bytes += static_cast<char>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xff);
    return *this;
  }
  Pickle& ints(const std::vector<std::int64_t>& values) {
    op('(');
    for (const auto value : values) integer(value);
    return op('t');
  }
};

struct Layout {
  std::string storage_type = "FloatStorage";
  std::int64_t storage_numel = 0;
  std::int64_t offset = 0;
  std::vector<std::int64_t> size, stride;
};

// What the runtime's pickle_save writes for a tensor (protocol 2, as in the corpus files).
std::string tensor_pickle(const Layout& layout) {
  Pickle p;
  p.op(0x80).op(2).global("torch._utils", "_rebuild_tensor_v2").op('q').op(0).op('(').op('(');
  p.text("storage").global("torch", layout.storage_type).text("0").text("cuda:0");
  p.integer(layout.storage_numel).op('t').op('Q');
  p.integer(layout.offset).ints(layout.size).ints(layout.stride).op(0x89);
  p.global("collections", "OrderedDict").op(')').op('R').op('t').op('R').op('.');
  return p.bytes;
}

void write_dump(const std::filesystem::path& path, const std::string& pickle,
                const std::string& storage, const std::string& byteorder = "little") {
  aoti::test::write_zip(path, {{"archive/data.pkl", pickle},
                               {"archive/data/0", storage},
                               {"archive/byteorder", byteorder},
                               {"archive/version", "3\n"}});
}

template <class T>
std::string bytes_of(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::memcpy(out.data(), values.data(), out.size());  // the test host is little-endian
  return out;
}

// A float32 tensor of `values` with `layout`, written and read back.
aoti::parsers::Parsed<aoti::parsers::pt::TensorDump> dump_of(
    Layout layout, const std::string& storage, const aoti::parsers::pt::DumpLimits& limits = {}) {
  aoti::test::TempDir dir;
  write_dump(dir.path / "t.pt", tensor_pickle(layout), storage);
  return read_tensor_dump(dir.path / "t.pt", limits);
}

std::string error_of(const Layout& layout, const std::string& storage) {
  const auto dump = dump_of(layout, storage);
  REQUIRE_FALSE(dump);
  return dump.error().message;
}

}  // namespace

TEST_CASE("the printer's dumps of the corpus read as the tensors the run saved") {
  SUBCASE("the user's x before the log kernel: min -3.0, no NaN") {
    const auto dump =
        read_tensor_dump(saved("before_launch", "triton_poi_fused_log_mul_0", "arg3_1"));
    REQUIRE(dump);
    const auto& t = dump->tensor;
    CHECK(t.dtype == "float32");
    CHECK(t.device == "cuda:0");
    CHECK(t.size == std::vector<std::int64_t>{6, 24});
    CHECK(t.stride == std::vector<std::int64_t>{24, 1});
    CHECK(t.numel == 144);
    CHECK(t.min == -3.0);
    CHECK(t.nan_count == 0);
    CHECK(t.inf_count == 0);
    CHECK(dump->storage_record == "archive/data/0");
    CHECK(dump->bytes_read == 144 * 4);
  }
  SUBCASE("gain is 24 values of 0.5") {
    const auto dump =
        read_tensor_dump(saved("before_launch", "triton_poi_fused_log_mul_0", "gain"));
    REQUIRE(dump);
    CHECK(dump->tensor.numel == 24);
    CHECK(dump->tensor.min == 0.5);
    CHECK(dump->tensor.max == 0.5);
    CHECK(dump->tensor.mean == 0.5);
    CHECK(dump->tensor.nan_count == 0);
  }
  SUBCASE("buf0 after the log kernel holds the NaN of log(-3.0)") {
    const auto dump = read_tensor_dump(saved("after_launch", "triton_poi_fused_log_mul_0", "buf0"));
    REQUIRE(dump);
    CHECK(dump->tensor.nan_count == 1);
    CHECK(dump->tensor.inf_count == 0);
    REQUIRE(dump->tensor.min);  // the other 143 values still give a range
    CHECK(std::isfinite(*dump->tensor.min));
  }
  SUBCASE("every dump of the folder reads; only packages are not dumps") {
    int dumps = 0;
    for (const auto& entry : std::filesystem::directory_iterator(k_case / "tmp")) {
      CHECK(looks_like_tensor_dump(entry.path()));
      CHECK(read_tensor_dump(entry.path()));
      ++dumps;
    }
    CHECK(dumps == 16);
    CHECK_FALSE(looks_like_tensor_dump(k_case / "model.pt2"));
    CHECK_FALSE(looks_like_tensor_dump(k_case / "run.log"));
  }
}

TEST_CASE("the pickle is read as data: other globals and opcodes are refused where they stand") {
  SUBCASE("REDUCE of os.system is refused at its GLOBAL, before anything could call it") {
    Pickle p;
    p.op(0x80).op(2).global("os", "system").text("touch /tmp/pwned").op(0x85).op('R').op('.');
    const auto read = read_tensor_pickle(p.bytes);
    REQUIRE_FALSE(read);
    CHECK(read.error().message.find("os.system") != std::string::npos);
    CHECK(read.error().message.find("byte 2") != std::string::npos);
  }
  SUBCASE("STACK_GLOBAL of builtins.eval (protocol 4)") {
    Pickle p;
    p.op(0x80).op(4).op(0x95);
    p.bytes += std::string(8, '\0');
    p.op(0x8c).op(8).bytes += "builtins";
    p.op(0x94).op(0x8c).op(4).bytes += "eval";
    p.op(0x94).op(0x93).op('.');
    const auto read = read_tensor_pickle(p.bytes);
    REQUIRE_FALSE(read);
    CHECK(read.error().message.find("builtins.eval") != std::string::npos);
  }
  SUBCASE("an opcode outside torch.save's set (INST)") {
    const auto read = read_tensor_pickle("\x80\x02i os\nsystem\n.");
    REQUIRE_FALSE(read);
    CHECK(read.error().message.find("opcode 0x69 ('i')") != std::string::npos);
  }
  SUBCASE(
      "stack underflow, a missing STOP, a memo never written, a dict where a tensor should be") {
    CHECK(read_tensor_pickle("\x80\x02R.").error().message.find("underflow") != std::string::npos);
    CHECK(read_tensor_pickle("\x80\x02K\x01").error().message.find("no STOP") != std::string::npos);
    CHECK(read_tensor_pickle("\x80\x02h\x07.").error().message.find("never PUT") !=
          std::string::npos);
    CHECK(read_tensor_pickle("\x80\x02}.").error().message.find("holds a dict, not a tensor") !=
          std::string::npos);
    CHECK_FALSE(read_tensor_pickle(""));
  }
  SUBCASE("a storage type torch has but this reader does not summarize") {
    Layout complex{"ComplexFloatStorage", 1, 0, {1}, {1}};
    const auto read = read_tensor_pickle(tensor_pickle(complex));
    REQUIRE_FALSE(read);
    CHECK(read.error().message.find("ComplexFloatStorage") != std::string::npos);
  }
  SUBCASE("a tensor written as Python's pickler does at protocol 4 reads alike") {
    Pickle p;
    p.op(0x80).op(4).op(0x95).bytes += std::string(8, '\0');
    p.op(0x8c).op(12).bytes += "torch._utils";
    p.op(0x94).op(0x8c).op(18).bytes += "_rebuild_tensor_v2";
    p.op(0x94).op(0x93).op(0x94).op('(').op('(').op(0x8c).op(7).bytes += "storage";
    p.op(0x94).op(0x8c).op(5).bytes += "torch";
    p.op(0x94).op(0x8c).op(12).bytes += "FloatStorage";
    p.op(0x94).op(0x93).op(0x94).op(0x8c).op(1).bytes += "0";
    p.op(0x8c).op(3).bytes += "cpu";
    p.op('K').op(6).op('t').op('Q').op('K').op(0);
    // The size tuple is memoized (entry 7) and read back as the stride: a memo is read as data.
    p.op('K').op(2).op('K').op(3).op(0x86).op(0x94).op('h').op(7).op(0x89);
    p.global("collections", "OrderedDict").op(')').op('R').op('}').op('b').op('t').op('R').op('.');
    const auto read = read_tensor_pickle(p.bytes);
    REQUIRE_MESSAGE(read, (read ? "" : read.error().message));
    CHECK(read->storage.type == "FloatStorage");
    CHECK(read->storage.location == "cpu");
    CHECK(read->storage.numel == 6);
    CHECK(read->size == std::vector<std::int64_t>{2, 3});
    CHECK(read->stride == std::vector<std::int64_t>{2, 3});
  }
}

TEST_CASE("forged layouts and cut storages are diagnostics, never reads past the storage") {
  const std::string six = bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6});
  SUBCASE("not a zip") {
    aoti::test::TempDir dir;
    aoti::test::write_file(dir.path / "x.pt", "\x80\x02K\x01.");
    const auto dump = read_tensor_dump(dir.path / "x.pt");
    REQUIRE_FALSE(dump);
    CHECK(dump.error().message.find("not a zip") != std::string::npos);
  }
  SUBCASE("the storage record is missing") {
    aoti::test::TempDir dir;
    aoti::test::write_zip(dir.path / "x.pt",
                          {{"archive/data.pkl", tensor_pickle({"FloatStorage", 6, 0, {6}, {1}})}});
    const auto dump = read_tensor_dump(dir.path / "x.pt");
    REQUIRE_FALSE(dump);
    CHECK(dump.error().message.find("no record archive/data/0") != std::string::npos);
  }
  SUBCASE("a storage shorter than the pickle claims") {
    CHECK(error_of({"FloatStorage", 7, 0, {7}, {1}}, six).find("holds 24 bytes") !=
          std::string::npos);
  }
  SUBCASE("a tensor reaching past its storage") {
    CHECK(error_of({"FloatStorage", 6, 1, {6}, {1}}, six).find("reach element 6") !=
          std::string::npos);
    CHECK(error_of({"FloatStorage", 6, 0, {2, 3}, {4, 1}}, six).find("reach element") !=
          std::string::npos);
  }
  SUBCASE("absurd sizes and strides") {
    CHECK(error_of({"FloatStorage", 6, 0, {1ll << 40, 1ll << 40}, {1, 1}}, six)
              .find("more than 2^63") != std::string::npos);
    CHECK(error_of({"FloatStorage", 6, 0, {3}, {INT64_MAX}}, six).find("reach element") !=
          std::string::npos);
    CHECK(error_of({"FloatStorage", 6, 0, {-1}, {1}}, six).find("negative") != std::string::npos);
    CHECK(error_of({"FloatStorage", 6, -1, {1}, {1}}, six).find("negative") != std::string::npos);
    CHECK(error_of({"FloatStorage", INT64_MAX, 0, {1}, {1}}, six).find("holds 24 bytes") !=
          std::string::npos);
  }
  SUBCASE("negative strides walk the storage backwards; reaching before it is refused") {
    const auto reversed = dump_of({"FloatStorage", 6, 5, {6}, {-1}}, six);
    REQUIRE(reversed);
    CHECK(reversed->tensor.min == 1);
    CHECK(reversed->tensor.max == 6);
    CHECK(reversed->tensor.mean == 3.5);
    CHECK(error_of({"FloatStorage", 6, 4, {6}, {-1}}, six).find("before the storage") !=
          std::string::npos);
  }
  SUBCASE("a zero-size tensor has no statistics and reads nothing") {
    const auto empty = dump_of({"FloatStorage", 0, 0, {0, 24}, {24, 1}}, "");
    REQUIRE(empty);
    CHECK(empty->tensor.numel == 0);
    CHECK_FALSE(empty->tensor.min);
    CHECK_FALSE(empty->tensor.mean);
    CHECK(empty->bytes_read == 0);
  }
  SUBCASE("a broadcast of 2^40 elements costs one element") {
    const std::string nan = bytes_of(std::vector<float>{NAN});
    const auto broadcast = dump_of({"FloatStorage", 1, 0, {1ll << 20, 1ll << 20}, {0, 0}}, nan);
    REQUIRE(broadcast);
    CHECK(broadcast->tensor.numel == (1ll << 40));
    CHECK(broadcast->tensor.nan_count == (1ll << 40));
    CHECK(broadcast->bytes_read == 4);
  }
  SUBCASE("a view of a large storage reads only what it reaches, in chunks") {
    std::vector<float> big(1 << 20, 1.0f);
    big[500000] = INFINITY;
    aoti::parsers::pt::DumpLimits limits;
    limits.stats.chunk_bytes = 4096;
    const auto row = dump_of({"FloatStorage", 1 << 20, 499990, {20}, {1}}, bytes_of(big), limits);
    REQUIRE(row);
    CHECK(row->bytes_read == 80);
    CHECK(row->tensor.inf_count == 1);
    CHECK(row->tensor.max == INFINITY);
    CHECK(row->tensor.mean == 1.0);  // over the finite values
    const auto whole = dump_of({"FloatStorage", 1 << 20, 0, {1 << 10, 1 << 10}, {1 << 10, 1}},
                               bytes_of(big), limits);
    REQUIRE(whole);
    CHECK(whole->bytes_read == 4 << 20);  // each byte once
    CHECK(whole->tensor.numel == 1 << 20);
  }
  SUBCASE("a view that overlaps itself counts each reach") {
    const auto overlapping = dump_of({"FloatStorage", 6, 0, {3, 4}, {1, 1}}, six);
    REQUIRE(overlapping);
    CHECK(overlapping->tensor.numel == 12);
    CHECK(overlapping->tensor.min == 1);
    CHECK(overlapping->tensor.max == 6);
    CHECK(overlapping->tensor.mean == 3.5);
  }
  SUBCASE("past the element limit the tensor is still read, its statistics left out") {
    aoti::parsers::pt::DumpLimits limits;
    limits.stats.max_elements = 4;
    const auto dump = dump_of({"FloatStorage", 6, 0, {6}, {1}}, six, limits);
    REQUIRE(dump);
    CHECK(dump->tensor.numel == 6);
    CHECK_FALSE(dump->tensor.min);
    REQUIRE(dump->notes.size() == 1);
    CHECK(dump->notes[0].find("more than the 4") != std::string::npos);
  }
}

TEST_CASE("every dtype the printer saves is decoded") {
  const auto one = [](const std::string& type, const std::string& storage, std::int64_t numel) {
    return dump_of({type, numel, 0, {numel}, {1}}, storage);
  };
  const auto i64 = one("LongStorage", bytes_of(std::vector<std::int64_t>{-5, 1ll << 40}), 2);
  REQUIRE(i64);
  CHECK(i64->tensor.dtype == "int64");
  CHECK(i64->tensor.min == -5);
  CHECK(i64->tensor.max == static_cast<double>(1ll << 40));
  const auto i32 = one("IntStorage", bytes_of(std::vector<std::int32_t>{-7, 9}), 2);
  CHECK(i32->tensor.min == -7);
  const auto i16 = one("ShortStorage", bytes_of(std::vector<std::int16_t>{-300, 2}), 2);
  CHECK(i16->tensor.min == -300);
  const auto i8 = one("CharStorage", std::string("\xff\x05", 2), 2);
  CHECK(i8->tensor.min == -1);
  const auto u8 = one("ByteStorage", std::string("\xff\x05", 2), 2);
  CHECK(u8->tensor.max == 255);
  const auto flags = one("BoolStorage", std::string("\x00\x01\x01", 3), 3);
  CHECK(flags->tensor.dtype == "bool");
  CHECK(flags->tensor.max == 1);
  const auto f64 = one("DoubleStorage", bytes_of(std::vector<double>{0.25, -INFINITY}), 2);
  CHECK(f64->tensor.min == -INFINITY);
  CHECK(f64->tensor.mean == 0.25);
  CHECK(f64->tensor.inf_count == 1);
  // float16: 1.0 (0x3c00), -2.0 (0xc000), a subnormal (0x0001), NaN (0x7e00).
  const auto f16 =
      one("HalfStorage", bytes_of(std::vector<std::uint16_t>{0x3c00, 0xc000, 0x0001, 0x7e00}), 4);
  REQUIRE(f16);
  CHECK(f16->tensor.dtype == "float16");
  CHECK(f16->tensor.max == 1.0);
  CHECK(f16->tensor.min == -2.0);
  CHECK(f16->tensor.nan_count == 1);
  // bfloat16: the high half of a float32.
  const auto bf16 = one(
      "BFloat16Storage",
      bytes_of(std::vector<std::uint16_t>{
          static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(1.5f) >> 16), 0xff80}),  // -inf
      2);
  REQUIRE(bf16);
  CHECK(bf16->tensor.max == 1.5);
  CHECK(bf16->tensor.inf_count == 1);
  SUBCASE("a big-endian file is read in its byte order") {
    aoti::test::TempDir dir;
    write_dump(dir.path / "t.pt", tensor_pickle({"IntStorage", 1, 0, {1}, {1}}),
               std::string("\x00\x00\x01\x02", 4), "big");
    const auto dump = read_tensor_dump(dir.path / "t.pt");
    REQUIRE(dump);
    CHECK(dump->tensor.max == 258);
  }
}
