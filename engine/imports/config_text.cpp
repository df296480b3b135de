#include "engine/imports/config_text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

namespace engine::imports {

Setting* ConfigDocument::Find(std::string_view key) {
  for (Setting& s : settings) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

const Setting* ConfigDocument::Find(std::string_view key) const {
  return const_cast<ConfigDocument*>(this)->Find(key);
}

bool ConfigDocument::RunsProgram(std::string_view name_part) const {
  return std::any_of(programs.begin(), programs.end(),
                     [&](const std::string& p) { return p.find(name_part) != std::string::npos; });
}

namespace {

// An error at a place in the file: "<file> line L, column C: <reason>".
engine::InputError ErrorAt(const std::string& file, int line, int column, engine::Message reason) {
  return engine::MakeInputError(file, "import.at",
                                {engine::TextArg("file", file), engine::CountArg("line", line),
                                 engine::CountArg("column", column), engine::MessageArgOf("reason", std::move(reason))});
}

// [SECTION] YAML and JSON

// A YAML scalar as JSON: numbers and booleans as YAML 1.1 readers (PyYAML, which the
// Python tools use) take them, a quoted scalar always a string.
contract::Json ScalarJson(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted
  if (text == "~" || text == "null" || text == "Null" || text == "NULL" || text.empty()) return nullptr;
  static const std::set<std::string> kTrue = {"true", "True", "TRUE", "yes", "Yes", "on", "On"};
  static const std::set<std::string> kFalse = {"false", "False", "FALSE", "no", "No", "off", "Off"};
  if (kTrue.count(text)) return true;
  if (kFalse.count(text)) return false;
  char* end = nullptr;
  const long long whole = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() && *end == '\0') return whole;
  const double number = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && *end == '\0' && std::isfinite(number) &&
      text.find_first_of("xXnN") == std::string::npos) {
    return number;
  }
  return text;
}

struct Flattener {
  const std::string& file;
  std::vector<Setting>& out;
  std::optional<engine::InputError> error;
  size_t bytes = 0;  // of the values flattened so far: YAML aliases repeat a node without its text

  // Counts `n` more bytes of values; false (and the error) past kMaxExpandedBytes.
  bool Spend(size_t n, const YAML::Mark& mark) {
    bytes += n;
    if (bytes <= kMaxExpandedBytes) return true;
    Fail(mark, engine::MakeMessage("import.expands_too_far", {engine::CountArg("limit_kib", kMaxExpandedBytes / 1024)}));
    return false;
  }

  void Fail(const YAML::Mark& mark, engine::Message reason) {
    if (!error) error = ErrorAt(file, mark.line + 1, mark.column + 1, std::move(reason));
  }

