#!/usr/bin/env python3
"""nw-variants.py IN.cu KIND OUT.cu: rewrites a needleman-wunsch lock-dataflow:persistent unit (full matrix, tiny-lock)
to measure what a part of a chunk costs or what a change would buy. The probes that leave a part out give wrong scores
(nw-driver.cu says MISMATCH): only their time is read. KIND:
  nowb    no write-back of the finished rows (a probe)
  nocopy  no copies of the input rows (a probe)
  nopoll  the window reads each edge word once, without waiting for its ready bit (a probe: no band waits for another)
  steps   all three: what the steps alone take
  plain   the DPX forms spelled as max and add (nvcc picks the instructions)
  pstore  the steps' edge stores as one predicated st.relaxed.gpu each, with no compiler memory barrier (units of the
          generator before it emitted that form itself, 2026-11-30)
  pstore1 the same, only for the columns where some lane holds an edge column (no store whose test no lane passes)
  chunkstore  a one-column edge's words stored once a chunk: the step puts its edge value in shared memory (a slot a
          step), and after the chunk's steps each lane stores one row's word, 32 rows in one coalesced store (units with
          no helper warps, of the generator before predicated stores)
  fastfirst  a band's first chunk runs the steady steps (no per-step row test), its lanes above the domain handing on
          the halo row and storing no edge word: what the first chunk, on the chain of bands, costs
  guarded the same in the steady loop itself (one loop, a row test a step for the halo and the edge store), where
          fastfirst has a loop of its own for the first chunk
  onespin the window's wait spins on one lane (the window's last row, the left band's latest) before every lane reads
          its row with its own ready bit, where every lane spins on its own row
  gdspin  guarded and onespin
  backoff every wait for a ready word (and, in a unit that folds, for the right band's room) sleeps (__nanosleep,
          FG_BACKOFF_NS, default 100) after each poll that finds it not ready
  gdback  guarded and backoff
  unroll4, unroll16, unroll32  the steady steps unrolled 4, 16 or 32 times a pass instead of 8"""
import re
import sys


def nowb(t):
    return re.sub(r'\n *f\.\w+\[[^\n]*= out_\w+\[[^\n]*;', '', t)


def nocopy(t):
    return re.sub(r'\n *fg::cp_async\(&in_[^\n]*;', '', t)


def nopoll(t):
    return re.sub(r'while \(\((word\d+) >> 32\) == 0\);', 'while (0);', t)


