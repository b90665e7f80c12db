/* The vDSO getrandom protocol (see vdso_getrandom.h): find the symbol through
 * the vDSO's ELF image at getauxval(AT_SYSINFO_EHDR); call it once with
 * opaque_len == ~0UL to learn the size of one state and how to map it; map a
 * state per thread with exactly that protection and those flags; then call
 * it as getrandom(buf, n, 0) with the state. */
#define _GNU_SOURCE
#include "vdso_getrandom.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*vgetrandom_fn)(void *buf, size_t len, unsigned int flags, void *opaque, size_t opaque_len);

/* The kernel's struct vgetrandom_opaque_params (include/uapi/linux/random.h). */
struct opaque_params {
	uint32_t size_of_opaque_state;
	uint32_t mmap_prot;
	uint32_t mmap_flags;
	uint32_t reserved[13];
};

static vgetrandom_fn vgetrandom;
static struct opaque_params params;
static _Thread_local void *thread_state;

/* The address of a dynamic symbol of the vDSO image mapped at base, read
 * from its section headers (the whole image is mapped, headers included). */
static void *vdso_symbol(uintptr_t base, const char *name)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* Load bias: where the first PT_LOAD's file offset lands in memory. */
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	intptr_t bias = 0;
	int found_load = 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD) {
			bias = (intptr_t)base + (intptr_t)ph[i].p_offset - (intptr_t)ph[i].p_vaddr;
			found_load = 1;
			break;
		}
	}
	if (!found_load)
		return NULL;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(base + sh[i].sh_offset);
		const char *str = (const char *)(base + sh[sh[i].sh_link].sh_offset);
		size_t count = sh[i].sh_size / sizeof(Elf64_Sym);
		for (size_t j = 0; j < count; j++) {
			if (ELF64_ST_TYPE(sym[j].st_info) == STT_FUNC && sym[j].st_shndx != SHN_UNDEF &&
			    strcmp(str + sym[j].st_name, name) == 0)
				return (void *)(bias + (intptr_t)sym[j].st_value);
		}
	}
	return NULL;
}

int vdso_getrandom_init(const char **why)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (base == 0) {
		*why = "no vDSO mapped (AT_SYSINFO_EHDR is 0)";
		return -1;
	}
	vgetrandom = (vgetrandom_fn)vdso_symbol(base, "__vdso_getrandom");
	if (vgetrandom == NULL) {
		*why = "the vDSO has no __vdso_getrandom (Linux 6.11 or later needed)";
		return -1;
	}
	if (vgetrandom(NULL, 0, 0, &params, ~0UL) != 0 || params.size_of_opaque_state == 0) {
		vgetrandom = NULL;
		*why = "__vdso_getrandom refused to describe its state";
		return -1;
	}
	return 0;
}

void vdso_getrandom_fill(void *buf, size_t n)
{
	if (vgetrandom == NULL) {
		fputs("vdso_getrandom_fill: vdso_getrandom_init did not succeed\n", stderr);
		abort();
	}
	if (thread_state == NULL) {
		/* One page holds a state; a state must not straddle pages. */
		long page = sysconf(_SC_PAGESIZE);
		if (params.size_of_opaque_state > (size_t)page)
			abort();
		void *p = mmap(NULL, (size_t)page, (int)params.mmap_prot, (int)params.mmap_flags, -1, 0);
		if (p == MAP_FAILED) {
			perror("vdso_getrandom_fill: mmap");
			abort();
		}
		thread_state = p;
	}
	unsigned char *out = buf;
	while (n > 0) {
		ssize_t got = vgetrandom(out, n, 0, thread_state, params.size_of_opaque_state);
		if (got <= 0) {
			fprintf(stderr, "vdso_getrandom_fill: __vdso_getrandom returned %zd\n", got);
			abort();
		}
		out += got;
		n -= (size_t)got;
	}
}
