#include "parsers/pt/pickle.hpp"

#include <fmt/format.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <variant>

#include "parsers/pt/storage_types.hpp"
#include "util/byte_reader.hpp"

namespace aoti::parsers::pt {
namespace {

// A tensor's pickle holds a dozen values: these bounds only stop a forged one from making the
// reader hold much memory. Strings are copied when the memo is read, so they stay short.
constexpr std::size_t k_max_stack = 4096;
constexpr std::size_t k_max_memo = 4096;
constexpr std::size_t k_max_string = 4096;
constexpr std::size_t k_max_dims = 64;  // torch's own limit on a tensor's dimensions

struct Value;
using Tuple = std::shared_ptr<const std::vector<Value>>;
struct Mark {};
struct None {};
// A callable named by GLOBAL / STACK_GLOBAL, only ever compared with the allowed names.
struct Global {
  std::string module;
  std::string name;
};
// An empty dict or OrderedDict (the tensor's backward hooks, its metadata): its items do not
// matter to a summary, only that the pickle stays well formed.
struct Dict {
  std::size_t items = 0;
};
struct Value {
  std::variant<None, Mark, bool, std::int64_t, std::string, Tuple, Global, Dict, PickledStorage,
               PickledTensor>
      v;
};

std::string_view kind_of(const Value& value) {
  constexpr std::array<std::string_view, 10> k_kinds = {
      "None", "MARK", "bool", "int", "str", "tuple", "global", "dict", "storage", "tensor"};
  return k_kinds[value.v.index()];
}

// Thrown inside the reader, caught at read_tensor_pickle: a ParseError with the byte it is at.
struct PickleError {
  std::string message;
};

class Unpickler {
 public:
  explicit Unpickler(std::string_view pickle)
      : m_bytes(reinterpret_cast<const std::byte*>(pickle.data()), pickle.size()) {}

  PickledTensor run() {
    while (true) {
      m_opcode_at = m_at;
      const auto opcode = static_cast<unsigned char>(take_u8());
      if (opcode == '.') break;  // STOP
      step(opcode);
    }
    if (m_stack.size() != 1)
      fail(fmt::format("STOP with {} values on the stack, not one", m_stack.size()));
    auto* tensor = std::get_if<PickledTensor>(&m_stack.back().v);
    if (!tensor) fail(fmt::format("the pickle holds a {}, not a tensor", kind_of(m_stack.back())));
    return std::move(*tensor);
  }

 private:
  [[noreturn]] void fail(std::string message) const {
    throw PickleError{fmt::format("data.pkl byte {}: {}", m_opcode_at, message)};
  }

