use super::*;
use aes::Aes256;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use hex_literal::hex;
use std::boxed::Box;
use std::vec;
use std::vec::Vec;

type Small = Generator<4, 64>;

/// A zeroed (unseeded) generator on the heap.
fn zeroed() -> Box<Small> {
    // SAFETY: all-zero is a valid generator (see the module docs).
    unsafe { Box::<Small>::new_zeroed().assume_init() }
}

/// A generator with a fixed key and reseeding pushed out of reach, so its
/// output is known. Test-only: randp has no seed API.
fn keyed(key: [u8; 32]) -> Box<Small> {
    let g = zeroed();
    // SAFETY: mixing into the zeroed schedule makes `key` the key.
    unsafe { keystream::xor_seed_into_key(g.schedule.get(), &key) };
    g.until_reseed.store(usize::MAX / 2, Relaxed);
    g
}

fn key_of(g: &Small) -> [u8; 32] {
    // SAFETY: reading the generator's own schedule; nothing writes it meanwhile.
    let ks = unsafe { &*g.schedule.get() };
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&ks.current()[0]);
    k[16..].copy_from_slice(&ks.current()[1]);
    k
}

fn fill(g: &Small, dst: &mut [u8]) {
    // SAFETY: `dst` is a valid slice outside the generator.
    unsafe { g.fill(dst.as_mut_ptr(), dst.len()) }
}

/// Blocks `from..from + n` of AES-256 in counter mode under `key`,
/// computed with single block encryptions.
fn ctr_blocks(key: &[u8; 32], from: u128, n: usize) -> Vec<u8> {
    let aes = Aes256::new(key.into());
    (0..n as u128)
        .flat_map(|i| {
            let mut b = (from + i).to_be_bytes().into();
            aes.encrypt_block(&mut b);
            <[u8; 16]>::from(b)
        })
        .collect()
}

