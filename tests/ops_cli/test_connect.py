"""``llmops connect``: given stand-ins for CloudFormation and EKS on 127.0.0.1 (AWS_ENDPOINT_URL_<SERVICE>) and a fake
``aws`` that records its arguments and behaves as ``aws ssm start-session`` with the session-manager-plugin does
(it prints "Waiting for connections..." once it listens, aws/session-manager-plugin muxportforwarding.go), the user
gets the right Session Manager document, target, hosts and ports, a kubeconfig context for the forwarded API, the URLs,
and no child process left after Ctrl-C; errors are one line with the fix."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import socket
import sys
import urllib.parse
from dataclasses import dataclass, field

import pytest
import yaml

from ops_cli.aws import Aws
from ops_cli.cli import main
from ops_cli.context import Runtime
from tests.ops_cli.aws_stand_in import json_answer
from tests.ops_cli.conftest import Result, client_error
from tests.ops_cli.misbehaving_server import Connection, MisbehavingServer, Request, response

INSTANCE = "i-0123456789abcdef0"
API_HOST = "0123456789ABCDEF.gr7.us-west-2.eks.amazonaws.com"
LB_HOST = "internal-a1b2c3-0123456789.elb.us-west-2.amazonaws.com"
CERTIFICATE = "arn:aws:acm:us-west-2:123456789012:certificate/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
CLUSTER_ARN = "arn:aws:eks:us-west-2:123456789012:cluster/connect-llm"

FAKE_AWS = f"""#!{sys.executable}
import json, os, sys, time
with open(os.environ["FAKE_AWS_RECORD"], "a") as record:
    record.write(json.dumps({{"argv": sys.argv[1:], "pid": os.getpid()}}) + "\\n")
if os.environ.get("FAKE_AWS_FAIL"):
    print("\\nAn error occurred (TargetNotConnected) when calling the StartSession operation: "
          + sys.argv[sys.argv.index("--target") + 1] + " is not connected.", file=sys.stderr)
    sys.exit(254)
port = json.loads(sys.argv[sys.argv.index("--parameters") + 1])["localPortNumber"][0]
print("\\nStarting session with SessionId: admin-0a1b2c3d4e5f")
print(f"Port {{port}} opened for sessionId admin-0a1b2c3d4e5f.")
print("Waiting for connections...", flush=True)
time.sleep(600)
"""


def _member(fields: dict) -> str:
    return "".join(f"<{k}>{v}</{k}>" for k, v in fields.items())


@dataclass
class StandIn:
    """CloudFormation (query protocol, XML) and EKS (REST JSON) on one server; ``stacks``: the stacks that exist."""

    stacks: dict[str, dict[str, str]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)

    def __call__(self, request: Request, conn: Connection) -> None:
        if request.path.startswith("/clusters/"):
            self.requests.append(f"DescribeCluster {request.path}")
            cluster = {
                "name": "connect-llm",
                "arn": CLUSTER_ARN,
                "endpoint": f"https://{API_HOST}",
                "status": "ACTIVE",
                "certificateAuthority": {"data": "Q0EtREFUQQ=="},
            }
            conn.send(json_answer({"cluster": cluster}))
            return
        form = urllib.parse.parse_qs(request.body.decode())
        name = form["StackName"][0]
        self.requests.append(f"{form['Action'][0]} {name}")
        if name not in self.stacks:
            body = (
                "<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code>"
                f"<Message>Stack with id {name} does not exist</Message></Error></ErrorResponse>"
            )
            conn.send(response(400, body.encode(), content_type="text/xml"))
            return
        outputs = "".join(
            f"<member>{_member({'OutputKey': k, 'OutputValue': v})}</member>"
            for k, v in self.stacks[name].items()
        )
        stack = _member(
            {
                "StackName": name,
                "StackId": f"arn:aws:cloudformation:us-west-2:123456789012:stack/{name}/1",
                "CreationTime": "2026-11-30T12:00:00Z",
                "StackStatus": "CREATE_COMPLETE",
            }
        )
        body = (
            '<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">'
            f"<DescribeStacksResult><Stacks><member>{stack}<Outputs>{outputs}</Outputs></member></Stacks>"
            "</DescribeStacksResult></DescribeStacksResponse>"
        )
        conn.send(response(200, body.encode(), content_type="text/xml"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ctrl_c(_seconds: float) -> None:
    """The runtime's sleep in the hold loop: the user presses Ctrl-C at its first second."""
    raise KeyboardInterrupt


