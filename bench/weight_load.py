#!/usr/bin/env python3
"""How fast do safetensors shards reach GPU memory, per loader, from a disk and from memory?

    python3 bench/weight_load.py [--dir DIR] [--size-gb 24] [--shard-gb 4] [--threads 16] [--json FILE]
    python3 bench/weight_load.py --device cpu --size-gb 0.05 --shard-gb 0.01 --no-drop-cache --skip-memory  # a check
    python3 bench/weight_load.py --dir /NVME/weight_load --instance-type p6-b300.48xlarge --json load.json  # on a node

Writes a synthetic checkpoint shaped like an MXFP4 MoE model's shards to DIR, then for each pass drops the page cache
and reads every shard: raw sequential reads (the storage's limit), then each loader vLLM offers for such a checkpoint
(safetensors' safe_open, fastsafetensors, the Run:ai model streamer), each once with one reader and once with
``--threads`` readers. Then the same from a memory-backed filesystem (/dev/shm or a tmpfs it mounts), which shows each
loader's own ceiling. Prints a table of GB/s (1 GB = 1e9 bytes) and, with --json, writes every figure to FILE after each
pass, so a run stopped at its time limit keeps what it measured. CI does not run this (no GPU there).

The checkpoint's shape is bench/synthetic_checkpoint.py's; the readers and loaders are bench/weight_loaders.py's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

# Its sibling modules: on sys.path already when run as a script, not when the tests load this file by its path.
BENCH_DIR = str(Path(__file__).resolve().parent)
if BENCH_DIR not in sys.path:
    sys.path.insert(0, BENCH_DIR)

from synthetic_checkpoint import shard_layout, write_checkpoint  # noqa: E402
from weight_loaders import (  # noqa: E402
    GB,
    Loaders,
    drop_page_cache,
    pinned_copy_ceiling,
    raw_read,
)


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
        # what bench/timeline.py --measured needs to use the report (bench/measured_phases.py): where and when
        "instance_type": args.instance_type,
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
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
    parser.add_argument(
        "--instance-type",
        help="the EC2 instance type of this machine, recorded in the JSON (bench/timeline.py --measured uses a "
        "report only for an environment of the same type)",
    )
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
