// The last check before a figure leaves the engine: every number it returns is finite.
// The numeric contract (input_limits.h) is meant to make a non-finite figure impossible;
// this guard is how a hole in it is found rather than shipped as "inf days". In strict
// builds (Debug, the sanitizer and fuzz presets: TRAINSIZER_STRICT_GUARD) a hole aborts,
// so tests and fuzzers stop on it; in release the caller turns it into an InputError.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace engine {

// Names the first figure that is not finite ("time.wall_hours"), or "" when all are.
class FiniteGuard {
 public:
  void Check(std::string_view figure, double value);
  void Check(std::initializer_list<std::pair<std::string_view, double>> figures);
  bool ok() const { return failed_.empty(); }
  const std::string& failed() const { return failed_; }

 private:
  std::string failed_;
};

// Aborts with `what` in strict builds; does nothing otherwise (the caller reports it).
void StrictGuardFailed(const std::string& what);

}  // namespace engine
