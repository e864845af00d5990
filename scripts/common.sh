# shellcheck shell=bash
# Helpers shared by graphport's scripts (sourced, not run). Expects a caller-set $log_tag.

log() { printf '[%s] %s\n' "${log_tag:-graphport}" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "${log_tag:-graphport}" "$*" >&2; exit 1; }

# Run a command as root (directly, or through sudo when available).
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root for: $*"
  fi
}

# Run an apt command; while another apt/dpkg holds a lock, wait and retry (up to ~10 minutes).
# Output is shown after each attempt.
apt_retry() {
  local tries=0 out rc
  while :; do
    set +e
    out="$("$@" 2>&1)"; rc=$?
    set -e
    printf '%s\n' "$out" >&2
    [ "$rc" -eq 0 ] && return 0
    if printf '%s' "$out" | grep -qiE 'could not get lock|unable to (acquire|lock)|is held by process'; then
      tries=$((tries + 1))
      [ "$tries" -lt 120 ] || die "apt lock still held after 10 minutes: $*"
      log "apt/dpkg lock held by another process; retrying in 5s"
      sleep 5
      continue
    fi
    return "$rc"
  done
}
