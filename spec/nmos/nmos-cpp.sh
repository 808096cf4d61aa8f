#!/usr/bin/env bash
# nmos-cpp's registry and example node (Sony's reference implementation of NMOS) in the lab
# namespaces that spec/nmos/testing-tool.sh netns-up makes, as peers for interop runs and as
# the reference node the testing tool is run against. Nothing of nmos-cpp is part of
# this repository: build it yourself and point NMOS_CPP_BUILD at the folder holding the
# binaries nmos-cpp-registry and nmos-cpp-node.
#
# Building it on Debian 12 (about 18 CPU-minutes):
#   apt-get install -y libboost-{system,date-time,regex,chrono,thread,filesystem}-dev \
#     libcpprest-dev libwebsocketpp-dev libavahi-compat-libdnssd-dev nlohmann-json3-dev \
#     libssl-dev cmake ninja-build g++ avahi-daemon dbus
#   cmake -S nmos-cpp/Development -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
#     -DNMOS_CPP_USE_SUPPLIED_JSON_SCHEMA_VALIDATOR=ON -DNMOS_CPP_USE_SUPPLIED_JWT_CPP=ON \
#     -DNMOS_CPP_BUILD_TESTS=OFF -DNMOS_CPP_USE_CONAN=OFF
#   nice cmake --build build -j 1 --target nmos-cpp-registry nmos-cpp-node
#
# Usage (as root; NMOS_CPP_RUN, default /tmp/nmos-cpp-lab, holds configs, logs and pids):
#   spec/nmos/nmos-cpp.sh registry      # the registry in nmoslab-registry (10.79.0.2)
#   spec/nmos/nmos-cpp.sh node          # the example node in nmoslab-node (10.79.0.3),
#                                       # registering with that registry by its address
#   spec/nmos/nmos-cpp.sh node-dns-sd   # the example node with its own Avahi (a private
#                                       # D-Bus and avahi-daemon in its namespace): it finds
#                                       # registries by multicast DNS-SD, as the testing tool's
#                                       # IS-04-01 needs (start no registry for that run)
#   spec/nmos/nmos-cpp.sh registry-dns-sd  # the registry with its own Avahi, advertised
#                                       # by multicast DNS-SD (the hub, with no registries
#                                       # written, finds it so)
#   spec/nmos/nmos-cpp.sh stop          # stops what this script started, by its pids
#
# NMOS_CPP_NODE_LOGGING_LEVEL=-10 makes the example node log each IS-07 event its receivers
# get ("Event received: …"), which shows a hub sender driving one of them (0 by default).
#
# Traps it steps round: with "server_address": "127.0.0.1" the HTTP APIs never listen, so
# both run on a veth address in a namespace; the example node needs an interface that is
# not loopback; without Avahi it logs a DNS-SD error each second, so it is told the
# registry's address (registry_address) and both get "pri": 2147483647 (not advertised) and
# the node "highest_pri": 2147483647 (no discovery, straight to registry_address).
set -euo pipefail

BUILD="${NMOS_CPP_BUILD:-}"
RUN="${NMOS_CPP_RUN:-/tmp/nmos-cpp-lab}"
SUBNET=10.79.0
REGISTRY_IP="$SUBNET.2"
NODE_IP="$SUBNET.3"
NO_PRIORITY=2147483647

die() {
  echo "nmos-cpp: $*" >&2
  exit 1
}

need_build() {
  [[ -n "$BUILD" && -x "$BUILD/nmos-cpp-registry" && -x "$BUILD/nmos-cpp-node" ]] ||
    die "set NMOS_CPP_BUILD to the folder holding nmos-cpp-registry and nmos-cpp-node"
  ip netns list | grep -qw nmoslab-node || die "no lab namespaces: run spec/nmos/testing-tool.sh netns-up first"
  mkdir -p "$RUN"
}

wait_for() {
  local ns="$1" url="$2" tries=40
  while ((tries-- > 0)); do
    if ip netns exec "$ns" curl -sf -o /dev/null "$url"; then
      return 0
    fi
    sleep 0.5
  done
  die "$url did not answer in 20 s (see $RUN)"
}

registry_config() {
  local extra="$1"
  cat > "$RUN/registry.json" << EOF
{
  "label": "nmos-cpp registry (lab)",
  "host_name": "nmoslab-registry",
  "host_address": "$REGISTRY_IP",
  $extra
  "logging_level": 0,
  "error_log": "$RUN/registry-error.log",
  "access_log": "$RUN/registry-access.log"
}
EOF
}

print_registry() {
  echo "registry (pid $(cat "$RUN/registry.pid")) in nmoslab-registry:"
  echo "  Registration API http://$REGISTRY_IP:3210/x-nmos/registration/v1.3"
  echo "  Query API        http://$REGISTRY_IP:3211/x-nmos/query/v1.3 (pages at 10: ?paging.limit=1000)"
}

cmd_registry() {
  need_build
  registry_config "\"pri\": $NO_PRIORITY,"
  ip netns exec nmoslab-registry nice -n 5 "$BUILD/nmos-cpp-registry" "$RUN/registry.json" > "$RUN/registry.out" 2>&1 &
  echo $! > "$RUN/registry.pid"
  wait_for nmoslab-registry "http://$REGISTRY_IP:3211/x-nmos/query/v1.3/nodes"
  print_registry
}

