#!/usr/bin/env bash
# Installs and starts what the tests need beyond npm: Debian's Chromium and Firefox ESR, Dovecot,
# clamd, nginx and a local PostgreSQL.
# Idempotent; run as root (CI does). Prints the TEST_DATABASE_URL to use.
set -euo pipefail

need_update=1
apt_install() {
  if [ "$need_update" = 1 ]; then apt-get update -qq; need_update=0; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! [ -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium..."
  apt_install chromium
fi

# Firefox ESR for the browser tests of the forms behind mailed links (tests/e2e/*.firefox.spec.ts).
if ! [ -x /usr/bin/firefox-esr ]; then
  echo "installing Debian's firefox-esr..."
  apt_install firefox-esr
fi

# Dovecot, the IMAP server the mailbox reader's tests start on loopback with their own configuration
# (tests/support/imap.ts); the package's own service is not used.
if ! [ -x /usr/sbin/dovecot ]; then
  echo "installing Debian's dovecot-imapd..."
  apt_install dovecot-imapd
  (service dovecot stop || true) >/dev/null 2>&1
fi

# clamd, the antivirus the upload tests start with their own configuration and a signature database
# made for the test (tests/support/clamd.ts): the package's services are not used, and freshclam is
# never run (the public signatures cannot be downloaded here).
if ! [ -x /usr/sbin/clamd ]; then
  echo "installing Debian's clamav-daemon..."
  apt_install clamav-daemon
  (systemctl disable --now clamav-daemon.socket clamav-daemon clamav-freshclam) >/dev/null 2>&1 || true
  (service clamav-daemon stop; service clamav-freshclam stop) >/dev/null 2>&1 || true
fi

# nginx for the rolling-restart test (a reverse proxy in front of two instances); not started here.
if ! [ -x /usr/sbin/nginx ]; then
  echo "installing Debian's nginx-light..."
  apt_install nginx-light
  # The package starts a server on port 80; the tests run their own with their own configuration.
  (systemctl disable --now nginx || service nginx stop || nginx -s quit) >/dev/null 2>&1 || true
fi

if ! compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null; then
  echo "installing Debian's postgresql..."
  apt_install postgresql
fi

# Start the first cluster (create one if none exists).
if ! pg_lsclusters -h | grep -q .; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  pg_createcluster "$version" main >/dev/null
fi
read -r version cluster port status _ < <(pg_lsclusters -h | head -n 1)
if [ "$status" != "online" ]; then
  pg_ctlcluster "$version" "$cluster" start
fi
for _ in $(seq 1 30); do
  if pg_isready -q -h 127.0.0.1 -p "$port"; then break; fi
  sleep 1
done
pg_isready -h 127.0.0.1 -p "$port"
su postgres -c "psql -q -p $port -c \"alter user postgres password 'postgres'\"" >/dev/null
echo "TEST_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:$port/postgres"
