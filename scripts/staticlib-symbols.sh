#!/bin/sh
# Prints the defined global symbols of a static archive, object or shared
# library, one name per line, sorted and unique.
#
# Usage: scripts/staticlib-symbols.sh FILE
#
# Rust objects carry embedded LLVM bitcode (.llvmbc); binutils would hand them
# to an installed LTO plugin (which may not read rustc's LLVM version) and then
# list no symbols at all. Naming the object format explicitly keeps nm on the
# ELF symbol table.
set -eu

file=$1
NM=${NM:-nm}
OBJDUMP=${OBJDUMP:-objdump}

format=$("$OBJDUMP" -a "$file" 2>/dev/null | sed -n 's/.*file format //p' | grep -v '^plugin$' | head -n 1)
if [ -z "$format" ]; then
	echo "staticlib-symbols: cannot tell the object format of $file" >&2
	exit 1
fi

case $file in
*.so | *.so.*) dyn=-D ;;
*) dyn=-g ;;
esac

# Lines are "ADDRESS TYPE NAME"; archive member headers and blank lines drop out.
"$NM" --target="$format" "$dyn" --defined-only "$file" 2>/dev/null |
	awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u
