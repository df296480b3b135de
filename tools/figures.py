#!/usr/bin/env python3
"""Figures guard for refactors that must not change any number the engine computes (issue 15).

  python3 tools/figures.py record  --cli PATH --out FILE
  python3 tools/figures.py compare --cli PATH --baseline FILE

Runs the CLI on a fixed set of inputs, read from the repository this script lives in:
  - every case of catalog/validation/memory_cases.json and throughput_cases.json whose
    scenario is not null (id "memory:<case id>", "throughput:<case id>"),
  - every example of catalog/examples.json (id "example:<example id>"),
  - every row of tests/data/bad_inputs.json, its generators expanded as
    tests/data/bad_inputs.h does and sent as raw bytes (id "bad:<row name>"); every row
    goes through both commands, even a row whose "commands" names estimate only,
and sends each through `trainsizer estimate -` and `trainsizer plan -` (the plain result
JSON on stdout, not `--format json`'s {scenario, result} export), plus `trainsizer validate
--format json` once (id "validate"). The validation scenarios give no token count, so
`plan` refuses all of them (error field "tokens"); so that the planner's figures are
guarded on them too, each is also run through `plan` alone with "tokens": 1e9 added
(id "plan-tokens:<memory|throughput>:<case id>").

What is kept of each output (its "figures"): the exit status, and every leaf of the JSON
that is a number, a boolean, null, or a string without whitespace (identifiers and enum
values: gpu and offer ids, "fits", verdict words, an error's "field"), keyed by its path,
e.g. `pareto[3].layout.tp`. Strings with whitespace are English prose (messages, formulas,
sources, notes, the planner's pick labels) that a refactor may reword, so they are dropped,
and with them any number written inside prose; so are the strings of the prose fields in
PROSE_KEYS even when they happen to be one word or empty. Object key order does not
matter (keys are walked sorted); array order does (the planner's ranking), so indices are
part of the path. Empty arrays and
objects have no leaves and so are not recorded. A number compares equal to the same value
written differently (64 and 64.0); a boolean never equals a number. A non-finite number
(NaN, Infinity, which strict JSON cannot hold) is recorded as the string "NaN",
"Infinity" or "-Infinity". Output that is not JSON at all is recorded as the figure
`$not_json: true`. Each case also records the SHA-256 of the bytes it sent, so that a
changed input is reported as such rather than as changed figures.

The plan outputs are small (at most a few dozen Pareto points, picks and rejected GPUs), so
every leaf of every plan is kept in full: the baseline is about 1.9 MB, under the 4 MB
budget, and no plan is truncated or hashed.

No path is excluded: two recordings with the same binary were identical (the CLI prints
no timestamp, run time or other nondeterministic value). Should one appear, add its path
pattern to EXCLUDED below with the reason.

The baseline (tests/data/figures_baseline.json.gz) is one JSON document with one case per
line and sorted keys, stored gzip-compressed (zcat shows it; diff two recordings to see
which cases changed). Re-record it only when a
change of figures is intended, and say why in the commit:
  python3 tools/figures.py record --cli build/native/trainsizer --out tests/data/figures_baseline.json.gz

compare exits 0 when every figure is identical; otherwise it prints the first
differences (case id, command, JSON path, old and new value) and how many there are in
all, and exits 1. Exit 2: usage error or the CLI cannot be run.
Python 3.11 standard library only.
"""
import argparse
import concurrent.futures
import gzip
import hashlib
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = "trainsizer.figures_baseline.v1"
COMMANDS = ("estimate", "plan")
WORKERS = 2           # the CI machines have two cores
TIMEOUT_S = 120       # per CLI call; generous for a loaded machine (each call takes < 0.1 s)
MAX_REPORTED = int(__import__("os").environ.get("FIGURES_MAX_REPORTED", "40"))
PLAN_TOKENS = 1e9     # tokens added to the validation scenarios for their plan-only runs

# (command, regular expression matched against the whole path) -> why it is not a figure.
# Empty: no output value was found to vary between runs of the same binary.
EXCLUDED: dict[tuple[str, str], str] = {}