  // Walks `node` under `prefix`, appending settings and returning it as JSON.
  contract::Json Walk(const YAML::Node& node, const std::string& prefix, int depth) {
    if (error) return nullptr;
    if (out.size() > kMaxConfigSettings || depth > 64) {
      Fail(node.Mark(), engine::MakeMessage("import.too_many_keys", {engine::CountArg("limit", kMaxConfigSettings)}));
      return nullptr;
    }
    const YAML::Mark mark = node.Mark();
    switch (node.Type()) {
      case YAML::NodeType::Map: {
        contract::Json object = contract::Json::object();
        for (const auto& pair : node) {
          if (!pair.first.IsScalar()) {
            Fail(pair.first.Mark(), engine::MakeMessage("import.key_not_text"));
            return nullptr;
          }
          const std::string& key = pair.first.Scalar();
          if (object.contains(key)) {
            Fail(pair.first.Mark(), engine::MakeMessage("import.repeated_key", {engine::TextArg("key", key)}));
            return nullptr;
          }
          object[key] = Walk(pair.second, prefix.empty() ? key : prefix + "." + key, depth + 1);
        }
        return object;
      }
      case YAML::NodeType::Sequence: {
        contract::Json array = contract::Json::array();
        std::string joined;
        bool scalars = true;
        int index = 0;
        for (const auto& item : node) {
          if (item.IsScalar()) {
            if (!Spend(item.Scalar().size() + 1, item.Mark())) return nullptr;
            joined += (joined.empty() && array.empty() ? "" : ",") + item.Scalar();
            array.push_back(ScalarJson(item));
          } else {
            scalars = false;
            array.push_back(Walk(item, prefix + "." + std::to_string(index), depth + 1));
          }
          ++index;
        }
        if (scalars) out.push_back({prefix, joined, true, false, mark.line + 1, mark.column + 1, "", false});
        return array;
      }
      case YAML::NodeType::Scalar: {
        if (!Spend(node.Scalar().size() + prefix.size(), mark)) return nullptr;
        contract::Json value = ScalarJson(node);
        out.push_back({prefix, node.Scalar(), false, value.is_null(), mark.line + 1, mark.column + 1, "", false});
        return value;
      }
      default:
        out.push_back({prefix, "", false, true, mark.line + 1, mark.column + 1, "", false});
        return nullptr;
    }
  }
};

engine::Result<ConfigDocument> ReadMapping(const ConfigFile& file) {
  YAML::Node root;
  try {
    root = YAML::Load(file.text);
  } catch (const YAML::Exception& e) {  // ParserException and the rest: each carries its mark
    return ErrorAt(file.name, e.mark.line + 1, e.mark.column + 1,
                   engine::MakeMessage("import.yaml_invalid", {engine::TextArg("detail", e.msg)}));
  }
  if (!root.IsMap()) {
    const YAML::Mark mark = root.Mark();
    return ErrorAt(file.name, std::max(1, mark.line + 1), std::max(1, mark.column + 1),
                   engine::MakeMessage("import.not_a_mapping"));
  }
  ConfigDocument doc;
  doc.name = file.name;
  Flattener flatten{file.name, doc.settings, std::nullopt};
  doc.json = flatten.Walk(root, "", 0);
  if (flatten.error) return *flatten.error;
  return doc;
}

// [SECTION] Command lines and launch scripts

struct Token {
  std::string text;
  int line = 0, column = 0;
  bool quoted = false;
  bool separator = false;  // ; && || | ( ) or a line end that ends a command
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Splits shell text into words the way sh does for the cases configs use: quotes,
// backslash line continuations, comments from an unquoted '#' at a word's start.
engine::Result<std::vector<Token>> Tokenize(const ConfigFile& file) {
  std::vector<Token> tokens;
  const std::string& t = file.text;
  int line = 1, column = 1;
  size_t i = 0;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n && i < t.size(); ++k, ++i) {
      if (t[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  };
  while (i < t.size()) {
    const char c = t[i];
    if (IsSpace(c)) {
      advance(1);
    } else if (c == '\\' && i + 1 < t.size() && (t[i + 1] == '\n' || t[i + 1] == '\r')) {
      advance(t[i + 1] == '\r' && i + 2 < t.size() && t[i + 2] == '\n' ? 3 : 2);
    } else if (c == '#') {
      while (i < t.size() && t[i] != '\n') advance(1);
    } else if (c == '\n' || c == ';' || c == '|' || c == '&' || c == '(' || c == ')') {
      tokens.push_back({std::string(1, c), line, column, false, true});
      advance(1);
    } else {
      Token token{"", line, column, false, false};
      while (i < t.size() && !IsSpace(t[i]) && t[i] != '\n' && t[i] != ';' && t[i] != '|' && t[i] != '&' &&
             t[i] != '(' && t[i] != ')') {
        if (t[i] == '"' || t[i] == '\'') {
          const char quote = t[i];
          const int open_line = line, open_column = column;
          advance(1);
          while (i < t.size() && t[i] != quote) {
            if (quote == '"' && t[i] == '\\' && i + 1 < t.size()) advance(1);
            token.text += t[i];
            advance(1);
          }
          if (i >= t.size()) {
            return ErrorAt(file.name, open_line, open_column,
                           engine::MakeMessage("import.unclosed_quote", {engine::TextArg("quote", std::string(1, quote))}));
          }
          advance(1);
          token.quoted = true;
        } else if (t[i] == '\\' && i + 1 < t.size() && t[i + 1] != '\n') {
          advance(1);
          token.text += t[i];
          advance(1);
        } else {
          token.text += t[i];
          advance(1);
        }
      }
      tokens.push_back(std::move(token));
    }
  }
  return tokens;
}

bool IsName(std::string_view text) {
  return !text.empty() && !std::isdigit(static_cast<unsigned char>(text[0])) &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// $NAME and ${NAME} (and ${NAME:-default}) replaced from the script's own assignments; an
// unknown variable stays as written, so the value is reported as not a number.
std::string Substitute(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string out;
  for (size_t i = 0; i < text.size() && out.size() <= kMaxExpandedBytes; ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    size_t start = i + 1, end = start;
    std::string name, fallback;
    bool braced = text[start] == '{';
    if (braced) {
      end = text.find('}', start);
      if (end == std::string::npos) {
        out += text[i];
        continue;
      }
      name = text.substr(start + 1, end - start - 1);
      if (const size_t dash = name.find(":-"); dash != std::string::npos) {
        fallback = name.substr(dash + 2);
        name = name.substr(0, dash);
      }
    } else {
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      name = text.substr(start, end - start);
      --end;
    }
    const auto it = vars.find(name);
    if (it != vars.end()) {
      out += it->second;
    } else if (!fallback.empty()) {
      out += fallback;
    } else {
      out += text.substr(i, end - i + 1);
    }
    i = end;
  }
  return out;
}

bool IsProgramWord(const std::string& word) {
  static const std::set<std::string> kLaunchers = {"torchrun", "python", "python3", "deepspeed", "accelerate",
                                                   "llamafactory-cli", "tune", "axolotl", "srun", "mpirun",
                                                   "trl", "uv", "ray", "bash", "sh", "swift"};
  const std::string base = word.substr(word.find_last_of('/') + 1);
  if (kLaunchers.count(base)) return true;
  if (base.size() > 3 && base.compare(base.size() - 3, 3, ".py") == 0) return true;
  return base.size() > 3 && base.compare(base.size() - 3, 3, ".sh") == 0;
}

bool IsFlag(const Token& t) {
  return !t.quoted && t.text.size() > 2 && t.text[0] == '-' && t.text[1] == '-' &&
         std::isalpha(static_cast<unsigned char>(t.text[2]));
}

// A Hydra override (verl): key.path=value with a dotted key.
bool IsOverride(const Token& t) {
  const size_t eq = t.text.find('=');
  if (t.quoted || eq == std::string::npos || eq == 0 || t.text[0] == '-') return false;
  const std::string key = t.text.substr(t.text[0] == '+' ? 1 : 0, eq - (t.text[0] == '+' ? 1 : 0));
  return key.find('.') != std::string::npos &&
         std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; });
}

engine::Result<ConfigDocument> ReadCommandLine(const ConfigFile& file) {
  engine::Result<std::vector<Token>> tokenized = Tokenize(file);
  if (!tokenized.ok()) return tokenized.error();
  const std::vector<Token>& tokens = tokenized.value();
  ConfigDocument doc;
  doc.name = file.name;
  doc.kind = DocumentKind::kCommandLine;
  std::map<std::string, std::string> vars;
  size_t expanded = 0;  // bytes of the variables' values: A=$A$A doubles each time
  std::string scope;
  bool command_start = true;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.separator) {
      if (token.text != "(" && token.text != ")") command_start = true;
      continue;
    }
    // NAME=value at a command's start (or after `export`) is a variable of the script.
    if (command_start && token.text == "export") continue;
    if (const size_t eq = token.text.find('='); command_start && eq != std::string::npos && !token.quoted &&
                                                IsName(token.text.substr(0, eq))) {
      std::string value = Substitute(token.text.substr(eq + 1), vars);
      expanded += value.size();
      if (value.size() > kMaxExpandedBytes || expanded > kMaxExpandedBytes) {
        return ErrorAt(file.name, token.line, token.column,
                       engine::MakeMessage("import.expands_too_far", {engine::CountArg("limit_kib", kMaxExpandedBytes / 1024)}));
      }
      Setting assignment;
      assignment.key = token.text.substr(0, eq);
      assignment.value = value;
      assignment.line = token.line;
      assignment.column = token.column;
      doc.assignments.push_back(std::move(assignment));
      vars[token.text.substr(0, eq)] = std::move(value);
      continue;
    }
    command_start = false;
    if (IsFlag(token)) {
      Setting s;
      s.line = token.line;
      s.column = token.column;
      s.scope = scope;
      const size_t eq = token.text.find('=');
      s.key = token.text.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos) {
        s.value = Substitute(token.text.substr(eq + 1), vars);
      } else {
        // The words up to the next flag, separator or script are the flag's values.
        std::vector<std::string> values;
        while (i + 1 < tokens.size() && !tokens[i + 1].separator && !IsFlag(tokens[i + 1]) &&
               !IsOverride(tokens[i + 1]) && !(IsProgramWord(tokens[i + 1].text) && !tokens[i + 1].quoted)) {
          values.push_back(Substitute(tokens[++i].text, vars));
        }
        s.is_list = values.size() > 1;
        for (size_t k = 0; k < values.size(); ++k) s.value += (k ? "," : "") + values[k];
        if (values.empty()) s.value = "true";
      }
      // deepspeed --module pkg.mod runs that module, as python -m does.
      if (s.key == "module" && !s.value.empty()) doc.programs.push_back(s.value);
      if (doc.settings.size() >= kMaxConfigSettings) {
        return ErrorAt(file.name, token.line, token.column,
                       engine::MakeMessage("import.too_many_keys", {engine::CountArg("limit", kMaxConfigSettings)}));
      }
      doc.settings.push_back(std::move(s));
    } else if (IsOverride(token)) {
      const size_t eq = token.text.find('=');
      const size_t from = token.text[0] == '+' ? 1 : 0;
      Setting s{token.text.substr(from, eq - from), Substitute(token.text.substr(eq + 1), vars), false, false,
                token.line, token.column, scope, false};
      if (s.value.size() > 1 && s.value.front() == '[' && s.value.back() == ']') {
        s.value = s.value.substr(1, s.value.size() - 2);
        s.is_list = true;
      }
      if (doc.settings.size() >= kMaxConfigSettings) {
        return ErrorAt(file.name, token.line, token.column,
                       engine::MakeMessage("import.too_many_keys", {engine::CountArg("limit", kMaxConfigSettings)}));
      }
      doc.settings.push_back(std::move(s));
    } else if (token.text == "-m" && i + 1 < tokens.size() && !tokens[i + 1].separator) {
      scope = tokens[++i].text;  // python -m module
      doc.programs.push_back(scope);
    } else if (IsProgramWord(token.text) || token.text.find('.') != std::string::npos) {
      scope = token.text.substr(token.text.find_last_of('/') + 1);
      doc.programs.push_back(scope);
    } else if (!doc.programs.empty() && doc.programs.back() == "swift" && !token.quoted) {
      doc.programs.push_back(token.text);  // ms-swift's subcommand: sft, pt, rlhf
    }
  }
  return doc;
}

