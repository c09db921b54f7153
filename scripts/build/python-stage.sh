#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Put Debian's Python 3 into a stage tree for the VM's initramfs, with
# only the modules some scripts need: the closure modulefinder finds from
# them (plus site and the codecs Python loads by name at startup), each
# file at its own path, not the whole standard library (a few MB instead
# of 50 in every boot of the VM).  Used by ynl-stage.sh and
# opae-admin-stage.sh.
#
# The extension modules are made executable, as shared objects are on
# many systems: mkinitramfs.sh then copies the libraries each needs
# (libffi, libcrypto, ...), as for every executable ELF file of a stage.
#
# usage: python-stage.sh ROOT [--path DIR]... [--exclude MODULE]... SCRIPT...
#   --path DIR: where the scripts' own modules are (searched first; a
#   folder of DIR without __init__.py is taken for a namespace package)
#   --exclude MODULE: a module the scripts import but never need in the VM
set -eu

[ $# -ge 2 ] || { echo "usage: $0 ROOT [--path DIR]... [--exclude MODULE]... SCRIPT..." >&2; exit 2; }
root=$1
shift
python=/usr/bin/python3
pyver=$($python -c 'import sys; print("python%d.%d" % sys.version_info[:2])')

mkdir -p "$root/usr/bin"
cp -L "$(readlink -f $python)" "$root/usr/bin/$pyver"
ln -sf "$pyver" "$root/usr/bin/python3"

$python - "$@" > "$root/.python-modules" <<'EOF'
import modulefinder
import os
import sys

paths, excludes, scripts = [], [], []
args = iter(sys.argv[1:])
for arg in args:
    if arg == '--path':
        paths.append(next(args))
    elif arg == '--exclude':
        excludes.append(next(args))
    else:
        scripts.append(arg)
finder = modulefinder.ModuleFinder(path=paths + sys.path, excludes=excludes)
# modulefinder does not find a namespace package (no __init__.py) itself
for path in paths:
    for name in os.listdir(path):
        pkg = os.path.join(path, name)
        if os.path.isdir(pkg) and name.isidentifier() and \
                not os.path.exists(os.path.join(pkg, '__init__.py')):
            finder.add_module(name).__path__ = [pkg]
for script in scripts:
    finder.run_script(script)
for name in ('site', 'encodings.utf_8', 'encodings.ascii',
             'encodings.latin_1'):
    finder.import_hook(name)
for mod in finder.modules.values():
    path = mod.__file__
    if path and path.startswith('/usr/lib/'):
        print(path)
EOF
while read -r f; do
	mkdir -p "$root$(dirname "$f")"
	cp "$f" "$root$f"
	case "$f" in *.so) chmod 0755 "$root$f" ;; esac
done < "$root/.python-modules"
rm "$root/.python-modules"
# The landmark Python finds its platform directory by
mkdir -p "$root/usr/lib/$pyver/lib-dynload"
