// What the facts of a symbol, specialization, guard, fake-kernel, failure or code-dump record read
// of its header, taken out where the header is parsed: on the scan threads for a TORCH_TRACE log
// (from simdjson's parse), per line for a tlparse raw.jsonl (from nlohmann's). One reading,
// written once over both JSON libraries through a small adapter (`Value`, below), so the facts do
// not depend on which parser read the header; what they hold is plain data, cheap to move to the
// builder and to free, where a whole parsed header of kilobytes of stack frames was not.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace aoti::parsers::trace {

// Which part of a record's header its facts read.
enum class FactUse {
  none,               // nothing beyond RecordHeader's fields
  metadata,           // metadata fields (failures, fake kernels, code dumps)
  metadata_and_stack  // and a stack for the user's frames (symbols, specializations, guards)
};

struct RecordFacts {
  // A stack frame as the record wrote it; its file is resolved against the string table later.
  // A file as a frame names it: an interned string's id, or the name itself; none when neither.
  using FileRef = std::variant<std::monostate, std::int64_t, std::string>;
  struct Frame {
    FileRef file;  // "filename", else "uninterned_filename"
    int line = 0;
    std::string function;  // "name"
    std::string code;      // "loc"
  };
  // The metadata's fields of k_fact_fields that are set, as TraceBuilder's text_of reads them (a
  // number printed), cut at k_max_reason_text.
  std::map<std::string, std::string, std::less<>> texts;
  std::optional<std::int64_t> fail_user_frame_lineno;
  std::vector<std::string> sources;  // the metadata's "sources": its strings, at most 16
  // The stack the user's frames come from: the metadata's user_stack, else its stack, else the
  // envelope's (metadata_and_stack only).
  std::vector<Frame> stack;

  std::string text(std::string_view key, std::size_t cap) const {
    const auto it = texts.find(key);
    return it == texts.end() ? std::string() : it->second.substr(0, cap);
  }
};

// The longest text a fact keeps: a reason or a failure message, and any metadata field as read.
inline constexpr std::size_t k_max_reason_text = 16384;
// The longest of any other text: a value, a source, a frame's file, function or code.
inline constexpr std::size_t k_max_field_text = 4096;
inline constexpr std::size_t k_max_sources = 16;
inline constexpr std::array<std::string_view, 14> k_fact_fields = {"symbol",
                                                                   "source",
                                                                   "val",
                                                                   "vr",
                                                                   "value",
                                                                   "reason",
                                                                   "expr",
                                                                   "prefix",
                                                                   "result",
                                                                   "op",
                                                                   "fail_type",
                                                                   "fail_reason",
                                                                   "fail_user_frame_filename",
                                                                   "filename"};

// A field of `object` as text: "" when `object` is not an object or the field is absent or null,
// a string as it is, any other value printed as JSON; cut at `cap`.
template <class Value>
std::string text_of(const Value& object, std::string_view key, std::size_t cap) {
  if (!object.is_object()) return {};
  const std::optional<Value> field = object.find(key);
  if (!field || field->is_null()) return {};
  std::string text = field->is_string() ? std::string(field->string()) : field->dump();
  if (text.size() > cap) text.resize(cap);
  return text;
}

template <class Value>
std::optional<std::int64_t> int_of(const Value& object, std::string_view key) {
  if (!object.is_object()) return std::nullopt;
  const std::optional<Value> field = object.find(key);
  if (!field || !field->is_integer()) return std::nullopt;
  return field->integer();
}

// `key` of `object`, or a null value.
template <class Value>
Value member(const Value& object, std::string_view key) {
  if (!object.is_object()) return Value();
  std::optional<Value> field = object.find(key);
  return field ? *field : Value();
}

// A frame's file field (`filename` or `uninterned_filename`).
template <class Value>
RecordFacts::FileRef file_ref_of(const Value& file) {
  if (file.is_string()) return std::string(file.string().substr(0, k_max_field_text));
  if (file.is_integer()) return file.integer();
  return {};
}

// One frame of a stack (an object).
template <class Value>
RecordFacts::Frame frame_of(const Value& frame) {
  RecordFacts::Frame out;
  Value file = member(frame, "filename");
  if (file.is_null()) file = member(frame, "uninterned_filename");
  out.file = file_ref_of(file);
  out.line = static_cast<int>(int_of(frame, "line").value_or(0));
  out.function = text_of(frame, "name", k_max_field_text);
  out.code = text_of(frame, "loc", k_max_field_text);
  return out;
}

// The frames of `stack`: its items that are objects.
template <class Value>
std::vector<RecordFacts::Frame> frames_of(const Value& stack) {
  std::vector<RecordFacts::Frame> frames;
  if (!stack.is_array()) return frames;
  stack.for_each_item([&](const Value& frame) {
    if (frame.is_object()) frames.push_back(frame_of(frame));
  });
  return frames;
}

// The facts of a record whose header is `envelope` and whose event is `kind`.
template <class Value>
RecordFacts record_facts(const Value& envelope, std::string_view kind, FactUse use) {
  RecordFacts facts;
  if (use == FactUse::none) return facts;
  const Value metadata = member(envelope, kind);
  for (const std::string_view field : k_fact_fields) {
    std::string text = text_of(metadata, field, k_max_reason_text);
    if (!text.empty()) facts.texts.emplace(field, std::move(text));
  }
  facts.fail_user_frame_lineno = int_of(metadata, "fail_user_frame_lineno");
  const Value sources = member(metadata, "sources");
  if (sources.is_array())
    sources.for_each_item([&](const Value& source) {
      if (source.is_string() && facts.sources.size() < k_max_sources)
        facts.sources.emplace_back(source.string().substr(0, k_max_field_text));
    });
  if (use != FactUse::metadata_and_stack) return facts;
  const auto usable = [](const Value& stack) { return stack.is_array() && stack.size() > 0; };
  Value stack = member(metadata, "user_stack");
  if (!usable(stack)) stack = member(metadata, "stack");
  if (!usable(stack)) stack = member(envelope, "stack");
  facts.stack = frames_of(stack);
  return facts;
}

}  // namespace aoti::parsers::trace
