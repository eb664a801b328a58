#!/usr/bin/env python3
"""vLLM's warm-up measured: one start of the real vLLM with a DeepSeek-V3-shaped model and dummy weights, phase by phase.

    python3 bench/warmup.py run --layers N --cache-root DIR --log FILE [--restore-from DIR] [--work DIR]
    python3 bench/warmup.py report LOG... [--json] [--layers-to 93]

``run`` (on a GPU machine with vLLM installed) writes a config.json of Kimi K2's architecture (DeepseekV3ForCausalLM,
MLA, routed experts, FP8 blocks of 128x128) with N layers and fewer experts, starts vLLM on it in a child process
(``LLM(load_format="dummy")`` and one generated token, with the scheduler limits ``vllm serve`` takes on this GPU) and
records every line it prints with the time it arrived (bench/warmup_log.py reads the phases from them). Every cache
directory the compile cache keeps (deployment_config/data/compile_cache_variables.json, ``kept``) points under
``--cache-root``; HOME and TMPDIR are new, empty directories of the run, so what a start writes outside the kept
caches is counted (``outside_bytes``) and never reused. ``--restore-from`` copies a previous run's cache root into
``--cache-root`` first, as the chart's restore does: a start "with every cache restored".

``report`` prints each start's phases, cold against restored, and each phase extrapolated linearly in the layer count
from two runs of the same cache state to ``--layers-to`` (Kimi-K3's 93 by default), with the arithmetic.
docs/maintainers/performance.md holds the figures measured with it and the commands.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from warmup_log import FIRST_TOKEN_MARK, IMPORTED_MARK, PHASES, WarmupLogError, parse, read_records  # noqa: E402

PROJECT_DIR = Path(__file__).resolve().parents[1]
CACHE_TABLE = PROJECT_DIR / "deployment_config" / "data" / "compile_cache_variables.json"
#: Kimi-K3's layer count: 93 (69 Kimi Delta Attention and 24 Gated MLA layers, the first dense), as
#: Sereinthur/Transformer-modeling@2d496ab README.md reads it from Moonshot's config.json (a third party's reading: the
#: project names no count). Its 69 KDA layers have no DeepSeek-V3-shaped counterpart: the MLA layers measured here
#: stand in for them. Kimi K2 has 61 (moonshotai/Kimi-K2-Instruct-0905 config.json num_hidden_layers, as
#: ParagEkbote/hf-model-inspector model_inspection_report.md lists it): ``--layers-to 61``.
K3_LAYERS = 93

#: Kimi K2's config.json (DeepseekV3ForCausalLM; the same report: hidden 7168, 64 heads, vocabulary 163840,
#: intermediate 18432; the MLA ranks, expert sizes and FP8 block quantization as DeepSeek-V3 publishes them). Only
#: n_routed_experts is cut (384 -> 64) so that 8 layers fit one H200 with their KV cache: the kernels' shapes are
#: those of the full model.
MODEL_CONFIG = {
    "architectures": ["DeepseekV3ForCausalLM"],
    "model_type": "deepseek_v3",
    "hidden_size": 7168,
    "intermediate_size": 18432,
    "moe_intermediate_size": 2048,
    "num_attention_heads": 64,
    "num_key_value_heads": 64,
    "n_routed_experts": 64,
    "n_shared_experts": 1,
    "num_experts_per_tok": 8,
    "first_k_dense_replace": 1,
    "moe_layer_freq": 1,
    "n_group": 1,
    "topk_group": 1,
    "topk_method": "noaux_tc",
    "scoring_func": "sigmoid",
    "norm_topk_prob": True,
    "routed_scaling_factor": 2.827,
    "q_lora_rank": 1536,
    "kv_lora_rank": 512,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "hidden_act": "silu",
    "vocab_size": 163840,
    "max_position_embeddings": 131072,
    "rms_norm_eps": 1e-6,
    "rope_theta": 50000.0,
    "rope_scaling": {
        "type": "yarn",
        "factor": 32.0,
        "original_max_position_embeddings": 4096,
        "beta_fast": 1.0,
        "beta_slow": 1.0,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
    },
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
    "bos_token_id": 163584,
    "eos_token_id": 163585,
    "quantization_config": {
        "quant_method": "fp8",
        "fmt": "e4m3",
        "activation_scheme": "dynamic",
        "weight_block_size": [128, 128],
    },
}
#: The scheduler limits vLLM 0.25.0 gives ``vllm serve`` on a GPU of 70 GiB or more (vllm/engine/arg_utils.py
#: _set_default_max_num_seqs_and_batched_tokens_args: OPENAI_API_SERVER 8192 tokens, 1024 sequences); the LLM class'
#: own defaults differ, so they are set. The context is cut to 4096 tokens: it sizes the KV cache, not the kernels.
ENGINE_ARGS = {
    "max_num_batched_tokens": 8192,
    "max_num_seqs": 1024,
    "max_model_len": 4096,
    "gpu_memory_utilization": 0.80,
    "tensor_parallel_size": 1,
}
CHILD = f"""
import json, os, sys
import vllm
from vllm import LLM, SamplingParams
print({IMPORTED_MARK!r}, vllm.__version__, flush=True)
if __name__ == "__main__":
    llm = LLM(model=sys.argv[1], load_format="dummy", skip_tokenizer_init=True, **json.loads(sys.argv[2]))
    out = llm.generate([{{"prompt_token_ids": [1, 2, 3, 4]}}], SamplingParams(max_tokens=1, detokenize=False))
    print({FIRST_TOKEN_MARK!r}, out[0].outputs[0].token_ids, flush=True)
    sys.stdout.flush()
    os._exit(0)
