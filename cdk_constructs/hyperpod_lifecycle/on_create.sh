#!/bin/bash
# HyperPod lifecycle script (OnCreate) for instance groups of an EKS-orchestrated cluster, written by this project.
#
# The root volume is too small for the vLLM image and 1.4 TB of weights: move containerd's and the kubelet's storage
# onto the large volume, the instance-store NVMe (/opt/dlami/nvme) when the instance has it, otherwise the EBS volume
# HyperPod mounts at /opt/sagemaker. On failure it waits a minute before exiting non-zero, so that its log reaches
# CloudWatch and HyperPod reports the instance as failed instead of running it half-configured.
set -Eeuo pipefail

FAIL_DELAY_SECONDS="${FAIL_DELAY_SECONDS:-60}"
CANDIDATES="${STORAGE_CANDIDATES:-/opt/dlami/nvme /opt/sagemaker}"

log() { echo "[on_create] $(date -u +%Y-%m-%dT%H:%M:%SZ) $*"; }
fail() {
  log "FAILED: $*"
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

move_onto() {  # move_onto DIRECTORY: bind-mount DIRECTORY from $target, keeping what is already in it
  local directory="$1" destination="$target${1}"
  mkdir -p "$directory" "$destination"
  if mountpoint -q "$directory"; then
    log "$directory is already a mount point, left as it is"
    return
  fi
  cp -a "$directory/." "$destination/"
  mount --bind "$destination" "$directory"
  echo "$destination $directory none defaults,bind 0 0" >> /etc/fstab
  log "$directory now lives on $destination"
}

for service in kubelet containerd; do
  systemctl is-active --quiet "$service" && systemctl stop "$service"
done
move_onto /var/lib/containerd
move_onto /var/lib/kubelet
systemctl daemon-reload
for service in containerd kubelet; do
  if systemctl list-unit-files "$service.service" >/dev/null 2>&1; then
    systemctl start "$service" || fail "could not start $service"
  fi
done
log "done"
