#include "result_json.h"

#include <cmath>

#include "engine/units.h"
#include "engine/version.h"
#include "model_json.h"

namespace catalog {
namespace {

// GiB rounded to 1/10000 so the JSON stays readable and identical across platforms.
double Gib(double bytes) { return std::round(bytes / engine::kGiB * 1e4) / 1e4; }

Json Explain(const engine::MemoryTerm& term) {
  return Json{{"formula", term.formula}, {"source", term.source}};
}

Json MemoryJson(const engine::Estimate& e) {
  const engine::MemoryBreakdown& m = e.memory;
  return Json{{"per_gpu_gib", Gib(e.need_bytes)},
              {"capacity_gib", Gib(e.capacity_bytes)},
              {"fits", e.fits},
              {"headroom_gib", Gib(e.capacity_bytes - e.need_bytes)},
              {"weights_gib", Gib(m.weights.bytes)},
              {"gradients_gib", Gib(m.gradients.bytes)},
              {"optimizer_gib", Gib(m.optimizer.bytes)},
              {"activations_gib", Gib(m.activations.bytes)},
              {"logits_gib", Gib(m.logits.bytes)},
              {"overhead_gib", Gib(m.overhead.bytes)},
              {"cpu_ram_gib", Gib(m.cpu_ram.bytes)},
              {"allocated_gib", Gib(m.AllocatedBytes())},
              {"reserved_gib", Gib(m.ReservedBytes())},
              {"overhead_parts",
               {{"cuda_context_gib", Gib(m.overhead_parts.cuda_context_bytes)},
                {"nccl_gib", Gib(m.overhead_parts.nccl_bytes)},
                {"gathered_gib", Gib(m.overhead_parts.gathered_bytes)},
                {"fragmentation_gib", Gib(m.overhead_parts.fragmentation_bytes)}}},
              {"explain",
               {{"weights", Explain(m.weights)},
                {"gradients", Explain(m.gradients)},
                {"optimizer", Explain(m.optimizer)},
                {"activations", Explain(m.activations)},
                {"logits", Explain(m.logits)},
                {"overhead", Explain(m.overhead)},
                {"cpu_ram", Explain(m.cpu_ram)}}}};
}

}  // namespace

Json EstimateToJson(const engine::Estimate& e) {
  Json model = {{"id", e.model.id}, {"name", e.model.name}, {"derived", e.model_derived},
                {"moe", e.model.IsMoe()}, {"arch", ArchitectureToJson(e.model)}};
  Json params = {{"total", std::round(e.params.total)},
                 {"active", std::round(e.params.active)},
                 {"trainable", std::round(e.memory.trainable_params)}};
  Json fits = Json::array();
  for (const engine::GpuFit& f : e.fit_by_gpu) {
    fits.push_back({{"gpu", f.gpu_id}, {"name", f.name}, {"capacity_gib", Gib(f.capacity_bytes)},
                    {"fits", f.fits}, {"headroom_gib", Gib(f.capacity_bytes - e.need_bytes)}});
  }
  Json warnings = Json::array();
  for (const engine::Warning& w : e.warnings) warnings.push_back({{"code", w.code}, {"message", w.message}});
  return Json{{"version", engine::kEngineVersion}, {"contract", engine::kContractVersion},
              {"model", model}, {"params", params}, {"memory", MemoryJson(e)},
              {"fit_by_gpu", fits}, {"warnings", warnings}};
}

Json ErrorToJson(const engine::InputError& error) {
  return Json{{"error", {{"field", error.field}, {"message", error.message}}}};
}

}  // namespace catalog
