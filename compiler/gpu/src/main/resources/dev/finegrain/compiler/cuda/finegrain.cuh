// finegrain.cuh: what every translation unit Finegrain generates includes.
//
// 1. The DSL's operators with Java's semantics, which C's differ from: int and long arithmetic wraps (C: undefined
//    on signed overflow), shift counts are taken mod 32 or 64, integer division truncates and never traps (INT_MIN / -1
//    is INT_MIN; a zero divisor sets the run's error word), double min/max follow Math.min/Math.max (NaN wins, -0.0 is
//    below 0.0), double-to-integer casts saturate and map NaN to 0. Doubles are IEEE binary64 with round-to-nearest;
//    build with -fmad=false so that nvcc never fuses a*b+c, which Java never does.
// 2. The primitives the lock mechanisms use: acquire loads and release stores on shared words, the block fence,
//    named barriers, mbarriers, and the inter-block barriers of Stuart and Owens (atomic, XF) and of cooperative launch.
// 3. What the generic host harness (harness.cu) needs to know of a variant: FgInfo.
#ifndef FINEGRAIN_CUH
#define FINEGRAIN_CUH

#include <climits>
#include <cstdint>
#include <cstring>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace fg {

// ---- the run's error word ------------------------------------------------------------------------------------
constexpr int ERROR_DIVISION_BY_ZERO = 1;
// a lookup index outside its table's axis: ERROR_LOOKUP + 4 * (the table's buffer) + (the axis)
constexpr int ERROR_LOOKUP = 1 << 16;

__device__ __forceinline__ void fail(int* error, int code) { atomicCAS(error, 0, code); }

// A lookup table's index on one axis, checked: outside [0, extent) it fails the run and reads element 0 instead. The
// miss is a plain store, not fail's compare-and-swap: any nonzero word fails the run, and the atomic kept the compiler
// from moving later steps' loads above it (needleman-wunsch-seq's bands at 16384^2 on an H200: 8.18 against 9.18 ms).
__device__ __forceinline__ int table_index(int index, int extent, int buffer, int axis, int* error) {
    if ((unsigned) index >= (unsigned) extent) { *error = ERROR_LOOKUP + 4 * buffer + axis; return 0; }
    return index;
}

// ---- int (32-bit) ------------------------------------------------------------------------------------------------
__device__ __forceinline__ int add(int a, int b) { return (int) ((unsigned) a + (unsigned) b); }
__device__ __forceinline__ int sub(int a, int b) { return (int) ((unsigned) a - (unsigned) b); }
__device__ __forceinline__ int mul(int a, int b) { return (int) ((unsigned) a * (unsigned) b); }
__device__ __forceinline__ int neg(int a) { return (int) (0u - (unsigned) a); }
__device__ __forceinline__ int abs_(int a) { return a < 0 ? neg(a) : a; }
__device__ __forceinline__ int div(int a, int b, int* error) {
    if (b == 0) { fail(error, ERROR_DIVISION_BY_ZERO); return 0; }
    return b == -1 ? neg(a) : a / b;
}
__device__ __forceinline__ int rem(int a, int b, int* error) {
    if (b == 0) { fail(error, ERROR_DIVISION_BY_ZERO); return 0; }
    return b == -1 ? 0 : a % b;
}
__device__ __forceinline__ int shl(int a, long long n) { return (int) ((unsigned) a << (n & 31)); }
__device__ __forceinline__ int shr(int a, long long n) { return a >> (n & 31); }
__device__ __forceinline__ int ushr(int a, long long n) { return (int) ((unsigned) a >> (n & 31)); }
__device__ __forceinline__ int min_(int a, int b) { return a <= b ? a : b; }
__device__ __forceinline__ int max_(int a, int b) { return a >= b ? a : b; }

