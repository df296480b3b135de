// The English template of every message id the engine produces: {name} marks where an
// argument goes (engine/message.h). The page keeps the same ids with its own language's
// templates (wasm/ui/i18n/zh-messages.json); a test checks every id has one there.
#pragma once

#include <span>
#include <string_view>

namespace engine {

struct MessageTemplate {
  std::string_view id;       // a warning's code, or code.variant when one code has several texts
  std::string_view english;  // the text with {name} slots
};

std::span<const MessageTemplate> MessageTemplates();

}  // namespace engine
