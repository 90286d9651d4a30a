#include <doctest/doctest.h>

#include <stdlib.h>
#include <zip.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "parsers/pt2/pt2_package.hpp"
#include "tests/support.hpp"

namespace {
using namespace aoti::test;

namespace fs = std::filesystem;
using aoti::model::ModelFacts;
using aoti::parsers::pt2::looks_like_pt2;
using aoti::parsers::pt2::read_package;

const std::map<std::string, std::string> k_devices = {
    {"const-cpu-buffer", "cuda"},           {"cpp-meta-sizes", "cuda"},
    {"cpu-package-cuda-input-segv", "cpu"}, {"custom-op-fake-static-rows", "cuda"},
    {"embedding-device-assert", "cuda"},    {"healthy-cuda-dynamic", "cuda"},
    {"input-check-errors", "cuda"},         {"load-crash-static-libstdcxx", "cuda"}};
const std::set<std::string> k_static_libstdcxx = {"load-crash-static-libstdcxx", "const-cpu-buffer",
                                                  "cpp-meta-sizes"};

// Every entry of a corpus package, with its name and bytes, read with plain libzip.
std::vector<NewEntry> corpus_entries(const std::string& case_name) {
  const auto path = corpus_package(case_name);
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &error);
  REQUIRE(archive);
  std::vector<NewEntry> entries;
  for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
    zip_stat_t st;
    zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st);
    std::string data(st.size, '\0');
    zip_file_t* file = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    REQUIRE(zip_fread(file, data.data(), st.size) == static_cast<zip_int64_t>(st.size));
    zip_fclose(file);
    entries.push_back({st.name, std::move(data)});
  }
  zip_close(archive);
  return entries;
}

bool any_diagnostic(const aoti::parsers::pt2::Pt2Contents& contents, std::string_view a,
                    std::string_view b) {
  return std::any_of(contents.diagnostics.begin(), contents.diagnostics.end(), [&](const auto& d) {
    return d.message.find(a) != std::string::npos && d.message.find(b) != std::string::npos;
  });
}

}  // namespace

TEST_CASE("every corpus package: layout, metadata, .so, wrapper source") {
  for (const auto& [name, device] : k_devices) {
    CAPTURE(name);
    const auto path = corpus_package(name);
    CHECK(looks_like_pt2(path));
    const auto contents = read_package(path, "corpus/" + name + "/model.pt2");
    REQUIRE(contents);
    CHECK(contents->diagnostics.empty());
    const auto& package = contents->package;
    CHECK(package.path == "corpus/" + name + "/model.pt2");
    CHECK(package.layout == "root folder 'model/'");
    CHECK(package.archive_format == "pt2");
    CHECK(package.archive_version == "0");
    CHECK(package.entries.size() >= 10);

    REQUIRE(contents->models.size() == 1);
    REQUIRE(contents->wrapper_sources.size() == 1);
    const ModelFacts& model = contents->models.front();
    CHECK(model.name == "model");
    CHECK(model.package == package.path);
    CHECK(model.device() == device);
    CHECK(model.metadata.at("AOTI_PLATFORM") == "linux");
    CHECK(model.metadata_where.entry.ends_with(".wrapper_metadata.json"));
    CHECK(model.metadata_where.artifact == package.path);
    CHECK_FALSE(model.wrapper.has_value());
    CHECK(std::all_of(model.files.begin(), model.files.end(), [](const std::string& f) {
      return f.starts_with("model/data/aotinductor/model/");
    }));
    CHECK(contents->wrapper_sources.front() == aoti::test::corpus_entry_text(name, ".wrapper.cpp"));

    REQUIRE(model.so.has_value());
    CHECK(model.so->where.entry.ends_with(".wrapper.so"));
    CHECK(model.so->build_id.size() == 40);
    const bool needs_libstdcxx = std::find(model.so->needed.begin(), model.so->needed.end(),
                                           "libstdc++.so.6") != model.so->needed.end();
    if (k_static_libstdcxx.count(name)) {
      CHECK_FALSE(needs_libstdcxx);
      CHECK(model.so->cxx_runtime_symbol_count > 500);
    } else {
      CHECK(needs_libstdcxx);
      CHECK(model.so->cxx_runtime_symbol_count == 0);
    }
  }
}

