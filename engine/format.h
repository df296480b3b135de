// Short number formatting for the formula strings the engine attaches to its results
// ("8.03e9 params × 2 B"). Display formatting for people lives in the UI, not here.
#pragma once

#include <string>

namespace engine {

// Compact significant-digit form: 3 digits, scientific above 1e5 ("8.03e9", "0.516", "12").
std::string Num(double value);

// A money amount rounded to whole units (half away from zero) with thousands separators
// ("141,000", "-1,235"); from 1e15 on in Num's e-notation ("9.3e18"); "inf" or "nan" for
// a non-finite amount. Safe for any double: no integer conversion on the way.
std::string Money(double amount);

// Bytes as GiB with two decimals ("15.0 GiB").
std::string GiBText(double bytes);

}  // namespace engine
