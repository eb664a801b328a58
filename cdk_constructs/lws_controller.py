"""The LeaderWorkerSet controller, from its official Helm chart, pinned: what makes a ``LeaderWorkerSet`` (a model
instance over several GPU nodes, charts/vllm_leader_worker_set.py) into pods.

Installed the way the LWS project documents it (kubernetes-sigs/lws v0.10.0, commit 2161f38,
site/content/en/docs/installation/_index.md, "Install by Helm": ``helm install lws oci://registry.k8s.io/lws/charts/lws
--version=0.10.0 --namespace lws-system --create-namespace --wait``). The released chart pins the controller image to the
same version with ``pullPolicy: IfNotPresent`` (hack/push-chart.sh rewrites ``image.manager.tag`` to the release tag
before ``helm package``; the repository's own values.yaml says ``main``). The chart's CRDs (its ``crds/`` folder,
leaderworkerset.x-k8s.io among them) are installed by the first ``helm install``; Helm never upgrades them (the same
page, "Upgrade by Helm"): a new CHART_VERSION with a changed CRD needs ``kubectl apply --server-side -f lws/crds`` first.
The CRD the tests validate against is that version's, vendored in tests/data/lws/.

The controller runs on the system nodes: its values set no node selector or toleration, and the GPU nodes are tainted.
Its webhook serves with a certificate the controller makes itself (``enableCertManager: false``, the default).
"""

from __future__ import annotations

from aws_cdk import aws_eks_v2 as eks
from constructs import Construct

#: The chart in the Kubernetes project's OCI registry, as a repository the CDK's Helm handler pulls (``helm pull
#: REPOSITORY --version VERSION``; an ``oci://`` repository names the chart itself).
LWS_CHART_REPOSITORY = "oci://registry.k8s.io/lws/charts/lws"
LWS_CHART_VERSION = "0.10.0"
LWS_NAMESPACE = "lws-system"


class LwsController(Construct):
    """Installs the LeaderWorkerSet controller and its CRDs into ``cluster`` (needs a kubectl provider)."""

    def __init__(self, scope: Construct, id: str, *, cluster: eks.ICluster) -> None:
        super().__init__(scope, id)
        self.chart = eks.HelmChart(
            self,
            "Chart",
            cluster=cluster,
            chart="lws",
            release="lws",
            repository=LWS_CHART_REPOSITORY,
            version=LWS_CHART_VERSION,
            namespace=LWS_NAMESPACE,
            create_namespace=True,
            # Wait for the controller and its webhook: a LeaderWorkerSet applied before the webhook answers is refused.
            wait=True,
        )