// [SECTION] A Python training script's keyword arguments

// `name=value` inside the calls of a script (TRL's GRPOConfig(...), LoraConfig(...),
// SFTTrainer(model=...)): each keyword a setting, scoped by its call; LoraConfig's and
// peft_config's under "peft_config." as the JSON form nests them.
constexpr size_t kMaxCallDepth = 32;

engine::Result<ConfigDocument> ReadPythonScript(const ConfigFile& file) {
  ConfigDocument doc;
  doc.name = file.name;
  doc.kind = DocumentKind::kCommandLine;
  const std::string& t = file.text;
  std::vector<std::string> calls;  // the callee of each open parenthesis
  int line = 1, column = 1;
  std::string word;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
      ++line;
      column = 1;
      continue;
    }
    if (c == '\n') {
      ++line;
      column = 1;
      word.clear();
      continue;
    }
    ++column;
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
      word += c;
      continue;
    }
    if (c == '(') {
      // Deep nesting would rescan each keyword's value once per level.
      if (calls.size() >= kMaxCallDepth || doc.settings.size() >= kMaxConfigSettings) {
        return ErrorAt(file.name, line, column,
                       engine::MakeMessage("import.too_many_keys", {engine::CountArg("limit", kMaxConfigSettings)}));
      }
      calls.push_back(word.substr(word.find_last_of('.') == std::string::npos ? 0 : word.find_last_of('.') + 1));
      doc.programs.push_back(calls.back());
      word.clear();
      continue;
    }
    if (c == ')') {
      if (!calls.empty()) calls.pop_back();
      word.clear();
      continue;
    }
    if (c == '=' && !calls.empty() && !word.empty() && i + 1 < t.size() && t[i + 1] != '=') {
      // The value: up to a comma or the call's closing parenthesis at this depth.
      const int value_line = line, value_column = column;
      size_t j = i + 1;
      int depth = 0;
      char quote = 0;
      std::string value;
      for (; j < t.size(); ++j) {
        const char v = t[j];
        if (quote) {
          if (v == quote) quote = 0;
          else value += v;
          continue;
        }
        if (v == '"' || v == '\'') {
          quote = v;
          continue;
        }
        if (v == '(' || v == '[' || v == '{') ++depth;
        if ((v == ')' || v == ']' || v == '}') && depth-- == 0) break;
        if (v == ',' && depth == 0) break;
        if (v == '\n') {
          ++line;
          column = 0;
        }
        if (v != ' ' && v != '\n' && v != '[' && v != ']') value += v;
      }
      if (quote) {
        return ErrorAt(file.name, value_line, value_column,
                       engine::MakeMessage("import.unclosed_quote", {engine::TextArg("quote", std::string(1, quote))}));
      }
      const std::string& call = calls.back();
      const bool peft = call == "LoraConfig" || call == "PeftConfig";
      std::string key = (peft ? "peft_config." : "") + word;
      // A nested call's value (peft_config=LoraConfig(...)) is read by its own keywords.
      if (value.find('(') == std::string::npos) {
        if (value == "True") value = "true";
        if (value == "False") value = "false";
        if (value == "None") value = "";
        Setting s{key, value, value.find(',') != std::string::npos, value.empty(), value_line, value_column - static_cast<int>(word.size()), call, false};
        doc.settings.push_back(std::move(s));
        column += static_cast<int>(j - i - 1);
        i = j - 1;
      }
      word.clear();
      continue;
    }
    word.clear();
  }
  return doc;
}

