#!/usr/bin/env bash
# Installs three real web applications from Debian packages, populates each with about 300
# articles of real text (Debian's manual pages, several revisions each, links between them),
# and serves them on loopback, each on its own port:
#
#   WordPress (MariaDB, lighttpd with php-cgi)   http://127.0.0.1:8081/
#   Fossil (its built-in server)                 http://127.0.0.1:8082/
#   gitweb (FastCGI under lighttpd)              http://127.0.0.1:8083/
#
# For each app it writes $STATE/apps/APP/{seed,truth,articles}: the seed URL, the CSS selector
# of the app's main-content element (sitebench run -truth) and the canonical URL of each
# article. Needs root (apt-get, services). Idempotent: a second run installs and populates
# nothing and only starts what is not running. No systemd is needed: the script starts the
# database and the servers itself (run it again after a reboot).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
STATE=${SITEBENCH_STATE:-/var/lib/sitebench}
LOGS=/var/log/sitebench
ETC=/etc/sitebench
WP_PORT=8081 FOSSIL_PORT=8082 GITWEB_PORT=8083

[ "$(id -u)" = 0 ] || { echo "setup.sh: run as root" >&2; exit 1; }
mkdir -p "$STATE/apps"/{wordpress,fossil,gitweb} "$STATE/corpus" "$LOGS" "$ETC"
install -d -o www-data -g www-data "$LOGS/lighttpd" /run/sitebench

log() { echo "setup.sh: $*" >&2; }
# running PIDFILE: whether the process of PIDFILE runs.
running() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# answers URL: waits up to 30 s for URL to answer with status 200.
answers() {
  for _ in $(seq 60); do
    if /usr/bin/python3 -c 'import sys, urllib.request; sys.exit(urllib.request.urlopen(sys.argv[1], timeout=10).status != 200)' "$1" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  log "$1 does not answer"; return 1
}

# --- packages --------------------------------------------------------------------------------
packages=(lighttpd php-cgi php php-cli php-mysql mariadb-server mariadb-client wordpress
  wordpress-theme-twentytwentythree fossil gitweb libcgi-fast-perl git manpages manpages-dev man-db
  bsdextrautils python3 faketime)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  apt-get update -qq
  # Services are started below, by this script, not by the packages' scripts.
  created_policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >"$LOGS/apt.log"
  [ -z "$created_policy" ] || rm -f /usr/sbin/policy-rc.d
fi

# --- text ------------------------------------------------------------------------------------
# WordPress: the first 300 pages of section 3 (library functions); Fossil: the next 300;
# gitweb: the pages of section 2 (system calls).
corpus() { # name package sections skip count
  [ -s "$STATE/corpus/$1.json" ] || /usr/bin/python3 "$here/corpus.py" corpus "$2" "$3" "$4" "$5" "$STATE/corpus/$1.json.tmp"
  [ -s "$STATE/corpus/$1.json" ] || mv "$STATE/corpus/$1.json.tmp" "$STATE/corpus/$1.json"
}
corpus wordpress manpages-dev 3 0 300
corpus fossil manpages-dev 3 300 300
corpus gitweb manpages-dev 2 0 300

# --- MariaDB ---------------------------------------------------------------------------------
if ! mariadb-admin ping >/dev/null 2>&1; then
  log "starting MariaDB"
  install -d -o mysql -g mysql /run/mysqld "$LOGS/mariadb"
  setsid mysqld_safe --skip-syslog --log-error="$LOGS/mariadb/error.log" >/dev/null 2>&1 < /dev/null &
  for _ in $(seq 60); do mariadb-admin ping >/dev/null 2>&1 && break; sleep 0.5; done
  mariadb-admin ping >/dev/null
fi
mariadb -e "CREATE DATABASE IF NOT EXISTS wordpress; CREATE USER IF NOT EXISTS 'wordpress'@'localhost' IDENTIFIED BY 'sitebench'; GRANT ALL ON wordpress.* TO 'wordpress'@'localhost';"

# --- WordPress -------------------------------------------------------------------------------
if [ ! -e /etc/wordpress/config-127.0.0.1.php ]; then
  # Keys and salts from the machine's random source, once.
  salt() { head -c 48 /dev/urandom | base64 | tr -d '\n/+='; }
  cat > /etc/wordpress/config-127.0.0.1.php <<EOF
