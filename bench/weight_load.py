#!/usr/bin/env python3
"""How fast do safetensors shards reach GPU memory, per loader, from a disk and from memory?

    python3 bench/weight_load.py [--dir DIR] [--size-gb 24] [--shard-gb 4] [--threads 16] [--json FILE]
    python3 bench/weight_load.py --device cpu --size-gb 0.05 --shard-gb 0.01 --no-drop-cache --skip-memory  # a check

Writes a synthetic checkpoint shaped like an MXFP4 MoE model's shards to DIR, then for each pass drops the page cache
and reads every shard: raw sequential reads (the storage's limit), then each loader vLLM offers for such a checkpoint
(safetensors' safe_open, fastsafetensors, the Run:ai model streamer), each once with one reader and once with
``--threads`` readers. Then the same from a memory-backed filesystem (/dev/shm or a tmpfs it mounts), which shows each
loader's own ceiling. Prints a table of GB/s (1 GB = 1e9 bytes) and, with --json, writes every figure to FILE after each
pass, so a run stopped at its time limit keeps what it measured. CI does not run this (no GPU there).

The shape (a shape assumption, not the real model's index): per layer, per expert, three MXFP4 weight matrices stored
the way Hugging Face MXFP4 checkpoints store them, as packed uint8 ``*_blocks`` (two 4-bit values a byte) and uint8
``*_scales`` (one E8M0 exponent per 32-element block: OCP Microscaling Formats (MX) v1.0, section 5, "scale: E8M0, block
size 32"), plus bf16 attention matrices. Dimensions are those of a DeepSeek-V3-style MoE (hidden 7168, expert width
2048); the shard size is a parameter. The data is random: zeros could be faster than real data.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

HIDDEN = 7168
EXPERT_WIDTH = 2048
MX_BLOCK = 32  # elements per E8M0 scale (OCP MX v1.0)
GB = 1e9
READ_CHUNK = 16 << 20


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


def drop_page_cache() -> str:
    """Empty the page cache so that the next read comes from the disk; say whether it worked."""
    os.sync()
    try:
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return "dropped"
    except OSError as e:
        return f"not dropped ({e.strerror}): figures may include cached reads"


def raw_read(paths: list[Path], threads: int) -> int:
    """Sequential reads of whole files into a reused buffer, ``threads`` files at a time: the storage's limit."""

    def one(path: Path) -> int:
        buf = bytearray(READ_CHUNK)
        view = memoryview(buf)
        total = 0
        with open(path, "rb", buffering=0) as f:
            while n := f.readinto(view):
                total += n
        return total

    with ThreadPoolExecutor(threads) as pool:
        return sum(pool.map(one, paths))


class Loaders:
    """Each loader reads every tensor of the files into ``device`` and returns the bytes it placed there."""

    def __init__(self, device: str) -> None:
        import torch

        self.torch = torch
        self.device = device

    def sync(self) -> None:
        if self.device.startswith("cuda"):
            self.torch.cuda.synchronize()

    def safetensors(self, paths: list[Path], threads: int) -> int:
        # vLLM's default loader: safe_open on the CPU, then a copy into the GPU (safetensors_weights_iterator; with
        # --model-loader-extra-config '{"enable_multithread_load": true}' several files at once).
        from safetensors import safe_open

        def one(path: Path) -> int:
            kept = []
            with safe_open(str(path), framework="pt", device="cpu") as f:
                for name in f.keys():
                    kept.append(f.get_tensor(name).to(self.device))
            self.sync()
            return sum(t.numel() * t.element_size() for t in kept)

        with ThreadPoolExecutor(threads) as pool:
            return sum(pool.map(one, paths))

    def fastsafetensors(self, paths: list[Path], threads: int) -> int:
        # One file per batch with one reader thread (vLLM's fastsafetensors_weights_iterator on one GPU); with threads
        # > 1, all files in one batch and that many copy threads. nogds: no GPUDirect Storage in this VM.
        from fastsafetensors import SafeTensorsFileLoader, SingleGroup

        batches = [[p] for p in paths] if threads == 1 else [paths]
        total = 0
        for batch in batches:
            # fastsafetensors wants an indexed device ("cuda:0"), not "cuda"
            device = "cuda:0" if self.device == "cuda" else self.device
            loader = SafeTensorsFileLoader(
                SingleGroup(), device=device, nogds=True, max_threads=threads
            )
            loader.add_filenames({0: [str(p) for p in batch]})
            buffer = loader.copy_files_to_device()
            kept = [buffer.get_tensor(name) for name in loader.get_keys()]
            self.sync()
            total += sum(t.numel() * t.element_size() for t in kept)
            buffer.close()
            loader.close()
        return total

    def runai_streamer(self, paths: list[Path], threads: int) -> int:
        # vLLM's runai_streamer load format streams the files to the CPU and copies each tensor to the GPU;
        # RUNAI_STREAMER_CONCURRENCY sets its reader threads (vLLM's model_loader_extra_config "concurrency").
        os.environ["RUNAI_STREAMER_CONCURRENCY"] = str(threads)
        from runai_model_streamer import SafetensorsStreamer

        total = 0
        kept = []
        with SafetensorsStreamer() as streamer:
            streamer.stream_files([str(p) for p in paths], device="cpu")
            for _, tensor in streamer.get_tensors():
                kept.append(tensor.to(self.device))
                total += tensor.numel() * tensor.element_size()
        self.sync()
        return total

    def release(self) -> None:
        if self.device.startswith("cuda"):
            self.torch.cuda.empty_cache()


