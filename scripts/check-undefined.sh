#!/bin/sh
# The C library uses nothing from the system but what randp needs: the
# getrandom system call, memory mapping, pthread keys, write/abort for its one
# failure message, the compiler's memcpy/memset, and getauxval (the CPU's
# AES instructions on aarch64, found through AT_HWCAP). Checks the undefined
# symbols of each static archive or shared object given against that list,
# and that a shared object needs no library but libc.
#
# Usage: [RANDP_LIBC_SONAME=libc.so] scripts/check-undefined.sh LIB...
# (libc's SONAME: libc.so.6 for glibc, the default; libc.so for musl.)
set -eu

libc_soname=${RANDP_LIBC_SONAME:-libc.so.6}

allowed='__errno_location abort getauxval madvise memcpy memset mlock mmap munmap pthread_key_create pthread_key_delete pthread_setspecific syscall write'
# Weak references every shared object carries from crtbegin/crtend.
weak_ok='_ITM_deregisterTMCloneTable _ITM_registerTMCloneTable __cxa_finalize __gmon_start__'

status=0
for lib in "$@"; do
	case $lib in
	*.so*) syms=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | sed 's/@.*//') ;;
	*) syms=$(nm -u "$lib" 2>/dev/null | awk 'NF == 2 {print $2}') ;;
	esac
	for s in $syms; do
		case " $allowed $weak_ok " in
		*" $s "*) ;;
		*) echo "check-undefined: $lib needs $s, which is not on the allow-list" >&2; status=1 ;;
		esac
	done
	case $lib in
	*.so*)
		needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
		[ "$needed" = "$libc_soname " ] || { echo "check-undefined: $lib needs $needed, not only $libc_soname" >&2; status=1; }
		;;
	esac
	[ $status -eq 0 ] && echo "check-undefined: $lib needs only: $(echo $syms | tr '\n' ' ')"
done
exit $status
