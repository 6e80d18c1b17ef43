#!/usr/bin/env python3
"""trace-chain.py IN.cu OUT.cu: records, on the global timer, when every band of a lock-dataflow:persistent unit starts
each chunk of 32 steps (lane 0, before the chunk's window), and prints from those times how far each band runs behind
its left neighbour, chunk by chunk: whether the chain of bands stretches as the run goes on, and where. seq-driver.cu
(or nw-driver.cu) built with -DPROF prints the summary after the last run; with FG_TRACE_OUT=FILE it also writes the
raw times (int32 bands, int32 chunks, uint32 SM of each band, uint64 ns of each band's chunk starts, band-major)."""
import re
import sys

SUMMARY = r'''
__device__ unsigned long long fg_trace[%(bands)d * %(chunks)d];
__device__ unsigned fg_band_sm[%(bands)d];
static __device__ __forceinline__ unsigned fg_smid() { unsigned s; asm volatile("mov.u32 %%0, %%%%smid;" : "=r"(s)); return s; }
static __device__ __forceinline__ unsigned long long fg_gtime() { unsigned long long t; asm volatile("mov.u64 %%0, %%%%globaltimer;" : "=l"(t)); return t; }
extern "C" void fg_prof_reset() {}
extern "C" void fg_prof_print() {
    const int B = %(bands)d, K = %(chunks)d;
    static unsigned long long t[%(bands)d * %(chunks)d];
    cudaMemcpyFromSymbol(t, fg_trace, sizeof(t));
    if (const char* path = getenv("FG_TRACE_OUT"); path != nullptr) {   // the raw times and each band's SM, for a script
        static unsigned sm[%(bands)d];
        cudaMemcpyFromSymbol(sm, fg_band_sm, sizeof(sm));
        FILE* out = fopen(path, "wb");
        const int header[2] = {B, K};
        fwrite(header, sizeof(header), 1, out); fwrite(sm, sizeof(sm), 1, out); fwrite(t, sizeof(t), 1, out); fclose(out);
    }
    // us after band 0's first chunk (signed: a band may start its first chunk before band 0 does)
    auto at = [&](int b, int k) { return (double) ((long long) t[(long long) b * K + k] - (long long) t[0]) / 1000.0; };
    const int ks[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 768, 1024, 1280, 1536, 1792, K - 64, K - 16, K - 4, K - 1};
    printf("  chunk start, us after band 0's first: the chain (band %%d - band 0) and the mean lag a band (over bands 1..%%d)\n", B - 1, B - 1);
    for (int k : ks) {
        if (k < 0 || k >= K) continue;
        double sum = 0, worst = 0; int worst_b = 0;
        for (int b = 1; b < B; b++) { double lag = at(b, k) - at(b - 1, k); sum += lag; if (lag > worst) { worst = lag; worst_b = b; } }
        printf("  chunk %%5d: band 0 at %%9.1f  band %%d at %%9.1f  chain %%8.1f  mean lag %%6.2f  worst %%6.2f (band %%d)\n",
               k, at(0, k), B - 1, at(B - 1, k), at(B - 1, k) - at(0, k), sum / (B - 1), worst, worst_b);
    }
    const int bs[] = {0, 1, 2, 8, 32, 64, 128, 192, 254, B - 1};
    printf("  a band's pace, us a chunk over chunks 64..K-64, and its lag behind its left neighbour at chunks 64 and K-64:\n");
    for (int b : bs) {
        if (b >= B) continue;
        double pace = (at(b, K - 64) - at(b, 64)) / (K - 128);
        printf("  band %%3d: pace %%6.3f  lag %%6.2f -> %%6.2f\n", b, pace, b ? at(b, 64) - at(b - 1, 64) : 0.0, b ? at(b, K - 64) - at(b - 1, K - 64) : 0.0);
    }
    printf("  lag growth by chunk window, us summed over bands 1..%%d:", B - 1);
    for (int k0 = 64; k0 + 256 <= K - 64; k0 += 256) printf(" %%d-%%d: %%.1f", k0, k0 + 256, (at(B - 1, k0 + 256) - at(0, k0 + 256)) - (at(B - 1, k0) - at(0, k0)));
    printf("\n");
}
'''

def instrument(src, dst):
    text = open(src).read()
    bands = int(re.search(r'bands:\s+(\d+) bands', text).group(1))
    m = re.search(r'for \(int base = \d+; base < (\d+); base \+= 32\) \{\n', text)
    chunks = (int(m.group(1)) + 31) // 32
    record = (f'if (lane == 0) fg_trace[(long long) band * {chunks} + base / 32] = fg_gtime();'
              f' if (lane == 0 && base == 0) fg_band_sm[band] = fg_smid();   // (trace)\n')
    text = text[:m.end()] + record + text[m.end():]
    text = text.replace('const int base = 0;\n', 'const int base = 0;\n' + record)   # a peeled first chunk
    ns = re.search(r'\nnamespace [^\n]*\{\n', text)
    text = text[:ns.start() + 1] + SUMMARY % {'bands': bands, 'chunks': chunks} + text[ns.start() + 1:]
    open(dst, 'w').write(text)

if __name__ == '__main__':
    instrument(sys.argv[1], sys.argv[2])
