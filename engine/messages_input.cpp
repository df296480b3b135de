// The English templates of the input errors (InputError.code) and of a link's notices:
// what a scenario, a plan's goal, a JSON text or a link may not be, with {name} where the
// value, the limit or the field goes (engine/message.h). The page's 简体中文 templates of
// the same ids are in wasm/ui/i18n/zh-messages-input.json.
//
// A word the sentence needs in the reader's language (a unit, what 0 means, a JSON type,
// a JSON parser's token) is a message of its own, nested as an argument; ids, field names
// and the user's own text are plain text arguments.
#include "message_templates.h"

namespace engine {
namespace {

constexpr MessageTemplate kTemplates[] = {
    // [SECTION] any field (engine/contract/json_fields.cpp, engine/input_limits.cpp)
    {"input.required", "is required"},
    {"input.empty", "must not be empty"},
    {"input.not_a_number", "must be a number, got {got}"},
    {"input.not_an_integer", "must be an integer, got {got}"},
    {"input.not_a_bool", "must be true or false, got {got}"},
    {"input.not_a_string", "must be a string, got {got}"},
    {"input.not_an_object", "must be an object, got {got}"},
    {"input.not_whole", "must be a whole number, got {got}"},
    {"input.out_of_range", "must be between {min} and {max}, got {got}"},
    {"input.out_of_range.unit", "must be between {min} and {max} {unit}, got {got}"},
    {"input.out_of_range.unset", "must be 0 ({zero_means}) or between {min} and {max}, got {got}"},
    {"input.out_of_range.unset_unit", "must be 0 ({zero_means}) or between {min} and {max} {unit}, got {got}"},
    {"input.between.unit", "must be between {min} and {max} {unit}"},
    {"input.not_one_of", "must be one of {allowed}, got '{got}'"},
    {"input.not_one_of.type", "must be one of {allowed}, got {got}"},
    // The JSON type a value has ("got {got}").
    {"input.type.null", "null"},
    {"input.type.object", "an object"},
    {"input.type.array", "an array"},
    {"input.type.string", "a string"},
    {"input.type.boolean", "a boolean"},
    {"input.type.number", "a number"},
    {"input.type.unsupported", "an unsupported value"},
    // The numeric contract's units and what its 0 stands for (engine/input_limits.h).
    {"input.unit.billion_parameters", "billion parameters"},
    {"input.unit.days", "days"},
    {"input.unit.gpus", "GPUs"},
    {"input.unit.layers", "layers"},
    {"input.unit.tokens", "tokens"},
    {"input.unit.sequences", "sequences"},
    {"input.unit.tokens_per_s", "tokens/s"},
    {"input.unit.hours", "h"},
    {"input.unit.minutes", "min"},
    {"input.unit.stages", "stages"},
    {"input.unit.gbit_per_s", "Gbit/s"},
    {"input.unit.watts", "W"},
    {"input.zero_means.default_batch", "the method's default: 4M tokens for pre-training, 128 sequences for fine-tuning"},
    {"input.zero_means.not_given", "not given"},
    {"input.zero_means.no_claim", "no claim"},
    {"input.zero_means.predicted", "predicted"},
    {"input.zero_means.fabric_default", "the fabric's usual"},
    {"input.zero_means.rated_power", "the GPU's rated power"},
    {"input.zero_means.tp", "the tensor-parallel degree"},
    {"input.zero_means.none", "none"},
    {"input.zero_means.no_limit", "no limit"},

    // [SECTION] JSON text (engine/contract/json_fields.cpp ParseUserJson, ParseCatalogJson)
    {"input.json.too_large", "is {bytes} bytes; the limit is {limit_mib} MiB"},
    {"input.json.nul", "is not valid JSON: a NUL byte at offset {offset}"},
    {"input.json.repeated_key", "appears twice in one object; give it once"},
    {"input.json.too_deep", "nests objects and arrays {depth} levels deep; the limit is {limit}"},
    {"input.json.invalid", "is not valid JSON: {detail}"},
    // The JSON parser's own account (nlohmann::json's parse_error and out_of_range texts),
    // taken apart so that each piece is said in the reader's language.
    {"input.json.at", "at line {line}, column {column}: {error}"},
    {"input.json.overflow", "number overflow parsing '{number}'"},
    {"input.json.other", "{text}"},  // a parser text of no known shape, as it is
    {"input.json.syntax", "syntax error while parsing {context} - {problem}"},
    {"input.json.syntax.expected", "syntax error while parsing {context} - {problem}; expected {expected}"},
    {"input.json.unexpected", "unexpected {token}"},
    {"input.json.lexer", "{error}; last read: '{last_read}'"},
    {"input.json.context.value", "value"},
    {"input.json.context.object", "object"},
    {"input.json.context.object_key", "object key"},
    {"input.json.context.object_separator", "object separator"},
    {"input.json.context.array", "array"},
    {"input.json.token.uninitialized", "<uninitialized>"},
    {"input.json.token.true", "true literal"},
    {"input.json.token.false", "false literal"},
    {"input.json.token.null", "null literal"},
    {"input.json.token.string", "string literal"},
    {"input.json.token.number", "number literal"},
    {"input.json.token.parse_error", "<parse error>"},
    {"input.json.token.end_of_input", "end of input"},
    {"input.json.token.literal_or_value", "'[', '{', or a literal"},
    {"input.json.token.unknown", "unknown token"},
    {"input.json.lexer.bom", "invalid BOM; must be 0xEF 0xBB 0xBF if given"},
    {"input.json.lexer.comment_slash", "invalid comment; expecting '/' or '*' after '/'"},
    {"input.json.lexer.comment_unclosed", "invalid comment; missing closing '*/'"},
    {"input.json.lexer.literal", "invalid literal"},
    {"input.json.lexer.number_minus", "invalid number; expected digit after '-'"},
    {"input.json.lexer.number_dot", "invalid number; expected digit after '.'"},
    {"input.json.lexer.number_exponent", "invalid number; expected '+', '-', or digit after exponent"},
    {"input.json.lexer.number_exponent_sign", "invalid number; expected digit after exponent sign"},
    {"input.json.lexer.unicode_escape", "invalid string: '\\u' must be followed by 4 hex digits"},
    {"input.json.lexer.control", "invalid string: control character {code} ({name}) must be escaped to {escape}"},
    {"input.json.lexer.control.short",
     "invalid string: control character {code} ({name}) must be escaped to {escape} or {short}"},
    {"input.json.lexer.backslash", "invalid string: forbidden character after backslash"},
    {"input.json.lexer.utf8", "invalid string: ill-formed UTF-8 byte"},
    {"input.json.lexer.missing_quote", "invalid string: missing closing quote"},
    {"input.json.lexer.surrogate_high", "invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"},
    {"input.json.lexer.surrogate_low", "invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF"},

    // [SECTION] the scenario document (engine/contract/scenario_json.cpp, model_json.cpp)
    {"input.scenario_not_object", "must be a JSON object, got {got}"},
    {"input.scenario_empty_key", "has an empty key \"\", which is not a scenario field"},
    {"input.not_scenario_field", "is not a scenario field (see engine/README.md for the list)"},
    {"input.model_required",
     "is required: a preset id, {\"params_b\": N}, an architecture or {\"hf_config\": {...}}"},
    {"input.unknown_preset", "unknown preset '{id}'; see `trainsizer catalog` for the {presets} preset ids"},
    {"input.model_key_combined", "{key} cannot be combined with other model fields"},
    {"input.claim_not_object", "must be an object like {\"tokens_per_s\": 100000} or {\"wall_days\": 3}"},
    {"input.group_empty_key", "has an empty key \"\"; its fields are {fields}"},
    {"input.not_group_field", "is not a {group} field ({fields})"},
    {"input.not_architecture_field", "is not an architecture field (known: {fields})"},
    {"input.heads_divide_hidden", "must divide hidden ({hidden}) unless head_dim is given, got {heads}"},

    // [SECTION] the model (engine/model_spec.cpp)
    {"input.weight_bytes_range", "must be 0 (not quantized) or at least 0.125 and below 2 bytes per weight, got {got}"},
    {"input.model_too_large", "describes {trillions} trillion parameters; the limit is 10 trillion"},
    {"input.no_dense_shape", "no transformer shape reaches that size"},

    // [SECTION] the scenario's fields together (engine/scenario_check.cpp)
    {"input.must_divide", "must divide {what} ({total}), got {value}"},
    {"input.must_divide_dp", "must divide the data-parallel degree ({total}), got {value}"},
    {"input.above_model_layers", "must be between 1 and {layers} (the model's layers), got {got}"},
    {"input.more_than_model_layers", "must be at most {layers} (the model's layers), got {got}"},
    {"input.method_on_quantized_weights",
     "cannot be {method} on a quantized checkpoint (model weight_bytes {weight_bytes} B): only adapters train on "
     "quantized weights; use lora or qlora, or load the unquantized checkpoint"},
    {"input.gpus_not_multiple", "must be a multiple of tp × pp × cp = {product}, got {gpus}"},
    {"input.virtual_pipeline_needs_pp", "needs pp > 1"},
    {"input.ep_fold",
     "etp × ep ({etp} × {ep}) must divide the {stage_ranks} GPUs of a pipeline stage (tp × cp × data-parallel)"},
    {"input.block_scaled_unsupported",
     "{precision} needs block-scaled tensor cores (Blackwell B200/B300/GB200/GB300, MI355X); {gpu} has none"},
    {"input.virtual_pipeline_layers", "pp × virtual_pipeline must be at most the {layers} layers (a layer per chunk)"},
    {"input.min_above_max", "must be at most max_gpus ({max}), got {min}"},
    {"input.stage_layers_need_pp", "needs pp > 1 (layers of the first or last pipeline stage)"},
    {"input.stage_layers",
     "the {pp} pipeline stages must share the {layers} layers with at least {virtual_pipeline} on each (one per virtual "
     "chunk); the stages not given take the rest"},
    {"input.ep_needs_moe", "expert parallelism needs a Mixture-of-Experts model; use 1"},
    {"input.zero_above_framework",
     "{framework} shards optimizer state only (zero = 1 is Megatron's distributed optimizer); use 0 or 1, or "
     "framework megatron-fsdp, fsdp or deepspeed"},
    {"input.zero_deepspeed_pp",
     "DeepSpeed's pipeline engine supports ZeRO stage 0 or 1 only; use zero ≤ 1 with pp > 1, or framework fsdp "
     "(FSDP2 + pipelining, as torchtitan)"},
    {"input.offload_needs_zero",
     "optimizer offload needs zero ≥ 1 (DeepSpeed ZeRO-Offload runs the sharded optimizer on the CPU)"},
    {"input.offload_params_needs_zero3", "optimizer+params offload needs zero = 3 (ZeRO-Infinity / FSDP CPU offload)"},
    {"input.sequences_per_step",
     "× data-parallel degree gives {sequences} sequences per step; the limit is {limit} (lower micro_batch or gpus)"},
    {"input.optimizer_in_backward_accumulation",
     "cannot be combined with gradient accumulation (global_batch {global_batch} > micro_batch × data-parallel "
     "{per_step})"},
    {"input.global_batch_not_multiple",
     "must be a multiple of micro_batch × data-parallel degree = {per_step}, got {global_batch}"},
    {"input.unknown_gpu", "unknown GPU '{gpu}'; known: {known}"},
    {"input.unknown_network", "unknown network '{network}'; choose a fabric between nodes: {known}"},
    {"input.network_inside_node",
     "'{network}' links GPUs inside a node, not nodes; choose a fabric between nodes: {known}"},
    {"input.unknown_storage", "unknown storage tier '{storage}'; known: {known}"},
    {"input.fp8_unsupported", "fp8 needs FP8 tensor cores; {gpu} has none (use bf16)"},
    {"input.bf16_unsupported",
     "{precision} needs bfloat16 arithmetic; {gpu} has none (use fp16: mixed precision with loss scaling)"},
    {"input.outside_engine",
     "this scenario takes the estimate outside what the engine can compute ({figure}); please report it with the "
     "scenario"},
    {"input.outside_engine.field",
     "this value of {field} takes the estimate outside what the engine can compute ({figure}); please report it "
     "with the scenario"},

    // [SECTION] the plan's goal (engine/planner.cpp, engine/contract/plan_json.cpp)
    {"input.allowed_gpus_none", "matches no catalog GPU id or vendor"},
    {"input.tokens_required", "is required to plan (or dataset_tokens × epochs): time and cost depend on it"},
    {"input.must_be_json_object", "must be a JSON object"},
    {"input.not_string_array", "must be an array of strings"},
    {"input.must_be_string", "must be a string"},
    {"input.unknown_region", "must be us, eu, asia or cn, got '{got}'"},

    // [SECTION] the entry points (engine/service/api.cpp, tools/cli.cpp, wasm/)
    {"input.too_large_to_process", "is too large to process"},
    {"input.internal_error", "internal error: {detail}"},
    {"input.internal_error.unknown", "internal error"},
    {"input.export_what", "must be estimate or plan"},
    {"input.export_format", "must be json, csv, markdown, table or proposal"},
    {"input.cli.unreadable_scenario", "cannot read the scenario file"},
    {"input.cli.unreadable_overlay", "cannot read the overlay file"},
    {"input.cli.validate_format", "must be table, markdown or json"},
    {"input.cli.launch_tool", "must be deepspeed, torchrun, llamafactory, megatron or all"},
    {"input.cli.stale_days", "must be a whole number of days between 0 and 36500"},
    {"input.cli.link_too_long", "longer than {max_chars} characters; none of it can be read"},
    {"input.page.not_started", "the page has not started"},
    {"input.page.not_computed", "not computed yet"},
    {"input.page.not_planned", "not planned yet"},
    {"input.page.stopped", "not computed after repeated internal errors"},

    // [SECTION] a link's notices: the parameters it could not use (engine/link/url_state.cpp)
    {"input.link.notice", "{key}: {reason}"},  // reason: the input error that refused the value
    {"input.link.too_long", "link: longer than {max_chars} characters; none of it was read"},
    {"input.link.too_many", "link: more than {max_parameters} parameters; the rest was not read"},
    {"input.link.broken_escape", "{parameter}: broken %-escape"},
    {"input.link.name_not_utf8", "link: a parameter name is not UTF-8 text; it was not read"},
    {"input.link.no_value", "{key}: has no value"},
    {"input.link.value_not_utf8", "{key}: is not UTF-8 text"},
    {"input.link.twice", "{key}: given twice; the last value is used"},
    {"input.link.bad_version", "v: not a link version, got '{got}'; read as version {version}"},
    {"input.link.newer_version", "v: version {got} is newer than this page's ({version}); read as version {version}"},
    {"input.link.not_bool", "must be true or false, got '{got}'"},
    {"input.link.not_number", "must be a number, got '{got}'"},
    {"input.link.bad_lang", "must be en or zh, got '{got}'"},
    {"input.link.bad_theme", "must be light or dark, got '{got}'"},
    {"input.link.unknown_key", "{key}: not a TrainSizer setting"},
    {"input.link.group", "{key}: is a group; set its fields instead ({fields})"},
    {"input.link.named_model",
     "{key}: ignored: the link names its model with {named}, so architecture fields do not apply"},
    {"input.link.not_applied", "{field}: {reason} (the link was not applied)"},
    {"input.link.internal_error", "link: internal error ({detail}); the link was not applied"},

    // [SECTION] what the page refused after an internal error (wasm/ui/refusal.cpp): the
    // work that threw, the exception's text and what the page did about it
    {"input.refused", "Refused {work} after an internal error: {reason}. {outcome}"},
    {"input.refused.work.drawing", "drawing the page"},
    {"input.refused.work.link", "the link {link}"},
    {"input.refused.work.js_overlay", "the catalog overlay from TrainSizer.setCatalogOverlay"},
    {"input.refused.work.overlay_or_edit", "the catalog overlay or Assumptions edit"},
    {"input.refused.work.last_edit", "the last edit"},
    {"input.refused.work.plan_search", "the plan search"},
    {"input.refused.work.last_good", "the last inputs that worked"},
    {"input.refused.work.last_good_builtin", "the last inputs that worked, on the built-in catalog"},
    {"input.refused.work.first_screen", "the first screen"},
    {"input.refused.outcome.last_good_back", "The last inputs that worked are back."},
    {"input.refused.outcome.last_good_builtin", "The last inputs that worked are back, on the built-in catalog."},
    {"input.refused.outcome.started_over", "The page started over from its first screen."},
    {"input.refused.outcome.stopped", "Nothing is computed until a new link is opened."},
};

}  // namespace

std::span<const MessageTemplate> InputTemplates() { return kTemplates; }

}  // namespace engine
