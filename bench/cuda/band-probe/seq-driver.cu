// seq-driver.cu: times one needleman-wunsch-seq or smith-waterman-seq translation unit of `finegrain show KERNEL --cuda
// ...` without a bundle: random sequences over the table's symbols (at most 20), a random symmetric table in [-4, 11]
// (24 x 24 for the first, 4 x 4 for the second), gap 4, the halo -4(k + 1) along the top row and the left column; the
// kernel timed by CUDA events (median of 9 runs after 3); FG_TABLE=match scores 3 a match and -3 a mismatch instead,
// on two strands drawn independently (below); FG_SEED=N draws other inputs; FG_RNG=mix draws the sequences from another
// generator (below); FG_PAD=BYTES allocates that much before
// the scratch memory (the edge ring elsewhere in the address space); FG_EXTRA=BYTES allocates (and clears before each
// run) that much beyond the unit's scratch memory, for a rewritten unit that places its edge ring there.
// It prints the kept final score (Smith-Waterman: the best score and its cell, row-major) and the error word;
// `seq-driver REF` runs the CPU recurrence on the same inputs and prints the same, so that a script can check every
// variant against it. Built with
//   nvcc -O3 -arch=sm_90 -I DIR_OF_finegrain.cuh -DFG_VARIANT=<id> seq-driver.cu <id>.cu -o driver
// (add -DPROF for a unit instrumented by instrument-seq.py: cycles per chunk by phase, and each band's start and end).
#include "finegrain.cuh"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define FG_CAT2(a, b) a##b
#define FG_CAT(a, b) FG_CAT2(a, b)
extern "C" const FgInfo* FG_CAT(fg_info_, FG_VARIANT)();
extern "C" cudaError_t FG_CAT(fg_run_, FG_VARIANT)(void* const* buffers, const long long* params, void* scratch, cudaStream_t stream);
#ifdef STREAM_COUNT
extern "C" unsigned long long fg_stream_misses();   // units rewritten by the stream kinds
#endif
#ifdef PROF
extern "C" void fg_prof_reset();
extern "C" void fg_prof_print();
#endif
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
int main(int argc, char** argv) {
    const char* name = argc > 1 ? argv[1] : "?";
    const FgInfo* info = FG_CAT(fg_info_, FG_VARIANT)();
    const long long R = info->fields[0].size[0], C = info->fields[1].size[1];
    const int penalty = 4;
    const int extent = (int) info->fields[3].size[0], symbols = std::min(20, extent);
    const bool local = strcmp(info->fields[2].name, "h") == 0;   // smith-waterman-seq: max(0, ...), its best cell
    std::vector<int> a(R), b(C), table(extent * extent), frame(C + 1 + R);
    // FG_SEED: another draw of the same sizes (the sequences and table differ; the work does not)
    unsigned seed = getenv("FG_SEED") != nullptr ? (unsigned) strtoul(getenv("FG_SEED"), nullptr, 10) : 12345u;
    auto next = [&]() { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
    for (auto& x : a) x = (int) (next() % symbols);
    for (auto& x : b) x = (int) (next() % symbols);
    for (int x = 0; x < extent; x++) for (int y = 0; y <= x; y++) table[x * extent + y] = table[y * extent + x] = (int) (next() % 16) - 4;
    // FG_RNG=mix: the sequences drawn again from splitmix64 (the table as above). The draws above take the generator's
    // low bits, whose residues mod 4 repeat every 1024 draws, so that a[i] and b[j] agree mod 4 wherever
    // i - j = rows (mod 1024): with rows a multiple of 1024 along the main diagonal
    if (const char* rng = getenv("FG_RNG"); rng != nullptr && strcmp(rng, "mix") == 0) {
        unsigned long long z = seed;
        auto mix = [&]() { z += 0x9e3779b97f4a7c15ull; unsigned long long x = z; x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
                           x = (x ^ (x >> 27)) * 0x94d049bb133111ebull; return x ^ (x >> 31); };
        for (auto& x : a) x = (int) (mix() % symbols);
        for (auto& x : b) x = (int) (mix() % symbols);
    }
    // FG_TABLE=match: the smith-waterman-seq sample's own table instead (3 on the diagonal, -3 off it; the random table
    // above averages +3.5 a pair), and two strands drawn from the generator's high bits: the low bits the draws above
    // take repeat every 1024 draws, which with four symbols gives two equal strands at sizes that are multiples of 1024
    if (const char* kind = getenv("FG_TABLE"); kind != nullptr && strcmp(kind, "match") == 0) {
        for (int x = 0; x < extent; x++) for (int y = 0; y < extent; y++) table[x * extent + y] = x == y ? 3 : -3;
        for (auto& x : a) x = (int) ((next() >> 12) % symbols);
        for (auto& x : b) x = (int) ((next() >> 12) % symbols);
    }
    for (long long j = -1; j < C; j++) frame[j + 1] = (int) (-(j + 1) * penalty);
    for (long long i = 0; i < R; i++) frame[C + 1 + i] = (int) (-(i + 1) * penalty);
    if (strcmp(name, "REF") == 0) {
        std::vector<int> row(frame.begin(), frame.begin() + C + 1);   // row -1, from column -1
        long long best = 0, best_at = -1;
        for (long long i = 0; i < R; i++) {
            int diag = row[0], left = frame[C + 1 + i];
            row[0] = left;
            const int* t = &table[a[i] * extent];
            for (long long j = 0; j < C; j++) {
                const int up = row[j + 1];
                int v = std::max(std::max(diag + t[b[j]], up - penalty), left - penalty);
                if (local) {
                    v = std::max(v, 0);
                    if (best_at < 0 || v > best) { best = v; best_at = i * C + j; }
                }
                diag = up; row[j + 1] = v; left = v;
            }
        }
        if (local) printf("REF %lldx%lld best %lld at %lld\n", R, C, best, best_at);
        else printf("REF %lldx%lld score %d\n", R, C, row[C]);
        return 0;
    }
    int *da, *db, *dframe, *dtable; char* scratch;
    CK(cudaMalloc(&da, R * 4)); CK(cudaMalloc(&db, C * 4)); CK(cudaMalloc(&dframe, frame.size() * 4));
    CK(cudaMalloc(&dtable, table.size() * 4));
    // FG_PAD=BYTES: a buffer allocated before the scratch memory, which moves the edge ring's addresses
    if (const char* pad = getenv("FG_PAD"); pad != nullptr && atoll(pad) > 0) { char* unused; CK(cudaMalloc(&unused, atoll(pad))); }
    const long long extra = getenv("FG_EXTRA") != nullptr ? atoll(getenv("FG_EXTRA")) : 0;
    const size_t scratch_bytes = info->scratch_bytes + (size_t) std::max(0LL, extra);
    CK(cudaMalloc(&scratch, scratch_bytes));
    if (getenv("FG_PAD") != nullptr) printf("scratch at %p (pad %s)\n", (void*) scratch, getenv("FG_PAD"));
    CK(cudaMemcpy(da, a.data(), R * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, b.data(), C * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dframe, frame.data(), frame.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dtable, table.data(), table.size() * 4, cudaMemcpyHostToDevice));
    void* buffers[4] = {da, db, dframe, dtable};
    long long params[1] = {penalty};
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> times;
    for (int run = 0; run < 12; run++) {
        CK(cudaMemset(scratch, 0, scratch_bytes));
#ifdef PROF
        fg_prof_reset();
#endif
        cudaEventRecord(e0);
        CK(FG_CAT(fg_run_, FG_VARIANT)(buffers, params, scratch, 0));
        cudaEventRecord(e1);
        CK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        if (run >= 3) times.push_back(ms);
    }
    int error = 0, score = 0;
    CK(cudaMemcpy(&error, scratch, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&score, scratch + info->outputs[0].scratch_offset, 4, cudaMemcpyDeviceToHost));
    long long best[2] = {0, -1};
    if (local) CK(cudaMemcpy(best, scratch + info->outputs[1].scratch_offset, 16, cudaMemcpyDeviceToHost));
    std::sort(times.begin(), times.end());
    const double med = times[times.size() / 2];
    printf("%-24s %lldx%lld median %8.3f ms  min %8.3f  %7.1f G cells/s  score %d", name, R, C, med, times[0],
           R * (double) C / med / 1e6, score);
    if (local) printf("  best %lld at %lld", best[0], best[1]);
    printf("  error %d\n", error);
#ifdef STREAM_COUNT
    printf("  groups not ready: %llu over the 12 runs\n", fg_stream_misses());
#endif
#ifdef PROF
    fg_prof_print();
#endif
    return 0;
}