def terminal_closed(_seconds: float) -> None:
    """The same, but the terminal is closed: SIGHUP to llmops."""
    os.kill(os.getpid(), signal.SIGHUP)


@pytest.fixture
def connect(monkeypatch, tmp_path, config_dir):
    text = (config_dir / "example.yaml").read_text(encoding="utf-8")
    (config_dir / "connect.yaml").write_text(
        text + "\naccess:\n  enabled: true\n", encoding="utf-8"
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "aws").write_text(FAKE_AWS, encoding="utf-8")
    (bin_dir / "aws").chmod(0o755)
    record = tmp_path / "aws-calls.jsonl"

    def run(
        stand_in: StandIn, *argv: str, fail: bool = False, sleep=ctrl_c
    ) -> tuple[Result, list[dict]]:
        with MisbehavingServer(stand_in) as url:
            environ = {
                "AWS_ENDPOINT_URL_CLOUDFORMATION": url,
                "AWS_ENDPOINT_URL_EKS": url,
                "AWS_ACCESS_KEY_ID": "AKIDSTANDIN",
                "AWS_SECRET_ACCESS_KEY": "stand-in",
                "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
                "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
                "AWS_EC2_METADATA_DISABLED": "true",
                "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                "HOME": str(tmp_path / "home"),
                "FAKE_AWS_RECORD": str(record),
                **({"FAKE_AWS_FAIL": "1"} if fail else {}),
            }
            for name, value in environ.items():
                monkeypatch.setenv(
                    name, value
                )  # botocore reads AWS_ENDPOINT_URL_<SERVICE> from os.environ
            stdout, stderr = io.StringIO(), io.StringIO()
            runtime = Runtime(
                aws_factory=lambda region: Aws(region, environ=environ),
                stdout=stdout,
                stderr=stderr,
                environ=environ,
                sleep=sleep,
            )
            code = main([*argv, "--config-dir", str(config_dir)], runtime)
        calls = (
            [json.loads(line) for line in record.read_text().splitlines()]
            if record.exists()
            else []
        )
        return Result(code, stdout.getvalue(), stderr.getvalue()), calls

    return run


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_connect_forwards_the_api_and_the_endpoint_through_the_access_host(connect, tmp_path):
    # given the access stack and the serving stack (plain endpoint on 8000) deployed
    stand_in = StandIn(
        {
            "connect-access": {"InstanceId": INSTANCE},
            "connect-serving": {"EndpointUrl": f"http://{LB_HOST}:8000"},
        }
    )
    api_port, endpoint_port = _free_port(), _free_port()
    # when the user connects, then presses Ctrl-C
    result, calls = connect(
        stand_in,
        "connect",
        "--env",
        "connect",
        "--api-port",
        str(api_port),
        "--endpoint-port",
        str(endpoint_port),
    )
    # then two sessions were started with the port forwarding document, on the access host, to the right hosts and ports
    assert result.code == 0, result.stderr
    assert [c["argv"][:9] for c in calls] == [
        ["ssm", "start-session", "--region", "us-west-2", "--target", INSTANCE, "--document-name",
         "AWS-StartPortForwardingSessionToRemoteHost", "--parameters"]
    ] * 2  # fmt: skip
    assert [json.loads(c["argv"][9]) for c in calls] == [
        {"host": [API_HOST], "portNumber": ["443"], "localPortNumber": [str(api_port)]},
        {"host": [LB_HOST], "portNumber": ["8000"], "localPortNumber": [str(endpoint_port)]},
    ]
    # and the kubeconfig has a current context whose server is the local forward, verified for the API's own name
    config = yaml.safe_load((tmp_path / "home" / ".kube" / "config").read_text())
    assert config["current-context"] == "connect-via-ssm"
    (cluster,) = config["clusters"]
    assert cluster["cluster"] == {
        "certificate-authority-data": "Q0EtREFUQQ==",
        "server": f"https://localhost:{api_port}",
        "tls-server-name": API_HOST,
    }
    (user,) = config["users"]
    assert user["user"]["exec"]["args"] == [
        "--region", "us-west-2", "eks", "get-token", "--cluster-name", "connect-llm", "--output", "json"
    ]  # fmt: skip
    # and the URLs are printed, and after Ctrl-C no forward is left running
    assert f"https://localhost:{api_port}" in result.stdout
    assert f"http://localhost:{endpoint_port}" in result.stdout
    assert (
        f"llmops smoke-test --env connect --url http://localhost:{endpoint_port}" in result.stdout
    )
    assert not [c["pid"] for c in calls if _alive(c["pid"])]


