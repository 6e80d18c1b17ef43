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
  unrollchecked  the checked steps (a chunk at the band's top or bottom, or a band not full) unrolled by 8 as the steady
            ones are, so that the compiler can start a step's loads under the last step's
  rowbranch the checked steps of a band whose columns are all in the domain test the lane's row once a step, all
            columns under one test (and the halo row under one), instead of a test per column
  carry     the window's first row (the last row of the last window) kept in a register instead of loaded again, so
            that every lane loads one row and no lane two in a row
  haloprefetch  band 0 asks the L2 for the next chunk's halo column (prefetch.global.L2) before its steps
  prefix    the steady steps compute a lane's columns from a running maximum that does not wait for the west value
            (P[c] = max(D[c], P[c-1] - gap), then H[c] = max(P[c], west - (c + 1) gap)), so that only one operation a
            column waits for the shuffle from the lane to the left (a probe: exact where no sum wraps, as here)
  rowahead  the steady steps load the sequence value of the lane's next row one step ahead (a register carried from
            step to step), so that its latency hides under a step instead of stalling the table's row check
  stepmax   a reduction with its position (Smith-Waterman's best cell) tested once a step in the steady steps: the
            step's maximum over the lane's columns first, and only where it beats the lane's best so far, the first
            column that holds it (the same point as a test a cell: the lane visits its cells row by row)
  stepsel   the same reduction once a step with selects and no branch: the step's maximum over the lane's columns (a
            chain of max), the first column that holds it, one compare with the lane's best so far; stepsel3 takes the
            maximum of four columns with __vimax3_s32
  seen      the steady steps' reduction with a position tests no "none yet" (every lane has met a point of the domain
            in the band's first chunk, so in the steady chunks the test is always false)
  pstore    the steps' edge stores as one predicated st.relaxed.gpu each, with no branch and no compiler barrier
  pstore1   the same, only for the columns where some lane holds an edge column (nw-variants.py's two kinds)
  chunkstore  the edge words stored once a chunk, 32 rows in one coalesced store (nw-variants.py's kind)
  backoff, unroll4, unroll16, unroll32  nw-variants.py's kinds: a sleep after each failed poll of a ready word or of
            the room counter; the steady steps unrolled 4, 16 or 32 times
  ringaway  the edge ring placed beyond the unit's scratch memory (FG_EXTRA=BYTES for the driver); ringpadN the same
            with each band's ring N words longer, so that the bands' rings do not lie a power of two apart
  prefetch  the next chunk's edge words loaded right after this chunk's window, before its steps, and taken at the next
            window when their ready tags match (tiny-lock, one edge column)
  firstfast a band's first chunk in the steady form, a loop of its own (lanes above the domain take the halo row by a
            select); carryrow  the row's sequence value carried from chunk to chunk; midwindow  the next window's edge
            words loaded after 16 of a steady chunk's steps and taken where their tags match; startwindow  the same
            loaded at a steady chunk's start; firstpeel  a band's first chunk in the steady form, peeled out of the
            chunk loop; firstpeel1, firstpeel2, firstpeel4  the same with the peeled chunk's steps unrolled 1, 2 or 4 times
  edgerow   the steady steps read the edge window at lane 0's row (a constant offset); noclamp  the steady steps'
            sequence load without its clamp; ringshift  ring slot (r + 31) mod 512, so a steady chunk stores its edge
            words at a pointer and a lap tag set once a chunk
  profile128  the query profile laid out four columns a lane side by side, loaded 16 bytes at a time
  bias      needleman-wunsch's score held as H + penalty (i + j): a cell is max(diag + s + 2 penalty, up, west)
  colbest   a reduction with its position kept per column of a lane in the steady steps (best and first row: a compare
            and two selects a cell), merged into the lane's best at the band's end
  stream, streamasync, streamall, streamall16  the left band's edge streamed (nw-variants.py's kinds of the same names)
  Kinds join with '+' (applied left to right) where the dispatch lists them."""
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

def rowbranch(text):
    """One test of the lane's row around all columns of a checked step (the probe assumes every band is full)."""
    col = re.compile(r'( *)if \(i >= 0 && i < (\d+) && \(?j(?: \+ \d+\))? < \d+\) \{\n')
    above = re.compile(r'( *)\} else if \(i < 0 && i >= (-\d+) && \(?j(?: \+ \d+\))? < \d+\) \{\n *// above the domain[^\n]*\n((?: *o_\w+ = [^\n]*\n)+) *\}\n')
    lines = text.split('\n')
    i_fast = next(i for i, l in enumerate(lines) if '#pragma unroll 8' in l)
    head = '\n'.join(lines[:i_fast + 2])
    rest = '\n'.join(lines[i_fast + 2:])
    i_slow = rest.index('} else {')
    steady, checked = rest[:i_slow], rest[i_slow:]
    first = col.search(checked)
    indent, rows = first.group(1), first.group(2)
    halos, low = [], None
    def take(m):
        nonlocal low
        low = m.group(2)
        halos.append(m.group(3))
        return m.group(1) + '}\n'
    checked = above.sub(take, checked)
    checked = col.sub(lambda m: m.group(1) + '{\n', checked)
    # the columns' blocks now follow each other; wrap them: open before the first, close after the last
    start = checked.index(indent + '{\n')
    end_marker = indent + '}\n'
    last_close = checked.rindex(end_marker, 0, checked.index('h_score' if 'h_score' in checked else 'h_', start + 1) if False else None)
    # the last column's block ends right before the history shift
    shift = re.search(r'\n' + indent + r'h_\w+_c0(?:_\d+)? = ', checked[start:])
    stop = start + shift.start() + 1
    body = checked[start:stop]
    body = '\n'.join(('    ' + l if l else l) for l in body.split('\n'))
    wrapped = (indent + 'if (i >= 0 && i < ' + rows + ') {   // my row is in the domain: every column of mine\n' + body.rstrip(' ')
               + indent + '} else if (i < 0 && i >= ' + low + ') {   // above the domain: the halo row\n'
               + ''.join('    ' + h for hs in halos for h in hs.splitlines(True)) + indent + '}\n')
    return head + '\n' + steady + checked[:start] + wrapped + checked[stop:]

def carry(text):
    """The window's first row from the last window's last row, held in a register."""
    m = re.search(r'( *)for \(int x = lane; x < 33; x \+= 32\) \{\n', text)
    indent = m.group(1)
    text = text.replace(indent + '__syncwarp();   // every lane has read the last chunk\'s window before it is overwritten\n',
                        indent + 'const int carried = s_edge_score[warp][0][32];   // the last window\'s last row, this one\'s first\n'
                        + indent + '__syncwarp();   // every lane has read the last chunk\'s window before it is overwritten\n', 1)
    text = text.replace(m.group(0), indent + 'if (base > 0 && lane == 0) s_edge_score[warp][0][0] = carried;\n'
                        + indent + 'for (int x = base > 0 ? lane + 1 : lane; x < 33; x += 32) {\n', 1)
    return text

def haloprefetch(text):
    """Band 0's next window of halo rows asked of the L2 before the steps, a row a lane."""
    m = re.search(r'( *)if \(base >= 32 && base \+ 31 <', text)
    indent = m.group(1)
    halo = re.search(r's_edge_score\[warp\]\[slot\]\[x % 33\] = f\.score\[(.*)\];   // the halo', text).group(1)
    halo = halo.replace('(128 * band - 1 + slot + 1)', '0').replace('slot', '0').replace('band', '0')
    halo = re.sub(r'\brow\b', 'nr', halo)
    rows_1 = re.search(r'const int last = min\(base \+ 31, (\d+)\);', text).group(1)
    pre = (indent + 'if (band == 0) { const int nr = min(base + 31 + lane, ' + rows_1 + '); const int* p = &f.score[' + halo + '];'
           ' asm volatile("prefetch.global.L2 [%0];" :: "l"(p)); }\n')
    return text[:m.start()] + pre + text[m.start():]

def steady_steps(lines):
    """The lines of the steady steps' loop: from its unroll pragma to the checked steps' `else`."""
    i_fast = next(i for i, l in enumerate(lines) if '#pragma unroll 8' in l)
    return i_fast, next(i for i in range(i_fast, len(lines)) if '} else {' in lines[i])

REDUCE = re.compile(r'^( *)if \((red_\w+_at) < 0 \|\| (v\d+) > (red_\w+)\) \{ \4 = \3; \2 = (.*?); \}   // the first point keeps a tie$')

def stepmax(text):
    lines = text.split('\n')
    i_fast, i_slow = steady_steps(lines)
    found = [(i, REDUCE.match(lines[i])) for i in range(i_fast, i_slow) if REDUCE.match(lines[i])]
    assert found, 'no reduction with a position in the steady steps'
    at, best = found[0][1].group(2), found[0][1].group(4)
    def step_name(i, v):   # the column's value as the step keeps it, outside the column's block
        return next(re.match(r'\s*(o_\w+) = ', lines[k]).group(1) for k in range(i, i_slow)
                    if re.match(r'\s*o_\w+ = ' + v + ';', lines[k]))
    values = [(step_name(i, m.group(3)), m.group(5)) for i, m in found]
    i_shift = next(i for i in range(found[-1][0], i_slow) if re.match(r'\s*h_\w+_c0_0 = ', lines[i]))
    indent = lines[i_shift][:len(lines[i_shift]) - len(lines[i_shift].lstrip())]
    level = [v for v, _ in values]
    while len(level) > 1:   # a tree of maxima
        level = [f'max({level[k]}, {level[k + 1]})' if k + 1 < len(level) else level[k] for k in range(0, len(level), 2)]
    first = ' : '.join(f'{v} == step_best ? {pos}' for v, pos in values[:-1]) + f' : {values[-1][1]}'
    block = [indent + f'{{ const int step_best = {level[0]};   // the step\'s best, then its first column only where it beats mine',
             indent + f'  if ({at} < 0 || step_best > {best}) {{ {best} = step_best; {at} = {first}; }} }}']
    drop = {i for i, _ in found}
    out = [l for i, l in enumerate(lines[:i_shift]) if i not in drop] + block + lines[i_shift:]
    return '\n'.join(out)

def stepsel(text, vimax3=False):
    lines = text.split('\n')
    i_fast, i_slow = steady_steps(lines)
    found = [(i, REDUCE.match(lines[i])) for i in range(i_fast, i_slow) if REDUCE.match(lines[i])]
    assert found, 'no reduction with a position in the steady steps'
    at, best = found[0][1].group(2), found[0][1].group(4)
    width = re.match(r'\(long long\) i \* (\d+) \+ ', found[0][1].group(5)).group(1)
    values = [next(re.match(r'\s*(o_\w+) = ', lines[k]).group(1) for k in range(i, i_slow)
                   if re.match(r'\s*o_\w+ = ' + m.group(3) + ';', lines[k])) for i, m in found]
    if vimax3 and len(values) == 4:
        step_max = f'__vimax3_s32({values[0]}, {values[1]}, max({values[2]}, {values[3]}))'
    else:
        step_max = values[0]
        for v in values[1:]:
            step_max = f'max({step_max}, {v})'
    first = str(len(values) - 1)
    for c in range(len(values) - 2, -1, -1):
        first = f'{values[c]} == step_max ? {c} : {first}'
    i_shift = next(i for i in range(found[-1][0], i_slow) if re.match(r'\s*h_\w+_c0_0 = ', lines[i]))
    indent = lines[i_shift][:len(lines[i_shift]) - len(lines[i_shift].lstrip())]
    block = [indent + f'const int step_max = {step_max};   // my columns\' maximum in this step',
             indent + f'const int step_col = {first};   // the first of my columns that holds it',
             indent + f'const bool better = {at} < 0 || step_max > {best};',
             indent + f'{best} = better ? step_max : {best};',
             indent + f'{at} = better ? (long long) i * {width} + j + step_col : {at};   // the first point keeps a tie']
    drop = {i for i, _ in found}
    return '\n'.join([l for i, l in enumerate(lines[:i_shift]) if i not in drop] + block + lines[i_shift:])

def nw_variants():
    """nw-variants.py's rewrites, which apply to these units too."""
    import importlib.util
    import os
    spec = importlib.util.spec_from_file_location('nw_variants', os.path.join(os.path.dirname(__file__), 'nw-variants.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

def pstore(text):
    return nw_variants().pstore(text)

def pstore1(text):
    return nw_variants().pstore(text, only_reachable=True)

def chunkstore(text):
    return nw_variants().chunkstore(text)

def seen(text):
    lines = text.split('\n')
    i_fast, i_slow = steady_steps(lines)
    count = 0
    for k in range(i_fast, i_slow):
        lines[k], n = re.subn(r'if \(red_\w+_at < 0 \|\| ', 'if (', lines[k])
        count += n
    assert count > 0, 'no reduction with a position in the steady steps'
    return '\n'.join(lines)

STEADY_IF = re.compile(r'^( *)(?:\} else )?if \(base >= 32 && (base \+ 31 < \d+ && band < \d+ && base \+ 31 < \d+)\) \{$', re.M)

def steady_block(text):
    """The steady chunk's branch: its test's match, and (start, stop) of its body."""
    m = STEADY_IF.search(text)
    start = m.end() + 1
    return m, start, text.index('\n' + m.group(1) + '} else {\n', start) + 1

def steady_first(body):
    """A steady chunk's steps made safe for a band's first chunk: the row's sequence clamped at 0, a lane above the
    domain taking the halo row as its value (a select), its edge store held by i >= 0."""
    first = body.replace('__ldg(&f.a[base - lane])', '__ldg(&f.a[max(base - lane, 0)])')
    first = re.sub(r'__ldg\(&f\.a\[min\(i \+ 1, (\d+)\)\]\)', r'__ldg(&f.a[min(max(i + 1, 0), \1)])', first)
    first, n = re.subn(r'(o_(\w+)_c(\d+)) = (v\d+);', r'\1 = i < 0 ? a_\2_c\3_0 : \4;', first)
    assert n > 0
    first, n = re.subn(r'fg::store_relaxed_gpu_if\(', 'fg::store_relaxed_gpu_if(i >= 0 && ', first)
    assert n > 0
    return first

def firstfast(text):
    """A band's first chunk in the steady form, a loop of its own: every lane computes every step, a lane above the
    domain takes the halo row as its value (a select, no branch), its edge store and its reduction held by i >= 0."""
    m, start, stop = steady_block(text)
    indent = m.group(1)
    first = steady_first(text[start:stop])
    first = re.sub(r'if \((red_\w+_at < 0 \|\| v\d+ > red_\w+)\)', r'if (i >= 0 && (\1))', first)
    block = indent + 'if (base == 0 && ' + m.group(2).replace('base + ', '') + ') {   // the first chunk, steady form\n' + first
    return text[:m.start()] + block + indent + '} else ' + text[m.start() + len(indent):]

def firstpeel(text):
    """A band's first chunk peeled out of the chunk loop and run in the steady form (firstfast's selects: a lane above
    the domain takes the halo row as its value, its edge store held by i >= 0), so that the loop's code holds no third
    copy of the steps and keeps nothing of the first chunk live. A maximum's candidates above the domain are INT_MIN."""
    m, start, stop = steady_block(text)
    first = re.sub(r'(red_\w+_max_s\d+) = (v\d+);', r'\1 = i < 0 ? INT_MIN : \2;', text[start:stop])   # rows above: no candidate
    assert not re.search(r'red_\w+_(min|sum)', first), 'firstpeel: only maxima are kept from the rows above the domain'
    first = steady_first(first)
    lines = text.split('\n')
    i_loop = next(i for i, l in enumerate(lines) if re.match(r' *for \(int base = 0; base < \d+; base \+= 32\) \{$', l))
    indent = lines[i_loop][:len(lines[i_loop]) - len(lines[i_loop].lstrip())]
    i_end = next(i for i in range(i_loop + 1, len(lines)) if lines[i] == indent + '}')
    body = '\n'.join(lines[i_loop + 1:i_end]) + '\n'
    b = STEADY_IF.search(body)
    inner = b.group(1)
    i_else = body.index('\n' + inner + '} else {\n', b.end())
    i_close = body.index('\n' + inner + '}\n', i_else + 1)
    body_first = body[:b.start()] + inner + '{   // the first chunk, peeled, in the steady form\n' + first + inner + '}\n' + body[i_close + len(inner) + 3:]
    peeled = indent + '{   // chunk 0\n' + indent + '    const int base = 0;\n' + body_first + indent + '}\n'
    loop = lines[i_loop].replace('int base = 0;', 'int base = 32;')
    return '\n'.join(lines[:i_loop]) + '\n' + peeled + loop + '\n' + '\n'.join(lines[i_loop + 1:])

def firstpeel_unrolled(times):
    """firstpeel with the peeled chunk's 32 steps unrolled only `times` times (1: a loop of single steps), so that the
    peeled copy adds less code beside the steady loop's eight unrolled steps."""
    def rewrite(text):
        peeled = firstpeel(text)
        at = peeled.index('// the first chunk, peeled, in the steady form')
        pragma = '#pragma unroll 8   // lets the compiler'
        i = peeled.index(pragma, at)
        return peeled[:i] + f'#pragma unroll {times}   // (peeled)' + peeled[i + len('#pragma unroll 8'):]
    return rewrite

firstpeel1, firstpeel2, firstpeel4 = firstpeel_unrolled(1), firstpeel_unrolled(2), firstpeel_unrolled(4)

def carryrow(text):
    """The row's sequence value carried from a chunk's last step into the next chunk's first (the same clamped row),
    instead of loaded again at the chunk's start."""
    text, n = re.subn(r'\n *int row_a = __ldg\(&f\.a\[[^\n]*\n', '\n', text)
    assert n >= 2
    text, n = re.subn(r'(\n( *)int room = 0;[^\n]*\n)', r'\1\2int row_a = __ldg(&f.a[0]);   // my first row, clamped into the domain (row 0 for every lane)\n', text)
    assert n == 1
    return text

def window_ahead(text, when):
    """The poll of a window rewritten to take the word a lane loaded ahead where its ready tag matches (else it polls
    as before): returns the text and the load of the next window's word of the lane's row, asked for `when`."""
    m = re.search(r'do \{ (word\d+) = fg::load_relaxed_gpu\(&tokens\[(.*?)\]\); \} while \(\(\1 >> 32\) != (.*?)\);   // the value', text)
    word, address, tag = m.group(1), m.group(2), m.group(3)
    text = text.replace(f'fg::u64 {word};\n', f'fg::u64 {word} = row == pre_row ? pre : 0;\n', 1)
    text = text.replace(m.group(0), f'while (({word} >> 32) != {tag}) {{ {word} = fg::load_relaxed_gpu(&tokens[{address}]); }}   // the value', 1)
    text, n = re.subn(r'(\n( *)int room = 0;[^\n]*\n)', r'\1\2fg::u64 pre = 0; int pre_row = -2;   // the next window\'s word of my row, loaded ahead\n', text)
    assert n == 1
    last = re.search(r'const int last = min\(base \+ 31, (\d+)\);', text).group(1)
    addr = address.replace('((row) & ', '((nr) & ').replace('+ slot)', '+ 0)')
    def load(indent):
        return (indent + f'if (band > 0) {{   // the next window\'s row of mine, asked for {when}\n'
                + indent + '    const int nr = base + 32 + lane;\n'
                + indent + f'    if (nr <= {last}) {{ pre = fg::load_relaxed_gpu(&tokens[{addr}]); pre_row = nr; }}\n'
                + indent + '}\n')
    return text, load

def midwindow(text):
    """The next window's edge words loaded after 16 of a steady chunk's 32 steps, into a register a lane, and taken at
    the next window where their ready tags match (else the poll as before)."""
    text, load = window_ahead(text, 'while the second half computes')
    _, steady_start, _ = steady_block(text)
    _, indent, body_at, end, after = nw_variants().loop32(text, steady_start)
    start = body_at - len('for (int k = 0; k < 32; k++) {')
    close = '\n' + indent + '}\n'
    body = text[body_at:end]
    new = ('for (int k = 0; k < 16; k++) {' + body + close + load(indent) + indent + '#pragma unroll 8\n'
           + indent + 'for (int k = 16; k < 32; k++) {' + body + close)
    return text[:start] + new + text[after:]

def startwindow(text):
    """As midwindow, the next window's words loaded at a steady chunk's start, before its steps: the load's latency
    hides under the chunk's steps where the left band is far enough ahead."""
    text, load = window_ahead(text, "before this chunk's steps")
    m2, start, _ = steady_block(text)
    return text[:start] + load(m2.group(1) + '    ') + text[start:]

def edgerow(text):
    """The steady steps read the left band's edge at lane 0's row (k + 1 into the window), the only lane that uses it:
    a constant offset a step, no clamp of each lane's own row."""
    _, start, stop = steady_block(text)
    body, n = re.subn(r's_edge_(\w+)\[warp\]\[min\(lane \* \d+ \+ 0, 0\)\]\[min\(max\(i - (\d) - wb, 0\), 32\)\]',
                      lambda m: f's_edge_{m.group(1)}[warp][0][k + 1 - {m.group(2)}]', text[start:stop])
    assert n > 0
    return text[:start] + body + text[stop:]

def noclamp(text):
    """The steady steps load the next row's sequence value without a clamp (a steady chunk's rows lie in the domain)."""
    _, start, stop = steady_block(text)
    body, n = re.subn(r'__ldg\(&f\.a\[min\(i \+ 1, \d+\)\]\)', '__ldg(&f.a[i + 1])', text[start:stop])
    assert n == 1
    return text[:start] + body + text[stop:]

def ringshift(text):
    """The edge ring's slot of row r is (r + 31) mod 512 (31: the lane that stores the edge), so that a steady chunk's
    32 edge words lie in one run of slots with one lap tag: the steps store at a pointer and tag set once a chunk."""
    text, n = re.subn(r'\(\(row\) & 511\)', '((row + 31) & 511)', text)
    assert n >= 1
    text = text.replace('(unsigned) (row) / 512u', '(unsigned) (row + 31) / 512u')
    _, start, stop = steady_block(text)
    body = text[start:stop]
    store = re.search(r'&tokens\[(.*?) \* 512 \+ \(\(i\) & 511\)\], \(\(fg::u64\) \(\(int\) \(\(unsigned\) \(i\) / 512u\) \+ 1\) << 32\) \| ', body)
    prefix = store.group(1)
    body = body.replace(store.group(0), '&tok_chunk[k], tag_chunk | ')
    at = body.index('#pragma unroll 8')
    indent = body[body.rindex('\n', 0, at) + 1:at]
    decl = (f'fg::u64* const tok_chunk = &tokens[{prefix} * 512 + ((base - lane + 31) & 511)];   // this chunk\'s edge words, one run of slots\n'
            + indent + 'const fg::u64 tag_chunk = (fg::u64) ((int) ((unsigned) (base - lane + 31) / 512u) + 1) << 32;   // and their lap\n' + indent)
    body = body[:at] + decl + body[at:]
    text = text[:start] + body + text[stop:]
    text, n = re.subn(r'\(\(i\) & 511\)\], \(\(fg::u64\) \(\(int\) \(\(unsigned\) \(i\) / 512u\)',
                      '((i + 31) & 511)], ((fg::u64) ((int) ((unsigned) (i + 31) / 512u)', text)
    assert n >= 1
    return text

def ringmove(text, pad_slots):
    """The edge ring placed beyond the unit's scratch memory (run the driver with FG_EXTRA of at least the ring's
    bytes with the padding), each band's ring pad_slots words longer than its rows, so that the bands' rings no longer
    lie a power of two apart (a probe of where the ring lies in the address space and in the L2)."""
    scratch = int(re.search(r'fields, \d+, (\d+), ', text).group(1))
    at = (scratch + 4095) // 4096 * 4096
    text, n = re.subn(r'\(fg::u64\*\) \(scratch \+ 256\)', f'(fg::u64*) (scratch + {at})', text)
    assert n == 1
    ring = int(re.search(r'\(\(row\) & (\d+)\)', text).group(1)) + 1
    text, n = re.subn(rf'\) \* {ring} \+ \(\((row|i)\) & {ring - 1}\)', lambda m: f') * {ring + pad_slots} + (({m.group(1)}) & {ring - 1})', text)
    assert n >= 2
    return text

def profile128(text):
    """The query profile laid out [row][column / 4][lane][4], so that a step loads a lane's columns four at a time
    (one 16-byte shared load for four columns, conflict-free: eight lanes cover 128 bytes)."""
    w = columns(text)
    assert w % 4 == 0
    q = w // 4
    text, n = re.subn(r'(p_\w+)\[\(x \* %d \+ (\d+)\) \* 32 \+ lane\] = ' % w,
                      lambda m: f'{m.group(1)}[((x * {q} + {int(m.group(2)) // 4}) * 32 + lane) * 4 + {int(m.group(2)) % 4}] = ', text)
    assert n == w
    load = re.compile(r'(p_\w+)\[\((k\d+) \* %d \+ (\d+)\) \* 32 \+ lane\]' % w)
    lines = text.split('\n')
    out = []
    for line in lines:
        m = re.match(r'( *)const int (k\d+) = fg::table_index\(', line)
        out.append(line)
        if m:
            k = m.group(2)
            table = next(load.search(l).group(1) for l in lines if load.search(l) and load.search(l).group(2) == k)
            for g in range(q):
                out.append(m.group(1) + f'const int4 pq_{k}_{g} = *(const int4*) &{table}[(({k} * {q} + {g}) * 32 + lane) * 4];   // my columns {4 * g} to {4 * g + 3}')
    text = '\n'.join(out)
    text = load.sub(lambda m: f'pq_{m.group(2)}_{int(m.group(3)) // 4}.{"xyzw"[int(m.group(3)) % 4]}', text)
    return text

def bias(text):
    """needleman-wunsch's score held as G = H + penalty (i + j): its gap terms become 0 (a cell is max(diag + s + 2
    penalty, up, west): two operations and no subtraction), the profile holds s + 2 penalty, the halo reads add the
    bias and the kept value takes it off."""
    text, n = re.subn(r'(p_\w+\[[^\n]*\] = s_table_\w+\[x \* \d+ \+ t\]);', r'\1 + 2 * p.penalty;', text)
    assert n > 0
    text, n = re.subn(r'const int (v\d+) = fg::sub\((r\d+), p\.penalty\);', r'const int \1 = \2;', text)
    assert n > 0
    text, n = re.subn(r'__viaddmax_s32\((\w+), fg::neg\(p\.penalty\), (v\d+)\)', r'max(\1, \2)', text)
    assert n > 0
    # halo reads: f.score[(row + 1) * W + (col + 1)] for row -1 and above, f.score[W + row + (col + 1)] for the column
    def hrow(m):
        row, col = m.group(1), m.group(2)
        return f'(f.score[(long long) ({row} + 1) * 65537 + ({col} + 1)] + p.penalty * ({row} + {col}))'
    text, n1 = re.subn(r'f\.score\[\(long long\) \(([^\[\]]*?) \+ 1\) \* 65537 \+ \(([^\[\]]*?) \+ 1\)\]', hrow, text)
    m = re.search(r'f\.score\[row < 0 \? \(long long\) \(row \+ 1\) \* 65537 \+ \((.*?) \+ 1\) : 65537 \+ \(long long\) \(row\) \* 1 \+ \((.*?) \+ 1\)\]', text)
    assert m, 'no halo window read'
    text = text.replace(m.group(0), m.group(0) + f' + p.penalty * (row + {m.group(1)})')
    def kept(m):
        return f'if (i >= 65535 && {m.group(1)} >= 65535) kept_score[{m.group(2)}] = {m.group(3)} - p.penalty * (i + {m.group(1)});'
    text, n = re.subn(r'if \(i >= 65535 && (\(?j(?: \+ \d+)?\)?) >= 65535\) kept_score\[(.*?)\] = (v\d+);', kept, text)
    assert n > 0 and n1 > 0, (n, n1)
    return text

def colbest(text):
    """A reduction with its position kept per column of a lane in the steady steps: the column's best value and the
    row that first held it (a compare and two selects a cell, no branch and no 64-bit position), merged into the lane's
    best at the band's end with the first-point rule (row, then column)."""
    _, start, stop = steady_block(text)
    body = text[start:stop]
    red = re.compile(r'if \((red_\w+)_at < 0 \|\| (v\d+) > \1\) \{ \1 = \2; \1_at = \(long long\) i \* (\d+) \+ (\(?j(?: \+ (\d+))?\)?); \}')
    found = list(red.finditer(body))
    assert found
    name, width = found[0].group(1), found[0].group(3)
    cols = []
    def sub(m):
        c = int(m.group(5) or 0)
        cols.append((c, m.group(4)))
        return f'{{ const bool better = {m.group(2)} > cb{c}; cb{c} = better ? {m.group(2)} : cb{c}; cr{c} = better ? i : cr{c}; }}'
    body = red.sub(sub, body)
    text = text[:start] + body + text[stop:]
    decl = re.search(r'\n( *)long long ' + name + r'_at = -1;[^\n]*\n', text)
    text = text[:decl.end()] + ''.join(f'{decl.group(1)}int cb{c} = INT_MIN, cr{c} = -1;   // column {c}: its best in the steady steps and the row that first held it\n' for c, _ in cols) + text[decl.end():]
    end = re.search(r'\n( *)// the band\'s [^\n]*\n', text)
    merge = ''.join(f'{end.group(1)}if (cr{c} >= 0) {{ const long long at = (long long) cr{c} * {width} + {col}; if ({name}_at < 0 || cb{c} > {name} || (cb{c} == {name} && at < {name}_at)) {{ {name} = cb{c}; {name}_at = at; }} }}\n' for c, col in cols)
    return text[:end.start() + 1] + merge + text[end.start() + 1:]

def edge_words(text):
    """What the window code of a unit that folds reads, for a rewrite that streams it: (the window's name, the field,
    the last row, the index of row r's word in `tokens`, row r's lap tag, the index of row r's halo value, the index of
    the halo value above the domain)."""
    m = re.search(r'do \{ (word\d+) = fg::load_relaxed_gpu\(&tokens\[(.*?)\]\); \} while \(\(\1 >> 32\) != (.*?)\);   // the value', text)
    address, tag = m.group(2), m.group(3)
    h = re.search(r'(s_edge_(\w+))\[warp\]\[slot\]\[at\] = f\.(\w+)\[row < 0 \? (.*?) : (.*?)\];   // the halo', text)
    window, field, above, left = h.group(1), h.group(3), h.group(4), h.group(5)
    last = re.search(r'const int last = min\(base \+ 31, (\d+)\);', text).group(1)
    at = lambda r: address.replace('((row) & ', f'(({r}) & ').replace('+ slot)', '+ 0)')
    tag_at = lambda r: tag.replace('(row)', f'({r})')
    halo_at = lambda r: left.replace('(row)', f'({r})').replace('+ slot + 1', '+ 1')
    corner = above.replace('(row + 1)', '(-1 + 1)').replace('+ slot + 1', '+ 1')
    return window, field, last, at, tag_at, halo_at, corner


def stream(text, copies=False):
    """The left band's edge streamed to the steady steps instead of a window a chunk (nw-variants.py's stream_loop:
    groups of 8 rows two groups ahead, a vote a group, a shuffle a step). A steady chunk then neither waits for the left
    band's 32 rows at its start nor a round trip for them, and frees the rows before it; other chunks keep the window,
    every row of it fresh (the stream keeps no last row for it to carry)."""
    nw = nw_variants()
    window, field, last, at, tag_at, halo_at, _ = edge_words(text)
    ready = lambda w, r: f'({w} >> 32) == {tag_at(r)}'
    cond = 'base >= 32 && ' + steady_block(text)[0].group(2)
    registers = '' if copies else 'fg::u64 sgA = 0, sgB = 0; '
    text, n = re.subn(r'(\n( *)int room = 0;[^\n]*\n)',
                      r'\1\2' + registers + 'int sq_prev = 0; bool sq_primed = false;   // the last edge value streamed; whether the next groups are in flight\n', text)
    assert n == 1
    # the window only for chunks that do not stream, every row of it fresh
    a = text.index('                const int fresh = ')
    b = text.index('                __syncwarp();   // the window is complete before any lane reads it\n')
    text = text[:a] + f'                if (!({cond})) {{\n                    sq_primed = false;\n' + text[a:b] + '                }\n' + text[b:]
    text, n = re.subn(r'const int fresh = base > 0 \? 32 : 33;', 'const int fresh = 33;', text)
    assert n == 1
    text, n = re.subn(r'fg::store_release_gpu\(&freed\[band\], base \+ 31\)', f'fg::store_release_gpu(&freed[band], ({cond}) ? base - 1 : base + 31)', text)
    assert n == 1
    steady, start, stop = steady_block(text)
    body = text[start:stop]
    loop_at, indent, inner, after = nw.stream_inner(body, window, 'warp')
    if copies:
        token = lambda r: f'&tokens[{at(r)}]'
        halo_addr = lambda r: f'&f.{field}[{halo_at(r)}]'
        loop = f'__shared__ __align__(16) fg::u64 s_stream[4][8];   // the streamed groups of edge words\n{indent}' + nw.stream_async_loop(inner, indent, token, halo_addr, ready, last, f'{window}[warp][0][32]')
    else:
        edge = lambda r: f'(band > 0 ? fg::load_relaxed_gpu_nb(&tokens[{at(r)}]) : ({tag_at(r)} << 32) | (unsigned) f.{field}[{halo_at(r)}])'
        loop = nw.stream_loop(inner, indent, edge, ready, last, f'{window}[warp][0][32]')
    body = body[:loop_at] + loop + body[after:]
    text = text[:start] + body + text[stop:]
    inc = '#include "finegrain.cuh"\n'
    return text.replace(inc, inc + nw.STREAM_PRELUDE, 1)


def streamall(text, group=8):
    """nw-variants.py's streamall for a band that folds: every chunk streams its edge (the first and last chunks' checked
    steps in a loop not unrolled), no window is filled, and a chunk frees the rows before it."""
    nw = nw_variants()
    window, field, last, at, tag_at, halo_at, corner = edge_words(text)
    token = lambda r: f'&tokens[{at(r)}]'
    halo_addr = lambda r: f'&f.{field}[{halo_at(r)}]'
    ready = lambda w, r: f'({w} >> 32) == {tag_at(r)}'
    text, n = re.subn(r'(\n( *)int room = 0;[^\n]*\n)', r'\1\2int sq_prev = 0;   // the last edge value streamed\n', text)
    assert n == 1
    a = text.index('                const int fresh = ')
    b = text.index('                __syncwarp();   // the window is complete before any lane reads it\n')
    text = text[:a] + '                if (false) {   // no window: the edge streams\n' + text[a:b] + '                }\n' + text[b:]
    text, n = re.subn(r'fg::store_release_gpu\(&freed\[band\], base \+ 31\)', 'fg::store_release_gpu(&freed[band], base - 1)', text)
    assert n == 1
    steady, start, stop = steady_block(text)
    body = text[start:stop]
    loop_at, indent, inner, after = nw.stream_inner(body, window, 'warp')
    body = body[:loop_at] + nw.stream_async_loop(inner, indent, token, halo_addr, ready, last, None, prime=False, group=group, unroll='#pragma unroll 8' if group > 8 else '#pragma unroll') + body[after:]
    text = text[:start] + body + text[stop:]
    steady, start, stop = steady_block(text)
    outer = steady.group(1)
    end = text.index('\n' + outer + '}\n', stop) + 1   # the checked branch's end (stop is its '} else {' line)
    body = text[stop:end]
    loop_at, indent, inner, after = nw.stream_inner(body, window, 'warp', pragma=False)
    body = body[:loop_at] + nw.stream_async_loop(inner, indent, token, halo_addr, ready, last, None, prime=False, unroll='#pragma unroll 1', group=group) + body[after:]
    text = text[:stop] + body + text[end:]
    text = text[:steady.start()] + nw.stream_prime(token, halo_addr, last, f'f.{field}[{corner}]', outer, group) + text[steady.start():]
    text = text.replace(f'__shared__ int {window}[', '__shared__ __align__(16) fg::u64 s_stream[4][' + str(group) + '];   // the streamed groups of edge words\n        __shared__ int ' + f'{window}[', 1)
    inc = '#include "finegrain.cuh"\n'
    return text.replace(inc, inc + nw.STREAM_PRELUDE, 1)

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
        i_fast, i_slow = steady_steps(lines)
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
    elif kind == 'unrollchecked':
        lines = text.split('\n')
        i_fast = next(i for i, l in enumerate(lines) if '#pragma unroll 8' in l)
        i_slow = next(i for i in range(i_fast + 2, len(lines)) if lines[i].strip() == 'for (int k = 0; k < 32; k++) {')
        indent = lines[i_slow][:len(lines[i_slow]) - len(lines[i_slow].lstrip())]
        lines.insert(i_slow, indent + '#pragma unroll 8')
        text = '\n'.join(lines)
    elif kind == 'rowahead':
        lines = text.split('\n')
        i_fast, i_slow = steady_steps(lines)
        load = re.compile(r'const int (v\d+) = __ldg\(&f\.(\w+)\[\(i\)\]\);')
        i_load = next(i for i in range(i_fast, i_slow) if load.search(lines[i]))
        m = load.search(lines[i_load])
        seq = m.group(2)
        rows_1 = re.search(r'const int last = min\(base \+ 31, (\d+)\);', text).group(1)
        indent = lines[i_load][:len(lines[i_load]) - len(lines[i_load].lstrip())]
        lines[i_load] = (indent + f'const int {m.group(1)} = row_now;   // loaded a step ahead\n'
                         + indent + f'const int row_next = __ldg(&f.{seq}[min(i + 1, {rows_1})]);')
        # the step's end: before the history shift's first line
        i_shift = next(i for i in range(i_load, i_slow) if re.match(r'\s*h_\w+_c0_\d+ = ', lines[i]) or re.match(r'\s*h_\w+_c0_0 = ', lines[i]))
        lines.insert(i_shift, indent + 'row_now = row_next;')
        lines.insert(i_fast, lines[i_fast][:len(lines[i_fast]) - len(lines[i_fast].lstrip())] + f'int row_now = __ldg(&f.{seq}[base - lane]);   // my first row\'s sequence value')
        text = '\n'.join(lines)
    elif kind == 'prefix':
        lines = text.split('\n')
        i_fast, i_slow = steady_steps(lines)
        west = re.compile(r'const int (v\d+) = __viaddmax_s32\((\w+), fg::neg\(p\.penalty\), (v\d+)\);')
        c, w0 = 0, None
        for i in range(i_fast, i_slow):
            m = west.search(lines[i])
            if not m:
                continue
            indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
            if c == 0:
                w0 = m.group(2)
                lines[i] = indent + f'pf0 = {m.group(3)};\n' + lines[i]
            else:
                lines[i] = (indent + f'pf{c} = __viaddmax_s32(pf{c - 1}, fg::neg(p.penalty), {m.group(3)});   // the running maximum\n'
                            + indent + f'const int {m.group(1)} = __viaddmax_s32({w0}, fg::neg(p.penalty * {c + 1}), pf{c});')
            c += 1
        i_decl = next(i for i in range(i_fast, i_slow) if re.search(r'int o_score_c0 = 0;', lines[i]))
        lines.insert(i_decl, lines[i_decl][:len(lines[i_decl]) - len(lines[i_decl].lstrip())] + 'int ' + ', '.join(f'pf{k}' for k in range(c)) + ';')
        text = '\n'.join(lines)
    elif kind in ('stepsel', 'stepsel3'):
        text = stepsel(text, vimax3=kind == 'stepsel3')
    elif kind in ('backoff', 'unroll4', 'unroll16', 'unroll32'):
        for rewrite in nw_variants().KINDS[kind]:
            text = rewrite(text)
    elif all(k in ('rowbranch', 'carry', 'haloprefetch', 'stepmax', 'pstore', 'pstore1', 'chunkstore', 'seen', 'firstfast', 'firstpeel', 'firstpeel1', 'firstpeel2', 'firstpeel4', 'startwindow', 'carryrow', 'midwindow', 'edgerow', 'noclamp', 'ringshift', 'profile128', 'bias', 'colbest') for k in kind.split('+')):
        for k in kind.split('+'):
            text = globals()[k](text)
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
    elif kind in ('streamall', 'streamall16'):
        text = streamall(text, 16 if kind == 'streamall16' else 8)
    elif kind in ('stream', 'streamasync'):
        text = stream(text, copies=kind == 'streamasync')
    elif kind.startswith('ringpad') or kind == 'ringaway':
        text = ringmove(text, 0 if kind == 'ringaway' else int(kind[len('ringpad'):]))
    elif kind == 'noa':
        text = text.replace('__ldg(&f.a[(i)])', '((i) & 15)')
    else:
        raise SystemExit('unknown kind ' + kind)
    open(dst, 'w').write(text)

if __name__ == '__main__':
    main(*sys.argv[1:4])