def pinned_copy_ceiling(loaders: Loaders, gigabytes: float = 2.0) -> float:
    """Host-to-GPU copy rate from pinned memory: no loader can place bytes faster than this."""
    torch = loaders.torch
    src = torch.empty(int(gigabytes * GB), dtype=torch.uint8).pin_memory()
    dst = torch.empty_like(src, device=loaders.device)
    dst.copy_(src, non_blocking=True)
    loaders.sync()
    start = time.perf_counter()
    for _ in range(3):
        dst.copy_(src, non_blocking=True)
    loaders.sync()
    return 3 * src.numel() / (time.perf_counter() - start) / GB


@dataclass
class Result:
    storage: str
    method: str
    readers: int
    gigabytes: float
    seconds: float | None
    gb_per_s: float | None
    note: str


def memory_dir(need_bytes: int) -> tuple[Path | None, str]:
    """A memory-backed directory with room for the checkpoint: /dev/shm, else a tmpfs mounted for this run."""
    shm = Path("/dev/shm")
    if shm.is_dir() and shutil.disk_usage(shm).free > need_bytes * 1.05:
        return shm / "weight_load", "/dev/shm"
    target = Path("/tmp/weight_load_tmpfs")
    target.mkdir(exist_ok=True)
    size = f"{int(need_bytes * 1.1 / GB) + 1}g"
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(target)], capture_output=True
    )
    if done.returncode:
        return (
            None,
            f"no memory-backed filesystem: /dev/shm too small, mount failed ({done.stderr.decode().strip()})",
        )
    return target / "weight_load", f"tmpfs mounted at {target} (size {size})"


def run(args: argparse.Namespace) -> dict:
    results: list[Result] = []
    report: dict = {
        "machine": machine(args.dir.parent),
        "arguments": {k: str(v) for k, v in vars(args).items()},
        "results": results,
    }

    def save() -> None:
        if args.json:
            Path(args.json).write_text(
                json.dumps({**report, "results": [asdict(r) for r in results]}, indent=2)
            )

    size, shard = int(args.size_gb * GB), int(args.shard_gb * GB)
    start = time.perf_counter()
    paths = write_checkpoint(args.dir, size, shard)
    total = sum(p.stat().st_size for p in paths)
    report["checkpoint"] = {
        "files": len(paths),
        "bytes": total,
        "write_seconds": round(time.perf_counter() - start, 1),
        "tensors_per_file": len(shard_layout(shard, 0)),
    }
    try:
        loaders: Loaders | None = Loaders(args.device)
        report["pinned_host_to_device_gb_per_s"] = (
            round(pinned_copy_ceiling(loaders), 2) if args.device.startswith("cuda") else None
        )
    except ImportError as e:
        loaders = None
        report["no_torch"] = str(e)
    methods: list[tuple[str, Callable[[list[Path], int], int] | None]] = [("raw read", raw_read)]
    for name in ("safetensors", "fastsafetensors", "runai_streamer"):
        methods.append((name, getattr(loaders, name) if loaders else None))

    def measure(
        storage: str,
        method: str,
        fn: Callable[[list[Path], int], int] | None,
        files: list[Path],
        readers: int,
        drop: bool,
    ) -> Result:
        note = (
            (drop_page_cache() if args.drop_cache else "page cache not dropped (--no-drop-cache)")
            if drop
            else "memory-backed: no page cache to drop"
        )
        data = sum(p.stat().st_size for p in files)
        if fn is None:
            result = Result(
                storage, method, readers, round(data / GB, 2), None, None, "torch not installed"
            )
        else:
            try:
                begin = time.perf_counter()
                moved = fn(files, readers)
                seconds = time.perf_counter() - begin
                if not data * 0.99 < moved <= data:
                    note += f"; moved {moved} bytes of {data}"
                result = Result(
                    storage,
                    method,
                    readers,
                    round(moved / GB, 2),
                    round(seconds, 2),
                    round(moved / seconds / GB, 2),
                    note,
                )
            except Exception as e:  # noqa: BLE001 - one loader's failure must not end the others' passes
                result = Result(
                    storage,
                    method,
                    readers,
                    round(data / GB, 2),
                    None,
                    None,
                    f"failed: {type(e).__name__}: {str(e)[:300]}",
                )
        if loaders:
            loaders.release()
        results.append(result)
        save()
        print(row(result), flush=True)
        return result

    def passes(storage: str, files: list[Path], drop: bool) -> None:
        for method, fn in methods:
            for readers in (1, args.threads):
                first = measure(storage, method, fn, files, readers, drop)
                if drop and method == "raw read" and readers == 1 and first.gb_per_s:
                    # A slow disk would take the whole time limit: later passes read as many files as fit in
                    # --pass-seconds at the raw rate (at least two, so that parallel readers have several files).
                    fit = int(
                        args.pass_seconds
                        * first.gb_per_s
                        * GB
                        // max(p.stat().st_size for p in files)
                    )
                    files = files[: max(2, fit)]

    passes(f"disk ({args.dir})", paths, drop=True)
    if not args.skip_memory:
        ram, how = memory_dir(total)
        report["memory_filesystem"] = how
        if ram is not None:
            ram.mkdir(parents=True, exist_ok=True)
            copies = [Path(shutil.copy(p, ram / p.name)) for p in paths]
            try:
                passes(how, copies, drop=False)
            finally:
                shutil.rmtree(ram, ignore_errors=True)
    save()
    return {**report, "results": [asdict(r) for r in results]}


