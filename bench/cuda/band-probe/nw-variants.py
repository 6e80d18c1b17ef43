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
  unroll4, unroll16, unroll32  the steady steps unrolled 4, 16 or 32 times a pass instead of 8
  stream  the left band's edge streamed to the stepping warp in the steady chunks, groups of 8 rows two groups
          ahead, instead of a window a chunk filled by warp 1 (units with helper warps)
  streamasync  the same with the words copied into shared memory by cp.async
  streamall  streamasync in every chunk, a band's first and last too: no window at all; streamall16 in groups of 16 (the steady steps unrolled 8 as generated)"""
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


def firstpeel(t):
    """fastfirst's steady-form first chunk, peeled out of the stepping warp's chunk loop instead of a branch inside it,
    so that the loop holds no third copy of the steps."""
    found = _steady_block(t)
    if not found:
        return t
    start, indent, else_at = found
    close = t.index('\n' + indent + '}\n', else_at + 1)
    steady_open = t.index('{\n', start) + 2
    first = _guarded_steps(t[steady_open:else_at + 1], t).replace('fg::store_relaxed_gpu_if(', 'fg::store_relaxed_gpu_if(i >= 0 && ')
    loop = re.compile(r'\n( *)for \(int base = 0, c = 0; (base < \d+); base \+= 32, c\+\+\) \{\n')
    m = None
    for m in loop.finditer(t, 0, start):
        pass
    loop_indent = m.group(1)
    loop_end = t.index('\n' + loop_indent + '}\n', start) + 1
    body = t[m.end():loop_end]
    rel = start - m.end()
    rel_close = close + 1 + len(indent) + 2 - m.end()
    body_first = body[:rel] + indent + '{   // the first chunk, peeled, in the steady form\n' + first + indent + '}\n' + body[rel_close:]
    peeled = (loop_indent + '{   // chunk 0\n' + loop_indent + '    const int base = 0, c = 0;\n' + body_first
              + loop_indent + '}\n')
    head = loop_indent + f'for (int base = 32, c = 1; {m.group(2)}; base += 32, c++) {{\n'
    return t[:m.start() + 1] + peeled + head + body + t[loop_end:]


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


def stream_loop(inner, indent, edge, ready, last, prev):
    """A steady chunk's 32 steps with the left band's edge streamed in groups of 8 rows, two groups ahead: at a group's
    start the warp checks the group's words (lanes 0 to 7 hold rows 0 to 7 of it, the other lanes copies) with one vote,
    takes them out of their register and loads the words of the group two ahead into it; a step takes its row's value
    from lane u of the group by a shuffle. Two registers alternate, a pass of two groups each: no word is copied from
    register to register, which would wait for a load just issued, and two loads are in flight at a time (a warp has few
    scoreboards). A group not yet ready polls its rows again until they are and loads the next group again (that load was
    issued as early, so it likely found its rows not ready too). `edge(r)`: the word of row r; `ready(w, r)`: whether
    word w holds row r; `prev`: the last window's last row, the first streamed step's diagonal."""
    i2 = indent + '    '
    i3 = i2 + '    '
    lane_row = lambda g: f'{g} + (lane & 7)'

    def group(mine, other, offset):
        g0 = f'base + k16 + {offset}'
        row = lane_row('g0')
        return (i2 + '{\n'
                + i3 + f'const int g0 = {g0};   // the group\'s first row\n'
                + i3 + f'if (STREAM_CHECK && !__all_sync(0xffffffffu, {ready(mine, row)})) {{   // not all ready: poll them, and load the next group again\n'
                + i3 + '    STREAM_MISS();\n'
                + i3 + f'    do {{ {mine} = {edge(row)}; }} while (!__all_sync(0xffffffffu, {ready(mine, row)}));\n'
                + i3 + f'    {other} = {edge(f"min({row} + 8, {last})")};\n'
                + i3 + '}\n'
                + i3 + f'const fg::u64 sg = {mine};\n'
                + i3 + f'{mine} = {edge(f"min({row} + 16, {last})")};   // two groups ahead\n'
                + i3 + '#pragma unroll\n' + i3 + 'for (int u = 0; u < 8; u++) {\n'
                + i3 + f'    const int k = k16 + {offset} + u;\n'
                + i3 + '    const int sq_west = __shfl_sync(0xffffffffu, (int) (unsigned) sg, u);   // lane 0\'s row\'s edge value\n'
                + i3 + '    const int sq_diag = sq_prev;\n'
                + i3 + '    sq_prev = sq_west;\n'
                + inner.replace('\n', '\n        ') + '\n' + i3 + '}\n'
                + i2 + '}\n')
    first = lane_row('base')
    return (f'if (!sq_primed) {{   // the band\'s first chunk that streams: two groups in flight, the last window\'s last row carried\n'
            + indent + f'    sgA = {edge(first)};\n'
            + indent + f'    sgB = {edge(f"min({first} + 8, {last})")};\n'
            + indent + f'    sq_prev = {prev};\n'
            + indent + '    sq_primed = true;\n'
            + indent + '}\n'
            + indent + '#pragma unroll 1\n' + indent + 'for (int k16 = 0; k16 < 32; k16 += 16) {\n'
            + group('sgA', 'sgB', 0) + group('sgB', 'sgA', 8)
            + indent + '}\n')


