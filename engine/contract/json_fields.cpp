#include "engine/contract/json_fields.h"

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <set>
#include <span>
#include <vector>

#include "engine/format.h"
#include "engine/link/utf8.h"

namespace engine::contract {
namespace {


std::string FieldPath(const std::string& path, std::string_view key) { return path + std::string(key); }

// "must be a number, got a string": `id` says what the field must be.
InputError TypeError(const std::string& field, const char* id, const Json& got) {
  return MakeInputError(field, id, {TypeArg("got", got)});
}

// One open object or array while parsing: the keys seen so far (objects only), the last
// one, which names the value being parsed, and how many elements have begun (arrays only).
// Paths are built only for an error, so deep nesting costs memory linear in the input.
struct OpenValue {
  bool object = false;
  std::set<std::string> keys;
  std::string last_key;
  size_t elements = 0;
};

// "model.layers" (scenario: arrays left out), or with indices "offers[0].price.new_usd_low".
std::string KeyPath(const std::vector<OpenValue>& open, const std::string& key, bool indices) {
  std::string path;
  for (size_t i = 0; i + 1 < open.size(); ++i) {
    if (open[i].object) {
      path += (indices && !path.empty() ? "." : "") + open[i].last_key + (indices ? "" : ".");
    } else if (indices) {
      path += "[" + std::to_string(open[i].elements - 1) + "]";
    }
  }
  if (indices && !path.empty()) path += ".";
  return path + key;
}

// [SECTION] the JSON parser's account of bad text, as a message
//
// nlohmann::json says what stopped it in English ("[json.exception.parse_error.101] parse
// error at line 1, column 2: syntax error while parsing object key - invalid literal; last
// read: '{m'; expected string literal"), put together from a few fixed pieces (its
// parser::exception_message, lexer::token_type_name and the lexer's error_message texts).
// Taken apart into those pieces, each is a message of its own and so is said in the page's
// language; the text it quotes from the input is cut to QuotedInput's 64 bytes (it may be a
// megabyte of one string). A text of any other shape is kept as it is.

constexpr EnglishWord kContexts[] = {
    {"object separator", "input.json.context.object_separator"}, {"object key", "input.json.context.object_key"},
    {"object", "input.json.context.object"}, {"array", "input.json.context.array"},
    {"value", "input.json.context.value"},
};

// Token names that are words; the others ('[', '}', ...) are the same in any language.
constexpr EnglishWord kTokens[] = {
    {"<uninitialized>", "input.json.token.uninitialized"}, {"true literal", "input.json.token.true"},
    {"false literal", "input.json.token.false"},           {"null literal", "input.json.token.null"},
    {"string literal", "input.json.token.string"},         {"number literal", "input.json.token.number"},
    {"<parse error>", "input.json.token.parse_error"},     {"end of input", "input.json.token.end_of_input"},
    {"'[', '{', or a literal", "input.json.token.literal_or_value"}, {"unknown token", "input.json.token.unknown"},
};
constexpr std::string_view kPunctuation[] = {"'['", "'{'", "']'", "'}'", "':'", "','"};

constexpr EnglishWord kLexerErrors[] = {
    {"invalid BOM; must be 0xEF 0xBB 0xBF if given", "input.json.lexer.bom"},
    {"invalid comment; expecting '/' or '*' after '/'", "input.json.lexer.comment_slash"},
    {"invalid comment; missing closing '*/'", "input.json.lexer.comment_unclosed"},
    {"invalid literal", "input.json.lexer.literal"},
    {"invalid number; expected digit after '-'", "input.json.lexer.number_minus"},
    {"invalid number; expected digit after '.'", "input.json.lexer.number_dot"},
    {"invalid number; expected '+', '-', or digit after exponent", "input.json.lexer.number_exponent"},
    {"invalid number; expected digit after exponent sign", "input.json.lexer.number_exponent_sign"},
    {"invalid string: '\\u' must be followed by 4 hex digits", "input.json.lexer.unicode_escape"},
    {"invalid string: forbidden character after backslash", "input.json.lexer.backslash"},
    {"invalid string: ill-formed UTF-8 byte", "input.json.lexer.utf8"},
    {"invalid string: missing closing quote", "input.json.lexer.missing_quote"},
    {"invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF", "input.json.lexer.surrogate_high"},
    {"invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF", "input.json.lexer.surrogate_low"},
};

// Text from the input, quoted back: at most QuotedInput's 64 bytes, and each byte that does
// not begin well-formed UTF-8 replaced by U+FFFD (the page and the JSON writer need UTF-8).
std::string QuotedText(std::string_view text) {
  const std::string quoted = engine::QuotedInput(text);
  std::string out;
  for (size_t at = 0; at < quoted.size();) {
    const size_t length = link::Utf8SequenceLength(quoted, at);
    out += length == 0 ? std::string_view("\xEF\xBF\xBD") : std::string_view(quoted).substr(at, length);
    at += length == 0 ? 1 : length;
  }
  return out;
}

// A token name as an argument: a word as its message, punctuation as it is.
std::optional<engine::MessageArg> TokenArg(const char* name, std::string_view text) {
  if (auto word = WordMessage(kTokens, text)) return MessageArgOf(name, *word);
  for (std::string_view p : kPunctuation) {
    if (p == text) return TextArg(name, std::string(text));
  }
  return std::nullopt;
}

// "invalid string: control character U+0008 (BS) must be escaped to \u0008 or \b".
std::optional<Message> ControlCharacterMessage(std::string_view text) {
  constexpr std::string_view kStart = "invalid string: control character ", kEscaped = ") must be escaped to ";
  if (!text.starts_with(kStart)) return std::nullopt;
  text.remove_prefix(kStart.size());
  const size_t open = text.find(" ("), close = text.find(kEscaped);
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  std::vector<engine::MessageArg> args = {TextArg("code", std::string(text.substr(0, open))),
                                          TextArg("name", std::string(text.substr(open + 2, close - open - 2)))};
  const std::string_view escapes = text.substr(close + kEscaped.size());
  if (const size_t word = escapes.find(" or "); word != std::string_view::npos) {
    args.push_back(TextArg("escape", std::string(escapes.substr(0, word))));
    args.push_back(TextArg("short", std::string(escapes.substr(word + 4))));
    return MakeMessage("input.json.lexer.control.short", std::move(args));
  }
  args.push_back(TextArg("escape", std::string(escapes)));
  return MakeMessage("input.json.lexer.control", std::move(args));
}

// What went wrong after "syntax error while parsing <context> - ": "unexpected <token>",
// or the lexer's complaint and the text it last read.
std::optional<Message> ProblemMessage(std::string_view text) {
  if (text.starts_with("unexpected ")) {
    auto token = TokenArg("token", text.substr(11));
    if (!token) return std::nullopt;
    return MakeMessage("input.json.unexpected", {*token});
  }
  constexpr std::string_view kLastRead = "; last read: '";
  const size_t last = text.find(kLastRead);
  if (last == std::string_view::npos || !text.ends_with('\'')) return std::nullopt;
  const std::string_view complaint = text.substr(0, last);
  std::optional<Message> error = WordMessage(kLexerErrors, complaint);
  if (!error) error = ControlCharacterMessage(complaint);
  if (!error) return std::nullopt;
  const std::string_view read = text.substr(last + kLastRead.size(), text.size() - last - kLastRead.size() - 1);
  return MakeMessage("input.json.lexer",
                     {MessageArgOf("error", *error), TextArg("last_read", QuotedText(read))});
}

// "syntax error while parsing <context> - <problem>[; expected <token>]".
std::optional<Message> SyntaxMessage(std::string_view text) {
  constexpr std::string_view kStart = "syntax error while parsing ";
  if (!text.starts_with(kStart)) return std::nullopt;
  text.remove_prefix(kStart.size());
  const size_t dash = text.find(" - ");
  if (dash == std::string_view::npos) return std::nullopt;
  const auto context = WordMessage(kContexts, text.substr(0, dash));
  if (!context) return std::nullopt;
  std::string_view rest = text.substr(dash + 3);
  // "; expected <token>" ends the text when it is there (a token name has no "; expected ").
  std::optional<engine::MessageArg> expected;
  if (const size_t at = rest.rfind("; expected "); at != std::string_view::npos) {
    expected = TokenArg("expected", rest.substr(at + 11));
    if (expected) rest = rest.substr(0, at);
  }
  const auto problem = ProblemMessage(rest);
  if (!problem) return std::nullopt;
  std::vector<engine::MessageArg> args = {MessageArgOf("context", *context), MessageArgOf("problem", *problem)};
  if (!expected) return MakeMessage("input.json.syntax", std::move(args));
  args.push_back(*expected);
  return MakeMessage("input.json.syntax.expected", std::move(args));
}

// The parser's account of `what` (an exception's what()) as a message; its text as it is
// when it has no shape known here.
Message ParseErrorMessage(const char* what) {
  std::string_view detail = what;
  if (const size_t end = detail.find("] "); end != std::string_view::npos) detail.remove_prefix(end + 2);
  if (detail.starts_with("parse error ")) detail.remove_prefix(12);
  constexpr std::string_view kOverflow = "number overflow parsing '";
  if (detail.starts_with(kOverflow) && detail.ends_with('\'')) {
    const std::string_view number = detail.substr(kOverflow.size(), detail.size() - kOverflow.size() - 1);
    return MakeMessage("input.json.overflow", {TextArg("number", QuotedText(number))});
  }
  // "at line 1, column 2: <error>"
  int line = 0, column = 0, consumed = 0;
  const std::string head(detail.substr(0, 64));
  if (std::sscanf(head.c_str(), "at line %d, column %d: %n", &line, &column, &consumed) == 2 && consumed > 0) {
    if (auto error = SyntaxMessage(detail.substr(static_cast<size_t>(consumed)))) {
      return MakeMessage("input.json.at", {engine::CountArg("line", line), engine::CountArg("column", column),
                                           MessageArgOf("error", *error)});
    }
  }
  return MakeMessage("input.json.other", {TextArg("text", QuotedText(detail))});
}

// The rules both parsers share: a size limit, no NUL byte (the parser reads NUL as the end
// of the text and would ignore whatever follows), no key twice in one object (it would keep
// the last silently). The deepest nesting seen comes back in *depth.
struct Parsed {
  engine::Result<Json> doc;
  int depth = 0;
};

Parsed ParseStrict(std::string_view text, size_t max_bytes, const std::string& field, bool indices,
                   const std::string& repeated_prefix) {
  if (text.size() > max_bytes) {
    return {MakeInputError(field, "input.json.too_large",
                           {CountArg("bytes", static_cast<long long>(text.size())),
                            CountArg("limit_mib", static_cast<long long>(max_bytes >> 20))})};
  }
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return {MakeInputError(field, "input.json.nul", {CountArg("offset", static_cast<long long>(nul))})};
  }
  std::vector<OpenValue> open;
  std::string repeated;  // the first key found twice in one object
  int deepest = 0;
  const Json::parser_callback_t track = [&](int depth, Json::parse_event_t event, Json& parsed) {
    using E = Json::parse_event_t;
    deepest = std::max(deepest, depth);
    const bool starts = event == E::object_start || event == E::array_start;
    if ((starts || event == E::value) && !open.empty() && !open.back().object) ++open.back().elements;
    if (starts) open.push_back({event == E::object_start, {}, {}, 0});
    if ((event == E::object_end || event == E::array_end) && !open.empty()) open.pop_back();
    if (event == E::key && !open.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!open.back().keys.insert(key).second && repeated.empty()) {
        repeated = repeated_prefix + KeyPath(open, key, indices);
      }
      open.back().last_key = key;
    }
    return true;
  };
  try {
    Json doc = Json::parse(text.begin(), text.end(), track);
    if (!repeated.empty()) return {MakeInputError(repeated, "input.json.repeated_key"), deepest};
    return {std::move(doc), deepest};
  } catch (const Json::exception& e) {
    return {MakeInputError(field, "input.json.invalid", {MessageArgOf("detail", ParseErrorMessage(e.what()))}),
            deepest};
  }
}

}  // namespace