<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', 'sitebench');
define('DB_HOST', 'localhost');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('AUTH_KEY', '$(salt)');
define('SECURE_AUTH_KEY', '$(salt)');
define('LOGGED_IN_KEY', '$(salt)');
define('NONCE_KEY', '$(salt)');
define('AUTH_SALT', '$(salt)');
define('SECURE_AUTH_SALT', '$(salt)');
define('LOGGED_IN_SALT', '$(salt)');
define('NONCE_SALT', '$(salt)');
\$table_prefix = 'wp_';
define('WP_DEBUG', false);
define('WP_CONTENT_DIR', '/var/lib/wordpress/wp-content');
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
EOF
  chgrp www-data /etc/wordpress/config-127.0.0.1.php && chmod 640 /etc/wordpress/config-127.0.0.1.php
fi
[ -s "$STATE/apps/wordpress/articles" ] ||
  php "$here/wordpress.php" "$WP_PORT" "$STATE/corpus/wordpress.json" "$STATE/apps/wordpress/articles"

cat > "$ETC/lighttpd-wordpress.conf" <<EOF
server.modules = ("mod_access", "mod_alias", "mod_rewrite", "mod_fastcgi")
server.bind = "127.0.0.1"
server.port = $WP_PORT
server.document-root = "/usr/share/wordpress"
server.pid-file = "/run/sitebench-wordpress.pid"
server.errorlog = "$LOGS/lighttpd/wordpress-error.log"
server.username = "www-data"
server.groupname = "www-data"
index-file.names = ("index.php")
include_shell "/usr/share/lighttpd/create-mime.conf.pl"
alias.url = ("/wp-content/" => "/var/lib/wordpress/wp-content/")
fastcgi.server = (".php" => ((
  "bin-path" => "/usr/bin/php-cgi",
  "socket" => "/run/sitebench/php.sock",
  "max-procs" => 4,
  "bin-environment" => ("PHP_FCGI_CHILDREN" => "0", "PHP_FCGI_MAX_REQUESTS" => "10000"),
)))
# Pretty permalinks: what is not a file goes to index.php, which reads REQUEST_URI.
url.rewrite-if-not-file = ("^/(wp-admin|wp-includes|wp-content)/" => "\$0", "^/(.*)\$" => "/index.php/\$1")
EOF

# --- gitweb ----------------------------------------------------------------------------------
if [ ! -d "$STATE/git/docs.git" ]; then
  rm -rf "$STATE/git"
  /usr/bin/python3 "$here/corpus.py" git "$STATE/git-work" "$STATE/corpus/gitweb.json"
  git clone -q --bare "$STATE/git-work" "$STATE/git/docs.git.tmp"
  echo "Notes on Linux system calls, from their manual pages" > "$STATE/git/docs.git.tmp/description"
  mv "$STATE/git/docs.git.tmp" "$STATE/git/docs.git"
  rm -rf "$STATE/git-work"
fi
cat > "$ETC/gitweb.conf" <<EOF
\$projectroot = "$STATE/git";
\$git_temp = "/tmp";
\$site_name = "docs";
@stylesheets = ("static/gitweb.css");
\$javascript = "static/gitweb.js";
\$logo = "static/git-logo.png";
\$favicon = "static/git-favicon.png";
# Under FastCGI gitweb ends its process after 100 requests, and lighttpd fails the requests it
# has queued to that process: keep serving.
\$is_last_request = sub { 0 } if \$CGI eq 'CGI::Fast';
EOF
# gitweb runs as FastCGI (gitweb.cgi --fastcgi, CGI::Fast): the pages of CGI, in a third of the
# time, since the script is not compiled for every request; the one difference is a hidden
# .cgifields input that CGI::Fast adds to the search form of the header, outside the truth and
# without text or links. A running server whose configuration this changes is restarted.
gitweb_conf=$(cat <<EOF
server.modules = ("mod_access", "mod_alias", "mod_fastcgi", "mod_setenv")
server.bind = "127.0.0.1"
server.port = $GITWEB_PORT
server.document-root = "/usr/share/gitweb"
server.pid-file = "/run/sitebench-gitweb.pid"
server.errorlog = "$LOGS/lighttpd/gitweb-error.log"
server.username = "www-data"
server.groupname = "www-data"
index-file.names = ("gitweb.cgi")
include_shell "/usr/share/lighttpd/create-mime.conf.pl"
fastcgi.server = (".cgi" => ((
  "socket" => "/run/sitebench/gitweb.sock",
  "bin-path" => "/usr/share/gitweb/gitweb.cgi --fastcgi",
  "max-procs" => 2,
  "check-local" => "disable"
)))
# gitweb reads its configuration from the first request's environment, not its own.
setenv.add-environment = ("GITWEB_CONFIG" => "$ETC/gitweb.conf")
EOF
)
if [ "$(cat "$ETC/lighttpd-gitweb.conf" 2>/dev/null)" != "$gitweb_conf" ]; then
  echo "$gitweb_conf" > "$ETC/lighttpd-gitweb.conf"
  if running /run/sitebench-gitweb.pid; then
    log "restarting lighttpd for gitweb with its new configuration"
    kill "$(cat /run/sitebench-gitweb.pid)"
    for _ in $(seq 20); do running /run/sitebench-gitweb.pid || break; sleep 0.5; done
  fi
