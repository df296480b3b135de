// Short number formatting for the formula strings the engine attaches to its results
// ("8.03e9 params × 2 B"). Display formatting for people lives in the UI, not here.
#pragma once

#include <string>

namespace engine {

// Compact significant-digit form: 3 digits, scientific above 1e5 ("8.03e9", "0.516", "12").
std::string Num(double value);

// A number echoed in a message as exactly as it reads back: whole numbers below 10^7 in
// full ("4096"), else Num's form when it reads back as the value itself ("0.001", "5e-324"),
// else the fewest digits (6 to 17) that do ("4096.5", "1.0000000000000002"), so a value
// just past a limit is never shown as the limit.
std::string ExactNum(double value);

// A money amount rounded to whole units (half away from zero) with thousands separators
// ("141,000", "-1,235"); from 1e15 on in Num's e-notation ("9.3e18"); "inf" or "nan" for
// a non-finite amount. Safe for any double: no integer conversion on the way.
std::string Money(double amount);

// Bytes as GiB with two decimals ("15.0 GiB").
std::string GiBText(double bytes);

// Names joined for a message or a table: "a, b, c".
template <class Names>
std::string CommaList(const Names& names) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace engine
