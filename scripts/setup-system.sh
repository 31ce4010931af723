#!/usr/bin/env bash
# Installs the system packages the end-to-end tests need, once, on Debian or Ubuntu (as root, or
# with sudo): Chromium, which drives n8n's editor (npm run test:e2e); PostgreSQL and Redis, n8n's
# database and queue in queue mode; nginx, the front door in front of n8n and its webhook
# processors (npm run test:queue, test:upgrade and bench:flood start their own servers on free
# loopback ports); dnsmasq (dnsmasq-base: the program, no system service), the name server
# test:upgrade's re-created round moves n8n behind; and Caddy, the other front door it tests.
# `.ci/run` calls this; tests never install anything and fail at once naming this script when a
# part is missing. Set CHROMIUM_PATH to use a browser you already have instead.
#
# Usage: scripts/setup-system.sh [browser] [servers]: both parts, or only those named. `browser` is
# Chromium; `servers` are PostgreSQL, Redis, nginx, dnsmasq and Caddy (CI's queue job, which needs
# no browser).
set -euo pipefail

declare -A parts=([browser]="chromium" [servers]="postgresql redis-server nginx dnsmasq-base caddy")

packages=()
for part in "${@:-browser servers}"; do
	for name in $part; do
		[ -n "${parts[$name]:-}" ] || { echo "setup-system: no part $name (browser, servers)" >&2; exit 2; }
		read -r -a more <<<"${parts[$name]}"
		packages+=("${more[@]}")
	done
done

missing=()
for package in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "setup-system: already installed: ${packages[*]}"
	exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "setup-system: installing ${missing[*]} with apt-get (about a minute)"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
