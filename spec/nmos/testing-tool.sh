#!/usr/bin/env bash
# AMWA's NMOS Testing Tool as a local check of an NMOS node: IS-04-01, IS-05-01,
# IS-05-02, IS-07-01 and IS-07-02, run inside network namespaces with multicast DNS-SD,
# summarised as markdown. It does not run in CI: the tool and three of its Python needs come
# only from their git repositories. docs/contributing/nmos-testing.md says how and why.
#
# Needs (Debian 12, as root: network namespaces and veth pairs):
#   apt-get install -y git iproute2 python3-venv python3-netifaces python3-dnslib \
#     python3-junit.xml python3-rfc3987 python3-flask-socketio python3-markdown2 \
#     python3-xmltodict python3-ifaddr
#   pip reaching an index (or a local mirror) for the tool's other requirements;
#   git repositories (bare or not) of AMWA-TV/nmos-testing, the AMWA-TV spec repositories
#   is-04, is-05, is-07, bcp-002-01, bcp-002-02, bcp-004-01 and nmos-parameter-registers,
#   spotify/ramlfications, crdoconnor/xeger and python-zeroconf/python-zeroconf, and (for
#   IS-05-01's SDP test, with npm) AMWA-TV/sdpoker, all in one folder NMOS_TESTING_SOURCES,
#   each as NAME, NAME.git or OWNER+NAME/repo.
#
# Usage (NMOS_TESTING_DIR is where the tool, its venv, its cache and results live):
#   NMOS_TESTING_DIR=/srv/nmos-testing NMOS_TESTING_SOURCES=/srv/repos spec/nmos/testing-tool.sh setup
#   spec/nmos/testing-tool.sh netns-up          # the lab: a bridge and one namespace per peer
#   spec/nmos/testing-tool.sh run HOST:PORT [SUITE…]
#       runs the suites (all five by default) from the namespace nmoslab-tool against a node
#       at HOST:PORT (its Node API; NMOS_CONNECTION_PORT and NMOS_EVENTS_PORT if the
#       Connection and Events APIs are on other ports), one at a time, then writes
#       NMOS_TESTING_DIR/results/<label>/summary.md (label: NMOS_TESTING_LABEL or a timestamp)
#   spec/nmos/testing-tool.sh summary FOLDER    # the markdown summary of a results folder again
#   spec/nmos/testing-tool.sh netns-down
#   spec/nmos/testing-tool.sh exec PEER CMD…    # runs CMD in the namespace nmoslab-PEER
#
# The lab: namespaces nmoslab-tool (10.79.0.1), nmoslab-registry (.2), nmoslab-node (.3) and
# nmoslab-hub (.4), each with a veth to a bridge in nmoslab-switch, on 10.79.0.0/24, with no
# route out of the machine: the tool advertises and targets 192.0.2.1 by default, and nothing
# it sends may leave. mDNS (224.0.0.251) crosses the bridge, so the tool's mock registry is
# found by DNS-SD.
set -euo pipefail

DIR="${NMOS_TESTING_DIR:-}"
SUITES_DEFAULT=(IS-04-01 IS-05-01 IS-05-02 IS-07-01 IS-07-02)
PEERS=(tool registry node hub)
SUBNET=10.79.0
NICE="${NMOS_TESTING_NICE:-10}"

die() {
  echo "testing-tool: $*" >&2
  exit 1
}

need_dir() {
  [[ -n "$DIR" ]] || die "set NMOS_TESTING_DIR to the folder for the tool, its venv, cache and results"
  mkdir -p "$DIR"
  DIR="$(cd "$DIR" && pwd)"
}