def machine(where: Path) -> dict:
    def out(cmd: list[str]) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return "unavailable"

    return {
        "gpu": out(
            ["nvidia-smi", "--query-gpu=name,memory.total,driver_version", "--format=csv,noheader"]
        ),
        "cpu_cores": os.cpu_count(),
        "kernel": os.uname().release,
        "disk": out(["df", "-h", "--output=source,fstype,size,avail,target", str(where)]),
        "block_devices": out(["lsblk", "-d", "-o", "NAME,SIZE,ROTA,MODEL"]),
    }


def row(r: Result) -> str:
    rate = "-" if r.gb_per_s is None else f"{r.gb_per_s:.2f}"
    secs = "-" if r.seconds is None else f"{r.seconds:.1f}"
    return f"{r.storage[:28]:<28}  {r.method:<16} {r.readers:>3}  {r.gigabytes:>7.2f} GB  {secs:>7} s  {rate:>7} GB/s  {r.note}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dir", type=Path, default=Path("/tmp/weight_load"), help="where the checkpoint is written"
    )
    parser.add_argument(
        "--size-gb", type=float, default=24.0, help="checkpoint size in GB (default 24)"
    )
    parser.add_argument("--shard-gb", type=float, default=4.0, help="shard size in GB (default 4)")
    parser.add_argument(
        "--threads", type=int, default=16, help="readers of the parallel passes (default 16)"
    )
    parser.add_argument(
        "--device", default="cuda", help="torch device to load into (default cuda; cpu for a check)"
    )
    parser.add_argument(
        "--no-drop-cache",
        dest="drop_cache",
        action="store_false",
        help="do not drop the page cache before each disk pass (needs root; for a quick check)",
    )
    parser.add_argument(
        "--skip-memory", action="store_true", help="no pass from a memory-backed filesystem"
    )
    parser.add_argument(
        "--pass-seconds",
        type=float,
        default=40.0,
        help="disk passes read only the files that the raw rate reads in this time (default 40)",
    )
    parser.add_argument("--json", help="write every figure to this file as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the checkpoint afterwards")
    args = parser.parse_args(argv)
    if args.size_gb <= 0 or args.shard_gb <= 0 or args.threads < 1:
        parser.error("--size-gb and --shard-gb must be above 0 and --threads at least 1")
    try:
        report = run(args)
    finally:
        if not args.keep:
            shutil.rmtree(args.dir, ignore_errors=True)
    print(
        f"\n{json.dumps(report['machine'])}\ncheckpoint: {json.dumps(report['checkpoint'])}; pinned host-to-device: "
        f"{report.get('pinned_host_to_device_gb_per_s')} GB/s"
    )
    for r in report["results"]:
        print(row(Result(**r)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