/// The first output of a fixed key, as a known answer of the whole
/// construction: AES-256-CTR from counter zero, blocks 0 and 1 the next key.
#[test]
fn fixed_key_known_answer() {
    let key = hex!("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    let g = keyed(key);
    let mut out = [0u8; 16];
    fill(&g, &mut out);
    // AES-256(key, counter block 2), computed independently of this crate.
    assert_eq!(out[..], ctr_blocks(&key, 2, 1)[..]);
    assert_eq!(key_of(&g)[..], ctr_blocks(&key, 0, 2)[..]);
}

#[test]
fn fixed_key_output_follows_fast_key_erasure() {
    let mut key = hex!("8f3a0be6a3d5c2a1f0e1d2c3b4a5968778695a4b3c2d1e0f1122334455667788");
    let g = keyed(key);
    // Three refills' worth of output, read in uneven pieces smaller than the
    // buffer (larger ones would go straight to the caller).
    let mut out = std::vec![0u8; 3 * 64];
    let mut at = 0;
    for len in [5, 50, 60, 63, 14] {
        fill(&g, &mut out[at..at + len]);
        at += len;
    }
    assert_eq!(at, out.len());

    let mut expected = Vec::new();
    for _ in 0..3 {
        let stream = ctr_blocks(&key, 0, 2 + 4);
        expected.extend_from_slice(&stream[32..]);
        key.copy_from_slice(&stream[..32]);
    }
    assert_eq!(out, expected);
    assert_eq!(key_of(&g), key, "the key after three refills is the erasure chain's");
}

#[test]
fn large_requests_go_straight_to_the_caller_one_interval_per_key() {
    let mut key = [7u8; 32];
    let g = keyed(key);
    let mut big = std::vec![0u8; 64 * 5 + 3];
    fill(&g, &mut big);
    // 20 whole blocks straight to the caller, at most one reseed interval
    // (64 bytes here) per key, then 3 bytes from a refill under the next key.
    let mut expected = Vec::new();
    for _ in 0..5 {
        let stream = ctr_blocks(&key, 0, 6);
        expected.extend_from_slice(&stream[32..]);
        key.copy_from_slice(&stream[..32]);
    }
    expected.extend_from_slice(&ctr_blocks(&key, 2, 1)[..3]);
    assert_eq!(big, expected);
}

#[test]
fn large_requests_reseed_at_the_interval() {
    // A zeroed generator: the interval is 64 bytes, so a 256-byte request
    // takes four keys, each from a reseed; no two chunks share a key.
    let g = zeroed();
    let mut big = std::vec![0u8; 256];
    fill(&g, &mut big);
    let mut blocks: Vec<&[u8]> = big.chunks(16).collect();
    blocks.sort();
    blocks.dedup();
    assert_eq!(blocks.len(), 16);
    assert_eq!(g.until_reseed.load(Relaxed), 0);
}

#[test]
fn old_key_is_gone_after_refill_and_read_bytes_are_zero() {
    let key = [0x5au8; 32];
    let g = keyed(key);
    let mut first = [0u8; 24];
    fill(&g, &mut first);

    // SAFETY: reading the generator's own bytes as a byte slice; it is
    // `repr(C)` plain data, outlives the slice, and nothing writes it meanwhile.
    let bytes = unsafe { core::slice::from_raw_parts((&*g as *const Small).cast::<u8>(), size_of::<Small>()) };
    for half in [&key[..16], &key[16..]] {
        assert!(!bytes.windows(16).any(|w| w == half), "no half of the old key is left in the state");
    }
    // SAFETY: as above.
    let buf = unsafe { (*g.buf.get()).0.as_flattened() };
    assert_eq!(buf[..24], [0u8; 24], "handed-out bytes read back as zero");
    assert_ne!(buf[24..], [0u8; 40], "unread bytes are still there");
    assert!(!bytes.windows(24).any(|w| w == first), "output is not kept");
}

/// The word draws (`u8` to `u64`, the bounded draws, `randp_u32` and
/// `randp_u64`) take their bytes with `take`: each hands out the buffer's
/// next bytes and leaves zeroes where they were.
#[test]
fn word_takes_zero_what_they_hand_out() {
    let g = keyed([0x3cu8; 32]);
    let mut first = [0u8; 3];
    fill(&g, &mut first); // a refill; the next unread byte is byte 3
    let buf = |at: usize, n: usize| {
        // SAFETY: reading the generator's own buffer, which nothing writes
        // while the copy is made.
        unsafe { (*g.buf.get()).0.as_flattened()[at..at + n].to_vec() }
    };
    let mut at = 3;
    for n in [8, 4, 2, 1, 8, 1] {
        let before = buf(at, n);
        assert!(before.iter().any(|&b| b != 0), "unread bytes are keystream");
        let got = match n {
            8 => g.take::<8>().map(|w| w.to_vec()),
            4 => g.take::<4>().map(|w| w.to_vec()),
            2 => g.take::<2>().map(|w| w.to_vec()),
            _ => g.take::<1>().map(|w| w.to_vec()),
        };
        assert_eq!(got, Some(before), "take::<{n}> hands out the next {n} bytes");
        assert_eq!(buf(at, n), vec![0u8; n], "take::<{n}> leaves zeroes where its bytes were");
        at += n;
    }
    assert!(buf(at, 16).iter().any(|&b| b != 0), "the bytes after them are untouched");
}

#[test]
fn zeroed_generator_reseeds_before_output() {
    let g = zeroed();
    let mut out = [0u8; 64];
    fill(&g, &mut out);
    let zero_key_stream = ctr_blocks(&[0u8; 32], 2, 4);
    assert_ne!(out[..], zero_key_stream[..], "never output under the all-zero key");
    assert_eq!(g.until_reseed.load(Relaxed), 0);
    assert_ne!(key_of(&g), [0u8; 32]);
    // SAFETY: reading the generator's own seed field.
    assert_eq!(unsafe { *g.seed.get() }, [0u8; 32], "the fresh OS bytes are wiped after use");
}

/// A reseed mixes 32 fresh bytes from the OS into the whole key: on a
/// zeroed generator (a thread's first draw, a forked child) the key is then
/// the seed itself, so neither half may be zero, and no half is shared by
/// two generators. The other tests look at the output or the key after a
/// rotation, which hide how much of the key the OS bytes made: they passed
/// with a reseed that read 16 bytes and left the key's second half zero.
#[test]
fn a_reseed_makes_the_whole_key() {
    let (g, h) = (zeroed(), zeroed());
    g.reseed(None);
    h.reseed(None);
    let (a, b) = (key_of(&g), key_of(&h));
    for half in [0..16, 16..32] {
        assert_ne!(a[half.clone()], [0u8; 16], "key bytes {half:?} were not seeded");
        assert_ne!(a[half.clone()], b[half.clone()], "two generators share key bytes {half:?}");
    }
    // SAFETY: reading the generator's own seed field.
    assert_eq!(unsafe { *g.seed.get() }, [0u8; 32], "the fresh OS bytes are wiped after use");
}

#[test]
fn reseeds_when_interval_is_used_up() {
    let key = [1u8; 32];
    let g = keyed(key);
    g.until_reseed.store(64, Relaxed); // exactly one refill left
    let mut out = [0u8; 128];
    fill(&g, &mut out);
    let chain = ctr_blocks(&key, 0, 6);
    assert_eq!(out[..64], chain[32..], "first buffer still from the old chain");
    let next_key: [u8; 32] = chain[..32].try_into().unwrap();
    assert_ne!(out[64..], ctr_blocks(&next_key, 2, 4)[..], "second buffer after a reseed");
    assert_eq!(g.until_reseed.load(Relaxed), 0);
}

#[test]
fn take_hands_out_each_byte_once() {
    let g = keyed([3u8; 32]);
    let mut via_take = Vec::new();
    for _ in 0..8 {
        via_take.extend_from_slice(&g.take::<8>().unwrap_or_else(|| {
            let mut b = [0; 8];
            fill(&g, &mut b);
            b
        }));
    }
    let h = keyed([3u8; 32]);
    let mut via_fill = [0u8; 64];
    fill(&h, &mut via_fill);
    assert_eq!(via_take, via_fill);
}

#[test]
fn wipe_makes_it_unseeded() {
    let g = keyed([9u8; 32]);
    let mut out = [0u8; 10];
    fill(&g, &mut out);
    g.wipe();
    // SAFETY: reading the generator's own bytes, as above.
    let bytes = unsafe { core::slice::from_raw_parts((&*g as *const Small).cast::<u8>(), size_of::<Small>()) };
    assert!(bytes.iter().all(|&b| b == 0));
}

#[test]
fn debug_hides_state() {
    assert_eq!(std::format!("{:?}", keyed([9; 32])), "Generator { .. }");
}

/// A generator with memory right after it that its buffer may grow into, as
/// a thread's state page has its extension: 4 blocks of buffer and 8 of
/// extension, under a reseed interval that holds both.
#[repr(C)]
struct Extended {
    g: Roomy,
    ext: [u8; 128],
}

type Roomy = Generator<4, 1024>;

/// An `Extended` with a fixed key and reseeding pushed out of reach.
fn extended(key: [u8; 32]) -> Box<Extended> {
    // SAFETY: all-zero is a valid generator and valid bytes.
    let x = unsafe { Box::<Extended>::new_zeroed().assume_init() };
    // SAFETY: mixing into the zeroed schedule makes `key` the key.
    unsafe { keystream::xor_seed_into_key(x.g.schedule.get(), &key) };
    x.g.until_reseed.store(usize::MAX / 2, Relaxed);
    x
}

impl Extended {
    fn attach(&self) {
        const { assert!(core::mem::offset_of!(Extended, ext) == Roomy::BUFFER_END) };
        // SAFETY: `ext` follows the generator's buffer (asserted above) and
        // lives as long as it; 128 bytes are whole blocks and, with the
        // buffer's 64, within the interval.
        unsafe { self.g.attach_extension(128) };
    }

    fn fill(&self, dst: &mut [u8]) {
        // SAFETY: `dst` is a valid slice outside the generator and `ext`.
        unsafe { self.g.fill(dst.as_mut_ptr(), dst.len()) }
    }
}

#[test]
fn an_extension_continues_the_buffer_from_the_next_refill() {
    let mut key = hex!("00112233445566778899aabbccddeeff0f1e2d3c4b5a69788796a5b4c3d2e1f0");
    let x = extended(key);
    assert!(x.g.extension_unasked());
    let mut out = std::vec![0u8; 64 + 2 * 192];
    // The first refill, before the extension is attached: 4 blocks.
    x.fill(&mut out[..10]);
    x.attach();
    assert!(!x.g.extension_unasked());
    assert_eq!(x.g.buffer_len(), 192);
    // The rest of that buffer, then two refills of 12 blocks, in pieces
    // below the size that goes straight to the caller.
    let mut at = 10;
    for len in [54, 63, 63, 63, 63, 63, 63, 6] {
        x.fill(&mut out[at..at + len]);
        at += len;
    }
    assert_eq!(at, out.len());

    let mut expected = Vec::new();
    for blocks in [4, 12, 12] {
        let stream = ctr_blocks(&key, 0, 2 + blocks);
        expected.extend_from_slice(&stream[32..]);
        key.copy_from_slice(&stream[..32]);
    }
    assert_eq!(out, expected, "AES-256-CTR with fast key erasure, over the buffer and its extension");
    assert_eq!(x.ext, [0u8; 128], "every byte handed out from the extension is zeroed there");
}

#[test]
fn unread_bytes_in_the_extension_stay_until_handed_out() {
    let x = extended([4u8; 32]);
    x.attach();
    // Pieces below the buffer's 64 bytes, which would go straight to the caller.
    let mut out = [0u8; 50];
    x.fill(&mut out);
    x.fill(&mut out);
    // 192 bytes per refill: 64 in the buffer, read and zeroed; the first 36
    // of the extension read and zeroed; the other 92 unread.
    // SAFETY: reading the generator's own buffer; nothing writes it meanwhile.
    let buf = unsafe { (*x.g.buf.get()).0.as_flattened() };
    assert_eq!(buf, [0u8; 64]);
    assert_eq!(x.ext[..36], [0u8; 36]);
    assert!(x.ext[36..].iter().any(|&b| b != 0));
    let mut rest = [0u8; 46];
    x.fill(&mut rest);
    x.fill(&mut rest);
    assert_eq!(x.ext, [0u8; 128]);
    assert!(x.g.take::<1>().is_none(), "the buffer is empty after exactly 192 bytes");
}

#[test]
fn no_extension_leaves_the_buffer_its_own_size() {
    let x = extended([5u8; 32]);
    // SAFETY: attaching none asks for no memory.
    unsafe { x.g.attach_extension(0) };
    assert!(!x.g.extension_unasked(), "the answer is recorded");
    assert_eq!(x.g.buffer_len(), 64);
    let mut out = [0u8; 63];
    x.fill(&mut out);
    assert_eq!(x.ext, [0u8; 128], "the memory after the buffer is never written");
    assert_eq!(x.g.counts.load(Relaxed), counts(63, 1), "one refill of the buffer alone");
}

#[test]
fn wipe_zeroes_and_detaches_the_extension() {
    let x = extended([6u8; 32]);
    x.attach();
    let mut out = [0u8; 8];
    x.fill(&mut out);
    assert!(x.ext.iter().any(|&b| b != 0));
    x.g.wipe();
    assert_eq!(x.ext, [0u8; 128], "the extension's unread bytes are zeroed");
    assert!(x.g.extension_unasked(), "the owner asks again after a wipe");
    assert!(!x.g.is_seeded());
    // SAFETY: reading the generator's own bytes, as in `wipe_makes_it_unseeded`.
    let bytes = unsafe { core::slice::from_raw_parts((&x.g as *const Roomy).cast::<u8>(), size_of::<Roomy>()) };
    assert!(bytes.iter().all(|&b| b == 0));
}

#[test]
fn counts_are_one_word_that_a_wipe_zeroes_whole() {
    let x = extended([8u8; 32]);
    x.attach();
    let mut out = [0u8; 8];
    x.fill(&mut out);
    assert_eq!(x.g.counts.load(Relaxed), counts(8, 184), "192 bytes written, the 184 from offset 8 unread");
    // A zeroed word (a wipe, a dropped page) has nothing to hand out.
    x.g.counts.store(0, Relaxed);
    assert!(x.g.take::<8>().is_none());
    let mut dst = [0u8; 16];
    // SAFETY: `dst` is 16 writable bytes outside the generator.
    assert!(!unsafe { x.g.take_bytes(dst.as_mut_ptr(), 16) });
    // SAFETY: as above.
    assert_eq!(unsafe { x.g.take_into(dst.as_mut_ptr(), 16) }, 0);
    assert_eq!(dst, [0u8; 16]);
}

/// A source of "kernel output" that counts its calls and hands out 16
/// bytes of `0x11 * n` at its `n`th call.
#[derive(Default)]
struct CountingMix {
    calls: AtomicUsize,
}

impl KernelMix for CountingMix {
    fn available(&self) -> bool {
        true
    }

    unsafe fn fresh(&self, dst: *mut u8) -> bool {
        let n = self.calls.fetch_add(1, Relaxed) + 1;
        // SAFETY: the caller guarantees 16 writable bytes.
        unsafe { dst.write_bytes(0x11 * n as u8, 16) };
        true
    }
}

type Mixed = Generator<4, { 1 << 20 }, AtomicU64, CountingMix>;

fn mixed(key: [u8; 32]) -> Box<Mixed> {
    // SAFETY: all-zero is a valid generator, and a valid CountingMix.
    let g = unsafe { Box::<Mixed>::new_zeroed().assume_init() };
    // SAFETY: mixing into the zeroed schedule makes `key` the key.
    unsafe { keystream::xor_seed_into_key(g.schedule.get(), &key) };
    g.until_reseed.store(1 << 20, Relaxed);
    g
}

fn fill_mixed(g: &Mixed, dst: &mut [u8]) {
    // SAFETY: `dst` is a valid slice outside the generator.
    unsafe { g.fill(dst.as_mut_ptr(), dst.len()) }
}

/// Every refill first XORs the source's 16 bytes into the key's first half:
/// its output is AES-256-CTR under that key, and the chain goes on from it.
#[test]
fn each_refill_mixes_the_kernel_output_into_the_key_first() {
    let mut key = [0x3cu8; 32];
    let g = mixed(key);
    // Three refills of 64 bytes, each read in two pieces (below the
    // buffer's size, so served from it).
    let mut out = [0u8; 3 * 64];
    for (n, refill) in out.chunks_mut(64).enumerate() {
        for piece in refill.chunks_mut(32) {
            fill_mixed(&g, piece);
        }
        assert_eq!(g.mix.calls.load(Relaxed), n + 1, "one mix per refill");
    }
    let mut expected = Vec::new();
    for n in 1..=3u8 {
        key[..16].iter_mut().for_each(|b| *b ^= 0x11 * n);
        let stream = ctr_blocks(&key, 0, 2 + 4);
        expected.extend_from_slice(&stream[32..]);
        key.copy_from_slice(&stream[..32]);
    }
    assert_eq!(out[..], expected[..]);
    // SAFETY: reading the generator's own seed field.
    assert_eq!(unsafe { *g.seed.get() }, [0; 32], "the mixed bytes are zeroed after use");
}

/// Direct output: at most MIX_DIRECT bytes per key, and a mix before any
/// key that would take the direct output since the last mix past it.
#[test]
fn direct_output_mixes_at_least_once_per_interval() {
    let g = mixed([9; 32]);
    let mut big = vec![0u8; 4 * MIX_DIRECT];
    fill_mixed(&g, &mut big);
    // Four keys of 64 KiB: the first follows no direct output, the next
    // three each would take it past the interval.
    assert_eq!(g.mix.calls.load(Relaxed), 3);
    assert_eq!(g.until_reseed.load(Relaxed), (1 << 20) - 4 * MIX_DIRECT);
    let mut page = vec![0u8; 4096];
    for i in 1..=32 {
        fill_mixed(&g, &mut page);
        // 4 KiB calls: the 64 KiB since the last mix are used up at once,
        // then one mix per 16 calls.
        let want = 3 + 1 + (i - 1) / 16;
        assert_eq!(g.mix.calls.load(Relaxed), want, "after {i} direct fills of 4 KiB");
    }
}

/// A VM generation counter that the test sets (0: none, unless `zero`
/// says it reads 0).
#[derive(Default)]
struct GenerationSource {
    value: AtomicU64,
    zero: core::sync::atomic::AtomicBool,
}

impl KernelMix for GenerationSource {
    fn available(&self) -> bool {
        false
    }

    unsafe fn fresh(&self, _dst: *mut u8) -> bool {
        false
    }

    fn vm_generation(&self) -> Option<u64> {
        Some(self.value.load(Relaxed)).filter(|&g| g != 0 || self.zero.load(Relaxed))
    }
}

type Generational = Generator<4, 1024, AtomicU64, GenerationSource>;

/// A seeded generator (through its first reseed) that recorded
/// generation 5, with its buffer full.
fn generational() -> Box<Generational> {
    let g = generational_with(5);
    assert_eq!(g.vm_generation.load(Relaxed), 5, "recorded at the reseed");
    g
}

/// A generator seeded (and its buffer filled) while its owner's generation
/// read `generation` (0: none), which has handed out 8 bytes.
fn generational_with(generation: u64) -> Box<Generational> {
    // SAFETY: all-zero is a valid generator, and a valid GenerationSource.
    let g = unsafe { Box::<Generational>::new_zeroed().assume_init() };
    g.mix.value.store(generation, Relaxed);
    g.mark_live();
    let mut b = [0u8; 8];
    // SAFETY: `b` is a valid slice outside the generator.
    unsafe { g.fill(b.as_mut_ptr(), 8) };
    g
}

/// What `fill` hands out of `len` bytes.
fn fill_any<const B: usize, const R: usize, C: CountsWord, M: KernelMix>(
    g: &Generator<B, R, C, M>,
    len: usize,
) -> Vec<u8> {
    let mut out = vec![0u8; len];
    // SAFETY: `out` is a valid slice outside the generator.
    unsafe { g.fill(out.as_mut_ptr(), len) };
    out
}

/// A new VM generation before a word, a buffered fill, a refill or a direct
/// write wipes the state (the owner finds `live` at 0, as after a dropped
/// page, and throws the call's output away) and reseeds: no unread byte of
/// the buffer is handed out after it.
#[test]
fn a_new_vm_generation_discards_the_state_before_any_output() {
    for len in [8, 48, 64, 256] {
        let g = generational();
        let key = key_of_any(&g);
        g.mix.value.store(6, Relaxed);
        assert!(g.take::<8>().is_none(), "{len}: the fast path hands out nothing");
        let mut b = [0u8; 8];
        // SAFETY: `b` is a valid slice outside the generator.
        assert!(!unsafe { g.take_bytes(b.as_mut_ptr(), 8) }, "{len}: nor does the fast fill");
        assert!(g.is_live());
        fill_any(&*g, len);
        assert!(!g.is_live(), "{len}: the owner finds the state discarded");
        assert_eq!(g.vm_generation.load(Relaxed), 6, "and reseeded, recording the new generation");
        assert_ne!(key_of_any(&g), key);
    }
}

/// A generator seeded while its owner has a VM generation hands out its
/// buffer only through `fill` (which compares the generation), never on
/// the fast path, and takes no extension; one seeded while the owner has
/// none (the control) serves the fast path.
#[test]
fn a_vm_generation_at_the_seeding_closes_the_fast_path() {
    let g = generational();
    assert!(g.is_checked() && !g.extension_unasked(), "checked, and no extension is asked for");
    assert_eq!(g.counts.word().load(Relaxed), 0, "the fast path's word stays zero");
    let mut seen = Vec::new();
    for _ in 0..40 {
        assert!(g.take::<8>().is_none(), "the fast path hands out nothing");
        seen.push(fill_any(&*g, 8));
    }
    assert!(g.is_live());
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 40, "every word differs: each buffered byte is handed out once");
    assert_eq!(g.counts.word().load(Relaxed), 0);

    let control = generational_with(0);
    assert!(!control.is_checked() && control.extension_unasked());
    assert!(control.take::<8>().is_some(), "control: without a generation the fast path serves");
}