bool LooksLikePython(std::string_view text) {
  return text.find("from trl import") != std::string_view::npos || text.find("import trl") != std::string_view::npos ||
         text.find("from transformers import") != std::string_view::npos ||
         text.find("from peft import") != std::string_view::npos;
}

// A command line: its first word is a launcher or script, or its first word is a --flag
// (an argument list as Megatron-LM's example scripts keep them), or a Bash script.
bool LooksLikeCommandLine(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (IsSpace(text[i]) || text[i] == '\n')) ++i;
    if (i < text.size() && text[i] == '#') {
      if (text.substr(i, 2) == "#!") return true;
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    break;
  }
  const std::string_view rest = text.substr(std::min(i, text.size()));
  size_t end = 0;
  while (end < rest.size() && !IsSpace(rest[end]) && rest[end] != '\n' && rest[end] != '\\') ++end;
  const std::string word(rest.substr(0, end));
  // A flag, not YAML's document marker "---".
  if (word.size() > 2 && word.compare(0, 2, "--") == 0 && std::isalpha(static_cast<unsigned char>(word[2]))) return true;
  if (word == "export" || word == "set" || (word.find('=') != std::string::npos && word.find(':') == std::string::npos &&
                                            IsName(word.substr(0, word.find('='))))) {
    return true;
  }
  return IsProgramWord(word);
}

}  // namespace

