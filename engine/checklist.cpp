#include "checklist.h"

#include "estimate.h"
#include "units.h"

namespace engine {
namespace {

// A checklist item on `topic` (template checklist.<topic>.topic) answered by `answer`.
CheckItem Item(const std::string& topic, Message answer) {
  return {MakeMessage("checklist." + topic + ".topic"), CheckStatus::kOk, std::move(answer)};
}

// A sentence added to the item's answer (checklist.answer.more joins them, as each
// language does: a space in English, none in Chinese).
void Add(CheckItem& c, const std::string& id, std::vector<MessageArg> args = {}) {
  c.answer = MakeMessage("checklist.answer.more",
                         {MessageArgOf("answer", std::move(c.answer)), MessageArgOf("more", MakeMessage(id, std::move(args)))});
}

CheckItem SequenceLength(const Scenario& s, const Estimate& e) {
  const Training& t = s.training;
  const ModelSpec& m = s.model;
  const double share = e.memory.activations.bytes / std::max(1.0, e.need_bytes);
  CheckItem c = Item("sequence_length", MakeMessage("checklist.sequence_length.answer",
                                                    {NumberArg("seq_len", t.seq_len),
                                                     NumberArg("activation_percent", share * 100)}));
  if (m.max_context > 0 && t.seq_len > m.max_context) {
    c.status = CheckStatus::kAttention;
    Add(c, "checklist.sequence_length.beyond_context", {NumberArg("max_context", m.max_context)});
  } else if (t.seq_len >= 32768 && s.parallel.cp == 1) {
    c.status = CheckStatus::kAttention;
    Add(c, "checklist.sequence_length.context_parallel");
  }
  if (!t.flash_attention) {
    c.status = CheckStatus::kAttention;
    Add(c, "checklist.sequence_length.no_flash_attention");
  }
  return c;
}

CheckItem Quantization(const Scenario& s, const GpuSpec& gpu) {
  const Training& t = s.training;
  CheckItem c = Item("quantization", MakeMessage(t.method == Method::kQlora ? "checklist.quantization.answer.qlora"
                                                                            : "checklist.quantization.answer",
                                                 {TextArg("precision", std::string(EnumName(kPrecisionNames, t.precision)))}));
  if (IsLowPrecisionGemm(t.precision)) {
    c.status = CheckStatus::kAttention;
    Add(c, "checklist.quantization.fp8");
  } else if (gpu.SupportsFp8() && t.method == Method::kPretrain) {
    Add(c, "checklist.quantization.fp8_available", {TextArg("gpu", gpu.name)});
  }
  if (t.precision == Precision::kFp16) {
    c.status = CheckStatus::kAttention;
    Add(c, "checklist.quantization.fp16");
  }
  return c;
}

CheckItem SoftwareStackCheck(const Scenario& s, const GpuSpec& gpu) {
  const Parallelism& p = s.parallel;
  std::vector<MessageArg> layout = {TextArg("framework", std::string(EnumName(kFrameworkNames, p.framework))),
                                    NumberArg("tp", p.tp), NumberArg("pp", p.pp), NumberArg("dp", p.DataParallel())};
  if (p.zero > 0) layout.push_back(NumberArg("zero", p.zero));
  CheckItem c = Item("software", MakeMessage(p.zero > 0 ? "checklist.software.answer.zero" : "checklist.software.answer",
                                             std::move(layout)));
  if (p.tp > 1 || p.pp > 1) Add(c, "checklist.software.tp_pp");
  switch (gpu.stack) {
    case SoftwareStack::kCuda: break;
    case SoftwareStack::kRocm:
      c.status = CheckStatus::kAttention;
      Add(c, "checklist.software.rocm", {TextArg("gpu", gpu.name)});
      break;
    case SoftwareStack::kCann:
      c.status = CheckStatus::kAttention;
      Add(c, "checklist.software.cann", {TextArg("gpu", gpu.name)});
      break;
    case SoftwareStack::kXla:
      c.status = CheckStatus::kAttention;
      Add(c, "checklist.software.xla");
      break;
    case SoftwareStack::kOther:
      c.status = CheckStatus::kAttention;
      Add(c, "checklist.software.other", {TextArg("gpu", gpu.name)});
      break;
  }
  return c;
}

CheckItem DataIo(const Scenario& s, const Estimate& e) {
  const double tokens_per_s_per_node = e.throughput.tokens_per_s / std::max(1, s.parallel.Nodes());
  const double bytes_per_token = TokenBytes(s.model);
  CheckItem c = Item("data_io", MakeMessage("checklist.data_io.answer",
                                            {NumberArg("read_mb_per_s", tokens_per_s_per_node * bytes_per_token / 1e6)}));
  if (TrainingTokens(s.training) <= 0) {
    c.status = CheckStatus::kAttention;
    Add(c, "checklist.data_io.no_tokens");
  }
  return c;
}

CheckItem FaultTolerance(const Scenario& s, const Estimate& e) {
  const Reliability& r = e.reliability;
  CheckItem c = Item("fault_tolerance", MakeMessage("checklist.fault_tolerance.answer",
                                                    {NumberArg("interval_hours", r.interval_hours),
                                                     NumberArg("checkpoint_gb", r.checkpoint_bytes / 1e9),
                                                     NumberArg("write_s", r.checkpoint_write_s),
                                                     NumberArg("interruptions", r.expected_interruptions)}));
  if (!s.training.auto_restart && r.expected_interruptions >= 1) {
    c.status = CheckStatus::kProblem;
    Add(c, "checklist.fault_tolerance.no_auto_restart");
  } else if (r.ettr < 0.9) {
    c.status = CheckStatus::kAttention;
    Add(c, "checklist.fault_tolerance.low_goodput", {NumberArg("goodput_percent", r.ettr * 100)});
  }
  return c;
}

// The export note is catalog prose in both languages; the GPU's name is a name.
CheckItem Compliance(const GpuSpec& gpu) {
  const MessageArg name = TextArg("gpu", gpu.name), note = LocalTextArg("export_note", gpu.export_note_cn);
  if (gpu.export_restricted_cn) {
    CheckItem c = Item("compliance", MakeMessage("checklist.compliance.restricted", {name, note}));
    c.status = CheckStatus::kAttention;
    return c;
  }
  if (gpu.export_note_cn.empty()) {
    return Item("compliance", MakeMessage("checklist.compliance.answer.unrestricted", {name}));
  }
  return Item("compliance", MakeMessage("checklist.compliance.answer", {name, note}));
}

}  // namespace

std::vector<CheckItem> PreOrderChecklist(const Scenario& s, const Estimate& e, const GpuSpec& gpu) {
  std::vector<CheckItem> items = {SequenceLength(s, e), Quantization(s, gpu), SoftwareStackCheck(s, gpu),
                                  DataIo(s, e),         FaultTolerance(s, e), Compliance(gpu)};
  if (!e.fits) {
    CheckItem memory = Item("memory", MakeMessage("checklist.memory.answer", {BytesArg("need_bytes", e.need_bytes),
                                                                             BytesArg("capacity_bytes", e.capacity_bytes),
                                                                             TextArg("gpu", gpu.name)}));
    memory.status = CheckStatus::kProblem;
    items.push_back(std::move(memory));
  }
  return items;
}

}  // namespace engine
