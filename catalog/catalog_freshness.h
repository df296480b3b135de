// Which catalog prices are older than a given age: every price's date (a server's or an
// offer's price_date, an exchange rate's date, a facility or storage price's source date)
// read as the newest year, year-month or day it mentions (engine/dates.h). Datasheet dates
// are not prices and never go stale.
#pragma once

#include <span>
#include <string>

#include "catalog/embedded_files.h"
#include "engine/contract/json_fields.h"

namespace catalog {

// {"as_of": ..., "older_than_days": N, "stale": [{"file","entry","field","date","age_days"}]}: prices
// only; an undated price is listed with age_days -1
engine::contract::Json StaleFigures(std::span<const EmbeddedFile> files, int older_than_days, long today);

}  // namespace catalog
