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
  nokept    the kept value's store left out of the steady steps (a probe: what the per-cell test costs)
  halves    a steady chunk waits for the first 17 rows of its window, runs 16 steps, then waits for the rest (the band
            to its left need be only half a chunk further ahead), freeing only the rows it copied
  prefetch  the next chunk's edge words loaded right after this chunk's window, before its steps, and taken at the next
            window when their ready tags match (tiny-lock, one edge column)"""
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
    elif kind == 'halves':
        lines = text.split('\n')
        i_last = next(i for i, l in enumerate(lines) if 'const int last = min(base + 31, ' in l)
        rows_1 = re.search(r'min\(base \+ 31, (\d+)\)', lines[i_last]).group(1)
        i_steady = next(i for i, l in enumerate(lines) if l.strip().startswith('if (base >= 32 && base + 31 <'))
        cond = lines[i_steady].strip()[4:-3]
        i_win = next(i for i in range(i_last, len(lines)) if 'for (int x = lane; x < 33; x += 32)' in lines[i])
        indent = lines[i_win][:len(lines[i_win]) - len(lines[i_win].lstrip())]
        i_win_end = next(i for i in range(i_win + 1, len(lines)) if lines[i] == indent + '}')
        window = lines[i_win:i_win_end + 1]
        lines[i_last] = lines[i_last].replace('const int last = min(base + 31, ',
                                              'const bool halves = ' + cond + ';\n' + indent + 'int last = min(base + (halves ? 15 : 31), ')
        text = '\n'.join(lines)
        text = text.replace('fg::store_release_gpu(&freed[band], base + 31)', 'fg::store_release_gpu(&freed[band], base + (halves ? 15 : 31))', 1)
        second = '\n'.join(window).replace('for (int x = lane; x < 33; x += 32)', 'for (int x = 17 + lane; x < 33; x += 32)')
        head = "#pragma unroll 8   // lets the compiler start a step's shared loads under the last step's shuffles\n"
        i0 = text.index(head)
        start = text.index('for (int k = 0; k < 32; k++) {', i0)
        loop_indent = '\n' + ' ' * 20
        close = loop_indent + '}\n'
        i_close = text.index(close, start)
        body = text[start + len('for (int k = 0; k < 32; k++) {'):i_close]
        new = ('for (int k = 0; k < 16; k++) {' + body + close
               + ' ' * 20 + 'last = min(base + 31, ' + rows_1 + ');   // the window\'s second half\n'
               + second + '\n' + ' ' * 20 + '__syncwarp();\n'
               + ' ' * 20 + '#pragma unroll 8\n' + ' ' * 20 + 'for (int k = 16; k < 32; k++) {' + body + close)
        text = text[:start] + new + text[i_close + len(close):]
    elif kind == 'prefetch':
        m = re.search(r'do \{ (word\d+) = fg::load_relaxed_gpu\(&tokens\[(.*?)\]\); \} while \(\(\1 >> 32\) != (.*?)\);   // the value', text)
        word, address, tag = m.group(1), m.group(2), m.group(3)
        text = text.replace(f'fg::u64 {word};\n', f'fg::u64 {word} = x < 32 ? pre0 : pre1;\n', 1)
        text = text.replace(m.group(0), f'while (({word} >> 32) != {tag}) {{ {word} = fg::load_relaxed_gpu(&tokens[{address}]); }}   // the value', 1)
        text = text.replace('            int room = 0;', '            int room = 0;\n            fg::u64 pre0 = 0, pre1 = 0;   // the next window\'s words, loaded a chunk ahead', 1)
        last = re.search(r'const int last = min\(base \+ 31, (\d+)\);', text).group(1)
        addr_at = lambda r: address.replace('((row) & ', f'(({r}) & ').replace('+ slot)', '+ 0)')
        prefetch = ('                if (band > 0) {   // the next window\'s rows, loaded while this chunk computes\n'
                    f'                    const int na = wb + 32 + lane, nb = wb + 64, nl = min(base + 63, {last});\n'
                    f'                    if (na >= 0 && na <= nl) pre0 = fg::load_relaxed_gpu(&tokens[{addr_at("na")}]);\n'
                    f'                    if (lane == 0 && nb <= nl) pre1 = fg::load_relaxed_gpu(&tokens[{addr_at("nb")}]);\n'
                    '                }\n')
        # band 0 reads the halo column left of the domain: its next rows loaded ahead too
        h = re.search(r'(s_edge_\w+\[warp\]\[slot\]\[x % 33\]) = f\.(\w+)\[row < 0 \? (.*?) : (.*?)\];   // the halo', text)
        target, field, above, left = h.group(1), h.group(2), h.group(3), h.group(4)
        text = text.replace(h.group(0), f'{target} = row < 0 ? f.{field}[{above}] : base == 0 ? f.{field}[{left}] : (int) (unsigned) (x < 32 ? pre0 : pre1);   // the halo', 1)
        left_at = lambda r: left.replace('(row)', f'({r})').replace('+ slot + 1', '+ 1')
        prefetch = prefetch.replace('                if (band > 0) {', '                if (band == 0) {   // the next window\'s halo rows\n'
                    f'                    const int na = wb + 32 + lane, nb = wb + 64, nl = min(base + 63, {last});\n'
                    f'                    if (na >= 0 && na <= nl) pre0 = (unsigned) f.{field}[{left_at("na")}];\n'
                    f'                    if (lane == 0 && nb <= nl) pre1 = (unsigned) f.{field}[{left_at("nb")}];\n'
                    '                } else {', 1)
        anchor = '                __syncwarp();   // the window is complete before any lane reads it\n'
        assert anchor in text
        text = text.replace(anchor, anchor + prefetch, 1)
    elif kind == 'noa':
        text = text.replace('__ldg(&f.a[(i)])', '((i) & 15)')
    else:
        raise SystemExit('unknown kind ' + kind)
    open(dst, 'w').write(text)

if __name__ == '__main__':
    main(*sys.argv[1:4])
