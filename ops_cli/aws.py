"""AWS access: clients with sensible retries, and throttling handled with backoff on top.

Commands receive an :class:`Aws` object; tests build one whose clients are wrapped in botocore Stubbers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import botocore.config
import botocore.configprovider
import botocore.credentials
import botocore.exceptions
import botocore.loaders
import botocore.session

from ops_cli.errors import SDK_ERRORS, THROTTLING_CODES, ExitCode, OpsError, error_code, translate

#: botocore's own retries cover transient network and 5xx errors; the timeouts bound how long an unreachable
#: endpoint can keep a command waiting (3 attempts of at most 10 s to connect). ``total_max_attempts`` counts the first
#: request; botocore's older key ``max_attempts`` in a client Config counts retries only (botocore args.py
#: ``_compute_retry_max_attempts``: max_attempts 3 meant 4 requests). An explicit client Config takes precedence over
#: AWS_MAX_ATTEMPTS and the config file's max_attempts (same function).
CLIENT_ATTEMPTS = 3
CONNECT_TIMEOUT = 10
READ_TIMEOUT = 60


def botocore_session(environ: Mapping[str, str]) -> botocore.session.Session:
    """A botocore session that takes its environment variables from ``environ`` instead of ``os.environ``.

    botocore reads the process environment in two places: the configuration chain (AWS_PROFILE, AWS_CONFIG_FILE,
    AWS_SHARED_CREDENTIALS_FILE, AWS_DEFAULT_REGION, AWS_MAX_ATTEMPTS, ...; built by
    ``botocore.configprovider.ConfigChainFactory``, which accepts an ``environ``) and the credential providers that
    read variables directly (``EnvProvider`` for AWS_ACCESS_KEY_ID..., ``ContainerProvider``; both accept an
    ``environ``). Both are rebuilt here on ``environ``. The instance-metadata provider is dropped when ``environ`` sets
    AWS_EC2_METADATA_DISABLED=true. Not covered: a profile's ``credential_source = Environment`` still reads
    ``os.environ`` (botocore builds that source inside its assume-role provider).
    """
    session = botocore.session.Session()
    chain = botocore.configprovider.ConfigChainFactory(session=session, environ=environ)
    store = session.get_component("config_store")
    for name, (
        config_names,
        env_names,
        default,
        convert,
    ) in botocore.configprovider.BOTOCORE_DEFAUT_SESSION_VARIABLES.items():
        store.set_config_provider(
            name,
            chain.create_config_chain(
                instance_name=name,
                env_var_names=env_names,
                config_property_names=config_names,
                default=default,
                conversion_func=convert,
            ),
        )
    resolver = session.get_component("credential_provider")
    for i, provider in enumerate(resolver.providers):
        if isinstance(provider, botocore.credentials.EnvProvider):
            resolver.providers[i] = botocore.credentials.EnvProvider(environ=environ)
        elif isinstance(provider, botocore.credentials.ContainerProvider):
            resolver.providers[i] = botocore.credentials.ContainerProvider(environ=environ)
    if environ.get("AWS_EC2_METADATA_DISABLED", "false").lower() == "true":
        resolver.providers = [
            p
            for p in resolver.providers
            if not isinstance(p, botocore.credentials.InstanceMetadataProvider)
        ]
    return session


#: One botocore model loader per data path (AWS_DATA_PATH, or the profile's ``data_path``) for the process. Each new
#: Session otherwise makes its own Loader, whose cache is empty, and every client of it parses its service's model
#: again: 0.1-0.2 s of CPU each (EC2's model describes over 700 operations). The Loader only reads botocore's and
#: boto3's data files and keeps what it parsed (botocore loaders.py ``instance_cache``); a Session of botocore's own
#: shares one between its clients alike.
_LOADERS: dict[str | None, botocore.loaders.Loader] = {}


def _with_shared_loader(session: botocore.session.Session) -> botocore.session.Session:
    """``session``, its data loader the process's one for its data path (:data:`_LOADERS`)."""
    data_path = session.get_config_variable("data_path")
    if data_path in _LOADERS:
        session.register_component("data_loader", _LOADERS[data_path])
    else:
        _LOADERS[data_path] = session.get_component("data_loader")
    return session