def stream_async_loop(inner, indent, token, halo, ready, last, prev, prime=True, unroll='#pragma unroll', group=8):
    """stream_loop with the words copied into shared memory by cp.async instead of loaded into registers: a group's
    copy (16 bytes a lane, two rows; band 0's halo column 4 bytes a lane) is issued two groups ahead, waited for by
    cp.async.wait_group, checked with one vote, and a step reads its row's value from shared memory as it read the
    window. No register waits on a load in flight. `token(r)`, `halo(r)`: the addresses of row r's word and halo value;
    `group`: rows a group (8 or 16; a chunk is two groups or more)."""
    i2 = indent + '    '
    i3 = i2 + '    '
    shift = group.bit_length() - 1

    def group_at(offset):
        row = f'g0 + (lane & {group - 1})'
        return (i2 + '{\n'
                + i3 + f'const int g0 = base + kk + {offset};   // the group\'s first row\n'
                + i3 + f'const int slot = (g0 >> {shift}) & 3;\n'
                + i3 + stream_issue(f'g0 + {2 * group}', token, halo, last, group) + i3 + 'fg_cp_async_commit();\n'
                + i3 + 'fg_cp_async_wait2();   // this group\'s copy, issued two groups ago, has landed\n'
                + i3 + '__syncwarp();\n'
                + i3 + f'const fg::u64 mine = s_stream[slot][lane & {group - 1}];\n'
                + i3 + f'if (STREAM_CHECK && !__all_sync(0xffffffffu, band == 0 || {ready("mine", row)})) {{   // not all ready: their lanes poll them\n'
                + i3 + '    STREAM_MISS();\n'
                + i3 + f'    if (lane < {group}) {{ const int r = min(g0 + lane, {last}); fg::u64 w; do {{ w = fg::load_relaxed_gpu_nb({token("r")}); }} while (!({ready("w", "r")})); s_stream[slot][lane] = w; }}\n'
                + i3 + '    __syncwarp();\n'
                + i3 + '}\n'
                + i3 + unroll + '\n' + i3 + f'for (int u = 0; u < {group}; u++) {{\n'
                + i3 + f'    const int k = kk + {offset} + u;\n'
                + i3 + '    const int sq_west = ((const int*) &s_stream[slot][0])[2 * u];   // lane 0\'s row\'s edge value\n'
                + i3 + '    const int sq_diag = sq_prev;\n'
                + i3 + '    sq_prev = sq_west;\n'
                + inner.replace('\n', '\n        ') + '\n' + i3 + '}\n'
                + i2 + '}\n')
    head = ''
    if prime:
        head = (f'if (!sq_primed) {{   // the band\'s first chunk that streams: two groups in flight, the last window\'s last row carried\n'
                + stream_first_two('base', token, halo, last, group, indent + '    ')
                + indent + f'    sq_prev = {prev};\n'
                + indent + '    sq_primed = true;\n'
                + indent + '}\n' + indent)
    return (head + '#pragma unroll 1\n' + indent + f'for (int kk = 0; kk < 32; kk += {2 * group}) {{\n'
            + group_at(0) + group_at(group)
            + indent + '}\n')


def stream_issue(g, token, halo, last, group):
    """The copies of the group of rows from g into its slot: 16 bytes (two words) a lane, or band 0's halo values."""
    slot = f'(({g}) >> {group.bit_length() - 1}) & 3'
    return (f'if (band > 0) {{ if (lane < {group // 2}) {{ const int r = min({g} + 2 * lane, {last} - 1); fg_cp_async16(&s_stream[{slot}][2 * lane], {token("r")}); }} }}'
            f' else if (lane < {group}) {{ const int r = min({g} + lane, {last}); fg_cp_async4(&s_stream[{slot}][lane], {halo("r")}); }}\n')


