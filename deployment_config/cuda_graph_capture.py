"""The CUDA graphs a start captures, bounded by the endpoint's own ``--max-num-seqs``, and the memory vLLM accounts for
them; read from vLLM 0.33.0 (the wheel of deployment_config/vllm_args/vllm_serve_options.json).

What vLLM 0.33.0 captures (vllm/config/vllm.py ``VllmConfig._set_cudagraph_sizes``): without a
``max_cudagraph_capture_size`` in ``--compilation-config`` (vllm/config/compilation.py ``CompilationConfig``; no
``--cuda-graph-sizes`` option exists in 0.33.0's parser), it takes ``min(max_num_seqs * decode_query_len * 2, 512)``
(1024 on data center Blackwell, ``is_device_capability_family(100)``: the B300) and captures 1, 2, 4, then every 8 up to
256 and every 16 above, up to it. Capture is never cached (issue 30: about 1.5 s a layer a size, measured on the H200)
and every captured size holds memory in the graph pool. A decode step of this endpoint never has more than
``max_num_seqs`` tokens (one a request, ``decode_query_len`` 1 without speculative decoding), so sizes above it serve
only mixed prefill batches, whose time is the prefill's compute rather than the kernel launches a graph saves. The
bound here is ``max_num_seqs`` rounded up to vLLM's own grid, so that the largest decode batch still has its graph;
what the bound costs in steady state is not measured here.

Not bounded (vLLM's default stands): without ``--max-num-seqs`` in the arguments (vLLM's default then depends on the
GPU, vllm/engine/arg_utils.py ``_set_default_max_num_seqs_and_batched_tokens_args``), with ``--enforce-eager`` (no
graphs), with a ``--compilation-config`` of the user's (theirs wins), and with speculative decoding: there a decode
step is ``n * decode_query_len`` tokens, and vLLM covers those sizes only when it computes the bound itself
(``uniform_decode_sizes``, "Populated only when the default is computed here").

The memory: vLLM 0.33.0 captures a trial of every size before it sizes the KV cache and subtracts that estimate from
the memory it may use (vllm/v1/worker/gpu_worker.py ``determine_available_memory``, ``cudagraph_memory_estimate``,
on unless ``VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0``, vllm/envs.py), then logs "CUDA graph pool memory: X GiB
(actual), Y GiB (estimated)". Measured on the H200 (issue 30; vLLM 0.25.0, a DeepSeek-V3-shaped model with dummy
weights, TP 1, FP8: a labelled measurement): estimated 4.3 GiB, used 8.4 GiB, and at ``--gpu-memory-utilization``
0.90 the engine ran out of GPU memory after capture. The part the estimate missed, 4.1 GiB, can only come from the
memory outside vLLM's share; :func:`headroom_problem` asks for at least that much. A necessary condition, not a
sufficient one: the measured run had more than that outside its share and still failed, so fewer graphs (the bound)
are the remedy, and ``llmops phases`` / the pod's log line show the actual pool on the node.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from deployment_config.vllm_args.parsing import last_value, setting_items

#: vLLM's own capture grid (vllm/config/vllm.py ``_set_cudagraph_sizes``): 1, 2, 4, every 8 below 256, every 16 above.
_SMALL = (1, 2, 4)
_STEP_BELOW_256, _STEP_FROM_256 = 8, 16

#: The graph pool memory vLLM 0.33.0's estimate did not account for, in the one run measured (see the docstring):
#: 8.4 GiB used, 4.3 GiB estimated.
UNACCOUNTED_GRAPH_POOL_GIB = 8.4 - 4.3
MEASURED = (
    "issue 30, measured on the H200: vLLM estimated the CUDA graph pool at 4.3 GiB and it used 8.4 GiB (vLLM 0.25.0, "
    "a DeepSeek-V3-shaped model, TP 1, FP8)"
)


def capture_bound(max_num_seqs: int) -> int:
    """The smallest size of vLLM's capture grid that holds ``max_num_seqs``: the largest graph a decode step uses."""
    if max_num_seqs <= _SMALL[-1]:
        return next(size for size in _SMALL if size >= max_num_seqs)
    step = _STEP_BELOW_256 if max_num_seqs <= 256 else _STEP_FROM_256
    return -(-max_num_seqs // step) * step


def capture_bound_args(args: Sequence[str]) -> tuple[str, ...]:
    """``--compilation-config`` with ``max_cudagraph_capture_size`` bounded by the endpoint's ``--max-num-seqs`` in
    ``args``, or () where vLLM's default stands (the module's docstring says when)."""
    seqs = last_value(args, "--max-num-seqs")
    if (
        seqs is None
        or not seqs.isdigit()
        or int(seqs) < 1
        or setting_items(args, "--enforce-eager")
        or setting_items(args, "--compilation-config")
        or setting_items(args, "--speculative-config")
    ):
        return ()
    bound = {"max_cudagraph_capture_size": capture_bound(int(seqs))}
    return ("--compilation-config", json.dumps(bound, separators=(",", ":")))


def headroom_problem(utilization: float, gpu_memory_mib: int) -> str | None:
    """What is wrong with ``utilization`` of a GPU of ``gpu_memory_mib`` with CUDA graphs on: None when the memory
    outside vLLM's share holds at least the measured unaccounted graph pool (:data:`UNACCOUNTED_GRAPH_POOL_GIB`)."""
    outside_gib = (1 - utilization) * gpu_memory_mib / 1024
    if outside_gib >= UNACCOUNTED_GRAPH_POOL_GIB:
        return None
    return (
        f"leaves {outside_gib:.1f} GiB of each GPU outside vLLM's share, less than the "
        f"{UNACCOUNTED_GRAPH_POOL_GIB:.1f} GiB of CUDA graph pool its estimate missed ({MEASURED}): the engine "
        "would run out of GPU memory after capturing its graphs, after the whole load"
    )


def highest_utilization(gpu_memory_mib: int) -> float:
    """The highest ``--gpu-memory-utilization`` (two decimals) that :func:`headroom_problem` accepts."""
    return int((1 - UNACCOUNTED_GRAPH_POOL_GIB * 1024 / gpu_memory_mib) * 100) / 100
