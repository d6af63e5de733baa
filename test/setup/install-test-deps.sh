#!/bin/sh
# What `npm test` needs beyond npm, installed by the test command itself (npm runs this as `pretest`):
#   - Debian's chromium, for the backtest report page test (test/backtest/report/report-page.browser.test.ts);
#   - redis-server, for the shared rate budget tests that start and kill a Redis of their own, and the
#     distributed-sweep tests when no Redis answers at REDIS_URL.
# CI runs as root on Debian, so a fresh machine gets them from apt. Elsewhere (not root, no apt) it says what is
# missing; the tests that need it are then skipped with a message, and everything else runs.
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v redis-server >/dev/null 2>&1 || need="$need redis-server"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "npm test: installing$need from Debian's packages"
  if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need); then
    echo "npm test: could not install$need; the tests that need it will be skipped"
  fi
else
  echo "npm test: missing$need (root and apt-get install it); the tests that need it will be skipped"
fi
exit 0