"""
PROGRESS = ("it/s]", "s/it]")


def cache_environment(root: Path) -> dict[str, str]:
    """Each kept cache variable -> its directory under ``root``, as charts/compile_cache/ points them."""
    kept = json.loads(CACHE_TABLE.read_text(encoding="utf-8"))["kept"]
    return {row["variable"]: str(root / row["subdirectory"]) for row in kept}


def tree_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def written_outside(directory: Path) -> dict[str, int]:
    """Bytes under each top folder of ``directory`` (the run's HOME or TMPDIR): what no kept variable covered."""
    if not directory.is_dir():
        return {}
    found = {
        entry.name: tree_bytes(entry) if entry.is_dir() else entry.stat().st_size
        for entry in directory.iterdir()
    }
    return {name: size for name, size in found.items() if size}


def record_start(command: list[str], env: dict[str, str], log: Path, timeout: float) -> int:
    """Run ``command``; every line of its output, split at newlines and carriage returns (tqdm's bars), goes to ``log``
    as {"t": seconds since the start, "line": text}; progress bars are not echoed."""
    start = time.monotonic()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )

    def kill() -> None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)  # a start that hangs without a line is stopped too
    timer.start()
    pending = b""
    with log.open("w", encoding="utf-8") as out:

        def emit(raw: bytes) -> None:
            text = raw.decode("utf-8", "replace").rstrip()
            if not text:
                return
            out.write(json.dumps({"t": round(time.monotonic() - start, 3), "line": text}) + "\n")
            if not any(mark in text for mark in PROGRESS):
                print(f"{time.monotonic() - start:8.2f} {text}", flush=True)

        assert process.stdout is not None
        while chunk := process.stdout.read1(65536):
            pending += chunk
            *lines, pending = pending.replace(b"\r", b"\n").split(b"\n")
            for raw in lines:
                emit(raw)
            if any(FIRST_TOKEN_MARK.encode() in raw for raw in lines):
                break  # done: the engine core would hold the pipe open after the child's exit
        emit(pending)
        if not timer.is_alive():
            emit(b"warmup: killed at the --timeout")
    timer.cancel()
    try:
        return process.wait(timeout=30)
    finally:
        kill()  # the engine core, if it outlived the child's os._exit