def test_closing_the_terminal_stops_the_forwards(connect):
    # given llmops connect holding its forwards
    stand_in = StandIn({"connect-access": {"InstanceId": INSTANCE}})
    # when the terminal is closed (SIGHUP to llmops, which the forwards in their own process groups do not get)
    result, calls = connect(
        stand_in,
        "connect",
        "--env",
        "connect",
        "--api-port",
        str(_free_port()),
        sleep=terminal_closed,
    )
    # then it ends as Ctrl-C does, and no forward is left running
    assert result.code == 0, result.stderr
    assert calls and not [c["pid"] for c in calls if _alive(c["pid"])]


def test_a_forward_that_fails_leaves_the_kubeconfig_as_it_was(connect, tmp_path):
    stand_in = StandIn({"connect-access": {"InstanceId": INSTANCE}})
    result, _ = connect(
        stand_in, "connect", "--env", "connect", "--api-port", str(_free_port()), fail=True
    )
    assert result.code == 20
    assert not (tmp_path / "home" / ".kube" / "config").exists()


def test_connect_json_prints_the_urls_as_one_document(connect):
    # given only stage 1 deployed (no serving stack yet)
    stand_in = StandIn({"connect-access": {"InstanceId": INSTANCE}})
    api_port = _free_port()
    # when the user connects with --json
    result, calls = connect(
        stand_in, "connect", "--env", "connect", "--api-port", str(api_port), "--json"
    )
    # then only the API is forwarded, and the document says why the endpoint is not
    assert result.code == 0, result.stderr
    assert len(calls) == 1
    assert result.json["api"] == {
        "url": f"https://localhost:{api_port}",
        "remote": f"{API_HOST}:443",
    }
    assert result.json["endpoint"] is None
    assert "connect-serving is not deployed yet" in result.json["endpoint_note"]


def test_connect_without_an_access_stack_says_how_to_deploy_it(connect):
    # given access enabled in the file but the stack not deployed
    result, calls = connect(StandIn({}), "connect", "--env", "connect")
    # then one line names the missing stack, one the command that deploys it; nothing was started
    assert result.code == 11, result.stderr
    assert "error: no access stack: connect-access does not exist" in result.stderr
    assert "npx cdk deploy -c env=connect connect-access" in result.stderr
    assert "Traceback" not in result.stderr
    assert calls == []


def test_connect_with_access_off_says_how_to_turn_it_on(connect):
    result, calls = connect(StandIn({}), "connect", "--env", "example")
    assert result.code == 2
    assert "access.enabled is false" in result.stderr
    assert "set access: {enabled: true} in config/example.yaml" in result.stderr
    assert calls == []