def stream_first_two(first, token, halo, last, group, indent):
    """The copies of the two groups of rows from `first`, each committed as a group of its own."""
    return ''.join(indent + stream_issue(g, token, halo, last, group) + indent + 'fg_cp_async_commit();\n'
                   for g in (first, str(int(first) + group) if first.isdigit() else f'{first} + {group}'))


def stream_prime(token, halo, last, prev, indent, group=8):
    """A band's first two groups of edge words asked for, at its first chunk, and the row above the domain as the first
    step's diagonal (streamall: every chunk streams)."""
    return (indent + 'if (base == 0) {   // the band\'s first two groups of edge words, and the halo row above the domain as the first diagonal\n'
            + stream_first_two('0', token, halo, last, group, indent + '    ')
            + indent + f'    sq_prev = {prev};\n'
            + indent + '}\n')


def loop32(text, start=0, pragma=True):
    """The first loop of a chunk's 32 steps from `start` (pragma: the unrolled steady one, with its pragma): (where its
    pragma or head starts, its indent, where its body starts, where its body ends, where the loop ends)."""
    loop_at = text.index('#pragma unroll 8' if pragma else 'for (int k = 0; k < 32; k++) {', start)
    indent = text[text.rindex('\n', 0, loop_at) + 1:loop_at]
    head = 'for (int k = 0; k < 32; k++) {'
    hs = text.index(head, loop_at) + len(head)
    close = '\n' + indent + '}\n'
    he = text.index(close, hs)
    return loop_at, indent, hs, he, he + len(close)


def stream_inner(body, window, index, pragma=True):
    """The steady loop of a steady branch's body (or, pragma=False, the first 32-step loop of a checked branch): (where
    its pragma or head starts, its indent, its body with the window's two reads named sq_diag and sq_west, where the
    loop ends)."""
    loop_at, indent, hs, he, after = loop32(body, pragma=pragma)
    inner = body[hs:he]
    inner, n = re.subn(window + r'\[' + index + r'\]\[min\(lane \* \d+ \+ 0, 0\)\]\[min\(max\(i - 1 - wb, 0\), 32\)\]', 'sq_diag', inner)
    assert n == 1, n
    inner, n = re.subn(window + r'\[' + index + r'\]\[min\(lane \* \d+ \+ 0, 0\)\]\[min\(max\(i - 0 - wb, 0\), 32\)\]', 'sq_west', inner)
    assert n == 1, n
    return loop_at, indent, inner, after


STREAM_PRELUDE = ('#ifdef STREAM_COUNT   // -DSTREAM_COUNT: the groups that found their rows not ready, for the driver to print\n'
                   '__device__ unsigned long long fg_stream_miss_count;\n'
                   'extern "C" unsigned long long fg_stream_misses() { unsigned long long v = 0; cudaMemcpyFromSymbol(&v, fg_stream_miss_count, 8); return v; }\n'
                   '#define STREAM_MISS() do { if (threadIdx.x % 32 == 0) atomicAdd(&fg_stream_miss_count, 1ull); } while (0)\n'
                   '#else\n#define STREAM_MISS() do { } while (0)\n#endif\n'
                   '#ifndef STREAM_CHECK\n#define STREAM_CHECK 1   // 0: a probe of the steps alone, which take every word unchecked (wrong scores)\n#endif\n'
                   'namespace fg {\n__device__ __forceinline__ u64 load_relaxed_gpu_nb(const u64* word) {   // no compiler barrier\n'
                   '    u64 value;\n    asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(value) : "l"(word));\n    return value;\n}\n}\n'
                   '__device__ __forceinline__ void fg_cp_async16(void* shared, const void* global) {   // L2 only: the words change\n'
                   '    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((unsigned) __cvta_generic_to_shared(shared)), "l"(global));\n}\n'
                   '__device__ __forceinline__ void fg_cp_async4(void* shared, const void* global) {\n'
                   '    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((unsigned) __cvta_generic_to_shared(shared)), "l"(global));\n}\n'
                   '__device__ __forceinline__ void fg_cp_async_commit() { asm volatile("cp.async.commit_group;"); }\n'
                   '__device__ __forceinline__ void fg_cp_async_wait2() { asm volatile("cp.async.wait_group 2;" ::: "memory"); }\n')


