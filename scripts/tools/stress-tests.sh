#!/usr/bin/env bash
# Runs the jest suite N times while K processes burn CPU beside it, and prints passed/failed per run:
# a test that depends on machine speed or wall-clock order shows up here before it flakes in CI.
#
#   scripts/tools/stress-tests.sh [RUNS] [BURNERS] [-- extra jest arguments]
#   npm run test:stress -- 5 2
#
# Defaults: 5 runs, 2 burners. Bounded: each burner is a `node -e` busy loop that ends by itself after
# STRESS_BURN_SECONDS (default 1800 s) and is killed when the script exits, however it exits; each
# jest run is bounded by STRESS_RUN_SECONDS (default 1200 s). Nothing here touches the network.
set -uo pipefail
cd "$(dirname "$0")/../.."

runs="${1:-5}"
burners="${2:-2}"
shift $(( $# >= 2 ? 2 : $# ))
[[ "${1:-}" == "--" ]] && shift
burn_seconds="${STRESS_BURN_SECONDS:-1800}"
run_seconds="${STRESS_RUN_SECONDS:-1200}"
logs="$(mktemp -d "${TMPDIR:-/tmp}/stress-tests.XXXXXX")"

pids=()
jest_pid=""
stop_burners() {
	# The jest run too: `timeout` forwards the signal to it (an interrupted stress run leaves nothing).
	[[ -n "$jest_pid" ]] && kill "$jest_pid" 2>/dev/null
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
	wait 2>/dev/null
}
trap stop_burners EXIT
trap 'exit 130' INT TERM

for ((i = 0; i < burners; i++)); do
	node -e "const end = Date.now() + ${burn_seconds} * 1000; let x = 0; while (Date.now() < end) x = (x * 31 + 7) % 1000003;" &
	pids+=("$!")
done
echo "[stress] ${burners} CPU burners started (pids ${pids[*]:-none}); ${runs} jest runs; logs in ${logs}"

passed=0
failed=0
for ((run = 1; run <= runs; run++)); do
	log="${logs}/run-${run}.log"
	started=$SECONDS
	# In the background and waited for, so an INT/TERM is handled at once, not after the run.
	timeout "${run_seconds}" npx jest --ci "$@" > "$log" 2>&1 &
	jest_pid=$!
	if wait "$jest_pid"; then
		result=passed
		passed=$((passed + 1))
	else
		result=FAILED
		failed=$((failed + 1))
	fi
	jest_pid=""
	summary="$(grep -E '^Tests:' "$log" | tail -n 1)"
	echo "[stress] run ${run}/${runs}: ${result} in $((SECONDS - started)) s — ${summary:-no summary (see ${log})}"
	if [[ "$result" == FAILED ]]; then
		grep -E '^\s+● ' "$log" | sort -u | head -n 20 | sed 's/^/[stress]     /'
	fi
done

echo "[stress] ${passed} passed, ${failed} failed (jest runs with ${burners} CPU burners beside them)"
[[ "$failed" -eq 0 ]]
