"""Which HyperPod Inference Operator version an EKS add-on build installs, and where each part of that mapping comes from.

AWS publishes no full table from the add-on's builds (``amazon-sagemaker-hyperpod-inference`` ``vX.Y.Z-eksbuild.N``) to
the operator's versions or Helm charts. What public sources do say, and all that this table holds:

- AWS's page "KV caching and intelligent routing" maps add-on ``v1.2.1-eksbuild.1`` and later to operator 3.1.3 and
  later (CACHING_ROUTING_PAGE, its support matrix: "Inference Operator Version | Amazon EKS Add-on Version | LMCache
  Image Version | vLLM Image Version" with the rows ">= v3.1.3 | >= v1.2.1-eksbuild.1 | >= v0.4.3 | >= v0.19.1" and
  "< v3.1.3 | < v1.2.1-eksbuild.1 | v0.3.9post2 | v0.11.1"). Operator 3.1's newest chart is 2.1.1
  (aws/sagemaker-hyperpod-cli@4b76719, 2026-05-06, "Update inference helm chart to v2.1.1 with latest CRDs": Chart.yaml
  ``version: 2.1.1``, ``appVersion: "3.1"``, "aligned with operator image MAJOR.MINOR version"); its CRD is unchanged
  until 959b62b (chart 2.2.1, operator 3.2).
- aws/sagemaker-hyperpod-cli@9ffefae (2026-02-17, "Add AddOn Migration Script and README") added
  helm_chart/HyperPodHelmChart/charts/inference-operator/migration/helm_to_addon.sh, which installs the add-on at
  ``--addon-version v1.0.0-eksbuild.1`` (line 1034), the day after 51b8dd2 ("Inference Operator AddOn, NodeAffinity and
  Version Update 3.0": that chart's Chart.yaml has ``version: 2.0.0``, ``appVersion: "3.0"``). AWS's release notes tie
  the add-on to 3.0: "SageMaker HyperPod Inference release notes: v3.0, 2026-02-23: Inference Operator 3.0 introduces
  EKS add-on integration" (RELEASE_NOTES).

No public source names the build of operator 3.2 (charts 2.2.1 at 959b62b, 2.2.2 at a00b22d). So the project pins
v1.2.1-eksbuild.1 and writes the endpoint for operator 3.1's CRD (chart 2.1.1's, vendored in charts/imports/crds/).
``llmops preflight`` lists the builds the account offers and says which of them this table maps; for any other it says
that no public source maps it, and compares the CRD on the cluster with what the endpoint uses once the operator runs.

Kept free of imports: the loader (file_models) and ``llmops`` read it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The repository of the operator's chart, CRDs and migration script.
OPERATOR_REPOSITORY = "aws/sagemaker-hyperpod-cli"
#: The CRD's path in that repository.
CRD_PATH = (
    "helm_chart/HyperPodHelmChart/charts/inference-operator/config/crd/"
    "inference.sagemaker.aws.amazon.com_inferenceendpointconfigs.yaml"
)
RELEASE_NOTES = "https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-hyperpod-inference-release-notes.html"
CACHING_ROUTING_PAGE = "https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-hyperpod-model-deployment-caching-routing.html"


@dataclass(frozen=True)
class OperatorRelease:
    """One add-on build and the operator it installs.

    :param addon_version: the EKS add-on build.
    :param operator_version: the operator's MAJOR.MINOR (the chart's appVersion).
    :param chart_version: the operator's Helm chart version of that release.
    :param crd_commit: the commit of OPERATOR_REPOSITORY whose CRD_PATH is that operator's CRD.
    :param sources: where the mapping comes from.
    """

    addon_version: str
    operator_version: str
    chart_version: str
    crd_commit: str
    sources: tuple[str, ...]


OPERATOR_RELEASES: tuple[OperatorRelease, ...] = (
    OperatorRelease(
        addon_version="v1.2.1-eksbuild.1",
        operator_version="3.1",
        chart_version="2.1.1",
        crd_commit="4b7671922b7b918bb7b131ac5b8ea1ab195166da",
        sources=(
            CACHING_ROUTING_PAGE
            + " (add-on v1.2.1-eksbuild.1 and later: operator 3.1.3 and later)",
            f"{OPERATOR_REPOSITORY}@4b76719 helm_chart/HyperPodHelmChart/charts/inference-operator/Chart.yaml "
            "(version 2.1.1, appVersion 3.1: the newest chart of operator 3.1)",
        ),
    ),
    OperatorRelease(
        addon_version="v1.0.0-eksbuild.1",
        operator_version="3.0",
        chart_version="2.0.0",
        crd_commit="9ffefae22ff108141579f4b4d7bb1ddc7b243d61",
        sources=(
            f"{OPERATOR_REPOSITORY}@9ffefae helm_chart/HyperPodHelmChart/charts/inference-operator/migration/"
            "helm_to_addon.sh (line 1034: --addon-version v1.0.0-eksbuild.1)",
            f"{OPERATOR_REPOSITORY}@51b8dd2 helm_chart/HyperPodHelmChart/charts/inference-operator/Chart.yaml "
            "(version 2.0.0, appVersion 3.0)",
            RELEASE_NOTES + " (v3.0: EKS add-on integration)",
        ),
    ),
)

#: The release the project pins (deployment_config/addons.py INFERENCE_OPERATOR) and writes the endpoint for: the
#: newest build a public source maps.
PINNED_OPERATOR = OPERATOR_RELEASES[0]


def operator_release(addon_version: str) -> OperatorRelease | None:
    """The release an add-on build installs, where a public source says; None for any other build."""
    return next((r for r in OPERATOR_RELEASES if r.addon_version == addon_version), None)
