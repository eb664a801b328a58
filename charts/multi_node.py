"""What a model instance spread over several nodes (a LeaderWorkerSet group, charts/vllm_leader_worker_set.py) adds to
a single-node server: vLLM's multi-node arguments on the leader and the workers (the EFA environment is
deployment_config/gpu_nodes.py's, which ``llmops preflight``'s EFA check shares)."""

from __future__ import annotations


def _multi_node_args(nodes: int, rank: str) -> tuple[str, ...]:
    """vLLM 0.33.0's options for one node of a multi-node instance (vllm/engine/arg_utils.py EngineArgs.add_cli_args:
    ``--nnodes``/``-n``, ``--node-rank``/``-r``, ``--master-addr``)."""
    return ("--nnodes", str(nodes), "--node-rank", rank, "--master-addr", "$(LWS_LEADER_ADDRESS)")


def leader_args(args: tuple[str, ...], nodes: int) -> tuple[str, ...]:
    """The leader's arguments (node rank 0): the API server and the first pipeline stage. vLLM 0.33.0 runs a model
    over several nodes with its multiprocessing backend when ``--nnodes`` > 1 (vllm/config/parallel.py
    ParallelConfig.__post_init__: "current_platform.is_cuda() and self.nnodes > 1" selects ``mp``); every node
    names the node of rank 0 as ``--master-addr``, where torch.distributed's store listens on ``--master-port``
    (default 29501). ``$(LWS_LEADER_ADDRESS)`` is expanded by the kubelet from the variable the LWS controller
    adds to every container (kubernetes-sigs/lws v0.10.0 api/leaderworkerset/v1/leaderworkerset_types.go)."""
    return (*args, *_multi_node_args(nodes, "0"))


def worker_args(args: tuple[str, ...], nodes: int) -> tuple[str, ...]:
    """A worker's arguments: the same engine arguments (every node builds the same engine configuration), its
    rank from ``LWS_WORKER_INDEX`` (1 to nodes - 1 in a group, same source), and ``--headless``: no API server;
    with a node rank above 0 vLLM 0.33.0 runs only the multiproc executor of its GPUs and joins the leader's
    process group (vllm/entrypoints/cli/serve.py ``run_headless``: "Run headless workers (for multi-node PP/TP)")."""
    return (*args, *_multi_node_args(nodes, "$(LWS_WORKER_INDEX)"), "--headless")