TEST_CASE("extern nodes of custom ops") {
  const auto pad = read_package(corpus_package("custom-op-fake-static-rows"), "pad.pt2");
  REQUIRE(pad);
  const auto& pad_nodes = pad->models.front().extern_nodes;
  REQUIRE(pad_nodes.size() == 1);
  CHECK(pad_nodes[0].index == 0);
  CHECK(pad_nodes[0].name == "buf0");
  CHECK(pad_nodes[0].target == "heldout::pad_rows");
  REQUIRE(pad_nodes[0].inputs.size() == 1);
  CHECK(pad_nodes[0].inputs[0].name == "x");
  CHECK(pad_nodes[0].inputs[0].value == "tensor arg0_1");
  CHECK(pad_nodes[0].outputs == std::vector<std::string>{"buf1"});
  CHECK(pad->models.front().extern_nodes_where.entry.ends_with(".wrapper.json"));

  const auto scale = read_package(corpus_package("cpp-meta-sizes"), "scale.pt2");
  REQUIRE(scale);
  const auto& scale_nodes = scale->models.front().extern_nodes;
  REQUIRE(scale_nodes.size() == 1);
  CHECK(scale_nodes[0].target == "heldout_cpp::scale_rows");
  REQUIRE(scale_nodes[0].inputs.size() == 2);
  CHECK(scale_nodes[0].inputs[1].name == "s");
  CHECK(scale_nodes[0].inputs[1].value == "float 0.5");

  const auto plain = read_package(corpus_package("healthy-cuda-dynamic"), "plain.pt2");
  REQUIRE(plain);
  CHECK(plain->models.front().extern_nodes.empty());
}

TEST_CASE("argument kinds are rendered shortly") {
  TempDir dir;
  auto entries = corpus_entries("custom-op-fake-static-rows");
  for (auto& entry : entries)
    if (entry.name.ends_with(".wrapper.json"))
      entry.data = R"({"nodes": [{"name": "buf3", "node": {"target": "ns::op", "inputs": [
        {"name": "n", "arg": {"as_int": 3}}, {"name": "dims", "arg": {"as_ints": [1, 2]}},
        {"name": "sym", "arg": {"as_sym_int": {"as_name": "s77"}}},
        {"name": "ts", "arg": {"as_tensors": [{"name": "a"}, {"name": "b"}]}},
        {"name": "flag", "arg": {"as_bool": true}}, {"name": "opt", "arg": {"as_none": true}}],
        "outputs": [{"as_tensors": [{"name": "buf4"}, {"name": "buf5"}]}]}}]})";
  const auto path = dir.path / "kinds.pt2";
  write_zip(path, entries);
  const auto contents = read_package(path, "kinds.pt2");
  REQUIRE(contents);
  const auto& node = contents->models.front().extern_nodes.at(0);
  std::vector<std::string> values;
  for (const auto& input : node.inputs) values.push_back(input.value);
  CHECK(values == std::vector<std::string>{"int 3", "ints [1, 2]", "sym_int s77", "tensors [a, b]",
                                           "bool true", "none"});
  CHECK(node.outputs == std::vector<std::string>{"buf4", "buf5"});
}

TEST_CASE("legacy layout without a root folder, with a compressed .so") {
  TempDir dir;
  std::vector<NewEntry> legacy = {{"version", "0"}, {"archive_format", "pt2"}};
  for (auto& entry : corpus_entries("cpu-package-cuda-input-segv")) {
    if (!entry.name.starts_with("model/data/")) continue;
    entry.name = entry.name.substr(std::string("model/").size());
    entry.deflate = entry.name.ends_with(".so");
    legacy.push_back(std::move(entry));
  }
  const auto path = dir.path / "legacy.pt2";
  write_zip(path, legacy);

  CHECK(looks_like_pt2(path));
  const auto contents = read_package(path, "legacy.pt2");
  REQUIRE(contents);
  CHECK(contents->diagnostics.empty());
  CHECK(contents->package.layout == "legacy (no root folder)");
  CHECK(contents->package.archive_version == "0");
  REQUIRE(contents->models.size() == 1);
  const auto& model = contents->models.front();
  CHECK(model.name == "model");
  CHECK(model.device() == "cpu");
  REQUIRE(model.so.has_value());
  CHECK(model.so->build_id.size() == 40);
  CHECK(model.so->where.entry.starts_with("data/aotinductor/model/"));
  CHECK_FALSE(contents->wrapper_sources.front().empty());
}

TEST_CASE("two models in one package, in name order") {
  TempDir dir;
  std::vector<NewEntry> entries;
  for (const auto& [case_name, model] : {std::pair{"healthy-cuda-dynamic", "gpu"},
                                         std::pair{"cpu-package-cuda-input-segv", "cpu_part"}}) {
    for (auto& entry : corpus_entries(case_name)) {
      const std::string from = "model/data/aotinductor/model/";
      if (entry.name.starts_with(from))
        entry.name =
            "pkg/data/aotinductor/" + std::string(model) + "/" + entry.name.substr(from.size());
      else if (std::string_view(case_name) == "healthy-cuda-dynamic")
        entry.name = "pkg/" + entry.name.substr(std::string("model/").size());
      else
        continue;
      entries.push_back(std::move(entry));
    }
  }
  const auto path = dir.path / "pkg.pt2";
  write_zip(path, entries);
  const auto contents = read_package(path, "pkg.pt2");
  REQUIRE(contents);
  CHECK(contents->diagnostics.empty());
  CHECK(contents->package.layout == "root folder 'pkg/'");
  REQUIRE(contents->models.size() == 2);
  CHECK(contents->models[0].name == "cpu_part");
  CHECK(contents->models[0].device() == "cpu");
  CHECK(contents->models[1].name == "gpu");
  CHECK(contents->models[1].device() == "cuda");
  CHECK(contents->wrapper_sources.size() == 2);
}

