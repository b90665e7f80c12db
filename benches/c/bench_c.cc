// C-to-C benchmarks (Google Benchmark): randp's C ABI beside planet36/randp,
// the arc4random families of glibc and libbsd, OpenSSL's RAND_bytes,
// getentropy, the getrandom system call and the vDSO getrandom, each called
// through a function pointer (contestants.h). Benchmark names are
// "<table>/<contestant>", plus "/threads:N" for the threaded tables; the
// report reads the JSON of --benchmark_out. Run with
// --benchmark_enable_random_interleaving so that the contestants of a table
// alternate instead of each running its repetitions back to back.
//
// The tables, after planet36/randp's benchmarks:
//   fill_<size>            one fill call of that size per iteration: 4 B, 8 B
//                          (the Go read sizes) and every power of two from
//                          16 B to 1 MiB (planet36/randp's 256 B and 1 MiB
//                          tables are two of them)
//   fill_turns_<size>      randp and planet36/randp filling in turns (16 B to
//                          1 MiB), each turn timed on its own: see FillTurns
//   u32, u64               one word per call
//   lt_u32                 a u32 below a bound cycling through 1 ..= 0x100000
//   rdrand64               one 64-bit RDRAND, as the kernel's extract_crng
//                          called arch_get_random_long (seed 004)
//   threads_fill_1MiB, threads_u64   1 and 2 threads at once, each its own state
//   mutex_u64              randp per thread against randp behind one mutex
//   copyzero_<size>        16 B to 2 KiB: no generator, only the copy out of a
//                          4 KiB buffer and the zeroing behind it (memcpy,
//                          explicit_bzero) that a buffered generator makes per
//                          call, through the same function pointer
//   copyzero_u64           likewise for one word: a thread-local index, one
//                          word loaded and zeroed, no generator; in the
//                          executable and through a dlopen'ed object
//                          (word_floor.c), as the two randp_u64 rows
//   empty_u64              a call that does nothing, in both places: what
//                          the call through the pointer costs
//
// Every benchmark uses wall time (UseRealTime), so rates are per second of
// real time, also with two threads. make bench runs this program in several
// processes, one repetition each, so that every sample of a row comes from
// its own process (its own memory layout).
//
// The contestant that is missing on this machine is not registered; its
// reason is recorded in the JSON context as "missing:<key>".

#include <benchmark/benchmark.h>

#include <pthread.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "contestants.h"

