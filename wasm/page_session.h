// The page's one session (catalog + overlay): the JS API (wasm/js_api.cpp) owns it and the
// page's AppState computes with it, so TrainSizer.setCatalogOverlay and the overlay editor
// act on the same catalog.
#pragma once

#include "catalog/codec/api.h"

namespace web {

api::Session& PageSession();

}  // namespace web
