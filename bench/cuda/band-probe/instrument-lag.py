#!/usr/bin/env python3
"""instrument-lag.py IN.cu OUT.cu: adds the global timer to a lock-dataflow:persistent unit with helper warps
(`finegrain show needleman-wunsch --cuda --schedule lock-dataflow:persistent:columns=4 ...`): lane 0 of the stepping
warp records when each chunk of 32 steps starts (after the helpers hand it over). fg_prof_print() (nw-driver.cu with
-DPROF) prints, for the last timed run, how long a steady chunk takes (bands' own pace) and how long after its left
neighbour each band starts the same chunk (the chain), in nanoseconds and in chunks."""
import re
import sys

MAX_CHUNKS = 1024


def instrument(src, dst):
    text = open(src).read()
    bands = int(re.search(r'//   bands:      (\d+) bands', text).group(1))
    lines = text.split('\n')
    # every hand-over to the stepping warp: in its chunk loop, and before it where the first chunk is peeled out of it
    ats = [i for i, l in enumerate(lines) if 'fg::bar_sync(1, 64);   // warp 1 has this chunk' in l]
    if not ats:
        sys.exit(f'instrument-lag.py: {src} has no helper warps (its header says why under helpers:); it times their hand-over')
    for at in reversed(ats):
        indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
        lines.insert(at + 1, indent + 'if (lane == 0 && c < %d) { unsigned long long t; asm volatile("mov.u64 %%0, %%%%globaltimer;" : "=l"(t));'
                     ' fg_lag[band * %d + c] = t; }' % (MAX_CHUNKS, MAX_CHUNKS))
    text = '\n'.join(lines)
    header = ('#include "finegrain.cuh"\n#include <cstdio>\n#include <vector>\n#include <algorithm>\n'
              '__device__ unsigned long long fg_lag[%d * %d];\n' % (bands, MAX_CHUNKS) +
              'extern "C" void fg_prof_print() {\n'
              '    const int B = %d, M = %d; std::vector<unsigned long long> h((size_t) B * M);\n' % (bands, MAX_CHUNKS) +
              '    cudaMemcpyFromSymbol(h.data(), fg_lag, h.size() * 8);\n'
              '    int chunks = 0; while (chunks < M && h[chunks] != 0) chunks++;\n'
              '    int lo = chunks / 4, hi = 3 * chunks / 4; double pace = 0, lag = 0; int np = 0, nl = 0;\n'
              '    for (int b = 0; b < B; b++) for (int c = lo; c < hi; c++) { pace += (double) (h[b * M + c + 1] - h[b * M + c]); np++; }\n'
              '    for (int b = 1; b < B; b++) for (int c = lo; c < hi; c++) { lag += (double) (long long) (h[b * M + c] - h[(b - 1) * M + c]); nl++; }\n'
              '    pace /= np; lag /= nl;\n'
              '    double p0 = 0; for (int c = lo; c < hi; c++) p0 += (double) (h[c + 1] - h[c]); p0 /= (hi - lo);\n'
              '    printf("  chunks %d a band; steady chunk %.0f ns (band 0 alone: %.0f ns); a band starts chunk c %.0f ns after its left neighbour (%.2f chunks)\\n",'
              ' chunks, pace, p0, lag, lag / pace);\n'
              '}\n')
    text = text.replace('#include "finegrain.cuh"\n', header, 1)
    open(dst, 'w').write(text)


if __name__ == '__main__':
    instrument(sys.argv[1], sys.argv[2])
