"""The endpoint section: how the model endpoint is exposed, authenticated, drained and routed."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field, field_validator

from deployment_config.errors import Problem, quoted
from deployment_config.gpu_nodes import (
    EC2_SHUTDOWN_BEFORE_END_MINUTES,
    EKS_SCALE_IN_BEFORE_END_MINUTES,
)
from deployment_config.promotion_gate import PromotionGateConfig
from deployment_config.sections._fields import (
    _STRICT,
    Cidr,
    _text,
    fail,
)
from deployment_config.sections.promotion_gate import PromotionGateSection, promotion_gate_config


class Exposure(StrEnum):
    """Who can reach the model endpoint."""

    INTERNAL = "internal"
    """Only from inside the VPC (and networks routed to it). The default."""
    PUBLIC = "public"
    """From the internet, restricted to explicit source CIDRs."""


#: An ACM certificate's id: a UUID in lower-case hex. ACM API reference, RenewCertificate: the ARN "must be of the form
#: arn:aws:acm:region:123456789012:certificate/12345678-1234-1234-1234-123456789012"; botocore 1.43.127 acm
#: service-2.json, shape CertificateArn, requires the 'certificate/' resource.
CERTIFICATE_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
#: A DNS host name as ACM takes one (botocore 1.43.127 acm service-2.json, shape DomainNameString: labels of letters,
#: digits and '-', not starting or ending with '-', 1 to 63 each, at most 253 in all), without the wildcard, with at
#: least two labels, no trailing dot, and a last label that is not all digits (RFC 3696 section 2), so not an address.
DOMAIN_NAME_PATTERN = (
    r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
    r"(?=[A-Za-z0-9-]*[A-Za-z-])[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$"
)


def domain_name_problem(name: str) -> Problem | None:
    """Why ``name`` cannot be the DNS name clients use for the endpoint (see :data:`DOMAIN_NAME_PATTERN`), or None."""
    fix = "write the name clients use, such as llm.example.com: letters, digits and '-' between dots, no trailing dot"
    if name.endswith("."):
        return Problem(f"{quoted(name)} ends with a dot", f"remove the trailing dot; {fix}")
    if name.startswith("*."):
        return Problem(
            f"{quoted(name)} is a wildcard, not a name a client connects to",
            "use the one name clients use (the certificate may be a wildcard that covers it)",
        )
    if len(name) > 253:
        return Problem(
            f"{quoted(name[:60] + '...')} has {len(name)} characters; a DNS name has at most 253",
            fix,
        )
    labels = name.split(".")
    if len(labels) < 2:
        return Problem(f"{quoted(name)} is a single label, not a DNS name under a domain", fix)
    for label in labels:
        if not 1 <= len(label) <= 63:
            return Problem(
                f"{quoted(name)} has a label of {len(label)} characters; each is 1 to 63", fix
            )
        if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?", label):
            return Problem(
                f"{quoted(name)}: the label {quoted(label)} may hold only letters, digits and '-', and "
                "neither start nor end with '-'",
                fix,
            )
    if labels[-1].isdigit():
        return Problem(
            f"{quoted(name)} is an IP address, not a DNS name: a certificate and SNI need a name",
            fix,
        )
    return None


#: endpoint.drain_seconds: its default, and its limit: the 10 minutes between EKS scaling a Capacity Block node group to 0
#: and EC2 shutting its instances down (deployment_config/gpu_nodes.py has both, with their source), less a minute for
#: the pod's pre-stop delay and the kubelet: 540.
DEFAULT_DRAIN_SECONDS = 300
MAX_DRAIN_SECONDS = (EKS_SCALE_IN_BEFORE_END_MINUTES - EC2_SHUTDOWN_BEFORE_END_MINUTES - 1) * 60
#: Seconds a terminating vLLM pod keeps serving before it gets SIGTERM (a pre-stop ``sleep``): Kubernetes removes the
#: pod from the Service's endpoints at the same time as it runs the pre-stop hook, and every node's kube-proxy then
#: updates its rules on its own; without the pause, connections still routed to the pod would meet a server that has
#: begun to refuse them (Kubernetes documentation, "Pod Lifecycle", Termination of Pods).
PRE_STOP_SECONDS = 15


# The validated ``endpoint`` section, frozen, is what the stacks and charts read (EnvironmentConfig.endpoint). What they
# need beyond the file's values is derived here (api_key_required, tls, router_policy, gate), never copied into another
# class. (The class's docstring is the schema's description of the section.)
class EndpointSection(BaseModel):
    """How the model endpoint is exposed."""

    model_config = _STRICT

    # Validated and documented as the file's two words (the schema and the messages name them); held as the enum, so
    # that consumers compare ``exposure is Exposure.PUBLIC``.
    exposure: Annotated[Literal["internal", "public"], AfterValidator(Exposure)] = Field(
        default=Exposure.INTERNAL,
        description="'internal' (reachable from the VPC; the default) or 'public' (from "
        "allowed_cidrs only; platform: eks, for HyperPod's operator has no field for it).",
        examples=["internal"],
    )
    authentication: Literal["api-key", "none"] = Field(
        default="api-key",
        description="'api-key' (the default): vLLM requires the key the app generates in AWS Secrets "
        "Manager for this environment; 'none' opts out explicitly.",
        examples=["api-key"],
    )
    allowed_cidrs: list[Cidr] = Field(
        default=[],
        description="Source networks allowed to reach a public endpoint.",
        examples=[["203.0.113.0/24"]],
    )
    certificate_arn: Annotated[str, _text(2048)] | None = Field(
        default=None,
        description="An ACM certificate (same account and region) for domain_name: the load balancer "
        "answers TLS on port 443 with it. Required for exposure: public (platform: eks). Default: none, plain TCP on "
        "port 8000.",
        examples=[
            "arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
        ],
        json_schema_extra={
            "pattern": r"^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate/" + CERTIFICATE_ID + "$"
        },
    )
    domain_name: Annotated[str, _text(253)] | None = Field(
        default=None,
        description="The DNS name clients use, covered by certificate_arn; you create its record (a CNAME "
        "to the serving stack's output LoadBalancerHostname). Required with certificate_arn. Default: none.",
        examples=["llm.example.com"],
        json_schema_extra={"pattern": DOMAIN_NAME_PATTERN},
    )

    replicas: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="vLLM replicas, one per GPU node (a replica uses all GPUs of its node): at most "
        "capacity.instance_count (or hyperpod.instance_count). Default: one on every node of the reservation.",
        examples=[2],
    )
    routing: Literal["auto", "none", "cache_aware", "power_of_two", "round_robin"] = Field(
        default="auto",
        description="How requests are spread over two or more vLLM replicas. 'auto' (the default): by "
        "prefix cache with two replicas or more (platform eks: the vLLM project's router, policy cache_aware; platform "
        "hyperpod: the operator's prefix-aware routing with authentication: none, the load balancer while the key is "
        "required, since the operator's router finds its workers without the key), none with one; 'none': the load "
        "balancer alone; 'cache_aware', 'power_of_two', 'round_robin': that policy of the router (platform: eks; "
        "HyperPod: 'cache_aware' only, with authentication: none). A policy needs two replicas or more.",
        examples=["auto"],
    )
    drain_seconds: int = Field(
        default=DEFAULT_DRAIN_SECONDS,
        ge=0,
        le=MAX_DRAIN_SECONDS,
        description="How long a stopping vLLM pod finishes the requests it is running before it exits (vLLM's "
        f"--shutdown-timeout; new requests are refused meanwhile). At most {MAX_DRAIN_SECONDS}: at a Capacity Block's "
        "end EKS scales the GPU nodes to 0 forty minutes before it and EC2 shuts the instances down thirty minutes "
        f"before it. 0 aborts running requests at once. Default: {DEFAULT_DRAIN_SECONDS}.",
        examples=[DEFAULT_DRAIN_SECONDS],
    )
    deploy_time_smoke_test: bool = Field(
        default=False,
        description="Deploy the stack NAME-smoke: from inside the VPC it waits for the endpoint (up to "
        "the startup budget plus 20 minutes) and runs the smoke test of 'llmops smoke-test --env NAME'; the deployment "
        "fails with the smoke test's problems when it fails. Leave it off while the capacity is not active yet: the "
        "deployment would wait for over two hours and then fail. Default: false.",
        examples=[True],
    )
    promotion_gate: PromotionGateSection | None = Field(
        default=None,
        description="With deploy_time_smoke_test (platform: eks): after the smoke test, the correctness "
        "probe and a load test with thresholds; the deployment fails when they are not met. Results are kept in S3 per "
        "image digest. Default: none.",
    )

    @field_validator("domain_name")
    @classmethod
    def _domain(cls, value: str | None) -> str | None:
        problem = domain_name_problem(value) if value is not None else None
        if problem:
            fail(problem)
        return value

    @property
    def api_key_required(self) -> bool:
        """vLLM requires the environment's API key (from Secrets Manager): ``authentication: api-key``."""
        return self.authentication == "api-key"

    @property
    def tls(self) -> bool:
        """The load balancer terminates TLS for ``domain_name``."""
        return self.certificate_arn is not None

    @property
    def termination_grace_seconds(self) -> int:
        """How long Kubernetes waits between the start of a vLLM pod's termination and SIGKILL: the pre-stop delay,
        vLLM's drain (``--shutdown-timeout``), and half a minute to release the GPUs and exit."""
        return PRE_STOP_SECONDS + self.drain_seconds + 30

    def router_policy(self, replicas: int) -> str | None:
        """The policy of the router in front of ``replicas`` vLLM replicas, or None for no router (one replica, or
        ``routing: none``)."""
        if self.routing == "none" or replicas < 2:
            return None
        return "cache_aware" if self.routing == "auto" else self.routing

    @property
    def gate(self) -> PromotionGateConfig | None:
        """The promotion gate with each run's size computed (``num_prompts`` defaults from the concurrency), or None
        without ``promotion_gate``."""
        return promotion_gate_config(self.promotion_gate) if self.promotion_gate else None
