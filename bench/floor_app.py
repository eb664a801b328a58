"""The floor for the synthesis benchmark: a bare CDK app that imports the same libraries and synthesizes one VPC.

What it costs is what any app on this stack pays (Python start, jsii runtime start, loading aws-cdk-lib, cdk8s and
cdk-nag); the default app's time above it is what this project's own stacks cost.
"""

import os
import sys

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

import aws_cdk as cdk  # noqa: E402
import cdk8s  # noqa: E402,F401
import cdk8s_plus_28  # noqa: E402,F401
import cdk_nag  # noqa: E402,F401
from aws_cdk import aws_ec2 as ec2  # noqa: E402

app = cdk.App(outdir=sys.argv[1] if len(sys.argv) > 1 else None)
stack = cdk.Stack(app, "Floor")
ec2.Vpc(stack, "Vpc", max_azs=2)
app.synth()
