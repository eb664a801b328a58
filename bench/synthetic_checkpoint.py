"""The synthetic checkpoint that bench/weight_load.py reads: safetensors shards shaped like an MXFP4 MoE model's.

The shape (a shape assumption, not the real model's index): per layer, per expert, three MXFP4 weight matrices stored
the way Hugging Face MXFP4 checkpoints store them, as packed uint8 ``*_blocks`` (two 4-bit values a byte) and uint8
``*_scales`` (one E8M0 exponent per 32-element block: OCP Microscaling Formats (MX) v1.0, section 5, "scale: E8M0, block
size 32"), plus bf16 attention matrices. Dimensions are those of a DeepSeek-V3-style MoE (hidden 7168, expert width
2048); the shard size is a parameter. The data is random: zeros could be faster than real data.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HIDDEN = 7168
EXPERT_WIDTH = 2048
MX_BLOCK = 32  # elements per E8M0 scale (OCP MX v1.0)


@dataclass(frozen=True)
class Tensor:
    name: str
    dtype: str  # safetensors dtype code: U8 or BF16
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n * (2 if self.dtype == "BF16" else 1)


def layer_tensors(layer: int) -> Iterator[Tensor]:
    """One MoE layer in the order a checkpoint lists it: attention in bf16, then each expert's MXFP4 blocks and scales,
    endlessly many experts (the writer stops when the shard is full)."""
    for proj in ("q_proj", "o_proj"):
        yield Tensor(f"model.layers.{layer}.self_attn.{proj}.weight", "BF16", (HIDDEN, HIDDEN // 4))
    expert = 0
    while True:
        for proj, rows, cols in (
            ("gate_proj", EXPERT_WIDTH, HIDDEN),
            ("up_proj", EXPERT_WIDTH, HIDDEN),
            ("down_proj", HIDDEN, EXPERT_WIDTH),
        ):
            prefix = f"model.layers.{layer}.mlp.experts.{expert}.{proj}"
            yield Tensor(f"{prefix}.weight_blocks", "U8", (rows, cols // MX_BLOCK, MX_BLOCK // 2))
            yield Tensor(f"{prefix}.weight_scales", "U8", (rows, cols // MX_BLOCK))
        expert += 1


def shard_layout(shard_bytes: int, shard: int) -> list[Tensor]:
    """The tensors of one shard: one layer's tensors until the next would pass ``shard_bytes`` (at least one)."""
    out: list[Tensor] = []
    total = 0
    for t in layer_tensors(shard):
        if out and total + t.nbytes > shard_bytes:
            return out
        out.append(t)
        total += t.nbytes
    return out  # pragma: no cover - layer_tensors never ends


def write_shard(path: Path, tensors: list[Tensor], pattern: bytes) -> int:
    """Write a safetensors file (8-byte little-endian header length, JSON header, data) filled from ``pattern``."""
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for t in tensors:
        header[t.name] = {
            "dtype": t.dtype,
            "shape": list(t.shape),
            "data_offsets": [offset, offset + t.nbytes],
        }
        offset += t.nbytes
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)  # the data starts 8-byte aligned, as safetensors writes it
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)) + raw)
        left = offset
        while left:
            n = min(left, len(pattern))
            f.write(pattern[:n])
            left -= n
        f.flush()
        os.fsync(f.fileno())
    return path.stat().st_size


def write_checkpoint(directory: Path, size_bytes: int, shard_bytes: int) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    count = max(1, round(size_bytes / shard_bytes))
    pattern = os.urandom(min(shard_bytes, 64 << 20))
    paths = []
    for i in range(count):
        path = directory / f"model-{i + 1:05d}-of-{count:05d}.safetensors"
        write_shard(path, shard_layout(shard_bytes, i), pattern)
        paths.append(path)
    return paths
