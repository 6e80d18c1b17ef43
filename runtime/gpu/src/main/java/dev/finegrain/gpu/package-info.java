/**
 * Finegrain's GPU model: a Truffle SIMT machine that runs SASS-like programs (docs/simt-isa.md) on a modeled GPU
 * (docs/profiles.md), counts cycles, and explains deadlocks instead of hanging.
 *
 * <h2>Public API</h2>
 * One call, {@link dev.finegrain.gpu.SimtSimulator#run(SimRequest)}, takes a {@link dev.finegrain.gpu.SimRequest}
 * and returns a {@link dev.finegrain.gpu.SimResult}. A command line such as
 * {@code finegrain sim FILE --profile P --blocks N --threads T [--mode fermi|its] [--max-cycles C] [--init ...]
 * [--dump shared|global START:END] [--format table|json]} maps onto it like this:
 * <pre>{@code
 * SimRequest.Builder request = SimRequest.builder(Path.of(file))   // or builder(name, text)
 *         .profile(profile)                          // built-in name or a .properties path
 *         .blocks(blocks).threads(threads)
 *         .mode(mode == null ? null : SimMode.parse(mode))   // null: the profile's default
 *         .maxCycles(maxCycles);                     // default SimRequest.DEFAULT_MAX_CYCLES
 * for (String init : inits) request.init(MemoryInit.parse(init));       // "global:0x100=1,2,-3"
 * for (String[] d : dumps) request.dump(DumpRange.parse(d[0], d[1]));   // "shared", "0:0x100" (end exclusive)
 * try {
 *     SimResult result = SimtSimulator.run(request.build());
 *     System.out.print(json ? result.toJson() + "\n" : result.toTable());
 *     return result.exitCode();              // 0 completed, 3 deadlock, 4 max cycles reached
 * } catch (SimUserException e) {
 *     System.err.println(e.getMessage());    // one line, file:line:column: ... where there is a place
 *     return SimStatus.USER_ERROR_EXIT_CODE; // 2
 * }
 * }</pre>
 * The result also answers programmatically: {@link dev.finegrain.gpu.SimResult#status()},
 * {@link dev.finegrain.gpu.SimResult#totalCycles()}, per-block {@link dev.finegrain.gpu.SimResult#blocks()},
 * {@link dev.finegrain.gpu.SimResult#counters()}, {@link dev.finegrain.gpu.SimResult#resources()},
 * {@link dev.finegrain.gpu.SimResult#deadlock()} (a {@link dev.finegrain.gpu.DeadlockReport} classified by
 * {@link dev.finegrain.gpu.DeadlockKind}) and {@link dev.finegrain.gpu.SimResult#word(MemorySpace, int, int)} over the
 * dumped ranges.
 *
 * <p>{@code SimtSimulator.run} is thread-safe: independent requests may run on several threads at once, each with
 * the result it has alone (docs/simt-isa.md, "Concurrent runs").
 *
 * <h2>Packages</h2>
 * {@code isa} (the instruction model), {@code parser} (text to program), {@code nodes} and its {@code expression},
 * {@code memory}, {@code controlflow}, {@code sync} subpackages (one Truffle node per instruction), {@code runtime}
 * (the machine: SMs, blocks, warps, divergence, lock unit, barriers, costs, deadlock analysis).
 */
package dev.finegrain.gpu;