engine::Result<Json> ParseUserJson(std::string_view text, size_t max_bytes, const std::string& field) {
  return ParseStrict(text, max_bytes, field, /*indices=*/false, "").doc;
}

engine::Result<Json> ParseCatalogJson(std::string_view text, size_t max_bytes, const std::string& name,
                                      int max_depth) {
  Parsed parsed = ParseStrict(text, max_bytes, name, /*indices=*/true, name + ": ");
  if (parsed.depth > max_depth) {
    return MakeInputError(name, "input.json.too_deep", {CountArg("depth", parsed.depth), CountArg("limit", max_depth)});
  }
  return std::move(parsed.doc);
}

namespace {

const char* TypeId(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "input.type.null";
    case Json::value_t::object: return "input.type.object";
    case Json::value_t::array: return "input.type.array";
    case Json::value_t::string: return "input.type.string";
    case Json::value_t::boolean: return "input.type.boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "input.type.number";
    default: return "input.type.unsupported";
  }
}

// "must be one of <allowed>, got 'text'".
InputError NotOneOf(const std::string& field, std::span<const std::string_view> allowed, std::string_view text) {
  return MakeInputError(field, "input.not_one_of",
                        {TextArg("allowed", CommaList(allowed)), TextArg("got", engine::QuotedInput(text))});
}

}  // namespace

