#!/usr/bin/env python3
"""seq-variants.py IN.cu KIND OUT.cu: rewrites a lock-dataflow:persistent unit of needleman-wunsch-seq by hand, to
measure what a change to the generator would buy before making it. KIND:
  profile   the substitution table read through a per-warp query profile in shared memory (the table's rows for the
            band's own columns, laid out so that the 32 lanes of a step read 32 banks): one conflict-free load a cell
  nocheck   the table's bounds checks left out (a probe: what they cost)
  nolookup  the table read replaced by a - b (a probe; the scores are wrong)
  noa       the sequence read replaced by i & 15 (a probe; the scores are wrong)
  relaxedfree  the free counter stored relaxed, not released (a probe: what the release's fence costs)
  flagcheck the step's bounds check of the profile's row made branch-free: a flag per lane, the error word written
            once at the band's end
  nokept    the kept value's store left out of the steady steps (a probe: what the per-cell test costs)"""
import re
import sys

LOOKUP = re.compile(r's_table_(\w+)\[\(fg::table_index\((v\d+), (\d+), (\d+), 0, error\)\) \* (\d+) \+ '
                    r'fg::table_index\((v\d+), (\d+), \d+, 1, error\)\]')

def columns(text):
    m = re.search(r'columns=(\d+)', text.split('\n')[0])
    return int(m.group(1)) if m else 1

def profile(text):
    w = columns(text)
    launch = re.search(r'dim3\((\d+)\), dim3\((\d+)\), arguments, 0, stream\)', text)
    warps = int(launch.group(2)) // 32
    table = LOOKUP.search(text)
    name, rows, cols = table.group(1), int(table.group(3)), int(table.group(5))
    per_warp = rows * w * 32
    column_of = {m.group(1): int(m.group(2) or 0) for m in re.finditer(r'const int (v\d+) = q_b(?:_c(\d+))?;', text)}
    def lookup(m):
        c = column_of[m.group(6)]
        return f's_prof[(fg::table_index({m.group(2)}, {rows}, {m.group(4)}, 0, error) * {w} + {c}) * 32 + lane]'
    text = LOOKUP.sub(lookup, text)
    text = text.replace('        const int warp = threadIdx.x / 32;\n',
                        '        const int warp = threadIdx.x / 32;\n'
                        '        extern __shared__ int s_prof_all[];   // per warp: the table rows for its band\'s columns, [symbol][column][lane]\n'
                        f'        int* const s_prof = s_prof_all + warp * {per_warp};\n', 1)
    qs = [f'q_b_c{c}' for c in range(w)] if w > 1 else ['q_b']
    last_q = max(i for i, l in enumerate(text.split('\n')) if re.search(r'const int q_b(_c\d+)? = ', l))
    lines = text.split('\n')
    fill = ('            __syncwarp();   // the warp is done with the last band\'s profile\n'
            f'            {{ const int qs[{w}] = {{{", ".join(qs)}}};\n'
            f'              #pragma unroll\n'
            f'              for (int c = 0; c < {w}; c++) {{ const int t = fg::table_index(qs[c], {cols}, {table.group(4)}, 1, error);'
            f' for (int x = 0; x < {rows}; x++) s_prof[(x * {w} + c) * 32 + lane] = s_table_{name}[x * {cols} + t]; }} }}\n'
            '            __syncwarp();')
    lines.insert(last_q + 1, fill)
    text = '\n'.join(lines)
    nbytes = warps * per_warp * 4
    text = text.replace('cudaFuncAttributeMaxDynamicSharedMemorySize, 0)', f'cudaFuncAttributeMaxDynamicSharedMemorySize, {nbytes})')
    return text.replace('arguments, 0, stream)', f'arguments, {nbytes}, stream)')

def main(src, kind, dst):
    text = open(src).read()
    if kind == 'profile':
        text = profile(text)
    elif kind == 'nocheck':
        text = re.sub(r'fg::table_index\((v\d+), \d+, \d+, [01], error\)', r'(\1)', text)
    elif kind == 'nolookup':
        text = LOOKUP.sub(lambda m: f'({m.group(2)} - {m.group(6)})', text)
    elif kind == 'relaxedfree':
        text = text.replace('fg::store_release_gpu(&freed[band], base + 31)',
                            'asm volatile("st.relaxed.gpu.global.s32 [%0], %1;" :: "l"(&freed[band]), "r"(base + 31) : "memory")')
    elif kind == 'flagcheck':
        text, n = re.subn(r'fg::table_index\((v\d+), (\d+), (\d+), 0, error\);   // the row',
                          lambda m: f'((unsigned) {m.group(1)} < {m.group(2)}u ? {m.group(1)} : (bad = 65536 + 4 * {m.group(3)}, 0));   // the row', text)
        assert n > 0, 'no hoisted row check'
        lines = text.split('\n')
        i_band = next(i for i, l in enumerate(lines) if 'for (int band =' in l)
        indent = lines[i_band][:len(lines[i_band]) - len(lines[i_band].lstrip())]
        i_end = next(i for i in range(i_band + 1, len(lines)) if lines[i] == indent + '}')
        lines.insert(i_end, indent + '    if (bad) *error = bad;')
        lines.insert(i_band + 1, indent + '    int bad = 0;')
        text = '\n'.join(lines)
    elif kind == 'nokept':
        lines = text.split('\n')
        i_fast = next(i for i, l in enumerate(lines) if '#pragma unroll 8' in l)
        i_slow = next(i for i in range(i_fast, len(lines)) if '} else {' in lines[i])
        text = '\n'.join(l for i, l in enumerate(lines) if not (i_fast < i < i_slow and '// kept (' in l))
    elif kind == 'noa':
        text = text.replace('__ldg(&f.a[(i)])', '((i) & 15)')
    else:
        raise SystemExit('unknown kind ' + kind)
    open(dst, 'w').write(text)

if __name__ == '__main__':
    main(*sys.argv[1:4])
