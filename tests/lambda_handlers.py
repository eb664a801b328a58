"""The project's Lambda handlers under test, imported as the project's own modules, with their AWS clients stubbed."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType

import boto3
import botocore.session
from botocore.stub import Stubber

#: One boto3 session for every stubbed client of a test process: the botocore session caches the service models (slow
#: to load, EC2's especially), and boto3 adds S3's methods to the client class once per botocore session
#: (boto3/s3/inject.py refuses a second time: "Cannot inject class attribute").
BOTO3_SESSION = boto3.session.Session(botocore_session=botocore.session.get_session())


@functools.cache
def _client(service: str, region: str):  # noqa: ANN202 (a botocore client of a generated class)
    """One client per service and region for the test process: creating one builds a method per operation of the model
    (EC2 has over 700), which cost the suite seconds when every test made its own. Each test gets its own Stubber on it
    (``new_stubber``); the code under test registers no event handlers of its own on the clients."""
    return BOTO3_SESSION.client(
        service, region_name=region, aws_access_key_id="testing", aws_secret_access_key="testing"
    )


def new_stubber(service: str, *, region: str) -> Stubber:
    """An active Stubber, checked against the real API model, on the process's client for ``service`` in ``region``.

    Deactivate it when the test ends (``Stubber.deactivate``): the next test's Stubber on the same client must be the
    only one answering."""
    stubber = Stubber(_client(service, region))
    stubber.activate()
    return stubber


@contextmanager
def stubbed_clients(services: Iterable[str], *, region: str) -> Iterator[dict[str, Stubber]]:
    """An active Stubber per service, checked against the real API models; every queued response must be used."""
    stubbers = {service: new_stubber(service, region=region) for service in services}
    try:
        yield stubbers
        for stubber in stubbers.values():
            stubber.assert_no_pending_responses()
    finally:
        for stubber in stubbers.values():
            stubber.deactivate()


@contextmanager
def handler_with_stubbed_clients(
    handler: ModuleType, monkeypatch, services: Iterable[str], *, region: str
) -> Iterator[dict[str, Stubber]]:
    """:func:`stubbed_clients`, with ``handler.client(service)`` (the project's handlers' one way to a boto3 client)
    answering with their clients for the test."""
    with stubbed_clients(services, region=region) as stubbers:
        monkeypatch.setattr(handler, "client", lambda service: stubbers[service].client)
        yield stubbers