engine::Message TypeMessage(const Json& value) { return MakeMessage(TypeId(value)); }

engine::MessageArg TypeArg(std::string name, const Json& value) {
  return MessageArgOf(std::move(name), TypeMessage(value));
}

std::string TypeName(const Json& value) { return std::string(engine::EnglishTemplate(TypeId(value))); }

std::optional<InputError> Require(const Json& obj, const char* key, const std::string& path) {
  if (obj.contains(key)) return std::nullopt;
  return MakeInputError(FieldPath(path, key), "input.required");
}

std::optional<InputError> ReadNumber(const Json& obj, const char* key, const std::string& path, double lo,
                                     double hi, double* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  const std::string field = FieldPath(path, key);
  if (!it->is_number()) return TypeError(field, "input.not_a_number", *it);
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < lo || v > hi) {
    return MakeInputError(field, "input.out_of_range",
                          {engine::NumberArg("min", lo), engine::NumberArg("max", hi), engine::NumberArg("got", v)});
  }
  *out = v;
  return std::nullopt;
}

std::optional<InputError> ReadInt(const Json& obj, const char* key, const std::string& path, int lo, int hi,
                                  int* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  const std::string field = FieldPath(path, key);
  if (!it->is_number()) return TypeError(field, "input.not_an_integer", *it);
  const double v = it->get<double>();
  // All the digits: Num's three significant ones would print 4096.5 as "4096".
  if (!std::isfinite(v) || v != std::floor(v)) {
    return MakeInputError(field, "input.not_whole", {engine::ExactArg("got", v)});
  }
  if (v < lo || v > hi) {
    return MakeInputError(field, "input.out_of_range",
                          {CountArg("min", lo), CountArg("max", hi), engine::NumberArg("got", v)});
  }
  *out = static_cast<int>(v);
  return std::nullopt;
}