def split_args(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
            continue
        depth += ch == '('
        depth -= ch == ')'
        cur += ch
    out.append(cur.strip())
    return out


def plain(t):
    res, k, name = '', 0, '__viaddmax_s32('
    while True:
        m = t.find(name, k)
        if m < 0:
            return res + t[k:]
        j, depth = m + len(name), 1
        while depth:
            depth += {'(': 1, ')': -1}.get(t[j], 0)
            j += 1
        a, b, c = split_args(t[m + len(name):j - 1])
        res += t[k:m] + f'max(({a}) + ({b}), ({c}))'
        k = j


STORE = re.compile(r'if \(([^{}\n]*)\) \{\n *fg::store_relaxed_gpu\((&tokens\[[^\n]*?\]), ([^\n]*?)\);(   // [^\n]*)?\n *\}')


def pstore(t, only_reachable=False):
    def spell(m):
        test = re.match(r'lane \* (\d+) \+ (\d+) >= (\d+)', m.group(1))
        if only_reachable and test and 31 * int(test.group(1)) + int(test.group(2)) < int(test.group(3)):
            return '/* no lane holds an edge column here */'
        return f'fg_store_relaxed_gpu_if({m.group(1)}, {m.group(2)}, {m.group(3)});'
    t, n = STORE.subn(spell, t)
    helper = ('__device__ __forceinline__ void fg_store_relaxed_gpu_if(bool p, fg::u64* word, fg::u64 value) {\n'
              '    asm volatile("{ .reg .pred q; setp.ne.b32 q, %0, 0; @q st.relaxed.gpu.global.b64 [%1], %2; }"'
              ' :: "r"((int) p), "l"(word), "l"(value));\n}\n')
    return t.replace('#include "finegrain.cuh"\n', '#include "finegrain.cuh"\n' + helper, 1) if n else t




def chunkstore(t):
    stores = list(STORE.finditer(t))
    if not stores:
        return t
    lane_test = re.compile(r'lane \* (\d+) \+ (\d+) >= (\d+) && ')
    first = next(m for m in stores if (lambda g: 31 * int(g.group(1)) + int(g.group(2)) >= int(g.group(3)))(lane_test.match(m.group(1))))
    rows = re.search(r'const int last = min\(base \+ 31, (\d+)\);', t).group(1)
    def spell(m):
        g = lane_test.match(m.group(1))
        if 31 * int(g.group(1)) + int(g.group(2)) < int(g.group(3)):
            return '/* no lane holds an edge column here */'
        value = re.search(r'\(unsigned\) (\w+)$', m.group(3)).group(1)
        return f'if ({m.group(1)}) s_edge_out[warp][k] = {value};   // stored with the chunk\'s other rows after its steps'
    t = STORE.sub(spell, t)
    address = re.sub(r'lane \* \d+ \+ \d+ - \d+', '0', first.group(2))
    word = re.sub(r'\(unsigned\) \w+$', '(unsigned) s_edge_out[warp][lane]', first.group(3))
    test = lane_test.sub('', first.group(1))
    lines = t.split('\n')
    i_base = next(i for i, l in enumerate(lines) if 'for (int base = 0; base <' in l)
    indent = lines[i_base][:len(lines[i_base]) - len(lines[i_base].lstrip())]
    i_end = next(i for i in range(i_base + 1, len(lines)) if lines[i] == indent + '}')
    lines[i_end:i_end] = [indent + '    __syncwarp();   // the chunk\'s edge values are in shared memory',
                          indent + f'    {{ const int i = base - 31 + lane;   // the row lane 31 computed in step base + lane',
                          indent + f'      if ({test} && i >= 0 && i <= {rows}) fg::store_relaxed_gpu({address}, {word}); }}']
    warps = re.search(r'__shared__ \w+ s_edge_\w+\[(\d+)\]', t).group(1)
    lines.insert(i_base, indent + f'__shared__ int s_edge_out[{warps}][32];   // lane 31\'s edge values of a chunk, a step each')
    return '\n'.join(lines)


def _steady_block(t):
    """The steady chunk's loop: (where its `if` starts, its indent, where its `} else {` starts), or None."""
    m = re.search(r'\n( *)if \(base >= 32 && (base \+ \d+ < \d+ && band < \d+)\) \{\n', t)
    if not m:
        return None
    return m.start() + 1, m.group(1), t.index('\n' + m.group(1) + '} else {\n', m.end())


def _guarded_steps(block, t):
    """The steady steps made safe for a first chunk: no edge word stored above the domain, the halo row handed on."""
    block = re.sub(r'if \((lane \* \d+ \+ \d+ >= \d+ && band < \d+)\) \{\n( *fg::store_relaxed_gpu)', r'if (\1 && i >= 0) {\n\2', block)
    halo = re.findall(r'const int (a_(\w+)_0) = ', t)
    keep = ' '.join(f'o_{name} = {a};' for a, name in halo)
    # before the first history update of the step, whichever column's it is
    return re.sub(r'\n( *)(h_\w+ = )', lambda g: f'\n{g.group(1)}if (i < 0) {{ {keep} }}   // the halo row\n{g.group(1)}{g.group(2)}', block, count=1)


def fastfirst(t):
    found = _steady_block(t)
    if not found:
        return t
    start, indent, end = found
    first = _guarded_steps(t[start:end + len(indent) + 2].replace('if (base >= 32 && ', 'if (base == 0 && ', 1), t)
    return t[:start] + first + ' else ' + t[start + len(indent):]


def guarded(t):
    found = _steady_block(t)
    if not found:
        return t
    start, indent, end = found
    return t[:start] + _guarded_steps(t[start:end].replace('if (base >= 32 && ', 'if (', 1), t) + t[end:]


def onespin(t):
    polls = re.findall(r'do \{ word\d+ = fg::load_relaxed_gpu\((&tokens\[[^\n]*?\])\); \}', t)
    if not polls:
        return t
    address = polls[0].replace('+ slot)', '+ 0)').replace('+ row]', '+ last]')

    def spin(g):
        return (g.group(0) + f'\n{g.group(1)}if (lane == 31 && band > 0) {{ fg::u64 w; do {{ w = fg::load_relaxed_gpu({address}); }}'
                f' while ((w >> 32) == 0); }}   // one lane waits for the newest row\n{g.group(1)}__syncwarp();')
    return re.sub(r'\n( *)const int fresh = base > 0 \? \d+ : \d+;[^\n]*', spin, t)


def backoff(t):
    def sleepy(m):   # the poll's test with the load in it: while ((word = load) ... ) sleep
        return f'while ({m.group(3).replace(m.group(1), f"({m.group(1)} = {m.group(2)})", 1)}) __nanosleep(FG_BACKOFF_NS);'
    t = re.sub(r'do \{ (word\d+) = (fg::load_relaxed_gpu\(&tokens\[[^\n]*?\]\)); \} while \((.*?)\);(?=   // )', sleepy, t)
    t = re.sub(r'(while \(\(room = fg::load_acquire_gpu\([^)]*\)\) < [^)]*\)) \{ \}', r'\1 __nanosleep(FG_BACKOFF_NS);', t)
    return t.replace('#include "finegrain.cuh"\n', '#include "finegrain.cuh"\n#ifndef FG_BACKOFF_NS\n#define FG_BACKOFF_NS 100\n#endif\n', 1)


def unroll(t, steps):
    """The steady loop's unroll factor."""
    return t.replace('#pragma unroll 8   //', f'#pragma unroll {steps}   //', 1)


KINDS = {'nowb': [nowb], 'nocopy': [nocopy], 'nopoll': [nopoll], 'steps': [nowb, nocopy, nopoll], 'plain': [plain],
         'pstore': [pstore], 'pstore1': [lambda t: pstore(t, only_reachable=True)], 'chunkstore': [chunkstore], 'fastfirst': [fastfirst], 'guarded': [guarded], 'onespin': [onespin], 'gdspin': [guarded, onespin], 'backoff': [backoff],
         'gdback': [guarded, backoff], 'unroll4': [lambda t: unroll(t, 4)], 'unroll16': [lambda t: unroll(t, 16)],
         'unroll32': [lambda t: unroll(t, 32)]}

if __name__ == '__main__':
    source, kind, target = sys.argv[1:4]
    text = open(source).read()
    for rewrite in KINDS[kind]:
        changed = rewrite(text)
        if changed == text:
            sys.exit(f'nw-variants.py: {kind}: {rewrite.__name__} found nothing to rewrite in {source}')
        text = changed
    open(target, 'w').write(text)
