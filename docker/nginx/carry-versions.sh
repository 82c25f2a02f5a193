#!/bin/sh
# Assembles the web root of a front-end image: the new build's version folder plus the versions the
# previous image carried, so that during a rolling update every pod, old or new, serves every version a
# remotes.json (or the shell-release) may name. Run by docker/frontend.Dockerfile; runs anywhere with a
# POSIX shell, diff and GNU sort (the Debian build stage).
#   carry-versions.sh <site> <version> <previous-root> <keep>
#   site:          the web root being built; holds <version>/ (the new build) already
#   previous-root: the previous image's web root (an empty folder or a stock nginx root when none)
#   keep:          how many versions to keep at most, the new one included (the oldest go first)
set -eu

site=$1
version=$2
previous=$3
keep=$4

is_version() {
  printf '%s\n' "$1" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$'
}

is_version "$version" || { echo "Not a version: $version" >&2; exit 1; }
[ -d "$site/$version" ] || { echo "The build of $version is missing from $site" >&2; exit 1; }
case $keep in '' | *[!0-9]* | 0) echo "KEEP_VERSIONS must be a whole number above 0: $keep" >&2; exit 1 ;; esac

for folder in "$previous"/*/; do
  [ -d "$folder" ] || continue
  name=$(basename "$folder")
  is_version "$name" || continue
  if [ "$name" = "$version" ]; then
    # The same version published again must be the same files: a changed build under a published version
    # would break browsers that cached it for a year. Rebuilding a commit gives identical files, except
    # the build statistics (mf-stats.json lists modules in no fixed order; no browser reads it).
    if ! diff -r -x 'mf-stats.json*' "$folder" "$site/$version" >/dev/null; then
      echo "Version $version is already published with different files: raise the version in package.json." >&2
      exit 1
    fi
    continue
  fi
  cp -a "$folder" "$site/$name"
done

# Keep the newest versions; never drop the new one. Version order puts a prerelease before its release
# (0.2.0-rc.1 < 0.2.0): GNU sort -V does so for "~", hence the swap around it.
versions=$(for folder in "$site"/*/; do
  name=$(basename "$folder")
  if is_version "$name"; then printf '%s\n' "$name"; fi
done | sed 's/-/~/' | sort -V | sed 's/~/-/')
count=$(printf '%s\n' "$versions" | grep -c .)
for name in $versions; do
  [ "$count" -gt "$keep" ] || break
  if [ "$name" != "$version" ]; then
    rm -rf "${site:?}/$name"
    count=$((count - 1))
  fi
done
echo "Serving versions:"
printf '%s\n' "$versions" | while read -r name; do if [ -d "$site/$name" ]; then echo "  $name"; fi; done