node_config() {
  local extra="$1"
  cat > "$RUN/node.json" << EOF
{
  "label": "nmos-cpp example node (lab)",
  "host_name": "nmoslab-node",
  "host_address": "$NODE_IP",
  "logging_level": ${NMOS_CPP_NODE_LOGGING_LEVEL:-0},
  "error_log": "$RUN/node-error.log",
  "access_log": "$RUN/node-access.log",
  "registry_version": "v1.3",
  $extra
  "seed_id": "9a5ad4a6-6b4e-4c1c-9d36-8c3f2e1b0a71"
}
EOF
}

print_node() {
  echo "node (pid $(cat "$RUN/node.pid")) in nmoslab-node:"
  echo "  Node API         http://$NODE_IP:3212/x-nmos/node/v1.3"
  echo "  Connection API   http://$NODE_IP:3215/x-nmos/connection/v1.1"
  echo "  Events API       http://$NODE_IP:3216/x-nmos/events/v1.0 (WebSocket port 3217)"
  echo "  testing tool:    NMOS_CONNECTION_PORT=3215 NMOS_EVENTS_PORT=3216 spec/nmos/testing-tool.sh run $NODE_IP:3212"
}

cmd_node() {
  need_build
  node_config "\"registry_address\": \"$REGISTRY_IP\", \"pri\": $NO_PRIORITY, \"highest_pri\": $NO_PRIORITY,"
  ip netns exec nmoslab-node nice -n 5 "$BUILD/nmos-cpp-node" "$RUN/node.json" > "$RUN/node.out" 2>&1 &
  echo $! > "$RUN/node.pid"
  wait_for nmoslab-node "http://$NODE_IP:3212/x-nmos/node/v1.3/self"
  print_node
}

# A peer with a D-Bus and an avahi-daemon of its own: a mount namespace gives them private
# /run/dbus and /run/avahi-daemon, so they meet neither the machine's nor another namespace's.
# start_with_avahi PEER BINARY CONFIG: PEER is registry or node.
start_with_avahi() {
  local peer="$1" binary="$2" config="$3"
  if ! command -v avahi-daemon > /dev/null || ! command -v dbus-daemon > /dev/null; then
    die "needs avahi-daemon and dbus"
  fi
  cat > "$RUN/$peer-avahi.conf" << EOF
[server]
host-name=nmoslab-$peer
use-ipv4=yes
use-ipv6=no
allow-interfaces=veth0
ratelimit-interval-usec=0
[publish]
publish-hinfo=no
publish-workstation=no
EOF
  mkdir -p /run/dbus /run/avahi-daemon
  # shellcheck disable=SC2016 # the inner script expands its own arguments
  ip netns exec "nmoslab-$peer" unshare --mount --propagation private bash -c '
    set -e
    run="$1"; peer="$2"; binary="$3"; config="$4"
    mount -t tmpfs tmpfs /run/dbus
    mount -t tmpfs tmpfs /run/avahi-daemon
    dbus-daemon --system --fork --print-pid > "$run/$peer-dbus.pid"
    avahi-daemon --daemonize --no-chroot -f "$run/$peer-avahi.conf"
    sleep 1
    cat /run/avahi-daemon/pid > "$run/$peer-avahi.pid"
    exec nice -n 5 "$binary" "$config"
  ' "$peer" "$RUN" "$peer" "$binary" "$config" > "$RUN/$peer.out" 2>&1 &
  echo $! > "$RUN/$peer.pid"
}

cmd_registry_dns_sd() {
  need_build
  registry_config ""
  start_with_avahi registry "$BUILD/nmos-cpp-registry" "$RUN/registry.json"
  wait_for nmoslab-registry "http://$REGISTRY_IP:3211/x-nmos/query/v1.3/nodes"
  print_registry
  echo "  advertised by DNS-SD (_nmos-register._tcp, _nmos-query._tcp) by its own avahi-daemon"
}

cmd_node_dns_sd() {
  need_build
  node_config ""
  start_with_avahi node "$BUILD/nmos-cpp-node" "$RUN/node.json"
  wait_for nmoslab-node "http://$NODE_IP:3212/x-nmos/node/v1.3/self"
  print_node
  echo "  finds registries by DNS-SD with its own avahi-daemon"
}

cmd_stop() {
  local name
  for name in node node-avahi node-dbus registry registry-avahi registry-dbus; do
    if [[ -s "$RUN/$name.pid" ]]; then
      local pid
      pid="$(tr -d ' \n' < "$RUN/$name.pid")"
      if kill "$pid" 2> /dev/null; then
        echo "stopped $name ($pid)"
      fi
      rm -f "$RUN/$name.pid"
    fi
  done
}

case "${1:-}" in
  registry) cmd_registry ;;
  node) cmd_node ;;
  node-dns-sd) cmd_node_dns_sd ;;
  registry-dns-sd) cmd_registry_dns_sd ;;
  stop) cmd_stop ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
