// The engine's version and the version of its scenario/result JSON contract.
#pragma once

namespace engine {

inline constexpr const char* kEngineVersion = "0.1.0";
// Bumped when a scenario or result field changes meaning (not when one is added).
inline constexpr int kContractVersion = 1;

}  // namespace engine