/// A generator seeded without a readable generation that reads one at a
/// later reseed cannot tell whether a snapshot was restored in between: a
/// value other than the 0 it recorded discards the state, which reseeds
/// checked, and the unread bytes of before are never handed out. A value
/// equal to it (0) keeps the state: the unread bytes move to the checked
/// word and are handed out once, through `fill`.
#[test]
fn a_generation_found_at_a_later_reseed_makes_the_generator_checked() {
    for value in [5, 0] {
        let g = generational_with(0);
        let unread = g.counts.word().load(Relaxed);
        assert_eq!(unread as u32, 56, "8 of the 64 buffered bytes were handed out");
        // SAFETY: the 56 unread bytes from offset 8 of the buffer.
        let expected = unsafe { core::slice::from_raw_parts(g.buf().add(8), 56) }.to_vec();
        g.mix.value.store(value, Relaxed);
        g.mix.zero.store(true, Relaxed);
        g.until_reseed.store(0, Relaxed);
        fill_any(&*g, 256); // a direct write, which reseeds first
        assert!(g.is_checked(), "{value}: checked from the reseed on");
        assert_eq!(g.is_live(), value == 0, "{value}: discarded only for another value");
        assert_eq!(g.counts.word().load(Relaxed), 0, "the fast path's word is cleared");
        g.mark_live();
        assert!(g.take::<8>().is_none());
        if value == 0 {
            assert_eq!(g.checked_counts.load(Relaxed), unread, "the count moved");
            assert_eq!(fill_any(&*g, 56), expected, "the unread bytes, once");
        } else {
            assert_ne!(fill_any(&*g, 56), expected, "never the unread bytes of before");
        }
    }
}

