"""The ways bench/weight_load.py moves a checkpoint's bytes: raw sequential reads (the storage's limit), each loader
vLLM offers for safetensors (into a torch device), the pinned host-to-device copy (the ceiling of them all), and
dropping the page cache before a disk pass.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

GB = 1e9
READ_CHUNK = 16 << 20


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
