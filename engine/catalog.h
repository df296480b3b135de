// The hardware and model catalog as engine types. The codec layer fills it from the
// embedded catalog/*.json; tests build small ones by hand.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hardware.h"
#include "model_spec.h"

namespace engine {

// A model preset: the architecture plus what the catalog says about it.
struct ModelPreset {
  ModelSpec spec;
  std::string family;
  std::string license;
  std::string hf_repo;
  double official_params = 0;         // published total, for comparison
  double official_active_params = 0;  // MoE only
  std::string source;
};

struct Catalog {
  std::vector<GpuSpec> gpus;
  std::vector<ModelPreset> models;
  std::string date;  // newest figure's date, shown on the page

  const GpuSpec* FindGpu(std::string_view id) const;
  const ModelPreset* FindModel(std::string_view id) const;
};

}  // namespace engine