std::optional<InputError> ReadBool(const Json& obj, const char* key, const std::string& path, bool* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_boolean()) return TypeError(FieldPath(path, key), "input.not_a_bool", *it);
  *out = it->get<bool>();
  return std::nullopt;
}

std::optional<InputError> ReadString(const Json& obj, const char* key, const std::string& path, std::string* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_string()) return TypeError(FieldPath(path, key), "input.not_a_string", *it);
  *out = it->get<std::string>();
  return std::nullopt;
}

std::optional<InputError> ReadChoice(const Json& obj, std::string_view key, const std::string& path,
                                     std::span<const std::string_view> names, size_t* index) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  const std::string field = FieldPath(path, key);
  if (!it->is_string()) {
    return MakeInputError(field, "input.not_one_of.type", {TextArg("allowed", CommaList(names)), TypeArg("got", *it)});
  }
  const std::string& text = it->get_ref<const std::string&>();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) {
      *index = i;
      return std::nullopt;
    }
  }
  return NotOneOf(field, names, text);
}

std::string DumpJson(const Json& value, int indent) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

bool IsSlug(const std::string& id) {
  if (id.empty() || id.size() > 64 || id[0] == '-' || id[0] == '.') return false;
  for (char ch : id) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

std::optional<InputError> RequireText(const Json& e, const char* key, const std::string& path, std::string* out) {
  if (auto err = Require(e, key, path)) return err;
  if (auto err = ReadString(e, key, path, out)) return err;
  if (out->empty()) return MakeInputError(path + key, "input.empty");
  return std::nullopt;
}

std::optional<InputError> RequireNumber(const Json& e, const char* key, const std::string& path, double lo, double hi,
                                        double* out) {
  if (auto err = Require(e, key, path)) return err;
  return ReadNumber(e, key, path, lo, hi, out);
}

std::optional<InputError> OptionalNumber(const Json& e, const char* key, const std::string& path, double lo,
                                         double hi, double* out) {
  if (!e.contains(key) || e[key].is_null()) return std::nullopt;
  return ReadNumber(e, key, path, lo, hi, out);
}

std::optional<InputError> ReadChoiceText(const Json& e, const char* key, const std::string& path,
                                         std::initializer_list<const char*> allowed, bool required, std::string* out) {
  if (required) {
    if (auto err = RequireText(e, key, path, out)) return err;
  } else if (!e.contains(key) || e[key].is_null()) {
    return std::nullopt;
  } else if (auto err = ReadString(e, key, path, out)) {
    return err;
  }
  std::vector<std::string_view> names(allowed.begin(), allowed.end());
  if (std::find(names.begin(), names.end(), *out) != names.end()) return std::nullopt;
  return NotOneOf(path + key, names, *out);
}

}  // namespace engine::contract
