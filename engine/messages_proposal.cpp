// The tailored proposal's words (engine/exports/proposal.cpp): its headings, its table's
// row names and the sentences around the plan's figures, so that the page prints it in
// its reader's language. The page has the same ids in wasm/ui/i18n/zh-messages-proposal.json.
#include "message_templates.h"

namespace engine {
namespace {

constexpr MessageTemplate kTemplates[] = {
    // [SECTION] the goal
    {"proposal.title", "Training proposal: {model}, {method}, {tokens_b}B tokens at {seq_len} tokens a sequence"},
    {"proposal.goal",
     "Goal: {deadline}, {budget}, {purchase}, region: {region}. Prepared by TrainSizer {version} from its catalog "
     "of {catalog_date}; every figure is an estimate, checked against published runs (docs/model.md)."},
    {"proposal.method.pretrain", "pre-training"},
    {"proposal.method.full", "full fine-tune"},
    {"proposal.method.freeze", "freeze fine-tune"},
    {"proposal.method.lora", "LoRA"},
    {"proposal.method.qlora", "QLoRA"},
    {"proposal.deadline", "within {days} days"},
    {"proposal.no_deadline", "no deadline"},
    {"proposal.budget", "budget {budget}"},
    {"proposal.no_budget", "no budget"},
    {"proposal.purchase.cloud", "rent"},
    {"proposal.purchase.own", "buy"},
    {"proposal.purchase.both", "rent or buy"},
    {"proposal.region_any", "any"},
    {"proposal.no_plan", "No plan meets the goal. Why each GPU was left out:"},
    // [SECTION] one plan
    {"proposal.recommended", "Recommended: {gpus}× {gpu}, {procurement}"},
    {"proposal.alternative", "Alternative: {gpus}× {gpu}, {procurement}"},
    {"proposal.row.layout", "Layout"},
    {"proposal.layout",
     "TP {tp} · PP {pp} · CP {cp} · EP {ep} · DP {dp} · ZeRO {zero} · micro-batch {micro_batch} · global batch "
     "{global_batch}"},
    {"proposal.row.memory", "Memory per GPU"},
    {"proposal.memory", "{need_bytes} of {capacity_bytes}"},
    {"proposal.row.speed", "Speed"},
    {"proposal.speed", "{tokens_per_s} tokens/s, MFU {mfu_percent}%"},
    {"proposal.row.time", "Time"},
    {"proposal.time",
     "{total} in all: training with checkpoints and expected failures {training}, start-up and tear-down "
     "{startup} (node {node_min} min, image {image_min} min, weights {weights_min} min, data {data_min} min, "
     "NCCL {nccl_min} min, evaluation {eval_min} min, upload {upload_min} min)"},
    {"proposal.minutes", "{minutes} min"},
    {"proposal.hours", "{hours} h"},
    {"proposal.days", "{days} days"},
    {"proposal.row.cost", "Cost"},
    {"proposal.cost.rent", "{cost}"},
    {"proposal.cost.own", "{cost} (the job's share of owning)"},
    {"proposal.row.purchase", "Purchase"},
    {"proposal.purchase_price", "{capex} up front"},
    {"proposal.purchase_price.break_even",
     "{capex} up front; pays back after {months} months of continuous use against renting"},
    {"proposal.row.capacity", "Capacity"},
    {"proposal.row.rent_or_own", "Rent or own"},
    {"proposal.rent_or_own",
     "renting costs {rent} ({offer}); owning costs {capex} up front, {share} as this job's share, and pays back "
     "after {months} months of continuous use"},
    {"proposal.rent_or_own.never",
     "renting costs {rent} ({offer}); owning costs {capex} up front, {share} as this job's share; renting stays "
     "cheaper however long the servers run"},
    {"proposal.rent_only", "renting costs {rent} ({offer}); the catalog sells no server for this GPU"},
    {"proposal.own_only",
     "owning costs {capex} up front, {share} as this job's share; no rental of these GPUs fits the goal's region, "
     "providers and capacity"},
    // [SECTION] the bill of materials, the risks and the checklist
    {"proposal.bom.own", "The servers to buy (nodes: {nodes})"},
    {"proposal.bom.rent", "What each rented node must provide (nodes: {nodes})"},
    {"proposal.quantity", "{quantity} {unit}"},
    {"proposal.col.item", "item"},
    {"proposal.col.quantity", "quantity"},
    {"proposal.col.why", "why"},
    {"proposal.col.topic", "topic"},
    {"proposal.col.status", "status"},
    {"proposal.col.answer", "answer"},
    {"proposal.risks", "Risks"},
    {"proposal.risk.capacity", "Capacity: {capacity}."},
    {"proposal.risk.price",
     "Price: the catalog holds this offer's price with low confidence ({date}); ask for a quote."},
    {"proposal.risk.spot", "Spot capacity can be reclaimed mid-run; checkpoint often."},
    {"proposal.risk.delivery", "Delivery and installation time of the servers is not in the plan's time."},
    {"proposal.risk.export",
     "Export rules: accelerators restricted for China cannot be bought for it; the plan buys only parts allowed "
     "there and rents restricted ones only from Chinese clouds that have them installed."},
    {"proposal.checklist", "Pre-order checklist"},
    {"proposal.status.ok", "ok"},
    {"proposal.status.attention", "check"},
    {"proposal.status.problem", "problem"},
    {"proposal.left_out", "GPUs left out"},
    // [SECTION] parts and prices (engine/parts_list.cpp)
    {"proposal.parts", "Parts and prices"},
    {"proposal.col.part", "part"},
    {"proposal.col.unit_price", "unit price"},
    {"proposal.col.total", "total"},
    {"proposal.col.price_date", "price seen"},
    {"proposal.quote", "ask for a quote"},
    {"proposal.amount", "{amount}"},
    {"proposal.small_amount", "{amount} {currency}"},
    {"proposal.within", "within the allowance"},
    {"proposal.included", "in the server's price"},
    {"proposal.parts_total", "Total"},
    {"proposal.allowance_check",
     "The switches and transceivers priced from the catalog come to {itemized}, against the plan's {allowance} "
     "allowance for the network, shared storage and cabling; the shared file system is quoted apart."},
    {"parts.server.new", "{server}, new"},
    {"parts.server.used", "{server}, second-hand"},
    {"parts.nics", "Network cards in each server: {nics}"},
    {"parts.network_storage",
     "Network, shared storage and cabling allowance ({percent}% of the servers, as the plan prices a cluster)"},
    {"parts.switch", "{name}: {leaves} leaf and {spines} spine switches, non-blocking"},
    {"parts.switch.one", "{name}"},
    {"parts.fabric_design",
     "Network ports past a two-tier fat tree of {name}: a three-tier fabric, designed with the vendor"},
    {"parts.unit.port", "ports"},
    {"parts.unit.port.one", "port"},
    {"parts.transceiver", "{name}, at both ends of {links} links"},
    {"parts.shared_storage", "Shared parallel file system (for example {example})"},
    {"parts.install", "Installation ({percent}% of the hardware)"},
    {"parts.object_storage", "Object storage for the data and checkpoints ({name})"},
    {"parts.unit.server", "servers"},
    {"parts.unit.server.one", "server"},
    {"parts.unit.switch", "switches"},
    {"parts.unit.switch.one", "switch"},
    {"parts.unit.transceiver", "transceivers"},
    {"parts.unit.transceiver.one", "transceiver"},
    {"parts.unit.tb.one", "TB"},
    {"parts.unit.gpu_hour.one", "GPU-hour"},
    {"parts.unit.instance_hour.one", "instance-hour"},
    {"parts.unit.tb_month.one", "TB-month"},
    {"parts.unit.lot", "lot"},
    {"parts.unit.tb", "TB"},
    {"parts.unit.gpu_hour", "GPU-hours"},
    {"parts.unit.instance_hour", "instance-hours"},
    {"parts.unit.tb_month", "TB-months"},
};

}  // namespace

std::span<const MessageTemplate> ProposalTemplates() { return kTemplates; }

}  // namespace engine