def test_connect_to_a_host_whose_agent_is_not_connected_says_so(connect):
    # given the host's SSM Agent is not connected: start-session fails with TargetNotConnected
    stand_in = StandIn({"connect-access": {"InstanceId": INSTANCE}})
    result, _ = connect(
        stand_in, "connect", "--env", "connect", "--api-port", str(_free_port()), fail=True
    )
    # then the error says what that means and how to check it
    assert result.code == 20
    assert f"cannot reach the access host {INSTANCE} (TargetNotConnected)" in result.stderr
    assert "aws ssm describe-instance-information" in result.stderr


def test_connect_refuses_a_local_port_already_taken(connect):
    stand_in = StandIn({"connect-access": {"InstanceId": INSTANCE}})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result, calls = connect(stand_in, "connect", "--env", "connect", "--api-port", str(port))
    assert result.code == 2
    assert f"already uses local port {port}" in result.stderr
    assert calls == []


@pytest.mark.parametrize(
    ("outputs", "expected"),
    [
        (
            {"LoadBalancerHostname": LB_HOST, "EndpointUrl": "https://llm.example.com"},
            (LB_HOST, 443, "https"),
        ),
        ({"EndpointUrl": f"http://{LB_HOST}:8000"}, (LB_HOST, 8000, "http")),
    ],
)
def test_the_endpoint_is_read_from_the_serving_stack(aws, outputs, expected, config_dir):
    from deployment_config import load_environment
    from ops_cli.access_targets import endpoint

    env = load_environment(config_dir, "example")
    tls = "LoadBalancerHostname" in outputs
    aws.stub("cloudformation").add_response(
        "describe_stacks",
        {
            "Stacks": [
                {
                    "StackName": "example-serving",
                    "CreationTime": "2026-11-30T12:00:00Z",
                    "StackStatus": "CREATE_COMPLETE",
                    "Outputs": [{"OutputKey": k, "OutputValue": v} for k, v in outputs.items()],
                }
            ]
        },
        {"StackName": "example-serving"},
    )
    if tls:  # endpoint.certificate_arn and domain_name: the load balancer listens on 443
        endpoint_section = env.endpoint.model_copy(
            update={"certificate_arn": CERTIFICATE, "domain_name": "llm.example.com"}
        )
        env = dataclasses.replace(env, endpoint=endpoint_section)
    found, why_not = endpoint(aws.aws("us-west-2"), env)
    assert (found.host, found.port, found.scheme) == expected and not why_not


def test_the_hyperpod_endpoint_is_the_operators_alb(aws, config_dir):
    from deployment_config import load_environment
    from ops_cli.access_targets import endpoint

    env = load_environment(config_dir, "example-hyperpod")
    arn = "arn:aws:elasticloadbalancing:us-west-2:123456789012:loadbalancer/app/k8s-llm/0123456789abcdef"
    aws.stub("resourcegroupstaggingapi").add_response(
        "get_resources",
        {"ResourceTagMappingList": [{"ResourceARN": arn}]},
        {
            "ResourceTypeFilters": ["elasticloadbalancing:loadbalancer"],
            "TagFilters": [{"Key": "elbv2.k8s.aws/cluster", "Values": [env.cluster_name]}],
        },
    )
    aws.stub("elbv2").add_response(
        "describe_load_balancers",
        {"LoadBalancers": [{"DNSName": LB_HOST}]},
        {"LoadBalancerArns": [arn]},
    )
    found, _ = endpoint(aws.aws("us-west-2"), env)
    assert (found.host, found.port, found.scheme) == (LB_HOST, 443, "https")


def test_an_error_from_describe_stacks_other_than_missing_is_not_read_as_missing(aws, config_dir):
    from deployment_config import load_environment
    from ops_cli.access_targets import stack_outputs
    from ops_cli.errors import OpsError

    load_environment(config_dir, "example")
    aws.stub("cloudformation").add_client_error(
        "describe_stacks", **client_error("AccessDenied", status=403)
    )
    with pytest.raises(OpsError, match="access denied"):
        stack_outputs(aws.aws("us-west-2"), "example-access")
