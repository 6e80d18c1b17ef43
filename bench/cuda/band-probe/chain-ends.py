#!/usr/bin/env python3
"""chain-ends.py TRACE.bin.gz ...: reads the raw chunk starts trace-chain.py's units write (FG_TRACE_OUT, gzipped) and
prints, for each run, how far a band runs behind its left neighbour at its first chunk, in the middle of the run and at
its last chunk, the chunks' times there, and where each band's chunks turn slow near its end: whether the run is set by
the chain of bands' starts (the last band's start and its own run) or by the chain of their ends."""
import gzip
import struct
import sys

import numpy as np


def load(path):
    data = gzip.open(path).read()
    bands, chunks = struct.unpack('ii', data[:8])
    sm = np.frombuffer(data, dtype=np.uint32, count=bands, offset=8)
    t = np.frombuffer(data, dtype=np.uint64, count=bands * chunks, offset=8 + 4 * bands).reshape(bands, chunks)
    return sm, (t.astype(np.int64) - int(t[0, 0])) / 1000.0   # us after band 0's first chunk


def report(path):
    sm, t = load(path)
    bands, chunks = t.shape
    d = np.diff(t, axis=1)   # a chunk's time: from its start to the next one's
    lag = lambda k: float(np.median(t[1:, k] - t[:-1, k]))
    steady = float(np.median(d[:, 200:chunks - 300]))
    print(f'{path}: {bands} bands of {chunks} chunks, band 0 ends at {t[0, -1]:.0f} us, band {bands - 1} at {t[-1, -1]:.0f}')
    print(f'  a band behind its left neighbour (median): {lag(1):.2f} us at chunk 1, {lag(chunks // 2):.2f} in the middle, '
          f'{lag(chunks - 1):.2f} at its last chunk')
    print(f'  a chunk (median over bands): {steady:.2f} us in the middle, {np.median(d[:, -2]):.2f} the last but one')
    start_chain = t[-1, 1] + (chunks - 1) * steady
    print(f'  the chain of starts with the middle pace: band {bands - 1} starts at {t[-1, 1]:.0f} and would end at '
          f'{start_chain:.0f}; the chain of ends: {t[0, -1]:.0f} + {bands - 1} x {lag(chunks - 1):.2f} = '
          f'{t[0, -1] + (bands - 1) * lag(chunks - 1):.0f}')
    slow_from = []
    for b in range(bands):
        slow = d[b] > 1.7 * steady
        run = [k for k in range(max(0, chunks - 600), chunks - 1) if slow[k:min(k + 4, chunks - 1)].all()]
        slow_from.append(chunks - 1 - run[0] if run else 0)
    picks = sorted({0, 1, bands // 4, bands // 2, 3 * bands // 4, bands - 1})
    print('  chunks a band runs slow (over 1.7 x the middle pace) before its end: '
          + ', '.join(f'band {b}: {slow_from[b]}' for b in picks))
    late = np.concatenate([d[b, chunks - 1 - slow_from[b]:] for b in range(bands) if slow_from[b] > 0] or [np.zeros(1)])
    print(f'  those chunks: median {np.median(late):.2f} us')


if __name__ == '__main__':
    for path in sys.argv[1:]:
        report(path)