# Prose fields whose text is sometimes a single word or empty, and so would pass the
# whitespace test: an estimate's checklist topic ("Memory" beside "Sequence length"), a
# server line's item ("Power" beside "GPU nodes"), an explanation's formula and source
# ("" when there is nothing to explain). Display labels, not figures: dropped by key.
PROSE_KEYS = frozenset({"topic", "item", "formula", "source"})

_WHITESPACE = re.compile(r"\s")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*\Z")


# ---------------------------------------------------------------- inputs


def generate_bad_input(spec) -> bytes:
    """The bytes a bad_inputs.json row sends (as tests/data/bad_inputs.h GenerateBadInput)."""
    if isinstance(spec, str):
        return spec.encode("utf-8")
    if "repeat" in spec:
        return spec["repeat"].encode("utf-8") * int(spec["times"])
    if "nest" in spec:
        return b"[" * int(spec["nest"])
    if "bytes_hex" in spec:
        return bytes.fromhex(spec["bytes_hex"])
    if "concat" in spec:
        return b"".join(generate_bad_input(part) for part in spec["concat"])
    raise ValueError(f"unknown bad-input generator: {spec!r}")


def scenario_bytes(scenario) -> bytes:
    return json.dumps(scenario, ensure_ascii=False).encode("utf-8")


def load_json(relative: str):
    with open(ROOT / relative, encoding="utf-8") as f:
        return json.load(f)


def collect_inputs():
    """[(case id, spec)] in a fixed order; spec is ("scenario", obj) or ("bad", generator)."""
    inputs = []
    for kind, relative in (("memory", "catalog/validation/memory_cases.json"),
                           ("throughput", "catalog/validation/throughput_cases.json")):
        for case in load_json(relative)["cases"]:
            if case.get("scenario") is not None:
                inputs.append((f"{kind}:{case['id']}", ("scenario", case["scenario"])))
    # The validation scenarios carry no token count, so `plan` refuses every one of them
    # (field "tokens"): to exercise the planner on them too, each is also planned with
    # PLAN_TOKENS tokens added (id "plan-tokens:<memory|throughput>:<case id>", plan only).
    for case_id, (_, scenario) in list(inputs):
        if "tokens" not in scenario and "dataset_tokens" not in scenario:
            inputs.append((f"plan-tokens:{case_id}", ("scenario", {**scenario, "tokens": PLAN_TOKENS})))
    for example in load_json("catalog/examples.json")["examples"]:
        inputs.append((f"example:{example['id']}", ("scenario", example["scenario"])))
    for row in load_json("tests/data/bad_inputs.json")["rows"]:
        inputs.append((f"bad:{row['name']}", ("bad", row["input"])))
    ids = [case_id for case_id, _ in inputs]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise SystemExit(f"figures.py: duplicate case ids: {duplicates}")
    return inputs


def input_bytes(spec) -> bytes:
    kind, value = spec
    return scenario_bytes(value) if kind == "scenario" else generate_bad_input(value)


# ---------------------------------------------------------------- figures


def path_join(path: str, key: str) -> str:
    if _PLAIN_KEY.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def flatten(value, path: str, out: dict, nonfinite: list) -> None:
    if isinstance(value, dict):
        for key in sorted(value):
            if key in PROSE_KEYS and isinstance(value[key], str):
                continue
            flatten(value[key], path_join(path, key), out, nonfinite)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            flatten(item, f"{path}[{index}]", out, nonfinite)
    elif isinstance(value, str):
        if not _WHITESPACE.search(value):
            out[path or "$"] = value
    elif isinstance(value, float) and not math.isfinite(value):
        nonfinite.append(path)
        out[path or "$"] = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    else:  # int, float, bool, None
        out[path or "$"] = value


def excluded(command: str, path: str) -> bool:
    return any(cmd == command and re.fullmatch(pattern, path) for (cmd, pattern) in EXCLUDED)


