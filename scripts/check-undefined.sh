#!/bin/sh
# The C library uses nothing from the system but what randp needs: the
# getrandom system call, memory mapping, pthread keys, write/abort for its one
# failure message, the compiler's memcpy/memset/memmove (memmove: the
# /proc/self/smaps reader's buffer shift), getauxval (the CPU's AES
# instructions on aarch64, found through AT_HWCAP; the largest signal frame,
# AT_MINSIGSTKSZ), sigaltstack (wiping a signal frame there), and glibc's
# restartable-sequence area (__rseq_offset, __rseq_size), which must be weak
# references so that the library links and loads without them (glibc before
# 2.35, musl). Checks the undefined symbols of each static archive or shared
# object given against that list, and that a shared object needs no library
# but libc.
#
# Usage: [RANDP_LIBC_SONAME=libc.so] scripts/check-undefined.sh LIB...
# (libc's SONAME: libc.so.6 for glibc, the default; libc.so for musl.)
# A file nm cannot read, or one with no undefined symbol at all, fails.
set -eu

libc_soname=${RANDP_LIBC_SONAME:-libc.so.6}

allowed='__errno_location abort getauxval madvise memcpy memmove memset mlock mmap munmap pthread_key_create pthread_key_delete pthread_setspecific sigaltstack syscall write'
# Allowed only as weak references (nm type w or v).
weak_only='__rseq_offset __rseq_size'
# Weak references every shared object carries from crtbegin/crtend.
weak_ok='_ITM_deregisterTMCloneTable _ITM_registerTMCloneTable __cxa_finalize __gmon_start__'

[ $# -gt 0 ] || { echo "usage: scripts/check-undefined.sh LIB..." >&2; exit 2; }
status=0
for lib in "$@"; do
	# nm runs on its own, so that a file it cannot read fails the check
	# instead of giving an empty list.
	case $lib in
	*.so*) out=$(nm -D --undefined-only "$lib") || { echo "check-undefined: nm cannot read $lib" >&2; exit 1; }
		list=$(printf '%s\n' "$out" | awk 'NF >= 2 {print $(NF-1) ":" $NF}' | sed 's/@.*//') ;;
	*) out=$(nm -u "$lib") || { echo "check-undefined: nm cannot read $lib" >&2; exit 1; }
		list=$(printf '%s\n' "$out" | awk 'NF == 2 {print $1 ":" $2}') ;;
	esac
	# randp cannot run without the system: no undefined symbol means nm
	# read something else than the library.
	[ -n "$list" ] || { echo "check-undefined: $lib has no undefined symbol; is it randp?" >&2; exit 1; }
	syms=
	for entry in $list; do
		type=${entry%%:*} s=${entry#*:}
		syms="$syms $s"
		case " $allowed $weak_ok " in
		*" $s "*) continue ;;
		esac
		case " $weak_only " in
		*" $s "*)
			case $type in
			w | v) continue ;;
			*) echo "check-undefined: $lib needs $s as a strong reference; it must be weak" >&2; status=1; continue ;;
			esac
			;;
		esac
		echo "check-undefined: $lib needs $s, which is not on the allow-list" >&2
		status=1
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
