// Which catalog figures are older than a given age: every entry's dates (source_date,
// price_date, date) are read as the newest year, year-month or day they mention.
#pragma once

#include <span>
#include <string>

#include "catalog/embedded_files.h"
#include "engine/contract/json_fields.h"

namespace catalog {

// Days since 1970-01-01 of the newest date in `text` ("2021 (datasheet r4)" -> 2021-12-31,
// "2023-24 new / 2026-05 used" -> 2026-05-31); -1 when it names none.
long NewestDay(const std::string& text);

// Days since 1970-01-01 of a civil date.
long DaysFromCivil(int year, int month, int day);

// {"as_of": ..., "older_than_days": N, "stale": [{"file","entry","field","date","age_days"}]}
engine::contract::Json StaleFigures(std::span<const EmbeddedFile> files, int older_than_days, long today);

}  // namespace catalog