def _boto3_session(session: botocore.session.Session, region: str):  # noqa: ANN202 (boto3's Session, imported late)
    """boto3's Session on ``session``. boto3 adds its own data folder to the loader's search paths each time
    (boto3 session.py ``_setup_loader``): on a shared loader it is added once, not once per client."""
    import boto3

    paths = list(session.get_component("data_loader").search_paths)
    wrapped = boto3.session.Session(botocore_session=session, region_name=region)
    loader = session.get_component("data_loader")
    added = loader.search_paths[len(paths) :]
    if all(path in paths for path in added):
        del loader.search_paths[len(paths) :]
    return wrapped


THROTTLE_ATTEMPTS = 6
THROTTLE_BASE_DELAY = 1.0
THROTTLE_MAX_DELAY = 30.0

#: The bound of every paginated call (:meth:`Aws.each_page`): the longest lists the CLI reads (Price List products for
#: one SKU filter, offerings for a date range, a plan's extension history) fit in a few pages; a next token that never
#: ends would otherwise hang the command (issue 29).
MAX_PAGES = 100
MAX_PAGING_SECONDS = 300.0


@dataclass
class Aws:
    """boto3 clients for one region, created on first use.

    :param region: the region every client talks to.
    :param client_factory: makes a client for a service name. Default: a boto3 session's ``client``.
    :param sleep: how to wait between throttled attempts (tests pass a recorder).
    :param environ: the environment variables the SDK reads (AWS_PROFILE, AWS_CONFIG_FILE, credentials...).
        Default: ``os.environ``.
    """

    region: str
    client_factory: Callable[[str], Any] | None = None
    sleep: Callable[[float], None] = time.sleep
    #: what measures how long a paginated call has run (tests pass a fake clock)
    clock: Callable[[], float] = time.monotonic
    environ: Mapping[str, str] | None = None
    #: how long to wait for an answer once a request is sent (tests against a stand-in that never answers shorten it)
    read_timeout: float = READ_TIMEOUT
    #: requests per call of the ordinary clients, the first included (the single-send clients always send one)
    attempts: int = CLIENT_ATTEMPTS
    _clients: dict[str, Any] = field(default_factory=dict)

    def client(self, service: str, *, single_send: bool = False) -> Any:
        """The client for ``service``. Creating it reads the AWS configuration files and resolves credentials, so every
        failure of that (a profile that does not exist, a malformed ~/.aws/config...) comes out as an OpsError.

        ``single_send``: a client of its own that sends each request once, with no SDK retry of any kind (for the calls
        that buy something: ops_cli/purchase_outcome.py). A ``client_factory`` (tests' Stubbers) serves both kinds.
        """
        key = f"{service}#single-send" if single_send else service
        if key not in self._clients:
            action = f"set up the AWS client for {service} in {self.region}"
            try:
                self._clients[key] = (
                    self.client_factory(service)
                    if self.client_factory
                    else self._default_client(service, single_send=single_send)
                )
            except OpsError:
                raise
            except botocore.exceptions.BotoCoreError as error:
                raise translate(error, action) from None
            except (
                ValueError,
                TypeError,
                KeyError,
                OSError,
            ) as error:  # e.g. AWS_MAX_ATTEMPTS=abc: int('abc')
                raise OpsError(
                    f"the AWS SDK configuration is invalid, could not {action}: {type(error).__name__}: {error}",
                    "check the AWS_* environment variables and ~/.aws/config (`aws configure list` shows what "
                    "is used)",
                    ExitCode.USAGE,
                ) from None
        return self._clients[key]

    def own_secrets(self) -> tuple[str, ...]:
        """The access key id, secret key and session token this object's clients sign with (from the environment, a
        profile, SSO or a role), for redaction: an AWS error message may quote them (ops_cli/cli.py ``_report``)."""
        values: list[str] = []
        for client in self._clients.values():
            credentials = getattr(getattr(client, "_request_signer", None), "_credentials", None)
            try:
                frozen = credentials.get_frozen_credentials() if credentials else None
            except Exception:  # noqa: BLE001 - a refresh that fails now: those credentials were never sent
                continue
            if frozen is not None:
                values += [frozen.access_key, frozen.secret_key, frozen.token or ""]
        return tuple(v for v in values if v)

    def client_config(self, *, single_send: bool = False) -> botocore.config.Config:
        """The botocore configuration of this object's clients. ``single_send``: total_max_attempts 1, so botocore's
        retry handler sends the request once whatever the error (botocore retries/standard.py and legacy mode both stop
        at the attempt limit); the same time-outs otherwise."""
        attempts = 1 if single_send else self.attempts
        return botocore.config.Config(
            retries={"mode": "standard", "total_max_attempts": attempts},
            connect_timeout=CONNECT_TIMEOUT,
            read_timeout=self.read_timeout,
            user_agent_extra="llmops",
        )

    def _default_client(self, service: str, *, single_send: bool = False) -> Any:
        session = _with_shared_loader(
            botocore_session(self.environ)
            if self.environ is not None
            else botocore.session.Session()
        )
        return _boto3_session(session, self.region).client(
            service, config=self.client_config(single_send=single_send)
        )

    def call(self, service: str, operation: str, action: str, **params: Any) -> dict:
        """Call ``service.operation(**params)``, retrying throttling with exponential backoff and jitter.

        For reads and calls that may safely be repeated only: a call that buys something goes through
        ``ops_cli.purchase_outcome.send_once`` (sent once, no SDK retry, no re-send after throttling).

        Any failure comes out as an :class:`~ops_cli.errors.OpsError` that says it happened while trying to ``action``.
        """
        method = getattr(self.client(service), operation)
        for attempt in range(THROTTLE_ATTEMPTS):
            try:
                return method(**params)
            except botocore.exceptions.ClientError as error:
                if error_code(error) in THROTTLING_CODES and attempt + 1 < THROTTLE_ATTEMPTS:
                    delay = min(THROTTLE_MAX_DELAY, THROTTLE_BASE_DELAY * 2**attempt)
                    self.sleep(delay * (0.5 + random.random() / 2))
                    continue
                raise translate(error, action) from None
            except SDK_ERRORS as error:  # BotoCoreError, or a body botocore cannot parse
                raise translate(error, action) from None
        raise AssertionError("unreachable")

    def each_page(
        self,
        service: str,
        operation: str,
        action: str,
        *,
        token_in: str = "NextToken",
        token_out: str = "NextToken",
        **params: Any,
    ) -> Iterator[dict]:
        """Every page of a paginated call, following ``token_out`` (sent back as ``token_in``), each page with the
        throttling handling of :meth:`call`. Bounded: an answer that keeps giving a next token (a service fault, or a
        stand-in on the way) ends in an :class:`~ops_cli.errors.OpsError` after :data:`MAX_PAGES` pages or
        :data:`MAX_PAGING_SECONDS` seconds, whichever comes first, with exit 21 (an unexpected answer)."""
        started = self.clock()
        token = None
        for count in range(1, MAX_PAGES + 1):
            page = self.call(
                service, operation, action, **params, **({token_in: token} if token else {})
            )
            yield page
            token = page.get(token_out)
            if not token:
                return
            elapsed = self.clock() - started
            if elapsed > MAX_PAGING_SECONDS:
                raise _endless(action, f"{count} pages in {elapsed:.0f} s")
        raise _endless(action, f"{MAX_PAGES} pages")

    def pages(
        self, service: str, operation: str, action: str, items_key: str, **params: Any
    ) -> list[dict]:
        """All items of a paginated call (:meth:`each_page`, so bounded alike)."""
        items: list[dict] = []
        for page in self.each_page(service, operation, action, **params):
            items.extend(page.get(items_key) or [])
        return items


def _endless(action: str, how_many: str) -> OpsError:
    return OpsError(
        f"AWS kept answering with one more page while trying to {action}: {how_many}, and still a next token; "
        "the answer does not end",
        "run the command again in a few minutes; if it keeps happening, the same call with the AWS CLI shows it "
        "(add --debug) and AWS Support can look at it",
        ExitCode.UNEXPECTED_ANSWER,
    )