/// Control: the same generation, or none readable, changes nothing.
#[test]
fn an_unchanged_or_unreadable_vm_generation_keeps_the_state() {
    for now in [5, 0] {
        let g = generational();
        g.mix.value.store(now, Relaxed);
        let mut out = vec![0u8; 256 + 64];
        // SAFETY: `out` is a valid slice outside the generator.
        unsafe { g.fill(out.as_mut_ptr(), out.len()) };
        assert!(g.is_live(), "generation {now}: the state is kept");
        assert_eq!(g.vm_generation.load(Relaxed), 5);
    }
}

fn key_of_any<const B: usize, const R: usize, C: CountsWord, M: KernelMix>(g: &Generator<B, R, C, M>) -> [u8; 32] {
    // SAFETY: reading the generator's own schedule; nothing writes it meanwhile.
    let ks = unsafe { &*g.schedule.get() };
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&ks.current()[0]);
    k[16..].copy_from_slice(&ks.current()[1]);
    k
}

/// A generation that reads 5 for its first `flip_after` reads and 6 from
/// then on: a snapshot restored in the middle of a call.
#[derive(Default)]
struct FlipSource {
    reads: AtomicU64,
    flip_after: AtomicU64,
}

impl KernelMix for FlipSource {
    fn available(&self) -> bool {
        false
    }

