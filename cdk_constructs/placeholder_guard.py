"""A CloudFormation rule that refuses to deploy a stack built from placeholder values.

The example environments synthesize with no AWS account (``make synth``), so the app cannot refuse them at synthesis,
and the CDK CLI does not tell the app whether it synthesizes for ``cdk synth`` or ``cdk deploy``. CloudFormation
evaluates a template's ``Rules`` before it creates or updates any resource ("CloudFormation template Rules syntax",
https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/rules-section-structure.html): a rule whose assertion
can never hold makes every create or update of the stack fail at once, with its ``AssertDescription`` as the message,
whether it comes from ``cdk deploy``, a pipeline stage or the console. Nothing is created.

The assertion compares ``AWS::Region`` with a value no region has: the documented pattern of rules on pseudo
parameters (``Fn::Equals`` with ``Ref AWS::Region``), made to fail. ``llmops preflight`` reports the same fields before
any of this is reached.
"""

from __future__ import annotations

from collections.abc import Sequence

import aws_cdk as cdk

RULE_ID = "RefuseExamplePlaceholders"
#: No region is named this, so the assertion below never holds.
_NOT_A_REGION = "placeholder-values-must-be-replaced"


def refuse_placeholders(
    stack: cdk.Stack, *, source: str, fields: Sequence[str], how_to_fix: str
) -> cdk.CfnRule | None:
    """Add the refusing rule to ``stack`` when ``fields`` (dotted paths of ``source``) hold placeholder values.

    :param source: the configuration file, as the user knows it (config/example.yaml).
    :param fields: the fields that still hold placeholder values; nothing is added when empty.
    :param how_to_fix: what to do instead, in one sentence.
    """
    if not fields:
        return None
    return cdk.CfnRule(
        stack,
        RULE_ID,
        assertions=[
            cdk.CfnRuleAssertion(
                assert_=cdk.Fn.condition_equals(cdk.Aws.REGION, _NOT_A_REGION),
                assert_description=f"Not deployed: {source} still holds the example's placeholder values in {', '.join(fields)}. "
                f"{how_to_fix}",
            )
        ],
    )


#: The rule that refuses a serving stack whose model is not pinned at a Hub commit where it must be.
UNPINNED_WEIGHTS_RULE_ID = "RefuseUnpinnedWeights"


def refuse_unpinned_weights(
    stack: cdk.Stack,
    *,
    source: str,
    env_name: str,
    from_s3: bool,
    model_id: str = "MODEL",
    speculator_only: bool = False,
    speculator_id: str = "SPECULATOR",
) -> cdk.CfnRule:
    """Add to ``stack`` (the one that serves the model) a rule that refuses its deployment because
    ``model.hugging_face_revision`` is not set and:

    - the weights come from S3 (``from_s3``): there is no revision-scoped prefix to copy
      (deployment_config/model_location.py ``weights_s3_uri``); or
    - vLLM runs the model repository's code (``--trust-remote-code``): without a commit it would run whatever the
      default branch holds when the pod starts, in a process that can read the API key's file;
    - or (``speculator_only``, the weights themselves pinned) ``spec_decoding`` is served without
      ``model.speculator_revision``: from S3 there is no verified copy of the speculator, from the Hub vLLM would take
      its default branch (deployment_config/speculator.py).

    The app cannot refuse at synthesis: the cluster stack, which creates the mirror Job's role, must deploy before
    ``llmops weights mirror`` can write the revision. ``llmops preflight`` reports the same before (ops_cli/preflight_pins.py).
    """
    if speculator_only and from_s3:
        why = (
            "serves spec_decoding from S3 but sets no model.speculator_revision, so there is no verified copy of the "
            f"speculator to serve. Run bin/llmops weights mirror --env {env_name} (with spec_decoding it copies and "
            "checks the speculator too and writes both revisions), then deploy again."
        )
    elif speculator_only:
        why = (
            "serves spec_decoding but sets no model.speculator_revision: vLLM would download whatever the "
            "speculator's default branch holds when the pod starts (and run its code with --trust-remote-code). Get "
            f'the commit (curl -s https://huggingface.co/api/models/{speculator_id}/revision/main, its "sha"), '
            "set model.speculator_revision: COMMIT, then deploy again."
        )
    elif from_s3:
        why = (
            "takes the weights from S3 (model.weight_source: s3) but sets no model.hugging_face_revision, so there is "
            f"no verified copy to serve. Run bin/llmops weights mirror --env {env_name} (it copies one revision, "
            "checks it and writes the revision into the file), then deploy again."
        )
    else:
        why = (
            "runs the model repository's code (--trust-remote-code) but sets no model.hugging_face_revision: the "
            "code of whatever the default branch holds when the pod starts would run next to the API key. Get the "
            f'commit (curl -s https://huggingface.co/api/models/{model_id}/revision/main, its "sha"), read that '
            "commit's code, set model.hugging_face_revision: COMMIT, then deploy again."
        )
    return cdk.CfnRule(
        stack,
        UNPINNED_WEIGHTS_RULE_ID,
        assertions=[
            cdk.CfnRuleAssertion(
                assert_=cdk.Fn.condition_equals(cdk.Aws.REGION, _NOT_A_REGION),
                assert_description=f"Not deployed: {source} {why}",
            )
        ],
    )
