"""ExtendTrainingPlan leaves llmops exactly once, with botocore's real client: a stand-in SageMaker on 127.0.0.1
(AWS_ENDPOINT_URL_SAGEMAKER, JSON 1.1 as tests/ops_cli/aws_stand_in.py speaks it) answers the purchase with HTTP 500 or
a reset connection, and AWS_MAX_ATTEMPTS=5 asks botocore for retries, which a purchase must not get
(ops_cli/purchase_outcome.py). What was bought is then looked up in the extension history."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta

import pytest

from ops_cli.errors import ExitCode
from tests.ops_cli.aws_stand_in import json_answer
from tests.ops_cli.conftest import NOW
from tests.ops_cli.misbehaving_server import Connection, Request

PLAN_ARN = "arn:aws:sagemaker:us-west-2:123456789012:training-plan/kimi-k3-example"
OFFERING_ID = "tpeo-00000000000000a"
END = NOW + timedelta(days=1)
EXTENSION = {
    "TrainingPlanExtensionOfferingId": OFFERING_ID,
    "StartDate": END.timestamp(),
    "EndDate": (END + timedelta(hours=48)).timestamp(),
    "DurationHours": 48,
    "Status": "Pending",
    "PaymentStatus": "Pending",
    "UpfrontFee": "48500.50",
    "CurrencyCode": "USD",
}


@dataclass
class ExtensionStandIn:
    """SageMaker for one Active plan with one extension offering; ``purchase``: "buy-then-500" (bought, then a server
    error), or "reset" (nothing bought, the connection reset)."""

    purchase: str
    requests: list[str] = field(default_factory=list)
    bought: list[dict] = field(default_factory=list)

    def __call__(self, request: Request, conn: Connection) -> None:
        action = request.headers.get("x-amz-target", "").removeprefix("SageMaker.")
        self.requests.append(action)
        if action == "DescribeTrainingPlan":
            plan = {"TrainingPlanArn": PLAN_ARN, "TrainingPlanName": "kimi-k3-example"}
            conn.send(json_answer(plan | {"Status": "Active", "EndTime": END.timestamp()}))
        elif action == "DescribeTrainingPlanExtensionHistory":
            conn.send(json_answer({"TrainingPlanExtensions": self.bought}))
        elif action == "SearchTrainingPlanOfferings":
            offering = {k: v for k, v in EXTENSION.items() if k not in ("Status", "PaymentStatus")}
            answer = {"TrainingPlanOfferings": [], "TrainingPlanExtensionOfferings": [offering]}
            conn.send(json_answer(answer))
        elif action == "ExtendTrainingPlan" and self.purchase == "buy-then-500":
            assert json.loads(request.body) == {"TrainingPlanExtensionOfferingId": OFFERING_ID}
            self.bought.append(EXTENSION)
            conn.send(json_answer({"__type": "InternalFailure", "message": "internal"}, 500))
        elif action == "ExtendTrainingPlan":
            conn.reset()
        else:
            conn.send(json_answer({"__type": "UnknownOperationException", "message": action}, 400))


#: ``llmops training-plans extend`` of the HyperPod example's plan by OFFERING_ID, confirmed.
EXTEND = (
    "training-plans",
    "extend",
    "--env",
    "example-hyperpod",
    "--offering-id",
    OFFERING_ID,
    "--yes",
)


@pytest.mark.parametrize(
    ("purchase", "code", "words"),
    [
        ("buy-then-500", ExitCode.OK, "Found it in the extension history"),
        (
            "reset",
            ExitCode.PURCHASE_UNKNOWN,
            "aws sagemaker describe-training-plan-extension-history",
        ),
    ],
)
def test_an_extension_whose_answer_is_lost_is_sent_once_and_looked_up(
    against, purchase, code, words
):
    stand_in = ExtensionStandIn(purchase)
    result, _ = against(stand_in, "AWS_ENDPOINT_URL_SAGEMAKER", *EXTEND, read_timeout=10)
    assert stand_in.requests.count("ExtendTrainingPlan") == 1
    assert result.code == code and words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
