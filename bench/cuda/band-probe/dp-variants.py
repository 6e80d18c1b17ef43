#!/usr/bin/env python3
"""dp-variants.py IN.cu KIND OUT.cu: rewrites a data-parallel unit of `finegrain show needleman-wunsch --cuda
--schedule data-parallel:16 --arch sm_80` by hand, to measure what a change to the generator would buy before making it
(the probes of 2026-12-01 started from the unit as generated before programmatic launches; for sm_90 the generator now
makes them itself, so a unit for sm_80, built with -arch=sm_90, is that baseline). KINDs join with '+':

  pdl     each launch is a programmatic dependent launch (Hopper): launch d + 1 is let in as soon as every block of
          launch d has started (griddepcontrol.launch_dependents first thing), and its blocks wait for launch d to
          finish and its stores to be visible (griddepcontrol.wait) before they copy anything.
  late    with pdl: launch d + 1 is let in only once every block of launch d is past its own wait (so at most one
          launch waits at a time).
  end     with pdl: launch d + 1 is let in once every block of launch d has swept its tile.
  pre     with pdl: the input field's copy is issued before the wait (inputs are not written by any launch), only the
          state field's copy after it.
  need    each field copies only the words the tile reads from global memory: the input's 16 x 16 interior, the state's
          halo row and column (its interior is computed before it is read).
  shfl    (implies need) the sweep keeps a thread's last value in a register and takes the row above from thread
          t - 1 by a shuffle (the one before it is the north-west), no shared store of the state and no block barrier
          in the sweep: the tile swept as a 16-lane band.

Run the result with graph-driver.cu, which times the unit as it launches and as a CUDA graph and checks every cell.
"""
import re
import sys

src, kinds, out = open(sys.argv[1]).read(), sys.argv[2].split('+'), sys.argv[3]
if 'fg::wait_for_previous_launch' in src:
    sys.exit('dp-variants: ' + sys.argv[1] + ' launches programmatically already (generated for sm_90); generate the'
             ' baseline with --arch sm_80 and build it with -arch=sm_90')


def sub(pattern, repl, text, count=1):
    new, n = re.subn(pattern, repl, text, count=count, flags=re.S)
    if n == 0:
        sys.exit(f'dp-variants: pattern not found: {pattern}')
    return new


copy_loop = re.search(r'        for \(int w = t; w < 289; w \+= 16\) \{\n.*?\n        \}\n', src, re.S).group(0)
ref_line = re.search(r'\n( *fg::cp_async_or_zero\(&s_reference.*?;)', copy_loop).group(1)
score_line = re.search(r'\n( *fg::cp_async_or_zero\(&s_score.*?;)', copy_loop).group(1)
index = ('            const int i = i0 + w / 17 - 1;\n'
         '            const int j = j0 + w % 17 - 1;\n'
         '            const bool inside = i < 16384 && j < 16384;\n'
         '            const long long g = ((long long) (i + 1)) * 16385 + (j + 1);\n')
size = re.search(r'i < (\d+) && j < (\d+)', copy_loop)
index = index.replace('16384', size.group(1)).replace('16385', str(int(size.group(1)) + 1))
if 'shfl' in kinds:
    kinds.append('need')
    n = size.group(1)
    sweep = re.search(r'        // sweep: 31 steps.*?\n            __syncthreads\(\);\n        \}\n', src, re.S).group(0)
    src = src.replace(sweep, f'''        // sweep by shuffles: thread t's last value in a register, the row above from thread t - 1
        int mine = 0, northPrevious = 0;
        for (int s = 0; s < 31; s++) {{
            const int column = s - t;
            const int i = i0 + t;
            const int j = j0 + column;
            int north = __shfl_up_sync(0xffffu, mine, 1, 16);
            if (column >= 0 && column < 16 && i < {n} && j < {n}) {{
                const int w = (t + 1) * 17 + column + 1;
                const long long g = ((long long) (i + 1)) * {int(n) + 1} + (j + 1);
                if (t == 0) north = s_score[column + 1];
                const int northWest = column == 0 ? s_score[t * 17] : (t == 0 ? s_score[column] : northPrevious);
                const int west = column == 0 ? s_score[(t + 1) * 17] : mine;
                const int v0 = fg::sub(north, p.penalty);
                const int v1 = __viaddmax_s32(northWest, s_reference[w], v0);
                const int v2 = __viaddmax_s32(west, fg::neg(p.penalty), v1);
                mine = v2;
                f.score[g] = v2;
            }}
            northPrevious = north;
        }}
''')
if 'need' in kinds:
    ref_loop = ('        for (int k = t; k < 256; k += 16) {   // the input: the interior only\n'
                '            const int w = (k / 16 + 1) * 17 + k % 16 + 1;\n' + index + ref_line + '\n        }\n')
    score_loop = ('        for (int k = t; k < 33; k += 16) {   // the state: the halo row and column only\n'
                  '            const int w = k < 17 ? k : (k - 16) * 17;\n' + index + score_line + '\n        }\n')
else:
    ref_loop = '        for (int w = t; w < 289; w += 16) {\n' + index + ref_line + '\n        }\n'
    score_loop = '        for (int w = t; w < 289; w += 16) {\n' + index + score_line + '\n        }\n'
wait = '        asm volatile("griddepcontrol.wait;" ::: "memory");   // launch d - 1 has finished, its stores visible\n'
if 'pdl' in kinds:
    body = (ref_loop + wait + score_loop) if 'pre' in kinds else (wait + ref_loop + score_loop)
    src = src.replace(copy_loop, body)
    trigger = '        asm volatile("griddepcontrol.launch_dependents;");   // let launch d + 1 in now\n'
    if 'late' in kinds:
        src = src.replace(wait, wait + trigger)
    elif 'end' in kinds:
        src = sub(r'(\n    \}\n\n\}  // namespace)', lambda m: '\n' + trigger.rstrip('\n') + m.group(1), src)
    else:
        src = sub(r'(        const int t = threadIdx.x;\n)', lambda m: m.group(1) + trigger, src)
    src = sub(r'        data_parallel<<<blocks, 16, 0, stream>>>\(f, p, d, error\);\n',
              '        cudaLaunchConfig_t config = {};\n'
              '        config.gridDim = dim3(blocks); config.blockDim = dim3(16); config.stream = stream;\n'
              '        cudaLaunchAttribute attribute[1];\n'
              '        attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;\n'
              '        attribute[0].val.programmaticStreamSerializationAllowed = 1;\n'
              '        config.attrs = attribute; config.numAttrs = 1;\n'
              '        const cudaError_t e = cudaLaunchKernelEx(&config, data_parallel, f, p, d, error);\n'
              '        if (e != cudaSuccess) return e;\n', src)
else:
    if 'pre' in kinds:
        sys.exit('dp-variants: pre needs pdl')
    src = src.replace(copy_loop, ref_loop + score_loop)
open(out, 'w').write(src)