def _edge_words(t):
    """What the window code of a full-matrix unit reads, for a rewrite that streams it: (the window's name, the field,
    the last row, the index of row r's word in `tokens`, the index of row r's halo value in the field)."""
    m = re.search(r'do \{ (word\d+) = fg::load_relaxed_gpu\(&tokens\[(.*?)\]\); \} while \(\(\1 >> 32\) == 0\);', t)
    address = m.group(2)
    assert address.endswith(' + row')
    h = re.search(r'(s_edge_(\w+))\[(?:\(c \+ 1\) & 1|0)\]\[slot\]\[at\] = f\.(\w+)\[(.*?)\];   // the halo', t)
    window, field, halo = h.group(1), h.group(3), h.group(4)
    last = re.search(r'const int last = min\(base \+ 31, (\d+)\);', t).group(1)
    at = lambda r: address.replace('+ slot)', '+ 0)')[:-len('row')] + f'({r})'
    halo_at = lambda r: halo.replace('(row + 1)', f'(({r}) + 1)').replace('+ slot + 1', '+ 1')
    return window, field, last, at, halo_at


def stream(t, copies=False):
    """The left band's edge streamed to the stepping warp in the steady chunks (units with helper warps; see
    stream_loop). Warp 1 then fills a window only for the chunks that do not stream (a band's first and last), every
    row of it fresh, and the stepping warp waits at a chunk's start for its input rows alone."""
    window, field, last, at, halo_at = _edge_words(t)
    ready = lambda w, r: f'({w} >> 32) != 0'
    start, indent, end = _steady_block(t)
    cond = re.search(r'if \((base >= 32 && base \+ \d+ < \d+ && band < \d+)\) \{', t[start:]).group(1)
    end += 1   # the steady branch's last line with its newline
    body = t[start:end]
    loop_at, lindent, inner, after = stream_inner(body, window, 'cb')
    if copies:
        token = lambda r: f'&tokens[{at(r)}]'
        halo_addr = lambda r: f'&f.{field}[{halo_at(r)}]'
        loop = f'__shared__ __align__(16) fg::u64 s_stream[4][8];   // the streamed groups of edge words\n{lindent}' + stream_async_loop(inner, lindent, token, halo_addr, ready, last, f'{window}[cb ^ 1][0][32]')
    else:
        edge = lambda r: f'(band > 0 ? fg::load_relaxed_gpu_nb(&tokens[{at(r)}]) : (1ull << 32) | (unsigned) f.{field}[{halo_at(r)}])'
        loop = stream_loop(inner, lindent, edge, ready, last, f'{window}[cb ^ 1][0][32]')
    body = body[:loop_at] + loop + body[after:]
    t = t[:start] + body + t[end:]
    # the stepping warp's words in flight, before its chunks; a chunk that does not stream fills them again
    t, n = re.subn(r'(\n( *)for \(int base = 0, c = 0; base < \d+; base \+= 32, c\+\+\) \{\n\s*fg::bar_sync\(1, 64\);[^\n]*\n)',
                   lambda g: f'\n{g.group(2)}{"" if copies else "fg::u64 sgA = 0, sgB = 0; "}int sq_prev = 0; bool sq_primed = false;   // the last edge value streamed; whether the next groups are in flight\n' + g.group(1)[1:]
                   + f'{g.group(2)}    if (!({cond})) sq_primed = false;\n', t, count=1)
    assert n == 1
    # warp 1: no window for a chunk that streams; every row of a window fresh (the stream keeps no last row for it)
    t, n = re.subn(r'const int fresh = base > 0 \? 32 : 33;', 'const int fresh = 33;', t)
    assert n == 2, n
    t, n = re.subn(r'(\n( *)/\* the next chunk\'s edge window \*/ \{\n)', lambda g: f'\n{g.group(2)}if (!({cond.replace("base", "next")}))' + g.group(1)[len(g.group(2)) + 1:], t)
    assert n == 1, n
    return t.replace('#include "finegrain.cuh"\n', '#include "finegrain.cuh"\n' + STREAM_PRELUDE, 1)


