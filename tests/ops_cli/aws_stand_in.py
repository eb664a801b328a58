"""Stand-ins for EC2 and SageMaker on 127.0.0.1 (through tests/ops_cli/misbehaving_server.py), for the purchase tests.

They answer in the real wire formats so that botocore parses them as it would AWS's: EC2 speaks the query protocol
(a form-encoded POST with ``Action=...``; XML answers whose element names are the model's ``locationName``s, lists as
``<item>``; errors as ``<Response><Errors><Error><Code>``, botocore/parsers.py EC2QueryParser), SageMaker JSON 1.1
(``X-Amz-Target: SageMaker.Operation``; JSON answers, times as epoch seconds; errors as ``{"__type": ...}``,
botocore/parsers.py JSONParser). Each records the requests it received, by action.

``purchase`` says what happens to the purchase request: ``"buy-then-500"`` (it is carried out, then the answer is a
server error: a lost answer), ``"500"`` (a server error, nothing bought), ``"hang"`` (never answers), ``"reset"`` (the
connection is reset). ``lookup`` says the same of every other request after the purchase: ``"answer"`` or ``"hang"``,
``"reset"``.
"""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from xml.sax.saxutils import escape

from tests.ops_cli.misbehaving_server import Connection, Request, response

START = datetime(2026, 12, 3, 11, 30, tzinfo=UTC)
END = START + timedelta(hours=48)
OFFERING_ID = "cb-0000000000000000a"
RESERVATION_ID = "cr-0fedcba9876543210"
ZONE = "us-west-2b"
INSTANCE_TYPE = "p6-b300.48xlarge"


def _xml_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _xml(fields: dict) -> str:
    out = []
    for name, value in fields.items():
        if isinstance(value, list):
            out.append(
                f"<{name}>" + "".join(f"<item>{_xml(v)}</item>" for v in value) + f"</{name}>"
            )
        else:
            out.append(
                f"<{name}>{escape(_xml_time(value) if isinstance(value, datetime) else str(value))}</{name}>"
            )
    return "".join(out)


def ec2_answer(action: str, fields: dict) -> bytes:
    body = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<{action}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">'
        f"<requestId>stand-in</requestId>{_xml(fields)}</{action}Response>"
    )
    return response(200, body.encode(), content_type="text/xml;charset=UTF-8")


def ec2_error(status: int, code: str, message: str) -> bytes:
    body = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>{code}</Code>'
        f"<Message>{escape(message)}</Message></Error></Errors><RequestID>stand-in</RequestID></Response>"
    )
    return response(status, body.encode(), content_type="text/xml;charset=UTF-8")


def _misbehave(how: str, conn: Connection, server_error: bytes) -> None:
    if how == "hang":
        conn.hang()
    elif how == "reset":
        conn.reset()
    else:
        conn.send(server_error)


@dataclass
class Ec2StandIn:
    purchase: str = "buy-then-500"
    lookup: str = "answer"
    #: DescribeCapacityReservations answers without the bought block this many times first (eventual consistency).
    hidden_lookups: int = 0
    requests: list[dict] = field(default_factory=list)
    reservations: list[dict] = field(default_factory=list)

    def actions(self, name: str) -> list[dict]:
        return [r for r in self.requests if r["Action"] == name]

    def __call__(self, request: Request, conn: Connection) -> None:
        params = {k: v[0] for k, v in urllib.parse.parse_qs(request.body.decode()).items()}
        self.requests.append(params)
        action = params["Action"]
        if action == "DescribeCapacityBlockOfferings":
            conn.send(
                ec2_answer(
                    action,
                    {
                        "capacityBlockOfferingSet": [
                            {
                                "capacityBlockOfferingId": OFFERING_ID,
                                "instanceType": INSTANCE_TYPE,
                                "availabilityZone": ZONE,
                                "instanceCount": 1,
                                "startDate": START,
                                "endDate": END,
                                "capacityBlockDurationHours": 48,
                                "upfrontFee": "85000.50",
                                "currencyCode": "USD",
                                "tenancy": "default",
                            }
                        ]
                    },
                )
            )
        elif action == "PurchaseCapacityBlock":
            if self.purchase == "buy-then-500":
                tags = [
                    {
                        "key": params[f"TagSpecification.1.Tag.{i}.Key"],
                        "value": params[f"TagSpecification.1.Tag.{i}.Value"],
                    }
                    for i in range(1, 10)
                    if f"TagSpecification.1.Tag.{i}.Key" in params
                ]
                self.reservations.append(
                    {
                        "capacityReservationId": RESERVATION_ID,
                        "instanceType": INSTANCE_TYPE,
                        "availabilityZone": ZONE,
                        "totalInstanceCount": 1,
                        "state": "payment-pending",
                        "startDate": START,
                        "endDate": END,
                        "reservationType": "capacity-block",
                        "tagSet": tags,
                    }
                )
            _misbehave(
                "500" if self.purchase == "buy-then-500" else self.purchase,
                conn,
                ec2_error(500, "InternalError", "An internal error has occurred"),
            )
        elif self.lookup != "answer":
            _misbehave(self.lookup, conn, ec2_error(503, "Unavailable", "The server is overloaded"))
        elif action == "DescribeCapacityReservations":
            visible = len(self.actions(action)) > self.hidden_lookups
            conn.send(
                ec2_answer(action, {"capacityReservationSet": self.reservations if visible else []})
            )
        else:
            conn.send(ec2_error(400, "InvalidAction", f"the stand-in does not answer {action}"))


