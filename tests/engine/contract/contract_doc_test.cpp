// engine/README.md's contract tables are the code's: the field table and the numeric
// contract as `trainsizer fields` prints them. Adding a field to the table without
// refreshing the README fails here, with the text to paste.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engine/contract/contract_doc.h"
#include "engine/contract/scenario_json.h"
#include "engine/scenario.h"

namespace {

std::string Readme() {
  std::ifstream file(std::string(TRAINSIZER_SOURCE_DIR) + "/engine/README.md");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(ContractDoc, TheReadmeHasTheGeneratedFieldTable) {
  const std::string table = engine::contract::ScenarioFieldsMarkdown();
  EXPECT_NE(Readme().find(table), std::string::npos)
      << "engine/README.md's scenario table differs from the field table; replace it with `trainsizer fields`:\n"
      << table;
}

TEST(ContractDoc, TheReadmeHasTheGeneratedArchitectureAndGoalTables) {
  for (const std::string& table :
       {engine::contract::ArchitectureFieldsMarkdown(), engine::contract::GoalFieldsMarkdown()}) {
    EXPECT_NE(Readme().find(table), std::string::npos)
        << "engine/README.md's architecture or goal table differs from the field tables; replace it with "
           "`trainsizer fields`:\n"
        << table;
  }
}

TEST(ContractDoc, TheReadmeHasTheGeneratedNumericContract) {
  const std::string table = engine::contract::NumericContractMarkdown();
  EXPECT_NE(Readme().find(table), std::string::npos)
      << "engine/README.md's numeric contract differs from the code; replace it with `trainsizer fields`:\n"
      << table;
}

// Every field the JSON writer emits is a row of the contract table (issue 15's check that
// the docs had drifted: network, node_gbps, kernels, claim, ... were accepted but missing).
TEST(ContractDoc, EveryWrittenFieldIsInTheTable) {
  const std::string readme = Readme();
  const engine::contract::Json doc = engine::contract::ScenarioToJson(engine::Scenario{});
  for (const auto& item : doc.items()) {
    if (item.value().is_object() && item.key() != "model") {
      for (const auto& inner : item.value().items()) {
        const std::string row = "| `" + item.key() + "." + inner.key() + "` |";
        EXPECT_NE(readme.find(row), std::string::npos) << "no contract row " << row;
      }
      continue;
    }
    const std::string row = "| `" + item.key() + "` |";
    EXPECT_NE(readme.find(row), std::string::npos) << "no contract row " << row;
  }
}

}  // namespace