  void step(unsigned char opcode) {
    switch (opcode) {
      case 0x80:  // PROTO
        if (const auto protocol = take_u8(); protocol < 2 || protocol > 5)
          fail(fmt::format("pickle protocol {}: torch.save writes 2 to 5", protocol));
        return;
      case 0x95:  // FRAME: a length hint for buffered readers; the whole pickle is in memory
        take(8);
        return;
      case '(':  // MARK
        return push({Mark{}});
      case ')':  // EMPTY_TUPLE
        return push({std::make_shared<const std::vector<Value>>()});
      case 't':  // TUPLE
        return push({make_tuple(pop_to_mark())});
      case 0x85:  // TUPLE1
      case 0x86:  // TUPLE2
      case 0x87:  // TUPLE3
        return push({make_tuple(pop_n(opcode - 0x84))});
      case '}':  // EMPTY_DICT
        return push({Dict{}});
      case 's':  // SETITEM
        pop_n(2);
        return add_items(1);
      case 'u': {  // SETITEMS
        const auto items = pop_to_mark();
        if (items.size() % 2 != 0) fail("SETITEMS with an odd number of keys and values");
        return add_items(items.size() / 2);
      }
      case 'N':  // NONE
        return push({None{}});
      case 0x88:  // NEWTRUE
        return push({true});
      case 0x89:  // NEWFALSE
        return push({false});
      case 'K':  // BININT1
        return push({std::int64_t{take_u8()}});
      case 'M':  // BININT2
        return push({std::int64_t{take_fixed<std::uint16_t>()}});
      case 'J':  // BININT
        return push({std::int64_t{take_fixed<std::int32_t>()}});
      case 0x8a:  // LONG1
        return push({take_long(take_u8())});
      case 'X':  // BINUNICODE
        return push({take_string(take_fixed<std::uint32_t>())});
      case 0x8c:  // SHORT_BINUNICODE
        return push({take_string(take_u8())});
      case 'q':  // BINPUT
        return put(take_u8());
      case 'r':  // LONG_BINPUT
        return put(take_fixed<std::uint32_t>());
      case 0x94:  // MEMOIZE
        return put(m_memo.size());
      case 'h':  // BINGET
        return get(take_u8());
      case 'j':  // LONG_BINGET
        return get(take_fixed<std::uint32_t>());
      case 'c': {  // GLOBAL "module\nname\n"
        std::string module = take_line();
        std::string name = take_line();
        return push({allowed_global(std::move(module), std::move(name))});
      }
      case 0x93: {  // STACK_GLOBAL
        std::string name = pop_string("STACK_GLOBAL's name");
        std::string module = pop_string("STACK_GLOBAL's module");
        return push({allowed_global(std::move(module), std::move(name))});
      }
      case 'Q':  // BINPERSID
        return push({persistent_storage(pop())});
      case 'R':  // REDUCE
        return reduce();
      case 'b':  // BUILD: state for the object below it, which keeps no state worth reading
        pop();
        if (m_stack.empty() || !(std::holds_alternative<Dict>(m_stack.back().v) ||
                                 std::holds_alternative<PickledTensor>(m_stack.back().v)))
          fail("BUILD on something that is neither a dict nor a tensor");
        return;
      default:
        fail(opcode >= 0x20 && opcode < 0x7f
                 ? fmt::format("opcode 0x{:02x} ('{}') is not one torch.save writes for a tensor; "
                               "the pickle is not read further",
                               opcode, static_cast<char>(opcode))
                 : fmt::format("opcode 0x{:02x} is not one torch.save writes for a tensor; the "
                               "pickle is not read further",
                               opcode));
    }
  }

  // Only what a saved tensor refers to: its rebuild function, the storage classes, and the
  // OrderedDict of its backward hooks. Anything else (os.system, builtins.eval, ...) is refused
  // where it is named, before it could be called.
  Global allowed_global(std::string module, std::string name) {
    const bool allowed =
        (module == "torch._utils" && (name == "_rebuild_tensor_v2" || name == "_rebuild_tensor")) ||
        (module == "torch" && storage_type_named(name)) ||
        (module == "collections" && name == "OrderedDict");
    if (!allowed) {
      if (module == "torch" && name.ends_with("Storage"))
        fail(fmt::format("torch.{}: tensors of that type are not read", name));
      fail(fmt::format("global {}.{} is not one torch.save of a tensor names; it is never called",
                       short_text(module), short_text(name)));
    }
    return {std::move(module), std::move(name)};
  }

  PickledStorage persistent_storage(const Value& id) {
    const auto* tuple = std::get_if<Tuple>(&id.v);
    if (!tuple || (*tuple)->size() != 5)
      fail("a persistent id that is not torch's ('storage', type, key, location, numel)");
    const auto& items = **tuple;
    const auto* tag = std::get_if<std::string>(&items[0].v);
    const auto* type = std::get_if<Global>(&items[1].v);
    const auto* key = std::get_if<std::string>(&items[2].v);
    const auto* location = std::get_if<std::string>(&items[3].v);
    const auto* numel = std::get_if<std::int64_t>(&items[4].v);
    if (!tag || *tag != "storage" || !type || type->module != "torch" ||
        !storage_type_named(type->name) || !key || !location || !numel)
      fail("a persistent id that is not torch's ('storage', type, key, location, numel)");
    if (*numel < 0) fail(fmt::format("storage {} claims {} elements", short_text(*key), *numel));
    return {type->name, *key, *location, *numel};
  }

