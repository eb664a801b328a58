"""What ``llmops connect`` forwards, found from AWS: the access host (``NAME-access``'s ``InstanceId`` output), the
cluster's private API endpoint (EKS DescribeCluster, which ``aws eks update-kubeconfig`` reads too) and the endpoint's
load balancer (``NAME-serving``'s outputs on EKS; on HyperPod the ALB the operator made, by its tag)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from deployment_config import EnvironmentConfig
from deployment_config.model import Platform
from ops_cli.aws import Aws
from ops_cli.errors import ExitCode, OpsError, unexpected_answer


@dataclass(frozen=True)
class Cluster:
    name: str
    arn: str
    host: str  # the API endpoint's host name, which its certificate names
    certificate_authority: str  # base64, as DescribeCluster gives it


@dataclass(frozen=True)
class Endpoint:
    host: str
    port: int
    scheme: str  # "http" or "https"


def _not_found(error: OpsError) -> bool:
    """CloudFormation's answer for a stack that does not exist: ValidationError, "Stack with id X does not exist"."""
    return (
        error.exit_code in (ExitCode.NOT_FOUND, ExitCode.AWS_ERROR)
        and "does not exist" in error.message
    )


def stack_outputs(aws: Aws, stack: str) -> dict[str, str] | None:
    """``stack``'s outputs by key; None when there is no such stack."""
    try:
        found = aws.call(
            "cloudformation", "describe_stacks", f"describe the stack {stack}", StackName=stack
        )
    except OpsError as error:
        if _not_found(error):
            return None
        raise
    stacks = found.get("Stacks") or [{}]
    return {o.get("OutputKey"): o.get("OutputValue") for o in stacks[0].get("Outputs") or []}


def access_host(aws: Aws, env: EnvironmentConfig) -> str:
    """The access host's instance id; an OpsError with the fix when there is no access stack."""
    stack = env.stack_name("access")
    deploy = f"npx cdk deploy -c env={env.name} {stack}"
    if not env.access.enabled:
        raise OpsError(
            f"--env {env.name}: access.enabled is false, so there is no access host to forward through",
            f"set access: {{enabled: true}} in config/{env.name}.yaml, then {deploy} (docs/access.md)",
            ExitCode.USAGE,
        )
    outputs = stack_outputs(aws, stack)
    if outputs is None:
        raise OpsError(
            f"no access stack: {stack} does not exist in {env.account}/{env.region}",
            f"deploy it: {deploy} (docs/access.md)",
            ExitCode.NOT_FOUND,
        )
    instance = outputs.get("InstanceId")
    if not instance:
        raise unexpected_answer(f"{stack} has no InstanceId output (is it still being created?)")
    return instance


def cluster(aws: Aws, env: EnvironmentConfig) -> Cluster:
    found = aws.call(
        "eks", "describe_cluster", f"describe the cluster {env.cluster_name}", name=env.cluster_name
    ).get("cluster", {})
    endpoint = found.get("endpoint") or ""
    host = (
        urlsplit(endpoint).netloc.rpartition("@")[2].split(":")[0]
    )  # as given: hostname would lowercase it
    ca = (found.get("certificateAuthority") or {}).get("data")
    if not host or not ca or not found.get("arn"):
        raise unexpected_answer(
            f"DescribeCluster of {env.cluster_name} gave no endpoint or certificate (status "
            f"{found.get('status')}: is the cluster still being created?)"
        )
    return Cluster(env.cluster_name, found["arn"], host, ca)


def endpoint(aws: Aws, env: EnvironmentConfig) -> tuple[Endpoint | None, str]:
    """The endpoint's load balancer, or None with why not (not deployed yet: stage 2 comes with the block)."""
    if env.platform is Platform.HYPERPOD:
        return _hyperpod_alb(aws, env)
    stack = env.stack_name("serving")
    outputs = stack_outputs(aws, stack)
    if outputs is None:
        return None, f"{stack} is not deployed yet (stage 2): only the Kubernetes API is forwarded"
    if env.endpoint.tls:
        # stacks/serving_stack.py: with TLS the load balancer's name is its own output, and it listens on 443
        host = outputs.get("LoadBalancerHostname")
        return (
            (Endpoint(host, 443, "https"), "")
            if host
            else (None, f"{stack} has no LoadBalancerHostname output")
        )
    url = urlsplit(outputs.get("EndpointUrl") or "")  # http://HOST:PORT (stacks/serving_stack.py)
    if not url.hostname or not url.port:
        return None, f"{stack}'s EndpointUrl output is not http://HOST:PORT"
    return Endpoint(url.hostname, url.port, "http"), ""


#: The tag the AWS Load Balancer Controller puts on the load balancers it makes for a cluster (docs/access.md).
_CLUSTER_TAG = "elbv2.k8s.aws/cluster"


def _hyperpod_alb(aws: Aws, env: EnvironmentConfig) -> tuple[Endpoint | None, str]:
    tagged = aws.call(
        "resourcegroupstaggingapi",
        "get_resources",
        "find the endpoint's load balancer by its tag",
        ResourceTypeFilters=["elasticloadbalancing:loadbalancer"],
        TagFilters=[{"Key": _CLUSTER_TAG, "Values": [env.cluster_name]}],
    ).get("ResourceTagMappingList", [])
    if not tagged:
        return None, (
            f"no load balancer tagged {_CLUSTER_TAG}={env.cluster_name} yet (the operator makes it once "
            f"{env.stack_name('endpoint')} is deployed): only the Kubernetes API is forwarded"
        )
    balancers = aws.call(
        "elbv2",
        "describe_load_balancers",
        "describe the endpoint's load balancer",
        LoadBalancerArns=[tagged[0]["ResourceARN"]],
    ).get("LoadBalancers", [])
    host = balancers[0].get("DNSName") if balancers else None
    if not host:
        return None, "the endpoint's load balancer has no DNS name yet"
    return Endpoint(host, 443, "https"), ""  # the operator's ALB serves HTTPS (docs/access.md)
