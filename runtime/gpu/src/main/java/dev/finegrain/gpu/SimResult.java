package dev.finegrain.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a run produced: how it ended, its cycles (in total and per block), the counters, the resources it used, the
 * deadlock report when there is one, and the requested memory dumps. {@link #toTable()} and {@link #toJson()} are
 * what {@code finegrain sim --format table|json} prints; {@link #exitCode()} is what it exits with.
 *
 * @param program the program's file or name
 * @param profile the profile's name
 * @param mode the divergence mode used
 * @param status how the run ended
 * @param launchOverheadCycles the profile's kernel launch overhead, counted into the total
 * @param kernelCycles cycles from the first block's start to the end of the run
 * @param blocks per block: SM, first and last cycle (-1 when it did not finish)
 * @param counters counted events, by name, in a fixed order
 * @param resources what the launch claimed and used, by name, in a fixed order
 * @param deadlock the report, for {@link SimStatus#DEADLOCK} and {@link SimStatus#MAX_CYCLES}
 * @param dumps the requested memory ranges, after the run
 */
public record SimResult(String program, String profile, SimMode mode, SimStatus status, long launchOverheadCycles,
                        long kernelCycles, List<BlockCycles> blocks, Map<String, Long> counters,
                        Map<String, Long> resources, DeadlockReport deadlock, List<MemoryDump> dumps) {

    public SimResult {
        blocks = List.copyOf(blocks);
        counters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(counters));
        resources = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(resources));
        dumps = List.copyOf(dumps);
    }

    /** One block's placement and lifetime in cycles. */
    public record BlockCycles(int block, int sm, long start, long end) {
        public long cycles() {
            return end < 0 ? -1 : end - start;
        }
    }

    /**
     * Words of one dumped range.
     *
     * @param block the block whose shared window this is, or -1 for global memory
     */
    public record MemoryDump(MemorySpace space, int block, int fromByte, int[] words) {
        public MemoryDump {
            words = words.clone();
        }

        @Override
        public int[] words() {
            return words.clone();
        }

        public int word(int byteAddress) {
            return words[(byteAddress - fromByte) / 4];
        }
    }

    public long totalCycles() {
        return launchOverheadCycles + kernelCycles;
    }

    public int exitCode() {
        return status.exitCode();
    }

    /** The dump of {@code space} for {@code block} (-1 for global) that covers {@code byteAddress}. */
    public Optional<MemoryDump> dump(MemorySpace space, int block, int byteAddress) {
        return dumps.stream().filter(d -> d.space() == space && d.block() == block && byteAddress >= d.fromByte()
                && byteAddress < d.fromByte() + 4 * d.words.length).findFirst();
    }

    /** A word of a dumped range; throws when no requested dump covers it. */
    public int word(MemorySpace space, int block, int byteAddress) {
        return dump(space, block, byteAddress).orElseThrow(() -> new IllegalArgumentException("no dump of "
                + space.label() + " covers 0x" + Integer.toHexString(byteAddress))).word(byteAddress);
    }

    public String toTable() {
        StringBuilder out = new StringBuilder();
        row(out, "program", program);
        row(out, "profile", profile + " (mode " + mode.label() + ")");
        row(out, "status", status.label() + (deadlock != null ? " (" + deadlock.kind().description() + ")" : ""));
        row(out, "cycles", totalCycles() + " total (" + launchOverheadCycles + " launch overhead + " + kernelCycles
                + " kernel)");
        for (BlockCycles block : blocks) {
            row(out, "block " + block.block(), "sm " + block.sm() + ", cycles " + block.start() + " to "
                    + (block.end() < 0 ? "(unfinished)" : block.end() + " (" + block.cycles() + ")"));
        }
        out.append("counters\n");
        counters.forEach((name, value) -> out.append(String.format("  %-28s %d%n", name, value)));
        out.append("resources\n");
        resources.forEach((name, value) -> out.append(String.format("  %-28s %d%n", name, value)));
        if (deadlock != null) {
            out.append(deadlock.kind().description()).append(" at cycle ").append(deadlock.cycle()).append('\n');
            for (DeadlockReport.BlockedLanes lanes : deadlock.lanes()) {
                out.append("  ").append(lanes).append('\n');
            }
        }
        for (MemoryDump dump : dumps) {
            out.append("dump ").append(dump.space().label()).append(dump.block() >= 0 ? " block " + dump.block() : "")
                    .append(String.format(" [0x%x, 0x%x)%n", dump.fromByte(), dump.fromByte() + 4 * dump.words.length));
            for (int i = 0; i < dump.words.length; i++) {
                out.append(String.format("  0x%04x %d%n", dump.fromByte() + 4 * i, dump.words[i]));
            }
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String name, String value) {
        out.append(String.format("%-9s %s%n", name, value));
    }

    public String toJson() {
        StringBuilder out = new StringBuilder("{");
        field(out, "program", quote(program)).append(',');
        field(out, "profile", quote(profile)).append(',');
        field(out, "mode", quote(mode.label())).append(',');
        field(out, "status", quote(status.label())).append(',');
        field(out, "exitCode", Integer.toString(exitCode())).append(',');
        field(out, "cycles", "{\"total\":" + totalCycles() + ",\"launchOverhead\":" + launchOverheadCycles
                + ",\"kernel\":" + kernelCycles + "}").append(',');
        List<String> blockJson = new ArrayList<>();
        for (BlockCycles b : blocks) {
            blockJson.add("{\"block\":" + b.block() + ",\"sm\":" + b.sm() + ",\"start\":" + b.start() + ",\"end\":"
                    + b.end() + "}");
        }
        field(out, "blocks", "[" + String.join(",", blockJson) + "]").append(',');
        field(out, "counters", object(counters)).append(',');
        field(out, "resources", object(resources)).append(',');
        field(out, "deadlock", deadlock == null ? "null" : deadlockJson()).append(',');
        List<String> dumpJson = new ArrayList<>();
        for (MemoryDump dump : dumps) {
            List<String> words = new ArrayList<>();
            for (int word : dump.words) {
                words.add(Integer.toString(word));
            }
            dumpJson.add("{\"space\":" + quote(dump.space().label()) + ",\"block\":" + dump.block() + ",\"from\":"
                    + dump.fromByte() + ",\"words\":[" + String.join(",", words) + "]}");
        }
        field(out, "dumps", "[" + String.join(",", dumpJson) + "]");
        return out.append('}').toString();
    }

    private String deadlockJson() {
        List<String> lanes = new ArrayList<>();
        for (DeadlockReport.BlockedLanes l : deadlock.lanes()) {
            lanes.add("{\"block\":" + l.block() + ",\"warp\":" + l.warp() + ",\"lanes\":" + quote(l.lanes())
                    + ",\"pc\":" + l.pc() + ",\"instruction\":" + quote(l.instruction()) + ",\"kind\":"
                    + quote(l.kind().name()) + ",\"detail\":" + quote(l.detail()) + "}");
        }
        return "{\"kind\":" + quote(deadlock.kind().name()) + ",\"description\":"
                + quote(deadlock.kind().description()) + ",\"cycle\":" + deadlock.cycle() + ",\"lanes\":["
                + String.join(",", lanes) + "]}";
    }

    private static StringBuilder field(StringBuilder out, String name, String json) {
        return out.append(quote(name)).append(':').append(json);
    }

    private static String object(Map<String, Long> values) {
        List<String> fields = new ArrayList<>();
        values.forEach((name, value) -> fields.add(quote(name) + ":" + value));
        return "{" + String.join(",", fields) + "}";
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