  void reduce() {
    const Value arguments = pop();
    const Value callable = pop();
    const auto* function = std::get_if<Global>(&callable.v);
    const auto* tuple = std::get_if<Tuple>(&arguments.v);
    if (!function || !tuple) fail("REDUCE of something that is not a global and its arguments");
    const auto& args = **tuple;
    if (function->module == "collections") {
      if (!args.empty()) fail("OrderedDict built from arguments; torch.save passes none");
      return push({Dict{}});
    }
    if (function->module != "torch._utils")
      fail(fmt::format("REDUCE calls torch.{}; torch.save never does", function->name));
    // _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, backward_hooks[, metadata]);
    // _rebuild_tensor(storage, offset, size, stride).
    if (args.size() < 4) fail(fmt::format("{} with {} arguments", function->name, args.size()));
    const auto* storage = std::get_if<PickledStorage>(&args[0].v);
    const auto* offset = std::get_if<std::int64_t>(&args[1].v);
    if (!storage || !offset)
      fail(fmt::format("{}'s first arguments are not a storage and an offset", function->name));
    PickledTensor tensor;
    tensor.storage = *storage;
    tensor.storage_offset = *offset;
    tensor.size = int_tuple(args[2], "size");
    tensor.stride = int_tuple(args[3], "stride");
    if (tensor.size.size() != tensor.stride.size())
      fail(fmt::format("a size of {} dimensions with a stride of {}", tensor.size.size(),
                       tensor.stride.size()));
    push({std::move(tensor)});
  }

  std::vector<std::int64_t> int_tuple(const Value& value, std::string_view what) {
    const auto* tuple = std::get_if<Tuple>(&value.v);
    if (!tuple) fail(fmt::format("the tensor's {} is a {}, not a tuple", what, kind_of(value)));
    if ((*tuple)->size() > k_max_dims)
      fail(fmt::format("the tensor's {} has {} dimensions; torch allows {}", what, (*tuple)->size(),
                       k_max_dims));
    std::vector<std::int64_t> ints;
    for (const Value& item : **tuple) {
      const auto* number = std::get_if<std::int64_t>(&item.v);
      if (!number) fail(fmt::format("the tensor's {} holds a {}", what, kind_of(item)));
      ints.push_back(*number);
    }
    return ints;
  }

  void add_items(std::size_t count) {
    if (m_stack.empty()) fail("SETITEM with no dict");
    auto* dict = std::get_if<Dict>(&m_stack.back().v);
    if (!dict) fail(fmt::format("SETITEM on a {}, not a dict", kind_of(m_stack.back())));
    dict->items += count;
  }

  void put(std::uint64_t index) {
    if (m_stack.empty()) fail("memo PUT with an empty stack");
    if (std::holds_alternative<Mark>(m_stack.back().v)) fail("memo PUT of a MARK");
    if (m_memo.size() >= k_max_memo && !m_memo.contains(index))
      fail(fmt::format("more than {} memo entries", k_max_memo));
    m_memo[index] = m_stack.back();
  }

  void get(std::uint64_t index) {
    const auto found = m_memo.find(index);
    if (found == m_memo.end()) fail(fmt::format("memo GET of entry {}, never PUT", index));
    push(found->second);
  }

  void push(Value value) {
    if (m_stack.size() >= k_max_stack) fail(fmt::format("more than {} values", k_max_stack));
    m_stack.push_back(std::move(value));
  }

  Value pop() {
    if (m_stack.empty()) fail("stack underflow");
    if (std::holds_alternative<Mark>(m_stack.back().v)) fail("a MARK where a value was expected");
    Value value = std::move(m_stack.back());
    m_stack.pop_back();
    return value;
  }