// ---- long (64-bit) -----------------------------------------------------------------------------------------------
typedef unsigned long long u64;
__device__ __forceinline__ long long add(long long a, long long b) { return (long long) ((u64) a + (u64) b); }
__device__ __forceinline__ long long sub(long long a, long long b) { return (long long) ((u64) a - (u64) b); }
__device__ __forceinline__ long long mul(long long a, long long b) { return (long long) ((u64) a * (u64) b); }
__device__ __forceinline__ long long neg(long long a) { return (long long) (0ull - (u64) a); }
__device__ __forceinline__ long long abs_(long long a) { return a < 0 ? neg(a) : a; }
__device__ __forceinline__ long long div(long long a, long long b, int* error) {
    if (b == 0) { fail(error, ERROR_DIVISION_BY_ZERO); return 0; }
    return b == -1 ? neg(a) : a / b;
}
__device__ __forceinline__ long long rem(long long a, long long b, int* error) {
    if (b == 0) { fail(error, ERROR_DIVISION_BY_ZERO); return 0; }
    return b == -1 ? 0 : a % b;
}
__device__ __forceinline__ long long shl(long long a, long long n) { return (long long) ((u64) a << (n & 63)); }
__device__ __forceinline__ long long shr(long long a, long long n) { return a >> (n & 63); }
__device__ __forceinline__ long long ushr(long long a, long long n) { return (long long) ((u64) a >> (n & 63)); }
__device__ __forceinline__ long long min_(long long a, long long b) { return a <= b ? a : b; }
__device__ __forceinline__ long long max_(long long a, long long b) { return a >= b ? a : b; }

// ---- double ------------------------------------------------------------------------------------------------------
__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double div(double a, double b, int*) { return __ddiv_rn(a, b); }
__device__ __forceinline__ double neg(double a) { return -a; }
__device__ __forceinline__ double abs_(double a) { return fabs(a); }
// Math.min and Math.max: a NaN operand wins, and -0.0 counts as less than 0.0.
__device__ __forceinline__ double min_(double a, double b) {
    if (a != a) return a;
    if (b != b) return b;
    if (a == 0.0 && b == 0.0) return signbit(a) ? a : b;
    return a <= b ? a : b;
}
__device__ __forceinline__ double max_(double a, double b) {
    if (a != a) return a;
    if (b != b) return b;
    if (a == 0.0 && b == 0.0) return signbit(a) ? b : a;
    return a >= b ? a : b;
}

// ---- casts with Java's semantics ---------------------------------------------------------------------------------
__device__ __forceinline__ int d2i(double d) {
    if (d != d) return 0;
    if (d >= 2147483647.0) return 2147483647;
    if (d <= -2147483648.0) return (int) 0x80000000u;
    return (int) d;
}
__device__ __forceinline__ long long d2l(double d) {
    if (d != d) return 0;
    if (d >= 9223372036854775807.0) return 9223372036854775807ll;
    if (d <= -9223372036854775808.0) return (long long) 0x8000000000000000ull;
    return (long long) d;
}
__device__ __forceinline__ int l2i(long long v) { return (int) (unsigned) (u64) v; }

