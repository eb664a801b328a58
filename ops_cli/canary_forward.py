"""``kubectl port-forward`` to the canary pod's API port, as a child process for as long as the probe needs it.

``kubectl port-forward pod/NAME :PORT`` picks a free local port and prints ``Forwarding from 127.0.0.1:LOCAL -> PORT``
once it listens (kubernetes/client-go tools/portforward/portforward.go, ``listenOnPortAndAddress``: "Forwarding from
%s -> %d"); the base URL is then ``http://127.0.0.1:LOCAL``.
"""

from __future__ import annotations

import re
import subprocess
import threading

from deployment_config.kubernetes_names import SERVING_NAMESPACE
from ops_cli.errors import ExitCode, OpsError

FORWARDING = re.compile(r"Forwarding from 127\.0\.0\.1:(\d+) -> \d+")


class PodForward:
    def __init__(self, kubectl: str, port: int, ready_seconds: float = 30) -> None:
        self.kubectl, self.port, self.ready_seconds = kubectl, port, ready_seconds
        self.process: subprocess.Popen | None = None

    def start(self, pod: str) -> str:
        """The local base URL of ``pod``'s ``port``; exit 1 when kubectl ends or says nothing in time."""
        self.stop()
        argv = [
            self.kubectl,
            "port-forward",
            f"pod/{pod}",
            f":{self.port}",
            "-n",
            SERVING_NAMESPACE,
        ]
        self.process = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        found: list[str] = []
        seen: list[str] = []

        def read() -> None:
            for line in self.process.stdout:
                seen.append(line.strip())
                match = FORWARDING.search(line)
                if match and not found:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        ready = threading.Event()
        threading.Thread(target=read, daemon=True).start()
        ready.wait(self.ready_seconds)
        if not found:
            self.stop()
            raise OpsError(
                f"kubectl port-forward to pod {pod} did not listen within {self.ready_seconds:g} s"
                + (f" ({seen[-1]})" if seen else ""),
                f"check kubectl's access to pods/portforward in {SERVING_NAMESPACE}, then run llmops rollout --canary again",
                ExitCode.CHECK_FAILED,
            )
        return f"http://127.0.0.1:{found[0]}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None