    unsafe fn fresh(&self, _dst: *mut u8) -> bool {
        false
    }

    fn vm_generation(&self) -> Option<u64> {
        let n = self.reads.fetch_add(1, Relaxed);
        Some(if n < self.flip_after.load(Relaxed) { 5 } else { 6 })
    }
}

/// A restore between `fill`'s comparison and the reseed that a write with
/// the interval used up makes: the reseed's read of the new generation
/// discards the state (the buffer's unread bytes from before the restore
/// are never handed out); it does not just record the new value. Control:
/// the generation unchanged, the same call keeps the state.
#[test]
fn a_new_vm_generation_at_a_due_reseed_discards_the_buffer() {
    for restored in [true, false] {
        type G = Generator<4, 1024, AtomicU64, FlipSource>;
        // SAFETY: all-zero is a valid generator, and a valid FlipSource.
        let g = unsafe { Box::<G>::new_zeroed().assume_init() };
        g.mix.flip_after.store(u64::MAX, Relaxed);
        g.mark_live();
        fill_any(&*g, 8);
        assert!(g.is_checked());
        // SAFETY: the 56 unread bytes from offset 8 of the buffer.
        let old = unsafe { core::slice::from_raw_parts(g.buf().add(8), 56) }.to_vec();
        g.until_reseed.store(0, Relaxed); // a direct fill used the interval up exactly
        if restored {
            // `fill`'s read gives 5, the write's (the reseed's) 6.
            g.mix.flip_after.store(g.mix.reads.load(Relaxed) + 1, Relaxed);
        }
        fill_any(&*g, 64); // direct: the write reseeds first
        assert_eq!(g.is_live(), !restored, "restored {restored}: the state is discarded only after a restore");
        let at_restore = g.mix.reads.load(Relaxed);
        g.mark_live();
        let next = fill_any(&*g, 56);
        assert_eq!(next == old, !restored, "restored {restored}: the old unread bytes come next only without one");
        assert!(g.mix.reads.load(Relaxed) > at_restore);
    }
}