// ---- sync primitives ---------------------------------------------------------------------------------------------
__device__ __forceinline__ int load_acquire_cta(const int* word) {
    int value;
    asm volatile("ld.acquire.cta.b32 %0, [%1];" : "=r"(value) : "l"(word) : "memory");
    return value;
}
__device__ __forceinline__ void store_release_cta(int* word, int value) {
    asm volatile("st.release.cta.b32 [%0], %1;" :: "l"(word), "r"(value) : "memory");
}
__device__ __forceinline__ u64 load_acquire_cta(const u64* word) {
    u64 value;
    asm volatile("ld.acquire.cta.b64 %0, [%1];" : "=l"(value) : "l"(word) : "memory");
    return value;
}
__device__ __forceinline__ void store_release_cta(u64* word, u64 value) {
    asm volatile("st.release.cta.b64 [%0], %1;" :: "l"(word), "l"(value) : "memory");
}
// Stuart and Owens' ticket mutex in one word (GpuMutexes): the next ticket in the high half, the one served in the low
// (unsigned arithmetic: a draw past 0x7fff tickets must wrap, not overflow a signed int)
__device__ __forceinline__ int ticket_draw(int* word) {
    return (int) (((unsigned) atomicAdd(word, 0x10000) >> 16) & 0xffffu);
}
__device__ __forceinline__ bool ticket_served(const int* word, int ticket) {
    return (int) ((unsigned) load_acquire_cta(word) & 0xffffu) == ticket;
}
__device__ __forceinline__ bool ticket_try(int* word) {
    const unsigned seen = (unsigned) load_acquire_cta(word);
    return (seen >> 16) == (seen & 0xffffu)
        && (unsigned) atomicCAS(word, (int) seen, (int) (seen + 0x10000u)) == seen;
}
__device__ __forceinline__ int load_acquire_gpu(const int* word) {
    int value;
    asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=r"(value) : "l"(word) : "memory");
    return value;
}
__device__ __forceinline__ void store_release_gpu(int* word, int value) {
    asm volatile("st.release.gpu.b32 [%0], %1;" :: "l"(word), "r"(value) : "memory");
}
// Relaxed device-scope loads and stores: single-copy atomic, never served from a stale L1 line; what orders them is
// the acquire, release or fence around them.
__device__ __forceinline__ int load_relaxed_gpu(const int* word) {
    int value;
    asm volatile("ld.relaxed.gpu.b32 %0, [%1];" : "=r"(value) : "l"(word) : "memory");
    return value;
}
__device__ __forceinline__ u64 load_relaxed_gpu(const u64* word) {
    u64 value;
    asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(value) : "l"(word) : "memory");
    return value;
}
__device__ __forceinline__ long long load_relaxed_gpu(const long long* word) {
    return (long long) load_relaxed_gpu((const u64*) word);
}
__device__ __forceinline__ double load_relaxed_gpu(const double* word) {
    return __longlong_as_double((long long) load_relaxed_gpu((const u64*) word));
}
// A band's edge word, stored only where `store` holds, as one predicated instruction: no branch around it and no
// compiler barrier, so that the compiler may schedule a step's loads and arithmetic across it (the word carries its own
// ready bit, so no other access needs ordering against it; the inline asm keeps it after the acquire that made room).
__device__ __forceinline__ void store_relaxed_gpu_if(bool store, u64* word, u64 value) {
    asm volatile("{ .reg .pred q; setp.ne.b32 q, %0, 0; @q st.relaxed.gpu.global.b64 [%1], %2; }"
                 :: "r"((int) store), "l"(word), "l"(value));
}
// Asynchronous copies from global to shared memory (sm_80 and later): the warp computes while they land.
__device__ __forceinline__ void cp_async(void* shared, const void* global, int bytes) {
    const unsigned address = (unsigned) __cvta_generic_to_shared(shared);
    if (bytes == 8) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(address), "l"(global) : "memory");
    } else {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(address), "l"(global) : "memory");
    }
}
// One word copied asynchronously where `copy` holds, else filled with 0 by the same instruction (a source size of 0):
// a tile's copy with its halo past the domain, every word of a thread in flight at once (sm_80 and later).
template <typename T>
__device__ __forceinline__ void cp_async_or_zero(T* shared, const T* global, bool copy) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "cp.async moves words of 4 or 8 bytes");
    const unsigned address = (unsigned) __cvta_generic_to_shared(shared);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;"
                 :: "r"(address), "l"(global), "n"((int) sizeof(T)), "r"(copy ? (int) sizeof(T) : 0) : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;" ::: "memory");
}
__device__ __forceinline__ void cp_async_wait_all() {
    asm volatile("cp.async.wait_all;" ::: "memory");
}
// Waits until at most `pending` of this thread's newest copy groups are still in flight.
template <int pending>
__device__ __forceinline__ void cp_async_wait_group() {
    asm volatile("cp.async.wait_group %0;" :: "n"(pending) : "memory");
}
// Programmatic dependent launch (sm_90 on): a launch of a relaunching schedule lets the next one in once each of its
// blocks has swept its tile, and the next one's blocks wait for this launch to end, its stores visible, before they
// copy their tiles (SASS ACQBULK and PREEXIT). The wait returns at once in a launch without the attribute.
__device__ __forceinline__ void wait_for_previous_launch() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void let_next_launch_in() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
// Named barrier `id` for `threads` threads: a producer warp arrives, a consumer warp waits (seed 001 Listing 12).
__device__ __forceinline__ void bar_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void bar_arrive(int id, int threads) {
    asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(threads) : "memory");
}
// Hopper's mbarrier: one 64-bit word in shared memory, armed for `count` arrivals; phase 0 completes with the last.
__device__ __forceinline__ void mbarrier_init(u64* barrier, int count) {
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"((unsigned) __cvta_generic_to_shared(barrier)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(u64* barrier) {
    asm volatile("{ .reg .b64 state; mbarrier.arrive.shared.b64 state, [%0]; }"
                 :: "r"((unsigned) __cvta_generic_to_shared(barrier)) : "memory");
}
__device__ __forceinline__ bool mbarrier_try_wait_phase0(u64* barrier) {
    unsigned done;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"((unsigned) __cvta_generic_to_shared(barrier)) : "memory");
    return done != 0;
}

