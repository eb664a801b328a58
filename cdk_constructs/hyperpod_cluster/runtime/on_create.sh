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
# The instance store may be mounted a little after this script starts: AWS's reference (aws-samples/
# awsome-distributed-training@7217859f67bc693c52ff175ccc6082c41dbd7a1b, 1.architectures/7.sagemaker-hyperpod-eks/
# LifecycleScripts/base-config/on_create_main.sh, "Wait for disk to be mounted (max 60s)": 12 polls 5 s apart) waits
# up to 60 s for its disk. This script waits as long for the instance store (the first candidate); after that, on an
# instance type that has one (REQUIRE_INSTANCE_STORE=1, from lifecycle.env) it fails the node with a log line that names
# what it waited for; on one without, it takes the first candidate that is mounted (the EBS volume, when
# hyperpod.volume_size_gb gives one), and with none it fails too. An instance without instance store starts 60 s later.
#
# On failure it waits a minute before exiting non-zero, so that its log reaches CloudWatch and HyperPod reports the
# instance as failed instead of running it half-configured (the reference's on_create.sh does the same).
set -Eeuo pipefail

# This cluster's settings, uploaded beside the script (cdk_constructs/hyperpod_cluster.py, SETTINGS_FILE).
settings="$(dirname "$0")/lifecycle.env"
# shellcheck source=/dev/null
if [ -f "$settings" ]; then . "$settings"; fi
REQUIRE_INSTANCE_STORE="${REQUIRE_INSTANCE_STORE:-0}"
FAIL_DELAY_SECONDS="${FAIL_DELAY_SECONDS:-60}"
CANDIDATES="${STORAGE_CANDIDATES:-/opt/dlami/nvme /opt/sagemaker}"
STORAGE_WAIT_SECONDS="${STORAGE_WAIT_SECONDS:-60}"
STORAGE_POLL_SECONDS="${STORAGE_POLL_SECONDS:-5}"
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

first_mounted() {
  local candidate
  for candidate in $CANDIDATES; do
    if mountpoint -q "$candidate"; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

instance_store="${CANDIDATES%% *}"
# A bounded wait: at most STORAGE_WAIT_SECONDS / STORAGE_POLL_SECONDS polls, whatever mountpoint answers.
polls=$(( STORAGE_POLL_SECONDS > 0 ? STORAGE_WAIT_SECONDS / STORAGE_POLL_SECONDS : 0 ))
for (( poll = 0; poll < polls; poll++ )); do
  mountpoint -q "$instance_store" && break
  log "waiting for $instance_store to be mounted ($(( poll * STORAGE_POLL_SECONDS ))/${STORAGE_WAIT_SECONDS} s)"
  sleep "$STORAGE_POLL_SECONDS"
done
if [ "$REQUIRE_INSTANCE_STORE" = 1 ] && ! mountpoint -q "$instance_store"; then
  fail "the instance store $instance_store was not mounted within ${STORAGE_WAIT_SECONDS} s, and this instance type" \
    "has one (the catalog's instance_store_disks): not using another volume for the image and 1.4 TB of weights"
fi
target="$(first_mounted)" || fail "no large volume after ${STORAGE_WAIT_SECONDS} s: none of $CANDIDATES is mounted" \
  "(the instance store at $instance_store, or the EBS volume HyperPod mounts when hyperpod.volume_size_gb is set)"
if [ "$target" != "$instance_store" ]; then
  log "$instance_store was not mounted within ${STORAGE_WAIT_SECONDS} s: using $target"
fi
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
  # nofail: a volume that is missing at a later boot (an instance store is empty after a stop) must not stop the boot
  # in emergency mode; x-systemd.requires-mounts-for orders the bind after the volume's own mount (systemd.mount(5),
  # https://www.freedesktop.org/software/systemd/man/latest/systemd.mount.html, "nofail" and
  # "x-systemd.requires-mounts-for="). Written once, however often the script runs.
  entry="$destination $CONTAINERD_DIR none bind,nofail,x-systemd.requires-mounts-for=$target 0 0"
  fstab="${FSTAB:-/etc/fstab}"
  grep -qxF "$entry" "$fstab" 2>/dev/null || echo "$entry" >> "$fstab"
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
