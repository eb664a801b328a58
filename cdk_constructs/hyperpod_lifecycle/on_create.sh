#!/bin/bash
# HyperPod lifecycle script (OnCreate) for instance groups of an EKS-orchestrated cluster, written by this project.
#
# The root volume is too small for the vLLM image and 1.4 TB of weights: move containerd's and the kubelet's storage
# onto the large volume, the instance-store NVMe (/opt/dlami/nvme) when the instance has it, otherwise the EBS volume
# HyperPod mounts at /opt/sagemaker.
#
# HyperPod configures and starts the kubelet after this script: it must never start the kubelet itself. AWS's
# reference script (awslabs/awsome-distributed-training@0edaf15, 1.architectures/7.sagemaker-hyperpod-eks/
# LifecycleScripts/base-config/on_create_main.sh) starts, stops and restarts neither service; it moves the kubelet's
# directory and replaces it with a symlink. This script does the same for the kubelet, and moves containerd's
# directory only with containerd stopped, leaving it afterwards as it found it.
#
# On failure it waits a minute before exiting non-zero, so that its log reaches CloudWatch and HyperPod reports the
# instance as failed instead of running it half-configured.
set -Eeuo pipefail

FAIL_DELAY_SECONDS="${FAIL_DELAY_SECONDS:-60}"
CANDIDATES="${STORAGE_CANDIDATES:-/opt/dlami/nvme /opt/sagemaker}"
CONTAINERD_DIR="${CONTAINERD_DIR:-/var/lib/containerd}"
KUBELET_DIR="${KUBELET_DIR:-/var/lib/kubelet}"

log() { echo "[on_create] $(date -u +%Y-%m-%dT%H:%M:%SZ) $*"; }
fail() {
  log "FAILED: $*"
  sync || true
  sleep "$FAIL_DELAY_SECONDS"
  exit 1
}
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR

target=""
for candidate in $CANDIDATES; do
  if mountpoint -q "$candidate"; then
    target="$candidate"
    break
  fi
done
[ -n "$target" ] || fail "none of $CANDIDATES is a mounted volume"
log "large volume: $target ($(df -h --output=size "$target" | tail -n 1 | tr -d ' '))"

# containerd: copy its directory onto the volume and bind-mount it back, with containerd stopped while it happens.
containerd_was_active=false
if systemctl is-active --quiet containerd; then
  containerd_was_active=true
  systemctl stop containerd
fi
if mountpoint -q "$CONTAINERD_DIR"; then
  log "$CONTAINERD_DIR is already a mount point, left as it is"
else
  destination="$target/containerd"
  mkdir -p "$CONTAINERD_DIR" "$destination"
  cp -a "$CONTAINERD_DIR/." "$destination/"
  mount --bind "$destination" "$CONTAINERD_DIR"
  echo "$destination $CONTAINERD_DIR none defaults,bind 0 0" >> "${FSTAB:-/etc/fstab}"
  log "$CONTAINERD_DIR now lives on $destination"
fi
if [ "$containerd_was_active" = true ]; then
  systemctl start containerd || fail "could not start containerd again"
fi

# kubelet: not running yet (HyperPod starts it after this script); move its directory and leave a symlink.
if systemctl is-active --quiet kubelet; then
  log "kubelet is already running: $KUBELET_DIR left in place"
elif [ -L "$KUBELET_DIR" ]; then
  log "$KUBELET_DIR is already a symlink to $(readlink "$KUBELET_DIR"), left as it is"
else
  destination="$target/kubelet"
  mkdir -p "$destination"
  if [ -d "$KUBELET_DIR" ]; then
    cp -a "$KUBELET_DIR/." "$destination/"
    rm -rf "$KUBELET_DIR"
  fi
  ln -s "$destination" "$KUBELET_DIR"
  log "$KUBELET_DIR now points to $destination"
fi
systemctl daemon-reload
log "done"
