"""AWS access: clients with sensible retries, and throttling handled with backoff on top.

Commands receive an :class:`Aws` object; tests build one whose clients are wrapped in botocore Stubbers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import botocore.config
import botocore.exceptions

from ops_cli.errors import THROTTLING_CODES, error_code, translate

#: botocore's own retries cover transient network and 5xx errors.
_CLIENT_CONFIG = botocore.config.Config(retries={"mode": "standard", "max_attempts": 3},
                                        user_agent_extra="llmops")
THROTTLE_ATTEMPTS = 6
THROTTLE_BASE_DELAY = 1.0
THROTTLE_MAX_DELAY = 30.0


@dataclass
class Aws:
    """boto3 clients for one region, created on first use.

    :param region: the region every client talks to.
    :param client_factory: makes a client for a service name. Default: a boto3 session's ``client``.
    :param sleep: how to wait between throttled attempts (tests pass a recorder).
    """

    region: str
    client_factory: Callable[[str], Any] | None = None
    sleep: Callable[[float], None] = time.sleep
    _clients: dict[str, Any] = field(default_factory=dict)

    def client(self, service: str) -> Any:
        if service not in self._clients:
            if self.client_factory is not None:
                self._clients[service] = self.client_factory(service)
            else:
                import boto3

                self._clients[service] = boto3.session.Session(region_name=self.region).client(service, config=_CLIENT_CONFIG)
        return self._clients[service]

    def call(self, service: str, operation: str, action: str, **params: Any) -> dict:
        """Call ``service.operation(**params)``, retrying throttling with exponential backoff and jitter.

        Any failure comes out as an :class:`~ops_cli.errors.OpsError` that says it happened while trying to ``action``.
        """
        method = getattr(self.client(service), operation)
        for attempt in range(THROTTLE_ATTEMPTS):
            try:
                return method(**params)
            except botocore.exceptions.ClientError as error:
                if error_code(error) in THROTTLING_CODES and attempt + 1 < THROTTLE_ATTEMPTS:
                    delay = min(THROTTLE_MAX_DELAY, THROTTLE_BASE_DELAY * 2 ** attempt)
                    self.sleep(delay * (0.5 + random.random() / 2))
                    continue
                raise translate(error, action) from None
            except botocore.exceptions.BotoCoreError as error:
                raise translate(error, action) from None
        raise AssertionError("unreachable")

    def pages(self, service: str, operation: str, action: str, items_key: str, **params: Any) -> list[dict]:
        """All items of a paginated call, following NextToken, each page with the same throttling handling."""
        items: list[dict] = []
        token = None
        while True:
            page = self.call(service, operation, action, **params, **({"NextToken": token} if token else {}))
            items.extend(page.get(items_key, []))
            token = page.get("NextToken")
            if not token:
                return items