def run(args: argparse.Namespace) -> int:
    work = args.work.resolve()
    tag = f"{args.layers}l-{args.cache_root.name}"
    model = work / f"model-{args.layers}l"
    model.mkdir(parents=True, exist_ok=True)
    (model / "config.json").write_text(
        json.dumps({**MODEL_CONFIG, "num_hidden_layers": args.layers}, indent=1)
    )
    home, tmp = work / f"home-{tag}", work / f"tmp-{tag}"
    for fresh in (home, tmp, args.cache_root):
        shutil.rmtree(fresh, ignore_errors=True)
    restore_seconds = None
    if args.restore_from is not None:
        began = time.monotonic()
        shutil.copytree(args.restore_from, args.cache_root, symlinks=True)
        restore_seconds = round(time.monotonic() - began, 2)
    for directory in (home, tmp, args.cache_root):
        directory.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "TRITON_HOME")}
    env.update(cache_environment(args.cache_root.resolve()))
    env.update(
        HOME=str(home),
        TMPDIR=str(tmp),
        PYTHONUNBUFFERED="1",
        VLLM_LOGGING_LEVEL="INFO",
        # FlashInfer is not installed (its cubin wheel alone is 458 MB): vLLM's sampler would otherwise ask for it.
        VLLM_USE_FLASHINFER_SAMPLER="0",
        # the GPU machine reaches no network: no Hub lookups, no usage report
        HF_HUB_OFFLINE="1",
        VLLM_NO_USAGE_STATS="1",
        DO_NOT_TRACK="1",
    )
    child = work / "warmup_child.py"
    child.write_text(CHILD, encoding="utf-8")
    command = [sys.executable, str(child), str(model), json.dumps(ENGINE_ARGS)]
    code = record_start(command, env, args.log, args.timeout)
    summary = {
        "layers": args.layers,
        "caches": "restored" if args.restore_from is not None else "cold",
        "restore_seconds": restore_seconds,
        "exit_code": code,
        "cache_root_bytes": tree_bytes(args.cache_root),
        "cache_bytes": {
            p.name: tree_bytes(p) for p in sorted(args.cache_root.iterdir()) if p.is_dir()
        },
        "outside_bytes": {"HOME": written_outside(home), "TMPDIR": written_outside(tmp)},
        "engine_args": ENGINE_ARGS,
        "model_config": {**MODEL_CONFIG, "num_hidden_layers": args.layers},
    }
    args.log.with_suffix(".summary.json").write_text(
        json.dumps(summary, indent=1), encoding="utf-8"
    )
    print(
        json.dumps(
            {
                k: summary[k]
                for k in ("layers", "caches", "exit_code", "cache_bytes", "outside_bytes")
            }
        )
    )
    return 0 if code == 0 else 1


def load(log: Path) -> dict:
    """One run: its summary (layers, caches) and its phases."""
    summary_file = log.with_suffix(".summary.json")
    try:
        summary = json.loads(summary_file.read_text(encoding="utf-8"))
        layers, caches = int(summary["layers"]), str(summary["caches"])
    except (OSError, ValueError, KeyError, TypeError):
        raise WarmupLogError(
            f"{summary_file}: missing or not a summary of bench/warmup.py run; keep it beside its log {log.name}"
        ) from None
    start = parse(read_records(log))
    return {
        "log": log.name,
        "layers": layers,
        "caches": caches,
        "phases": start.phases,
        "total": start.total,
        "reported": start.reported,
        "outside_bytes": summary.get("outside_bytes", {}),
    }


#: The phases whose work runs once per layer (weights initialised, the layers traced and compiled, the profile run's
#: forward pass, each layer's kernels captured in every graph): extrapolated in the layer count. The rest (imports,
#: config and processes, DeepGEMM's kernels, one per GEMM shape and so the same for 4 layers or 61) take the mean of
#: the two runs.
LAYER_SCALED = ("weights (dummy)", "compile", "profile and KV cache", "graph capture")