engine::Result<ConfigDocument> ReadConfigText(const ConfigFile& file) {
  if (file.text.size() > kMaxConfigBytes) {
    return engine::MakeInputError(file.name, "import.too_large",
                                  {engine::TextArg("file", file.name), engine::CountArg("bytes", file.text.size()),
                                   engine::CountArg("limit_kib", kMaxConfigBytes / 1024)});
  }
  if (const size_t nul = file.text.find('\0'); nul != std::string::npos) {
    return engine::MakeInputError(file.name, "import.binary",
                                  {engine::TextArg("file", file.name), engine::CountArg("offset", nul)});
  }
  if (file.text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return engine::MakeInputError(file.name, "import.empty", {engine::TextArg("file", file.name)});
  }
  if (LooksLikePython(file.text)) return ReadPythonScript(file);
  return LooksLikeCommandLine(file.text) ? ReadCommandLine(file) : ReadMapping(file);
}

std::vector<ConfigFile> SplitConfigText(std::string_view text, std::string_view name) {
  // Each part starts with the newlines of the lines before it, so that errors give the
  // line in the pasted text.
  std::vector<ConfigFile> files;
  std::string part;
  int line = 0, part_start = 0;
  auto finish = [&] {
    if (part.find_first_not_of(" \t\r\n") != std::string::npos) {
      files.push_back({std::string(name), std::string(part_start, '\n') + part});
    }
    part.clear();
  };
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view row = text.substr(start, end - start);
    if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
    ++line;
    if (row == "---" && files.size() + 1 < kMaxConfigFiles) {
      finish();
      part_start = line;
    } else {
      part.append(text.substr(start, std::min(end + 1, text.size()) - start));
    }
    start = end + 1;
  }
  finish();
  return files;
}

}  // namespace engine::imports