def run_case(cli: str, case_id: str, command: str, spec) -> dict:
    if command == "validate":
        argv, stdin = [cli, "validate", "--format", "json"], b""
    else:
        argv, stdin = [cli, command, "-"], input_bytes(spec)
    record = {"id": case_id, "command": command, "input_sha256": hashlib.sha256(stdin).hexdigest()}
    notes = []
    try:
        proc = subprocess.run(argv, input=stdin, capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        record["exit"] = "timeout"
        record["figures"] = {}
        return {"record": record, "notes": [f"no answer within {TIMEOUT_S} s"]}
    record["exit"] = proc.returncode
    if proc.returncode < 0:
        notes.append(f"killed by signal {-proc.returncode}")
    if proc.returncode == 0 and proc.stderr.strip():
        notes.append("stderr: " + proc.stderr.decode("utf-8", "replace").strip()[:200])
    figures: dict = {}
    nonfinite: list = []
    try:
        text = proc.stdout.decode("utf-8")
    except UnicodeDecodeError:
        notes.append("output is not valid UTF-8 (invalid bytes replaced by U+FFFD)")
        text = proc.stdout.decode("utf-8", "replace")
    try:
        # parse_constant accepts NaN/Infinity if the CLI ever prints them (strict JSON does not).
        parsed = json.loads(text, parse_constant=lambda name: float(name.replace("Infinity", "inf")))
    except ValueError:
        figures["$not_json"] = True
        notes.append("output is not JSON: " + proc.stdout[:120].decode("utf-8", "replace"))
    else:
        flatten(parsed, "", figures, nonfinite)
    if nonfinite:
        notes.append("non-finite numbers at " + ", ".join(nonfinite[:5]))
    record["figures"] = {p: v for p, v in figures.items() if not excluded(command, p)}
    return {"record": record, "notes": notes}


def run_all(cli: str) -> tuple[list, list]:
    cli = str(Path(cli).resolve())
    if not os.access(cli, os.X_OK):
        print(f"figures.py: {cli} is not an executable", file=sys.stderr)
        raise SystemExit(2)
    jobs = [(case_id, command, spec) for case_id, spec in collect_inputs() for command in COMMANDS
            if command == "plan" or not case_id.startswith("plan-tokens:")]
    jobs.append(("validate", "validate", None))
    with concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(lambda job: run_case(cli, *job), jobs))
    records = [r["record"] for r in results]
    notes = [f"{r['record']['id']} ({r['record']['command']}): {n}" for r in results for n in r["notes"]]
    return records, notes


# ---------------------------------------------------------------- baseline file


def write_baseline(records: list, out: Path) -> None:
    lines = [json.dumps(r, sort_keys=True, ensure_ascii=False, allow_nan=False) for r in records]
    header = json.dumps({"schema": SCHEMA, "regenerate": "python3 tools/figures.py record --cli PATH "
                         "--out tests/data/figures_baseline.json.gz (see tools/figures.py)"},
                        sort_keys=True)[:-1]
    text = header + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"
    out.write_bytes(encode_baseline(text, out))


# A baseline named *.gz is stored gzip-compressed (the JSON is over 2 MiB, too large to
# keep in git as text); mtime 0 keeps the same figures byte-identical on every record.
def encode_baseline(text: str, path: Path) -> bytes:
    data = text.encode("utf-8")
    return gzip.compress(data, mtime=0) if path.suffix == ".gz" else data