/// A generator with an extension attached (seeded while its owner read no
/// generation) that finds one at a refill's reseed becomes checked; a wipe
/// then zeroes the extension's unread keystream, which the checked word
/// counts; and its fast path closes. Control: the generation still
/// unreadable, the fast path keeps serving.
#[test]
fn a_generation_found_with_an_extension_attached_is_checked_and_wiped_whole() {
    #[repr(C)]
    struct WithExtension {
        g: Generational,
        ext: [u8; 128],
    }
    for found in [true, false] {
        // SAFETY: all-zero is a valid generator and extension.
        let x = unsafe { Box::<WithExtension>::new_zeroed().assume_init() };
        const { assert!(core::mem::offset_of!(WithExtension, ext) == Generational::BUFFER_END) };
        let g = &x.g;
        g.mark_live();
        fill_any(g, 8); // seeded with no generation readable
        assert!(!g.is_checked());
        // SAFETY: `ext` follows the generator, whole blocks, its own.
        unsafe { g.attach_extension(128) };
        fill_any(g, 56);
        g.until_reseed.store(64 + 128, Relaxed); // the next refill is the interval's last
        fill_any(g, 8); // an extended refill: 184 bytes left, 128 in the extension
        assert!(x.ext.iter().any(|&b| b != 0));
        if found {
            g.mix.value.store(7, Relaxed);
        }
        for _ in 0..23 {
            fill_any(g, 8); // empties the buffer, from the buffer
        }
        fill_any(g, 8); // a refill of the extended buffer, which reseeds first
        assert_eq!(g.is_checked(), found);
        assert_eq!(g.take::<8>().is_some(), !found, "found {found}: the fast path closes with the generation");
        assert!(x.ext.iter().any(|&b| b != 0), "found {found}: the refill wrote the extension");
        g.wipe();
        assert!(x.ext.iter().all(|&b| b == 0), "found {found}: the wipe zeroes the extension's keystream");
    }
}