// A nap of `ns` nanoseconds (Volta and later: the wait policies backoff and sleep), returning the next nap of a
// backing-off wait: twice as long, at most `most` (a sleeping wait passes its nap as `most` and keeps it).
__device__ __forceinline__ unsigned nap(unsigned ns, unsigned most) {
#if __CUDA_ARCH__ >= 700
    __nanosleep(ns);
#endif
    return ns < most / 2 ? 2 * ns : most;
}

// Stuart and Owens' atomic inter-block barrier for a grid of co-resident blocks: every block's thread 0 counts its
// block in and spins until all have; `target` grows by the grid's size each time, so the counter is never reset.
// A barrier's polls nap as the wait policy says: first_nap 0 spins; else naps from first_nap doubling to most_nap.
__device__ __forceinline__ void grid_barrier(unsigned* counter, unsigned target, unsigned first_nap = 0u,
                                             unsigned most_nap = 0u) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(counter, 1u);
        for (unsigned n = first_nap; *(volatile unsigned*) counter < target; n = n ? nap(n, most_nap) : 0u) {
        }
        __threadfence();
    }
    __syncthreads();
}

// Xiao and Feng's lock-free inter-block barrier (the "XF" barrier of Stuart and Owens) for co-resident blocks: each
// block's thread 0 stores `goal` into its arrival flag; block 0's threads poll every arrival flag, meet, and store
// `goal` into every release flag; each block's thread 0 polls its own. `flags` holds 2 x `blocks` words; `goal` grows
// each step, so the flags are never reset.
__device__ __forceinline__ void xf_grid_barrier(unsigned* flags, unsigned blocks, unsigned goal, unsigned first_nap = 0u,
                                                unsigned most_nap = 0u) {
    volatile unsigned* arrived = flags;
    volatile unsigned* released = flags + blocks;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        arrived[blockIdx.x] = goal;
    }
    if (blockIdx.x == 0) {
        for (unsigned k = threadIdx.x; k < blocks; k += blockDim.x) {
            for (unsigned n = first_nap; arrived[k] != goal; n = n ? nap(n, most_nap) : 0u) {
            }
        }
        __syncthreads();
        __threadfence();   // what the gathered blocks wrote happens before every release
        for (unsigned k = threadIdx.x; k < blocks; k += blockDim.x) released[k] = goal;
    }
    if (threadIdx.x == 0) {
        for (unsigned n = first_nap; released[blockIdx.x] != goal; n = n ? nap(n, most_nap) : 0u) {
        }
        __threadfence();
    }
    __syncthreads();
}