namespace {

// Where every fill's destination starts: RANDP_BENCH_DST_OFFSET bytes (0 to
// 63, 0 when unset) past a 64-byte boundary. make bench turns it through 0,
// 16, 32 and 48 from one pass to the next (benches/passes.sh): the places a
// 16-byte-aligned malloc gives, on and off the 32- and 64-byte boundaries
// of vector stores, so that every row is measured at each of them and the
// report can set the rows side by side by offset.
size_t DstOffset() {
  const char* s = std::getenv("RANDP_BENCH_DST_OFFSET");
  return s ? std::strtoul(s, nullptr, 10) % 64 : 0;
}

void Fill(benchmark::State& state, const contestant* c, size_t size) {
  std::vector<unsigned char> mem(size + 128);
  unsigned char* buf = mem.data() + (64 - reinterpret_cast<uintptr_t>(mem.data()) % 64) % 64 + DstOffset();
  size_t chunk = c->fill_max ? c->fill_max : size;
  for (auto _ : state) {
    for (size_t off = 0; off < size; off += chunk) {
      size_t n = size - off < chunk ? size - off : chunk;
      c->fill(buf + off, n);
    }
    benchmark::DoNotOptimize(buf);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(size));
}

// randp (`a`) and a rival (`b`) filling the same destination in turns: each
// iteration runs a turn of calls of one and then of the other (which one
// goes first alternates), each turn about 64 KiB of output (at least one
// call) and timed on its own. A shared machine has moments in which its
// stores cost more (on a 2-core cloud VM, writing an L1-resident 2 KiB took
// 21 ns in most tenths of a second and 35 ns in others, a busy loop of
// multiplies the same in both): measured each in its own tenth of a second,
// two rows can land in different moments, and a rival whose time changes
// more with them than randp's is then judged by luck. Turns of a few
// microseconds give both the same moments. Counters: ns per call of each
// ("randp_ns", "rival_ns").
void FillTurns(benchmark::State& state, const contestant* a, const contestant* b, size_t size) {
  std::vector<unsigned char> mem(size + 128);
  unsigned char* buf = mem.data() + (64 - reinterpret_cast<uintptr_t>(mem.data()) % 64) % 64 + DstOffset();
  const size_t calls = size >= (size_t{64} << 10) ? 1 : (size_t{64} << 10) / size;
  double ns[2] = {0, 0};
  int64_t turns = 0;
  for (auto _ : state) {
    for (int k = 0; k < 2; k++) {
      const int who = k ^ static_cast<int>(turns & 1);
      const contestant* c = who == 0 ? a : b;
      const auto t0 = std::chrono::steady_clock::now();
      for (size_t i = 0; i < calls; i++) {
        c->fill(buf, size);
        benchmark::ClobberMemory();
      }
      ns[who] += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    }
    turns++;
  }
  const double per = static_cast<double>(turns) * static_cast<double>(calls);
  state.counters["randp_ns"] = ns[0] / per;
  state.counters["rival_ns"] = ns[1] / per;
}

void U32(benchmark::State& state, const contestant* c) {
  for (auto _ : state) {
    uint32_t v = c->u32();
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

void U64(benchmark::State& state, const contestant* c) {
  for (auto _ : state) {
    uint64_t v = c->u64();
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

// planet36/randp's bounds: 1 ..= 0x100000, cycled.
void LtU32(benchmark::State& state, const contestant* c) {
  uint32_t ub = 0;
  for (auto _ : state) {
    ub = ub >= 0x100000 ? 1 : ub + 1;
    uint32_t v = c->lt_u32(ub);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

// One generator shared by every thread, as a program without per-thread
// state has it: each call takes the lock.
void U64Mutex(benchmark::State& state, const contestant* c) {
  for (auto _ : state) {
    pthread_mutex_lock(&shared_lock);
    uint64_t v = c->u64();
    pthread_mutex_unlock(&shared_lock);
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(state.iterations());
}

struct Size {
  std::string name;
  size_t bytes;
};

// The fill sizes: 4 B and 8 B (the Go read sizes), then 16 B .. 1 MiB in
// powers of two.
std::vector<Size> FillSizes() {
  std::vector<Size> sizes = {{"4B", 4}, {"8B", 8}};
  for (size_t n = 16; n <= (size_t{1} << 20); n *= 2) {
    std::string name = n >= (size_t{1} << 20) ? std::to_string(n >> 20) + "MiB"
                       : n >= 1024            ? std::to_string(n >> 10) + "KiB"
                                              : std::to_string(n) + "B";
    sizes.push_back(Size{name, n});
  }
  return sizes;
}

const char* const kFillRows[] = {"randp", "planet36", "arc4random_glibc", "arc4random_libbsd", "openssl",
                                 "getentropy", "getrandom_vdso", "getrandom_syscall"};
const char* const kU32Rows[] = {"randp", "planet36", "arc4random_glibc", "arc4random_libbsd", "openssl",
                                "getrandom_vdso", "rdrand32", "rdseed32"};
const char* const kU64Rows[] = {"randp", "randp_dlopen", "planet36", "arc4random_glibc", "arc4random_libbsd",
                                "openssl", "getrandom_vdso", "getrandom_syscall"};
const char* const kLtRows[] = {"randp", "planet36", "arc4random_glibc", "arc4random_libbsd"};
const char* const kThreadRows[] = {"randp", "planet36"};

// Returns the contestant, or records why it is missing and returns NULL.
const contestant* Available(const char* key) {
  const contestant* c = contestant_find(key);
  if (c == nullptr) {
    std::fprintf(stderr, "bench_c: unknown contestant %s\n", key);
    std::abort();
  }
  if (c->missing != nullptr) {
    benchmark::AddCustomContext(std::string("missing:") + key, c->missing);
    return nullptr;
  }
  return c;
}

void RegisterAll() {
  for (const Size& s : FillSizes()) {
    for (const char* k : kFillRows)
      if (const contestant* c = Available(k))
        benchmark::RegisterBenchmark((std::string("fill_") + s.name + "/" + k).c_str(), Fill, c, s.bytes)
            ->UseRealTime();
  }
  if (const contestant* a = Available("randp")) {
    if (const contestant* b = Available("planet36")) {
      for (const Size& s : FillSizes())
        if (s.bytes >= 16)
          benchmark::RegisterBenchmark((std::string("fill_turns_") + s.name + "/randp_planet36").c_str(), FillTurns, a, b,
                                       s.bytes)
              ->UseRealTime();
    }
  }
  // The sizes a buffer serves (randp writes 2 KiB and more straight into
  // the caller's memory).
  if (const contestant* c = Available("copyzero")) {
    for (const Size& s : FillSizes())
      if (s.bytes >= 16 && s.bytes <= 2048)
        benchmark::RegisterBenchmark((std::string("copyzero_") + s.name + "/copyzero").c_str(), Fill, c, s.bytes)
            ->UseRealTime();
    benchmark::RegisterBenchmark("copyzero_u64/copyzero", U64, c)->UseRealTime();
  }
  // The one-word references of word_floor.c, as "<table>/<contestant>".
  for (const char* name : {"copyzero_u64/copyzero_dlopen", "empty_u64/empty", "empty_u64/empty_dlopen"})
    if (const contestant* c = Available(std::strchr(name, '/') + 1))
      benchmark::RegisterBenchmark(name, U64, c)->UseRealTime();
  for (const char* k : kU32Rows)
    if (const contestant* c = Available(k))
      benchmark::RegisterBenchmark((std::string("u32/") + k).c_str(), U32, c)->UseRealTime();
  for (const char* k : kU64Rows)
    if (const contestant* c = Available(k))
      benchmark::RegisterBenchmark((std::string("u64/") + k).c_str(), U64, c)->UseRealTime();
  if (const contestant* c = Available("rdrand64"))
    benchmark::RegisterBenchmark("rdrand64/rdrand64", U64, c)->UseRealTime();
  for (const char* k : kLtRows)
    if (const contestant* c = Available(k))
      benchmark::RegisterBenchmark((std::string("lt_u32/") + k).c_str(), LtU32, c)->UseRealTime();
  for (const char* k : kThreadRows) {
    if (const contestant* c = Available(k)) {
      benchmark::RegisterBenchmark((std::string("threads_fill_1MiB/") + k).c_str(), Fill, c, size_t{1} << 20)
          ->Threads(1)->Threads(2)->UseRealTime();
      benchmark::RegisterBenchmark((std::string("threads_u64/") + k).c_str(), U64, c)
          ->Threads(1)->Threads(2)->UseRealTime();
    }
  }
  if (const contestant* c = Available("randp")) {
    benchmark::RegisterBenchmark("mutex_u64/randp_thread_local", U64, c)->Threads(1)->Threads(2)->UseRealTime();
    benchmark::RegisterBenchmark("mutex_u64/randp_mutex", U64Mutex, c)->Threads(1)->Threads(2)->UseRealTime();
  }
}

}  // namespace

// Usage: bench_c [google benchmark flags]; RANDP_BENCH_SO names the
// librandp.so to dlopen for the randp_dlopen row, RANDP_BENCH_FLOOR_SO the
// libwordfloor.so for the *_dlopen references (by default the one beside
// this program), RANDP_BENCH_DST_OFFSET where the fills' destinations start
// (DstOffset).
int main(int argc, char** argv) {
  size_t n = 0;
  const char* floor_so = std::getenv("RANDP_BENCH_FLOOR_SO");
  std::error_code err;
  const std::string beside = (std::filesystem::read_symlink("/proc/self/exe", err).parent_path() / "libwordfloor.so").string();
  contestants_load(std::getenv("RANDP_BENCH_SO"), floor_so ? floor_so : err ? nullptr : beside.c_str(), &n);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("dst_offset", std::to_string(DstOffset()));
  RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