def streamall(t, group=8):
    """streamasync in every chunk: a band's first and last chunks stream too (their checked steps, a loop not unrolled),
    so that no band waits for a window of its left neighbour's rows at its start, and warp 1 fills no window at all.
    With a window at a band's start, the lag the first chunk sets stays for the whole band (every band runs at one pace)."""
    window, field, last, at, halo_at = _edge_words(t)
    token = lambda r: f'&tokens[{at(r)}]'
    halo_addr = lambda r: f'&f.{field}[{halo_at(r)}]'
    ready = lambda w, r: f'({w} >> 32) != 0'
    start, indent, end = _steady_block(t)
    end += 1
    body = t[start:end]
    loop_at, lindent, inner, after = stream_inner(body, window, 'cb')
    body = body[:loop_at] + stream_async_loop(inner, lindent, token, halo_addr, ready, last, None, prime=False, group=group, unroll='#pragma unroll 8' if group > 8 else '#pragma unroll') + body[after:]
    t = t[:start] + body + t[end:]
    # the checked branch, right after the steady one
    els = t.index('\n' + indent + '} else {\n', start) + 1
    stop = t.index('\n' + indent + '}\n', els + 1) + 1
    body = t[els:stop]
    loop_at, lindent, inner, after = stream_inner(body, window, 'cb', pragma=False)
    body = body[:loop_at] + stream_async_loop(inner, lindent, token, halo_addr, ready, last, None, prime=False, unroll='#pragma unroll 1', group=group) + body[after:]
    t = t[:els] + body + t[stop:]
    # priming at the band's first chunk, before its branch
    t = t[:start] + stream_prime(token, halo_addr, last, f'f.{field}[{halo_at("-1")}]', indent, group) + t[start:]
    t, n = re.subn(r'(\n( *)for \(int base = 0, c = 0; base < \d+; base \+= 32, c\+\+\) \{\n\s*fg::bar_sync\(1, 64\);[^\n]*\n)',
                   lambda g: f'\n{g.group(2)}int sq_prev = 0;   // the last edge value streamed\n' + g.group(1)[1:], t, count=1)
    assert n == 1
    # warp 1 fills no window
    t, n = re.subn(r"/\* the (first|next) chunk's edge window \*/ \{", r"if (false) /* no window: the edge streams */ {", t)
    assert n == 2, n
    t = t.replace(f'__shared__ int {window}[', '__shared__ __align__(16) fg::u64 s_stream[4][' + str(group) + '];   // the streamed groups of edge words\n        __shared__ int ' + f'{window}[', 1)
    return t.replace('#include "finegrain.cuh"\n', '#include "finegrain.cuh"\n' + STREAM_PRELUDE, 1)


def peeled_unroll(text, times):
    """A unit whose generator peeled the first chunk (FirstChunk): the peeled chunk's steps unrolled `times` times
    instead of 8, so that less of its code sits beside the chunk loop."""
    at = text.index('// the first chunk, peeled out of the loop')
    i = text.index('#pragma unroll 8', at)
    return text[:i] + f'#pragma unroll {times}' + text[i + len('#pragma unroll 8'):]

KINDS = {'nowb': [nowb], 'nocopy': [nocopy], 'nopoll': [nopoll], 'steps': [nowb, nocopy, nopoll], 'plain': [plain],
         'pstore': [pstore], 'pstore1': [lambda t: pstore(t, only_reachable=True)], 'chunkstore': [chunkstore], 'fastfirst': [fastfirst], 'firstpeel': [firstpeel], 'guarded': [guarded], 'onespin': [onespin], 'gdspin': [guarded, onespin], 'backoff': [backoff],
         'gdback': [guarded, backoff], 'unroll4': [lambda t: unroll(t, 4)], 'unroll16': [lambda t: unroll(t, 16)],
         'unroll32': [lambda t: unroll(t, 32)], 'stream': [stream], 'streamasync': [lambda t: stream(t, copies=True)], 'streamall': [streamall], 'streamall16': [lambda t: streamall(t, 16)],
         'peel1': [lambda t: peeled_unroll(t, 1)], 'peel2': [lambda t: peeled_unroll(t, 2)], 'peel4': [lambda t: peeled_unroll(t, 4)]}

if __name__ == '__main__':
    source, kind, target = sys.argv[1:4]
    text = open(source).read()
    for rewrite in KINDS[kind]:
        changed = rewrite(text)
        if changed == text:
            sys.exit(f'nw-variants.py: {kind}: {rewrite.__name__} found nothing to rewrite in {source}')
        text = changed
    open(target, 'w').write(text)
