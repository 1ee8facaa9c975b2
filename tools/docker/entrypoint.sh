#!/bin/sh
# The image's entrypoint: makes the container's own cgroup tree writable for the box driver's
# freezer, then runs the command (the control plane). Docker mounts the container's cgroup
# namespace (compose: cgroup: private) read-only; with CAP_SYS_ADMIN (compose grants it for
# bubblewrap) it can be mounted read-write again, and only this container's subtree is there.
# When it cannot, the driver freezes boxes with signals instead and says so in its log.
set -eu
if [ -d /sys/fs/cgroup ] && ! [ -w /sys/fs/cgroup ]; then
  mount -o remount,rw /sys/fs/cgroup 2>/dev/null ||
    echo "sessionboxer: /sys/fs/cgroup stays read-only: boxes are frozen with signals" >&2
fi
exec "$@"