TEST_CASE("broken entries become diagnostics; the rest is still read") {
  TempDir dir;
  auto entries = corpus_entries("cpp-meta-sizes");
  std::erase_if(entries, [](const NewEntry& e) { return e.name.ends_with(".wrapper.cpp"); });
  for (auto& entry : entries) {
    if (entry.name.ends_with(".wrapper_metadata.json"))
      entry.data = "{\"AOTI_DEVICE_KEY\": \"cuda\",";
    if (entry.name.ends_with(".wrapper.so"))
      entry.data = "not an ELF file at all, just some text here";
  }
  entries.push_back({"model/stray.txt", "x"});
  entries.push_back({"outside.txt", "x"});
  const auto path = dir.path / "broken.pt2";
  write_zip(path, entries);

  const auto contents = read_package(path, "broken.pt2");
  REQUIRE(contents);
  const auto& model = contents->models.at(0);
  CHECK(model.metadata.empty());
  CHECK_FALSE(model.so.has_value());
  CHECK(contents->wrapper_sources.at(0).empty());
  CHECK(model.extern_nodes.at(0).target == "heldout_cpp::scale_rows");
  CHECK(any_diagnostic(*contents, ".wrapper_metadata.json", "not valid JSON"));
  CHECK(any_diagnostic(*contents, ".wrapper.so", "not an ELF file"));
  CHECK(any_diagnostic(*contents, "no wrapper source", "'model'"));
  CHECK(any_diagnostic(*contents, "outside the root folder", "outside.txt"));
  CHECK(std::all_of(contents->diagnostics.begin(), contents->diagnostics.end(),
                    [](const auto& d) { return d.artifact == "broken.pt2"; }));
}

TEST_CASE("non-string metadata values are stringified") {
  TempDir dir;
  auto entries = corpus_entries("healthy-cuda-dynamic");
  for (auto& entry : entries)
    if (entry.name.ends_with(".wrapper_metadata.json"))
      entry.data =
          R"({"AOTI_DEVICE_KEY": "cuda", "AOTI_COMPUTE_CAPABILITY": 90, "EXTRA": [1, true]})";
  const auto path = dir.path / "meta.pt2";
  write_zip(path, entries);
  const auto contents = read_package(path, "meta.pt2");
  REQUIRE(contents);
  const auto& metadata = contents->models.at(0).metadata;
  CHECK(metadata.at("AOTI_COMPUTE_CAPABILITY") == "90");
  CHECK(metadata.at("EXTRA") == "[1,true]");
}

TEST_CASE("what is not a pt2 package fails with the reason") {
  TempDir dir;
  const auto text = dir.path / "notes.pt2";
  write_file(text, "just text\n");
  CHECK_FALSE(looks_like_pt2(text));
  CHECK(read_package(text, "notes.pt2").error().message == "not a zip archive");
  CHECK_FALSE(looks_like_pt2(dir.path / "missing.pt2"));

  const auto plain_zip = dir.path / "plain.pt2";
  write_zip(plain_zip, {{"model/data/readme.txt", "hello"}});
  CHECK_FALSE(looks_like_pt2(plain_zip));
  CHECK(read_package(plain_zip, "plain.pt2").error().message ==
        "no archive_format entry: not a pt2 package");

  const auto other_format = dir.path / "other.pt2";
  write_zip(other_format, {{"model/archive_format", "pt3"}, {"model/x", ""}});
  CHECK_FALSE(looks_like_pt2(other_format));
  CHECK(read_package(other_format, "other.pt2").error().message ==
        "archive_format is 'pt3', not 'pt2'");

  const std::string bytes = aoti::test::read_file(corpus_package("healthy-cuda-dynamic"));
  for (const std::size_t cut :
       {std::size_t{10}, bytes.size() / 4, bytes.size() / 2, bytes.size() - 50}) {
    CAPTURE(cut);
    const auto path = dir.path / ("cut-" + std::to_string(cut) + ".pt2");
    write_file(path, bytes.substr(0, cut));
    CHECK_FALSE(looks_like_pt2(path));
    const auto contents = read_package(path, "cut.pt2");
    REQUIRE_FALSE(contents);
    CHECK(contents.error().message.starts_with("truncated"));
  }
}