// Dynamic dataflow's ready ring (seed 002 on a GPU): `ring` holds the head, the tail, one arrival counter per tile, then
// a slot per tile (its tile plus one; 0 until filled). Slot 0 is tile 0, which waits for nothing, so the tail counts
// the slots after it. Every word only grows from the zeroed scratch: nothing is reset, and no slot is reused.
//
// Thread 0 of a block draws the next slot and waits for it to be filled; -1 once every tile is drawn.
__device__ __forceinline__ int ring_take(unsigned* ring, unsigned tiles, unsigned first_nap = 0u, unsigned most_nap = 0u) {
    const unsigned slot = atomicAdd(ring, 1u);
    if (slot >= tiles) return -1;
    if (slot == 0) return 0;
    volatile unsigned* filled = ring + 2 + tiles + slot;
    unsigned item;
    for (unsigned n = first_nap; (item = *filled) == 0u; n = n ? nap(n, most_nap) : 0u) {
    }
    __threadfence();   // the tile's neighbours below wrote their points before it was put here
    return (int) item - 1;
}

// Thread 0 of a block that ran a tile (after a block barrier and a fence) counts it off tile `above`, which waits for
// `needed` neighbours below; the count that completes it puts it in the ring.
__device__ __forceinline__ void ring_arrive(unsigned* ring, unsigned tiles, unsigned above, unsigned needed) {
    if (atomicAdd(ring + 2 + above, 1u) + 1u == needed) {
        const unsigned slot = atomicAdd(ring + 1, 1u) + 1u;
        *(volatile unsigned*) (ring + 2 + tiles + slot) = above + 1u;
    }
}

// The host side of programmatic dependent launch: `kernel` launched on `stream`, where `programmatic` holds so that it
// may start before the kernel launched before it on the stream has ended (its blocks call wait_for_previous_launch
// before they read what that kernel wrote), else after it, as <<<...>>> launches.
template <typename... Params, typename... Args>
cudaError_t launch(void (*kernel)(Params...), int blocks, int threads, cudaStream_t stream, bool programmatic, Args... args) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.stream = stream;
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attribute;
    config.numAttrs = programmatic ? 1 : 0;
    return cudaLaunchKernelEx(&config, kernel, args...);
}

}  // namespace fg

// ---- what the host harness knows of a variant --------------------------------------------------------------------
struct FgField {
    const char* name;
    int element_bytes;      // 1 for a byte input (Storage.BYTE), 4 for int and bool, 8 for long and double
    int is_state;           // state fields are written; inputs only read
    int rank;
    long long extent[3];    // of the padded copy, per dimension
    long long halo_low[3];  // where the domain starts in it
    long long size[3];      // the domain
    long long frame_elements;  // a folded field: the elements of its halo frame (none where no read leaves the point)
    int folded;             // 1: a state field kept in part that has no array over the domain: its buffer holds only
                            // its halo frame, from <name>.frame.bin, and the run gives its kept values as outputs
};

// A value the run gives beyond whole fields: a folded field's kept values or a streamed reduction (its value widened
// to 64 bits, then its point's row-major index or -1), in scratch memory, compared with <expected>/<name>.bin.
struct FgOutput {
    const char* name;
    int element_bytes;
    int is_double;          // 8-byte values compared as doubles (NaN equals NaN)
    long long count;
    long long scratch_offset;
};

struct FgInfo {
    const char* variant;    // kernel, schedule and mechanism
    const char* mapping;    // the GPU mapping, one line
    int field_count;
    const FgField* fields;
    int param_count;        // params come as 8-byte slots: integers sign-extended, doubles as their bits, bools 0/1
    long long scratch_bytes;// zeroed before every run: word 0 the error word, then barrier counters and flags
    int launches;
    int threads_per_block;
    int output_count;       // 0 for a variant that stores every state field whole
    const FgOutput* outputs;
};

#endif