fi
git config --system --get-all safe.directory 2>/dev/null | grep -qx "$STATE/git/docs.git" ||
  git config --system --add safe.directory "$STATE/git/docs.git"

# --- Fossil ----------------------------------------------------------------------------------
FOSSIL_REPO=$STATE/fossil/docs.fossil
if [ ! -s "$FOSSIL_REPO" ]; then
  rm -rf "$STATE/fossil" && mkdir -p "$STATE/fossil"
  USER=admin fossil new --date-override "2019-01-01T00:00:00" "$FOSSIL_REPO.tmp" >/dev/null
  USER=admin /usr/bin/python3 "$here/corpus.py" fossil "$FOSSIL_REPO.tmp" "$STATE/corpus/fossil.json"
  # A public read-only site: nobody may read the wiki, tickets and files, clone, download
  # archives, and see hyperlinks (h), so that a crawler without JavaScript finds the links;
  # without h, Fossil shows links only to clients that look human (auto-hyperlink).
  fossil user capabilities nobody ghjorz -R "$FOSSIL_REPO.tmp" >/dev/null
  fossil user capabilities anonymous ghjorz -R "$FOSSIL_REPO.tmp" >/dev/null
  fossil sqlite3 -R "$FOSSIL_REPO.tmp" "REPLACE INTO config(name,value,mtime) VALUES('project-name','Library notes',now()),('project-description','Notes on the C library, from its manual pages',now());" >/dev/null
  mv "$FOSSIL_REPO.tmp" "$FOSSIL_REPO"
  rm -rf "$FOSSIL_REPO.tmp.checkout"
fi
/usr/bin/python3 - "$STATE/corpus/fossil.json" "$FOSSIL_PORT" > "$STATE/apps/fossil/articles" <<'EOF'
import json, sys, urllib.parse
for a in json.load(open(sys.argv[1])):
    print("http://127.0.0.1:%s/wiki?name=%s" % (sys.argv[2], urllib.parse.quote("%s(%s)" % (a["name"], a["section"]))))
EOF
/usr/bin/python3 - "$STATE/corpus/gitweb.json" "$GITWEB_PORT" > "$STATE/apps/gitweb/articles" <<'EOF'
import json, sys
for a in json.load(open(sys.argv[1])):
    print("http://127.0.0.1:%s/?p=docs.git;a=blob;f=man%s/%s.txt;hb=HEAD" % (sys.argv[2], a["section"], a["name"]))
EOF

# --- servers ---------------------------------------------------------------------------------
running /run/sitebench-wordpress.pid || { log "starting lighttpd for WordPress"; lighttpd -f "$ETC/lighttpd-wordpress.conf"; }
running /run/sitebench-gitweb.pid || { log "starting lighttpd for gitweb"; lighttpd -f "$ETC/lighttpd-gitweb.conf"; }
if ! running /run/sitebench-fossil.pid; then
  log "starting fossil server"
  setsid fossil server --localhost --port "$FOSSIL_PORT" "$FOSSIL_REPO" >"$LOGS/fossil.log" 2>&1 < /dev/null &
  echo $! > /run/sitebench-fossil.pid
fi

echo "http://127.0.0.1:$WP_PORT/" > "$STATE/apps/wordpress/seed"
echo "http://127.0.0.1:$FOSSIL_PORT/" > "$STATE/apps/fossil/seed"
echo "http://127.0.0.1:$GITWEB_PORT/" > "$STATE/apps/gitweb/seed"
# The main-content elements, chosen from each app's HTML (see the README).
# WordPress (Twenty Twenty-Three): a post's content, or the list of posts of a listing page;
# not the comments and the reply form, whose heading names the comment replied to.
echo "main .wp-block-post-content, main .wp-block-query" > "$STATE/apps/wordpress/truth"
# Fossil: the content below the menu; the login page's captcha changes on every fetch.
echo "div.content" > "$STATE/apps/fossil/truth"
echo "div.captcha" > "$STATE/apps/fossil/ignore"
# gitweb: the body of a blob, commit, tree or diff; listing pages have none and are scored by
# their whole text.
echo "div.page_body" > "$STATE/apps/gitweb/truth"

for app in wordpress fossil gitweb; do
  answers "$(cat "$STATE/apps/$app/seed")"
  answers "$(head -1 "$STATE/apps/$app/articles")"
  log "$app: $(cat "$STATE/apps/$app/seed") answers, $(wc -l < "$STATE/apps/$app/articles") articles"
done