def decode_baseline(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")


def read_baseline(path: Path) -> list:
    try:
        doc = json.loads(decode_baseline(path))
    except (OSError, ValueError, EOFError) as error:
        print(f"figures.py: cannot read the baseline {path}: {error}", file=sys.stderr)
        raise SystemExit(2)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        print(f"figures.py: {path} is not a {SCHEMA} file", file=sys.stderr)
        raise SystemExit(2)
    return doc["cases"]


# ---------------------------------------------------------------- comparison

_ABSENT = object()


def same(old, new) -> bool:
    if isinstance(old, bool) or isinstance(new, bool) or old is None or new is None:
        return type(old) is type(new) and old == new
    if isinstance(old, (int, float)) and isinstance(new, (int, float)):
        return old == new
    return type(old) is type(new) and old == new


def shown(value) -> str:
    return "(absent)" if value is _ABSENT else json.dumps(value, ensure_ascii=False)


def diff_records(old_records: list, new_records: list) -> list:
    """[(case id, command, path, old, new)] in baseline order, new cases last."""
    new_by_key = {(r["id"], r["command"]): r for r in new_records}
    old_keys = set()
    diffs = []
    for old in old_records:
        key = (old["id"], old["command"])
        old_keys.add(key)
        new = new_by_key.get(key)
        if new is None:
            diffs.append((*key, "(case)", "recorded", _ABSENT))
            continue
        if old["input_sha256"] != new["input_sha256"]:
            diffs.append((*key, "(input sha256: the input changed; re-record if intended)",
                          old["input_sha256"][:16], new["input_sha256"][:16]))
        if not same(old["exit"], new["exit"]):
            diffs.append((*key, "(exit status)", old["exit"], new["exit"]))
        of, nf = old["figures"], new["figures"]
        for path in list(of) + [p for p in nf if p not in of]:
            a, b = of.get(path, _ABSENT), nf.get(path, _ABSENT)
            if a is _ABSENT or b is _ABSENT or not same(a, b):
                diffs.append((*key, path, a, b))
    for new in new_records:
        if (new["id"], new["command"]) not in old_keys:
            diffs.append((new["id"], new["command"], "(case)", _ABSENT, "recorded"))
    return diffs


# ---------------------------------------------------------------- commands


def cmd_record(args) -> int:
    records, notes = run_all(args.cli)
    for note in notes:
        print("note:", note)
    write_baseline(records, Path(args.out))
    kinds: dict = {}
    for r in records:
        kind = r["id"].split(":", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    size = Path(args.out).stat().st_size
    print(f"recorded {len(records)} runs ({', '.join(f'{k}: {n}' for k, n in kinds.items())}), "
          f"{sum(len(r['figures']) for r in records)} figures, {size} bytes -> {args.out}")
    return 0


def cmd_compare(args) -> int:
    old_records = read_baseline(Path(args.baseline))
    new_records, _ = run_all(args.cli)
    all_diffs = diff_records(old_records, new_records)
    # A leaf the baseline lacks is a new output field (a warning's args, a new cost), not a
    # changed figure: counted, not failed. Re-record to start checking it.
    added = [d for d in all_diffs if d[3] is _ABSENT and d[2] != "(case)"]
    diffs = [d for d in all_diffs if not (d[3] is _ABSENT and d[2] != "(case)")]
    if not diffs:
        print(f"figures unchanged: {len(new_records)} runs, "
              f"{sum(len(r['figures']) for r in new_records) - len(added)} figures identical to {args.baseline}"
              + (f"; {len(added)} new leaves not in the baseline yet" if added else ""))
        return 0
    cases = len({(d[0], d[1]) for d in diffs})
    print(f"FIGURES CHANGED: {len(diffs)} difference(s) in {cases} run(s) against {args.baseline}")
    for case_id, command, path, old, new in diffs[:MAX_REPORTED]:
        print(f"  {case_id} [{command}] {path}: {shown(old)} -> {shown(new)}")
    if len(diffs) > MAX_REPORTED:
        print(f"  ... and {len(diffs) - MAX_REPORTED} more")
    print("If the change is intended, re-record: python3 tools/figures.py record --cli PATH "
          f"--out {args.baseline}, and say why in the commit.")
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    record = sub.add_parser("record", help="run the CLI on every input and write the baseline")
    record.add_argument("--cli", required=True, help="path to the trainsizer binary")
    record.add_argument("--out", required=True, help="baseline file to write")
    record.set_defaults(func=cmd_record)
    compare = sub.add_parser("compare", help="run the CLI and compare with a baseline")
    compare.add_argument("--cli", required=True, help="path to the trainsizer binary")
    compare.add_argument("--baseline", required=True, help="baseline file written by record")
    compare.set_defaults(func=cmd_compare)
    args = parser.parse_args()
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