  std::vector<Value> pop_n(std::size_t count) {
    if (m_stack.size() < count) fail("stack underflow");
    std::vector<Value> values;
    for (std::size_t i = m_stack.size() - count; i < m_stack.size(); ++i) {
      if (std::holds_alternative<Mark>(m_stack[i].v)) fail("a MARK where a value was expected");
      values.push_back(std::move(m_stack[i]));
    }
    m_stack.resize(m_stack.size() - count);
    return values;
  }

  std::vector<Value> pop_to_mark() {
    std::size_t mark = m_stack.size();
    while (mark > 0 && !std::holds_alternative<Mark>(m_stack[mark - 1].v)) --mark;
    if (mark == 0) fail("no MARK to pop to");
    std::vector<Value> values(std::make_move_iterator(m_stack.begin() + mark),
                              std::make_move_iterator(m_stack.end()));
    m_stack.resize(mark - 1);
    return values;
  }

  std::string pop_string(std::string_view what) {
    Value value = pop();
    auto* text = std::get_if<std::string>(&value.v);
    if (!text) fail(fmt::format("{} is a {}, not a str", what, kind_of(value)));
    return std::move(*text);
  }

  static Tuple make_tuple(std::vector<Value> items) {
    return std::make_shared<const std::vector<Value>>(std::move(items));
  }

  std::span<const std::byte> take(std::size_t count) {
    if (m_bytes.size() - m_at < count) fail("the pickle ends inside an opcode (no STOP)");
    const auto bytes = m_bytes.subspan(m_at, count);
    m_at += count;
    return bytes;
  }
  std::uint8_t take_u8() { return std::to_integer<std::uint8_t>(take(1)[0]); }
  template <class T>
  T take_fixed() {
    auto bytes = take(sizeof(T));
    return util::read_fixed<T>(bytes);
  }

  // LONG1: a little-endian two's-complement integer of `length` bytes.
  std::int64_t take_long(std::size_t length) {
    if (length > 8) fail(fmt::format("an integer of {} bytes, past 64 bits", length));
    const auto bytes = take(length);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < length; ++i)
      value |= std::uint64_t{std::to_integer<std::uint8_t>(bytes[i])} << (8 * i);
    if (length > 0 && length < 8 && (std::to_integer<std::uint8_t>(bytes[length - 1]) & 0x80))
      value |= ~std::uint64_t{0} << (8 * length);  // sign-extend
    return static_cast<std::int64_t>(value);
  }

  std::string take_string(std::uint64_t length) {
    if (length > k_max_string)
      fail(fmt::format("a string of {} bytes; torch.save writes names of a few", length));
    const auto bytes = take(static_cast<std::size_t>(length));
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }

  std::string take_line() {
    std::string line;
    while (true) {
      const auto c = static_cast<char>(take_u8());
      if (c == '\n') return line;
      if (line.size() >= k_max_string) fail("a GLOBAL name with no end of line");
      line.push_back(c);
    }
  }

  static std::string short_text(std::string_view text) {
    constexpr std::size_t k_shown = 80;
    std::string shown;
    for (const char c : text.substr(0, k_shown))
      shown += (c >= 0x20 && c < 0x7f) ? std::string(1, c)
                                       : fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    return text.size() > k_shown ? shown + "..." : shown;
  }

  std::span<const std::byte> m_bytes;
  std::size_t m_at = 0;
  std::size_t m_opcode_at = 0;
  std::vector<Value> m_stack;
  std::map<std::uint64_t, Value> m_memo;
};

}  // namespace

Parsed<PickledTensor> read_tensor_pickle(std::string_view pickle) {
  try {
    return Unpickler(pickle).run();
  } catch (const PickleError& error) {
    return fail(error.message);
  } catch (const util::ReadError& error) {
    return fail(std::string("data.pkl: ") + error.what());
  }
}

}  // namespace aoti::parsers::pt
