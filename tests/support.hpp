// Helpers shared by tests: paths into the repository and the real corpus.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <zip.h>

namespace aoti::test {

inline std::filesystem::path source_dir() { return AOTI_SOURCE_DIR; }
inline std::filesystem::path corpus_dir() { return source_dir() / "corpus"; }
inline std::filesystem::path corpus_case(const std::string& name) { return corpus_dir() / name; }

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The text of the first zip entry whose name ends with `suffix`, read with plain libzip so that
// parser tests do not depend on the zip parser they may be testing.
inline std::string corpus_entry_text(const std::string& case_name, const std::string& suffix) {
  const auto path = corpus_case(case_name) / "model.pt2";
  int err = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &err);
  if (!archive) throw std::runtime_error("cannot open " + path.string());
  std::string text;
  const zip_int64_t count = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const std::string name = zip_get_name(archive, i, 0);
    if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    zip_stat_t st;
    zip_stat_index(archive, i, 0, &st);
    zip_file_t* file = zip_fopen_index(archive, i, 0);
    text.resize(st.size);
    zip_fread(file, text.data(), st.size);
    zip_fclose(file);
    break;
  }
  zip_close(archive);
  return text;
}

}  // namespace aoti::test
