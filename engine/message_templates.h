// The English template of every message id the engine produces: {name} marks where an
// argument goes (engine/message.h). The page keeps the same ids with its own language's
// templates (wasm/ui/i18n/zh-messages.json); a test checks every id has one there.
#pragma once

#include <span>
#include <string_view>

namespace engine {

struct MessageTemplate {
  std::string_view id;       // "domain.what" or a warning's code (code.variant when a code has several texts)
  std::string_view english;  // the text with {name} slots
};

// Each domain's templates live in its own file; MessageTemplates() is all of them.
std::span<const MessageTemplate> WarningTemplates();  // message_templates.cpp
std::span<const MessageTemplate> PlanTemplates();     // messages_plan.cpp
std::span<const MessageTemplate> ExplainTemplates();  // messages_explain.cpp
std::span<const MessageTemplate> CatalogTemplates();  // messages_catalog.cpp
std::span<const MessageTemplate> InputTemplates();    // messages_input.cpp: input errors, link notices
std::span<const MessageTemplate> ProposalTemplates();  // messages_proposal.cpp
std::span<const MessageTemplate> ImportTemplates();    // messages_import.cpp: config imports

std::span<const MessageTemplate> MessageTemplates();

}  // namespace engine