def extrapolate(runs: list[dict], layers_to: int) -> dict[str, dict]:
    """Per cache state with two layer counts: each phase at ``layers_to``. A phase of :data:`LAYER_SCALED` is a + b x
    layers through the runs of the fewest and the most layers, the others the mean of the two; a negative slope (two
    runs' noise: no phase is faster with more layers) counts as none, the mean too. ``warm_up`` is the sum less the
    dummy weights, which the plan counts in its load row."""
    fits = {}
    for caches in sorted({r["caches"] for r in runs}):
        mine = sorted((r for r in runs if r["caches"] == caches), key=lambda r: r["layers"])
        if len(mine) < 2 or mine[0]["layers"] == mine[-1]["layers"]:
            continue
        low, high = mine[0], mine[-1]
        rows = {}
        for phase in PHASES:
            a, b = low["phases"][phase] or 0.0, high["phases"][phase] or 0.0
            slope = (b - a) / (high["layers"] - low["layers"])
            if phase in LAYER_SCALED and slope > 0:
                value, how = (
                    a + slope * (layers_to - low["layers"]),
                    f"{a:g} + {slope:.3f} x ({layers_to} - {low['layers']})",
                )
            else:
                value, how = (a + b) / 2, f"({a:g} + {b:g}) / 2"
            rows[phase] = {"seconds": round(value, 1), "arithmetic": how}
        total = sum(row["seconds"] for row in rows.values())
        rows["sum"] = {"seconds": round(total, 1), "arithmetic": "the phases above"}
        rows["warm_up"] = {
            "seconds": round(total - rows["weights (dummy)"]["seconds"], 1),
            "arithmetic": f"{total:.1f} - {rows['weights (dummy)']['seconds']:g} (the dummy weights)",
        }
        fits[caches] = {"layers": [low["layers"], high["layers"]], "to": layers_to, "phases": rows}
    return fits


def report(args: argparse.Namespace) -> int:
    try:
        runs = sorted((load(log) for log in args.logs), key=lambda r: (r["layers"], r["caches"]))
    except WarmupLogError as error:
        print(f"bench/warmup.py report: {error}", file=sys.stderr)
        return 2
    fits = extrapolate(runs, args.layers_to)
    if args.json:
        print(json.dumps({"runs": runs, "extrapolated": fits}, indent=2))
        return 0
    heads = [f"{r['layers']}L {r['caches']}" for r in runs]
    width = max(14, *(len(h) + 2 for h in heads))
    print(f"{'phase (s)':<22}" + "".join(f"{h:>{width}}" for h in heads))
    for phase in [*PHASES, "total"]:
        cells = [r["total"] if phase == "total" else r["phases"][phase] for r in runs]
        print(
            f"{phase:<22}"
            + "".join(f"{'-' if c is None else format(c, '.1f'):>{width}}" for c in cells)
        )
    for caches, fit in fits.items():
        print(
            f"\n{caches}, {fit['layers'][0]} and {fit['layers'][1]} layers -> {fit['to']} layers:"
        )
        for phase, row in fit["phases"].items():
            print(f"  {phase:<22}{row['seconds']:>8.1f} s  {row['arithmetic']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run", help="one vLLM start on this machine's GPU, recorded")
    run_p.add_argument("--layers", type=int, required=True)
    run_p.add_argument(
        "--cache-root", type=Path, required=True, help="emptied first; every kept cache under it"
    )
    run_p.add_argument(
        "--restore-from", type=Path, help="a previous run's cache root, copied in first"
    )
    run_p.add_argument(
        "--log", type=Path, required=True, help="the records (JSON lines); a .summary.json beside"
    )
    run_p.add_argument("--work", type=Path, default=Path("/tmp/warmup"))
    run_p.add_argument(
        "--timeout", type=float, default=540.0, help="seconds before the start is killed"
    )
    rep = sub.add_parser("report", help="the phases of recorded runs, and their extrapolation")
    rep.add_argument("logs", type=Path, nargs="+")
    rep.add_argument("--json", action="store_true")
    rep.add_argument("--layers-to", type=int, default=K3_LAYERS)
    args = parser.parse_args(argv)
    if args.command == "run" and args.layers < 2:
        parser.error(
            "--layers: at least 2 (the first layer is dense, the rest are MoE); give 2 or more"
        )
    return run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    sys.exit(main())
