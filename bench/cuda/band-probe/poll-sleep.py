# poll-sleep.py IN.cu OUT.cu NS: every poll of a ready word and of the room counter sleeps NS ns after a failed read
import re, sys
src = open(sys.argv[1]).read(); ns = sys.argv[3]
pat = re.compile(r'do \{ (word\d+) = (fg::load_relaxed_gpu\([^;]*\)); \} while \((.*?)\);   // the value')
src, n = pat.subn(lambda m: f'for (;;) {{ {m.group(1)} = {m.group(2)}; if (!({m.group(3)})) break; __nanosleep({ns}); }}   // the value', src)
src, k = re.subn(r'while \(\(room = fg::load_acquire_gpu\(([^)]*)\)\) < ([^)]*)\) \{ \}', lambda m: f'while ((room = fg::load_acquire_gpu({m.group(1)})) < {m.group(2)}) {{ __nanosleep({ns}); }}', src)
print(sys.argv[2], n, "polls", k, "room waits", file=sys.stderr)
open(sys.argv[2], "w").write(src)
