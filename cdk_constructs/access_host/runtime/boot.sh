# The access host's first boot (cdk_constructs/access_host/__init__.py writes the variables above this line).
# Runs as root under cloud-init; its output goes to /var/log/llm-serving-access-boot.log and the console.
# Invariant: a tool is on PATH only after its checksum matched; any failure stops the script (set -e), so a host
# without a tool is a host whose log says why.
set -euo pipefail
# ROOT: where the files go; unset on the host (/), a scratch directory in tests/stacks/test_access_stack.py.
ROOT=${ROOT:-}
export HOME=/root  # cloud-init may leave it unset; the AWS CLI and pip read it
mkdir -p "${ROOT}/var/log" "${ROOT}/usr/local/bin" "${ROOT}/opt/llmops/src" "${ROOT}/etc/llm-serving" "${ROOT}/etc/profile.d"
exec > >(tee -a "${ROOT}/var/log/llm-serving-access-boot.log") 2>&1
echo "llm-serving access host: installing the tools for ${CLUSTER_NAME}"

# The AWS CLI v2: present on the AL2023 AMI; dnf's awscli-2 package otherwise. Python 3.12 for llmops (the system
# python3 of AL2023 stays 3.9; 3.11 to 3.14 are name-versioned packages:
# https://docs.aws.amazon.com/linux/al2023/ug/python.html).
command -v aws >/dev/null || dnf install -y awscli-2
dnf install -y python3.12 python3.12-pip unzip

# kubectl and helm: the x86_64 binaries of the kubectl Lambda layer this app pins (requirements.txt), from the CDK asset
# bucket through the VPC's S3 gateway endpoint; each checked against the digest pinned in the construct.
work=$(mktemp -d)
aws s3 cp --only-show-errors "${TOOLS_ZIP}" "${work}/tools.zip"
unzip -q "${work}/tools.zip" -d "${work}/tools"
echo "${KUBECTL_SHA256}  ${work}/tools/kubectl/kubectl" | sha256sum --check --strict -
echo "${HELM_SHA256}  ${work}/tools/helm/helm" | sha256sum --check --strict -
install -m 0755 "${work}/tools/kubectl/kubectl" "${ROOT}/usr/local/bin/kubectl"
install -m 0755 "${work}/tools/helm/helm" "${ROOT}/usr/local/bin/helm"

# llmops: this checkout's ops_cli and deployment_config (a CDK asset) with the environment's file under config/; its
# dependencies at the versions requirements-ops.txt pins, from PyPI through the NAT gateway, each checked against the
# file's hashes. llmops itself runs from that source tree: building it as a package would make pip fetch setuptools
# for the build, a download no hash covers.
aws s3 cp --only-show-errors "${LLMOPS_ZIP}" "${work}/llmops.zip"
unzip -q -o "${work}/llmops.zip" -d "${ROOT}/opt/llmops/src"
python3.12 -m venv "${ROOT}/opt/llmops/venv"
"${ROOT}/opt/llmops/venv/bin/pip" install --quiet --no-cache-dir --require-hashes -r "${ROOT}/opt/llmops/src/requirements-ops.txt"
cat > "${ROOT}/usr/local/bin/llmops" <<LAUNCHER
#!/bin/sh
# the login profile's settings (below) as defaults, so that a non-login shell finds the environment too
export PYTHONPATH="${ROOT}/opt/llmops/src"
export LLMOPS_CONFIG_DIR="\${LLMOPS_CONFIG_DIR:-${ROOT}/opt/llmops/src/config}"
export KUBECONFIG="\${KUBECONFIG:-${ROOT}/etc/llm-serving/kubeconfig}"
export AWS_REGION="\${AWS_REGION:-${REGION}}"
exec "${ROOT}/opt/llmops/venv/bin/python" -m ops_cli "\$@"
LAUNCHER
chmod 0755 "${ROOT}/usr/local/bin/llmops"
rm -rf "${work}"

# kubectl as the instance role (its EKS access entry): one kubeconfig for every user of the host (it holds no secret,
# only the `aws eks get-token` command), and the settings a login shell reads (Session Manager's sh is not one:
# docs/access.md says to run `bash -l`).
aws eks update-kubeconfig --region "${REGION}" --name "${CLUSTER_NAME}" --kubeconfig "${ROOT}/etc/llm-serving/kubeconfig"
chmod 0644 "${ROOT}/etc/llm-serving/kubeconfig"
cat > "${ROOT}/etc/profile.d/llm-serving.sh" <<PROFILE
export KUBECONFIG="${ROOT}/etc/llm-serving/kubeconfig"
export AWS_REGION=${REGION}
export AWS_DEFAULT_REGION=${REGION}
export LLMOPS_CONFIG_DIR="${ROOT}/opt/llmops/src/config"
PROFILE
"${ROOT}/usr/local/bin/kubectl" version --client
"${ROOT}/usr/local/bin/helm" version
"${ROOT}/usr/local/bin/llmops" --version
echo "llm-serving access host: ready"
