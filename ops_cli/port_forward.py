"""Session Manager port forwards as child processes: ``aws ssm start-session`` with the
``AWS-StartPortForwardingSessionToRemoteHost`` document, which runs the session-manager-plugin (docs/access.md).

Each forward runs in a process group of its own (the AWS CLI starts the plugin as its child), so that one signal ends
both; the group is killed when the command ends, whichever way. A forward is ready when the plugin has printed
"Waiting for connections...", which it prints once it listens on ``localhost:PORT``
(aws/session-manager-plugin@5a83653:src/sessionmanagerplugin/session/portsession/muxportforwarding.go,
``handleClientConnections``).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field

from endpoint_probe.errors import printable
from ops_cli.errors import ExitCode, OpsError
from ops_cli.tools import command_line

#: The AWS-managed document for forwarding a local port to a host the instance reaches
#: (https://docs.aws.amazon.com/systems-manager/latest/userguide/session-manager-working-with-sessions-start.html).
DOCUMENT = "AWS-StartPortForwardingSessionToRemoteHost"
READY_LINE = "Waiting for connections..."
#: SSM StartSession's error when the instance's SSM Agent is not connected (SSM API reference, StartSession, Errors).
NOT_CONNECTED = "TargetNotConnected"


@dataclass
class Forward:
    """One local port forwarded through the access host to ``host:port``."""

    what: str  # "the Kubernetes API", "the endpoint"
    host: str
    port: int
    local_port: int
    process: subprocess.Popen | None = None
    lines: queue.Queue = field(default_factory=queue.Queue)
    errors: list[str] = field(default_factory=list)
    readers: list[threading.Thread] = field(default_factory=list)

    def argv(self, aws: str, region: str, instance_id: str) -> list[str]:
        parameters = {
            "host": [self.host],
            "portNumber": [str(self.port)],
            "localPortNumber": [str(self.local_port)],
        }
        return [
            aws,
            "ssm",
            "start-session",
            "--region",
            region,
            "--target",
            instance_id,
            "--document-name",
            DOCUMENT,
            "--parameters",
            json.dumps(parameters, separators=(",", ":")),
        ]


def check_port_free(port: int, option: str) -> None:
    """Refuse a local port something already listens on, before any session starts."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise OpsError(
                f"{option} {port}: a program on this machine already uses local port {port} (another llmops "
                "connect, or a forward started by hand?)",
                f"stop that program, or pass {option} with a free port",
                ExitCode.USAGE,
            ) from None


def _read(stream, into: queue.Queue | list) -> None:  # noqa: ANN001 (a text stream)
    for line in stream:
        (into.put if isinstance(into, queue.Queue) else into.append)(line.rstrip("\n"))
    if isinstance(into, queue.Queue):
        into.put(None)  # the end of the output: the process is ending


def _interrupt(_signal: int, _frame: object) -> None:
    raise KeyboardInterrupt


class Forwards:
    """The forwards of one ``llmops connect``: started, awaited until ready, held, and always stopped."""

    def __init__(
        self, forwards: list[Forward], *, aws: str, region: str, instance_id: str, environ: Mapping
    ) -> None:
        self.forwards = forwards
        self.aws, self.region, self.instance_id = aws, region, instance_id
        self.environ = dict(environ)

    def __enter__(self) -> Forwards:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def start(self, forward: Forward, ready_timeout: float, note) -> None:  # noqa: ANN001 (ctx.note)
        argv = forward.argv(self.aws, self.region, self.instance_id)
        note(
            f"forwarding {forward.what}: localhost:{forward.local_port} -> {forward.host}:{forward.port} ..."
        )
        try:
            forward.process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                encoding="utf-8",
                errors="replace",
                env=self.environ,
                process_group=0,
            )
        except (FileNotFoundError, PermissionError, NotADirectoryError):
            raise OpsError(
                f"--aws {printable(self.aws, 200)} cannot be run (not found, or not executable)",
                "install the AWS CLI v2 and the Session Manager plugin (docs/access.md, Prerequisites), or pass "
                "--aws PATH",
                ExitCode.USAGE,
            ) from None
        forward.readers = [
            threading.Thread(
                target=_read, args=(forward.process.stdout, forward.lines), daemon=True
            ),
            threading.Thread(
                target=_read, args=(forward.process.stderr, forward.errors), daemon=True
            ),
        ]
        for reader in forward.readers:
            reader.start()
        end = time.monotonic() + ready_timeout
        while True:
            try:
                line = forward.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise OpsError(
                    f"the forward of {forward.what} was not ready within {ready_timeout:g} s (no "
                    f"{READY_LINE!r} from the Session Manager plugin)",
                    f"run it by hand to see where it stops: {command_line(argv)}; raise --ready-timeout if it is "
                    "just slow",
                    ExitCode.TIMEOUT,
                ) from None
            if line is None:
                raise self.ended(forward, argv)
            if READY_LINE in line:
                note(f"forwarding {forward.what}: ready")
                return

    def ended(self, forward: Forward, argv: list[str] | None = None) -> OpsError:
        """The error for a forward whose process has ended: SSM's TargetNotConnected in words, else its last line."""
        with suppress(subprocess.TimeoutExpired):
            forward.process.wait(timeout=5)
        for reader in forward.readers:  # what the process wrote last
            reader.join(timeout=5)
        text = "\n".join(forward.errors).strip()
        by_hand = command_line(argv or forward.argv(self.aws, self.region, self.instance_id))
        if NOT_CONNECTED in text:
            return OpsError(
                f"Session Manager cannot reach the access host {self.instance_id} (TargetNotConnected): its SSM "
                "Agent is not connected (the host is stopped, still booting, or has no route to the SSM endpoints)",
                f"check it is running and Online: aws ssm describe-instance-information --region {self.region} "
                f"--filters Key=InstanceIds,Values={self.instance_id}; a new host takes a few minutes after its "
                "deploy (docs/troubleshooting.md)",
                ExitCode.AWS_ERROR,
            )
        last = text.splitlines()[-1] if text else f"exit status {forward.process.returncode}"
        return OpsError(
            f"the forward of {forward.what} ended: {printable(last, 300)}",
            f"run it by hand to see why: {by_hand}",
            ExitCode.AWS_ERROR,
        )

    def hold(self, sleep) -> None:  # noqa: ANN001 (the runtime's sleep)
        """Until Ctrl-C (KeyboardInterrupt, raised to the caller) or a forward's end (an OpsError). SIGTERM and SIGHUP
        (the terminal closed) end it as Ctrl-C does: the forwards run in process groups of their own, which no signal
        to this one reaches, so they are stopped here rather than left running."""
        previous = {}
        if threading.current_thread() is threading.main_thread():
            previous = {
                sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)
            }
        try:
            while True:
                for forward in self.forwards:
                    if forward.process is not None and forward.process.poll() is not None:
                        raise self.ended(forward)
                sleep(1)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL, to every forward's process group; then reap them."""
        running = [f.process for f in self.forwards if f.process is not None]
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for (
                process
            ) in running:  # the group, even if the AWS CLI has ended: the plugin may not have
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, sig)
            for process in running:
                with suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=3 if sig is signal.SIGTERM else 5)
