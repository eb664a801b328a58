"""The optional way into the private VPC: the configuration file's ``access`` section, frozen once validated: the
domain model itself (deployment_config/model.py ``EnvironmentConfig.access``).

With ``access.enabled`` the app adds ``NAME-access`` (stacks/access_stack.py): an instance in a private subnet that the
admin role reaches through Session Manager, with kubectl, helm, the AWS CLI and llmops, and through which the private
EKS API endpoint and the internal endpoint are forwarded to a laptop (docs/access.md). Off by default.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field, field_validator

from deployment_config.errors import Problem, quoted
from deployment_config.sections._fields import _STRICT, fail, fail_unknown_instance_type

DEFAULT_INSTANCE_TYPE = "t3.medium"
#: The host's root volume (gp3, GB): cdk_constructs/access_host builds it; bench/running_resources.py and llmops cost
#: count it.
ACCESS_ROOT_VOLUME_GB = 20
#: The EC2 naming convention marks AWS Graviton (arm64) families with a 'g' after the generation (m7g, t4g, c7gn,
#: r8gd): "Instance type naming conventions", https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html;
#: a1 is the first Graviton family. The Grace Blackwell family (p6e-gb200) is Arm too: "the NVIDIA GB200 Grace Blackwell
#: Superchip, which integrates two NVIDIA Blackwell GPUs with a NVIDIA Grace CPU" (AWS Containers blog, "Unlocking
#: next-generation AI performance with Dynamic Resource Allocation on Amazon EKS and Amazon EC2 P6e-GB200",
#: https://aws.amazon.com/blogs/containers/unlocking-next-generation-ai-performance-with-dynamic-resource-allocation-on-amazon-eks-and-amazon-ec2-p6e-gb200);
#: Grace is an Arm Neoverse V2 CPU.
#: EC2 Mac instances (mac1, mac2, mac-m4, ...) are "available only as bare metal
#: instances on Dedicated Hosts" and run macOS
#: (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-mac-instances.html). The host runs the x86_64 kubectl and
#: helm of the kubectl Lambda layer.
_ARM_FAMILY = re.compile(r"^(a1|[a-z]+\d+g[a-z-]*|[a-z]+\d+[a-z]*-gb\d+)\.")


class AccessSection(BaseModel):
    """A way into the private VPC: an SSM-managed instance with no inbound rule (docs/access.md)."""

    model_config = _STRICT

    enabled: bool = Field(
        default=False,
        description="Add the NAME-access stack: an instance in a private subnet, no inbound rule, "
        "reached through Session Manager, with kubectl, helm, the AWS CLI and llmops; it forwards the private cluster "
        "API and the endpoint to a laptop (docs/access.md). Default: false.",
        examples=[True],
    )
    instance_type: str = Field(
        default=DEFAULT_INSTANCE_TYPE,
        description=f"The instance's type, x86_64. Default: {DEFAULT_INSTANCE_TYPE}.",
        examples=[DEFAULT_INSTANCE_TYPE],
        json_schema_extra={"pattern": r"^[a-z][a-z0-9-]*\.[a-z0-9]+$"},
    )

    @field_validator("instance_type")
    @classmethod
    def _instance_type(cls, value: str) -> str:
        fail_unknown_instance_type(value, f"use an x86_64 type such as {DEFAULT_INSTANCE_TYPE}")
        if value.startswith("mac"):
            fail(
                Problem(
                    f"{quoted(value)} is an EC2 Mac instance, which runs macOS on a Dedicated Host only; "
                    "the host runs Amazon Linux 2023",
                    f"use an x86_64 type such as {DEFAULT_INSTANCE_TYPE} or m7i.large",
                )
            )
        if _ARM_FAMILY.match(value):
            fail(
                Problem(
                    f"{quoted(value)} is an arm64 type ("
                    f"{'NVIDIA Grace' if '-gb' in value else 'AWS Graviton'}); the host installs x86_64 kubectl and helm",
                    f"use an x86_64 type such as {DEFAULT_INSTANCE_TYPE} or m7i.large",
                )
            )
        return value