PLAN_NAME = "kimi-k3-december"
PLAN_ARN = f"arn:aws:sagemaker:us-west-2:123456789012:training-plan/{PLAN_NAME}"


def json_answer(payload: dict, status: int = 200) -> bytes:
    return response(status, json.dumps(payload).encode(), content_type="application/x-amz-json-1.1")


@dataclass
class SageMakerStandIn:
    purchase: str = "buy-then-500"
    lookup: str = "answer"
    requests: list[tuple[str, dict]] = field(default_factory=list)
    plans: dict[str, dict] = field(default_factory=dict)

    def actions(self, name: str) -> list[dict]:
        return [body for action, body in self.requests if action == name]

    def __call__(self, request: Request, conn: Connection) -> None:
        action = request.headers.get("x-amz-target", "").removeprefix("SageMaker.")
        body = json.loads(request.body or b"{}")
        self.requests.append((action, body))
        purchased = bool(self.actions("CreateTrainingPlan"))
        if action == "SearchTrainingPlanOfferings":
            conn.send(
                json_answer(
                    {
                        "TrainingPlanOfferings": [
                            {
                                "TrainingPlanOfferingId": "tpo-a",
                                "TargetResources": ["hyperpod-cluster"],
                                "DurationHours": 48,
                                "UpfrontFee": "70000.00",
                                "CurrencyCode": "USD",
                                "ReservedCapacityOfferings": [
                                    {
                                        "InstanceType": f"ml.{INSTANCE_TYPE}",
                                        "InstanceCount": 1,
                                        "AvailabilityZone": "us-west-2a",
                                        "DurationHours": 48,
                                        "StartTime": START.timestamp(),
                                        "EndTime": END.timestamp(),
                                    }
                                ],
                            }
                        ]
                    }
                )
            )
        elif action == "CreateTrainingPlan":
            if self.purchase == "buy-then-500":
                self.plans[body["TrainingPlanName"]] = {
                    "TrainingPlanArn": PLAN_ARN,
                    "TrainingPlanName": body["TrainingPlanName"],
                    "Status": "Pending",
                }
            _misbehave(
                "500" if self.purchase == "buy-then-500" else self.purchase,
                conn,
                json_answer({"__type": "InternalFailure", "message": "internal failure"}, 500),
            )
        elif purchased and self.lookup != "answer":
            _misbehave(
                self.lookup,
                conn,
                json_answer({"__type": "ServiceUnavailable", "message": "unavailable"}, 503),
            )
        elif action == "DescribeTrainingPlan":
            plan = self.plans.get(body["TrainingPlanName"])
            conn.send(
                json_answer(plan)
                if plan
                else json_answer(
                    {"__type": "ResourceNotFound", "Message": "no such training plan"}, 400
                )
            )
        else:
            conn.send(json_answer({"__type": "UnknownOperationException", "message": action}, 400))
