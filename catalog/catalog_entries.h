// Parsers for one catalog entry of each kind (GPU, fabric, cloud offer, model preset,
// server, network gear, storage tier, facility figure, currency rate). Each checks the
// entry's fields, units and ranges and names the first problem as "<path><field>".
#pragma once

#include <string>

#include "engine/catalog.h"
#include "engine/contract/json_fields.h"
#include "engine/result.h"

namespace catalog {

engine::Result<engine::GpuSpec> ParseGpu(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::FabricSpec> ParseFabric(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::CloudOffer> ParseOffer(const engine::contract::Json& entry, const std::string& path);

// Where an offer's free-text region is (us, eu, cn, asia, or global).
engine::Market MarketOf(const std::string& region, const std::string& currency);
engine::Result<engine::ModelPreset> ParseModel(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::ServerOption> ParseServer(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::NetworkGear> ParseNetworkGear(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::StorageTier> ParseStorage(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::FacilityFigure> ParseFacility(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::Example> ParseExample(const engine::contract::Json& entry, const std::string& path);
engine::Result<engine::CurrencyRate> ParseCurrency(const engine::contract::Json& entry, const std::string& path);

// The JSON type of `value` ("a string", "null") as a message argument named `name`, for
// errors that say what was given instead ("got {type}").
engine::MessageArg JsonTypeArg(std::string name, const engine::contract::Json& value);

// Catalog prose: entry[key] (English) and entry[key + "_zh"] (简体中文, a string when
// present; absent, the page shows the English). `required`: the English must be there.
std::optional<engine::InputError> ReadLocalText(const engine::contract::Json& entry, const char* key, const std::string& path,
                                                bool required, engine::LocalText* out);

}  // namespace catalog