# The git directory of a repository NAME in NMOS_TESTING_SOURCES.
source_repo() {
  local name="$1" sources="${NMOS_TESTING_SOURCES:-}" candidate
  [[ -n "$sources" ]] || die "set NMOS_TESTING_SOURCES to the folder holding the fetched repositories"
  for candidate in "$sources/$name" "$sources/$name.git" "$sources"/*+"$name"/repo; do
    if [[ -e "$candidate" ]] && git --git-dir="$candidate" rev-parse --git-dir > /dev/null 2>&1; then
      echo "$candidate"
      return
    fi
    if [[ -d "$candidate/.git" ]]; then
      echo "$candidate/.git"
      return
    fi
  done
  return 1
}

# A clone that keeps every branch of the source as origin/<branch>, as the tool expects.
clone_into() {
  local from="$1" to="$2"
  rm -rf "$to"
  git clone --quiet --no-hardlinks "$from" "$to"
}

# A one-commit repository for a spec the five suites do not read; the tool only lists its branches.
stub_repo() {
  local to="$1"
  rm -rf "$to"
  git init --quiet -b main "$to"
  git -C "$to" -c user.name=rig -c user.email=rig@localhost commit --quiet --allow-empty -m "stub"
}

cmd_setup() {
  need_dir
  local tool_git
  tool_git="$(source_repo nmos-testing)" || die "no nmos-testing repository in NMOS_TESTING_SOURCES"

  echo "* the tool: a clone of $tool_git"
  clone_into "$tool_git" "$DIR/tool"

  echo "* the venv (Debian's python3, with system site packages)"
  rm -rf "$DIR/venv"
  /usr/bin/python3 -m venv --system-site-packages "$DIR/venv"
  local pip=("$DIR/venv/bin/pip" install --quiet --disable-pip-version-check)

  mkdir -p "$DIR/src"
  local name
  for name in ramlfications xeger python-zeroconf; do
    local git_dir
    git_dir="$(source_repo "$name")" || die "no $name repository in NMOS_TESTING_SOURCES"
    clone_into "$git_dir" "$DIR/src/$name"
  done
  git -C "$DIR/src/ramlfications" checkout --quiet 0.1.9
  # zeroconf's last tag: its pure-Python build (SKIP_CYTHON), as Debian's 0.47 is too old for the tool.
  local zeroconf_tag
  zeroconf_tag="$(git -C "$DIR/src/python-zeroconf" tag --list '0.*' | sort -V | tail -1)"
  git -C "$DIR/src/python-zeroconf" checkout --quiet "$zeroconf_tag"

  echo "* ramlfications 0.1.9, xeger, zeroconf $zeroconf_tag from their repositories"
  nice -n "$NICE" "${pip[@]}" "$DIR/src/ramlfications" "$DIR/src/xeger"
  SKIP_CYTHON=1 nice -n "$NICE" "${pip[@]}" "$DIR/src/python-zeroconf"

  echo "* the tool's other requirements"
  grep -v -E '^(ramlfications|xeger|zeroconf)\b' "$DIR/tool/requirements.txt" > "$DIR/requirements-rest.txt"
  nice -n "$NICE" "${pip[@]}" -r "$DIR/requirements-rest.txt"

  # sdpoker (AMWA's SDP checker, an npm package from its repository) runs IS-05-01's test_41;
  # without it that test is disabled.
  local sdpoker_git
  if sdpoker_git="$(source_repo sdpoker)" && command -v npm > /dev/null; then
    echo "* sdpoker from its repository"
    clone_into "$sdpoker_git" "$DIR/src/sdpoker"
    (cd "$DIR/src/sdpoker" && nice -n "$NICE" npm install --omit=dev --no-audit --no-fund --silent)
    mkdir -p "$DIR/bin"
    ln -sf "$DIR/src/sdpoker/sdpoker.js" "$DIR/bin/sdpoker"
  fi

  echo "* the spec cache"
  local cache="$DIR/tool/cache" key
  mkdir -p "$cache"
  # Every spec the tool knows gets a cache entry (it opens them all); real clones where a suite reads it.
  local keys
  keys="$(cd "$DIR/tool" && "$DIR/venv/bin/python" -c \
    'from nmostesting import Config; print(" ".join(k for k, v in Config.SPECIFICATIONS.items() if v["repo"]))')"
  for key in $keys; do
    local spec_git
    if spec_git="$(source_repo "$key")"; then
      clone_into "$spec_git" "$cache/$key"
      echo "  $key: clone ($(git -C "$cache/$key" branch -r | grep -v HEAD | tr -d ' ' | tr '\n' ' '))"
    else
      stub_repo "$cache/$key"
    fi
  done
  # The tool pulls every cache entry when its last pull is an hour old: a date far ahead keeps it offline.
  "$DIR/venv/bin/python" -c \
    'import pickle, sys, datetime; pickle.dump(datetime.datetime(2100, 1, 1), open(sys.argv[1], "wb"))' "$cache/last_pull"

  cat > "$DIR/tool/nmostesting/UserConfig.py" << 'EOF'
from . import Config as CONFIG

# Written by patchbay's spec/nmos/testing-tool.sh: multicast DNS-SD inside the lab namespace.
CONFIG.ENABLE_DNS_SD = True
CONFIG.DNS_SD_MODE = "multicast"
CONFIG.BIND_INTERFACE = "veth0"
CONFIG.CACHE_PATH = "cache"
EOF
  "$DIR/venv/bin/python" -c 'import zeroconf, ramlfications, xeger; print("  zeroconf", zeroconf.__version__)'
  echo "* ready: $DIR (tool $(git -C "$DIR/tool" rev-parse --short HEAD))"
}

ns() {
  echo "nmoslab-$1"
}

cmd_netns_up() {
  local sw
  sw="$(ns switch)"
  ip netns add "$sw"
  ip -n "$sw" link set lo up
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 up
  local i=1 peer
  for peer in "${PEERS[@]}"; do
    local n
    n="$(ns "$peer")"
    ip netns add "$n"
    ip -n "$n" link set lo up
    ip -n "$n" link add veth0 type veth peer name "p-$peer" netns "$sw"
    ip -n "$n" addr add "$SUBNET.$i/24" dev veth0
    ip -n "$n" link set veth0 up
    ip -n "$n" link set veth0 multicast on
    # Multicast (mDNS) leaves by veth0: the namespace has no other route.
    ip -n "$n" route add 224.0.0.0/4 dev veth0
    ip -n "$sw" link set "p-$peer" master br0
    ip -n "$sw" link set "p-$peer" up
    echo "$n $SUBNET.$i"
    i=$((i + 1))
  done
}

cmd_netns_down() {
  local peer
  for peer in "${PEERS[@]}" switch; do
    local n
    n="$(ns "$peer")"
    if ip netns list | grep -qw "$n"; then
      local pids
      pids="$(ip netns pids "$n" || true)"
      [[ -z "$pids" ]] || echo "testing-tool: processes still in $n: $pids (stop them first)" >&2
      ip netns del "$n"
    fi
  done
}

cmd_exec() {
  local peer="$1"
  shift
  exec ip netns exec "$(ns "$peer")" "$@"
}

# Counts per state and every test that did not pass, from the tool's JSON outputs in FOLDER.
cmd_summary() {
  local folder="$1"
  python3 - "$folder" << 'EOF'
import json, sys, pathlib
folder = pathlib.Path(sys.argv[1])
order = ["Pass", "Fail", "Warning", "Test Disabled", "Not Implemented", "Could Not Test", "Manual", "Not Applicable"]
# The tool's own bookkeeping lines, always Not Applicable.
bookkeeping = {"Test initialisation", "__init__", "set_up_tests", "tear_down_tests"}
rows, details = [], []
meta = {}
for path in sorted(folder.glob("*.json")):
    data = json.loads(path.read_text())
    counts = {}
    for r in data["results"]:
        counts[r["state"]] = counts.get(r["state"], 0) + 1
        if r["state"] != "Pass" and not (r["name"] in bookkeeping and r["state"] == "Not Applicable"):
            details.append((data["suite"], r["name"], r["state"], " ".join(str(r["detail"]).split())))
    meta["VERSION"] = data["config"].get("VERSION")
    for e in data.get("endpoints") or []:
        meta.setdefault("targets", {})[f"{e['host']}:{e['port']}"] = None
    rows.append((data["suite"], counts, len(data["results"]), data["duration"]))
for path in sorted(folder.glob("*.error")):
    rows.append((path.stem, {}, 0, 0.0))
    details.append((path.stem, "(the suite did not run)", "Error", " ".join(path.read_text().split())))
rows.sort(key=lambda row: row[0])
states = order + sorted({s for _, c, _, _ in rows for s in c} - set(order))
always = {"Pass", "Fail", "Warning", "Test Disabled", "Not Implemented"}
states = [s for s in states if s in always or any(s in c for _, c, _, _ in rows)]
out = [f"# NMOS Testing Tool results: {folder.name}", ""]
out.append(f"AMWA NMOS Testing Tool {meta.get('VERSION')}, against {', '.join(meta.get('targets', {})) or 'nothing'}.")
out.append("")
out.append("| suite | " + " | ".join(s.lower() for s in states) + " | tests | seconds |")
out.append("| --- | " + " | ".join("---:" for _ in states) + " | ---: | ---: |")
for suite, counts, total, duration in rows:
    if not counts:
        out.append(f"| {suite} | " + " | ".join("—" for _ in states) + " | did not run | — |")
        continue
    out.append(f"| {suite} | " + " | ".join(str(counts.get(s, 0)) for s in states) + f" | {total} | {duration:.0f} |")
out += ["", "Every test that did not pass (the tool's bookkeeping lines — `Test initialisation`, `set_up_tests`, `tear_down_tests` — left out; they are counted above as not applicable):", ""]
out.append("| suite | test | state | detail |")
out.append("| --- | --- | --- | --- |")
for suite, name, state, detail in details:
    out.append(f"| {suite} | {name} | {state} | {detail.replace('|', '/')[:300]} |")
print("\n".join(out))
EOF
}

cmd_run() {
  need_dir
  [[ $# -ge 1 ]] || die "run HOST:PORT [SUITE…]"
  local target="$1"
  shift
  local host="${target%:*}" port="${target##*:}"
  local cport="${NMOS_CONNECTION_PORT:-$port}" eport="${NMOS_EVENTS_PORT:-$port}"
  local suites=("$@")
  [[ ${#suites[@]} -gt 0 ]] || suites=("${SUITES_DEFAULT[@]}")
  local label="${NMOS_TESTING_LABEL:-$(date -u +%Y%m%dT%H%M%SZ)}"
  local out="$DIR/results/$label"
  mkdir -p "$out"
  [[ -x "$DIR/venv/bin/python" ]] || die "run setup first"
  local suite
  for suite in "${suites[@]}"; do
    local args
    case "$suite" in
      IS-04-01) args=(--host "$host" --port "$port" --version v1.3) ;;
      IS-05-01) args=(--host "$host" --port "$cport" --version v1.1) ;;
      IS-05-02) args=(--host "$host" "$host" --port "$port" "$cport" --version v1.3 v1.1) ;;
      IS-07-01) args=(--host "$host" --port "$eport" --version v1.0) ;;
      IS-07-02) args=(--host "$host" "$host" "$host" --port "$port" "$cport" "$eport" --version v1.3 v1.1 v1.0) ;;
      *) die "unknown suite $suite" ;;
    esac
    echo "* $suite against $host ($port/$cport/$eport)"
    local started=$SECONDS rc=0
    (cd "$DIR/tool" && PATH="$DIR/bin:$PATH" ip netns exec "$(ns tool)" nice -n "$NICE" "$DIR/venv/bin/python" nmos-test.py suite "$suite" \
      "${args[@]}" --output "$out/$suite.json") > "$out/$suite.log" 2>&1 || rc=$?
    echo "  exit $rc in $((SECONDS - started)) s (the exit code counts only fail and warning)"
    if [[ ! -s "$out/$suite.json" ]]; then
      # The tool stops before testing when an API a suite needs does not answer: say why.
      grep -m 3 -E '^ \* ERROR' "$out/$suite.log" | sort -u > "$out/$suite.error" || true
      [[ -s "$out/$suite.error" ]] || tail -5 "$out/$suite.log" > "$out/$suite.error"
      echo "  $suite did not run: $(head -1 "$out/$suite.error")"
    fi
  done
  cmd_summary "$out" > "$out/summary.md"
  echo "* summary: $out/summary.md"
  sed -n '1,/^Every test/p' "$out/summary.md"
}

case "${1:-}" in
  setup) cmd_setup ;;
  netns-up) cmd_netns_up ;;
  netns-down) cmd_netns_down ;;
  exec)
    shift
    cmd_exec "$@"
    ;;
  run)
    shift
    cmd_run "$@"
    ;;
  summary)
    shift
    cmd_summary "$@"
    ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
