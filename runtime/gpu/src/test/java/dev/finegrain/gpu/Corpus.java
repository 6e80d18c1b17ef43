package dev.finegrain.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The golden corpus under src/test/resources/dev/finegrain/gpu: {@code *.sass} programs whose first line may be
 * {@code // run: threads=64 blocks=1 profile=... dump=shared:0x0:0x40 init=global:0x0=1,2} and whose expected
 * output sits beside them. Run the tests with {@code -Dfinegrain.golden.update=true} to rewrite the expected files
 * after a deliberate change, then review the diff.
 */
final class Corpus {
    static final Path ROOT = Path.of("src/test/resources/dev/finegrain/gpu");
    static final boolean UPDATE = Boolean.getBoolean("finegrain.golden.update");

    private Corpus() {
    }

    static List<Path> programs(String folder) {
        try (Stream<Path> files = Files.list(ROOT.resolve(folder))) {
            return files.filter(f -> f.toString().endsWith(".sass")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The request a corpus program's {@code // run:} line describes, named by its file name alone. */
    static SimRequest request(Path program, SimMode mode) {
        String text = read(program);
        SimRequest.Builder builder = SimRequest.builder(program.getFileName().toString(), text).mode(mode);
        String first = text.lines().findFirst().orElse("");
        if (first.startsWith("// run:")) {
            for (String option : first.substring("// run:".length()).trim().split("\\s+")) {
                String[] keyValue = option.split("=", 2);
                switch (keyValue[0]) {
                    case "threads" -> builder.threads(Integer.parseInt(keyValue[1]));
                    case "blocks" -> builder.blocks(Integer.parseInt(keyValue[1]));
                    case "profile" -> builder.profile(keyValue[1]);
                    case "dump" -> {
                        int colon = keyValue[1].indexOf(':');
                        builder.dump(DumpRange.parse(keyValue[1].substring(0, colon),
                                keyValue[1].substring(colon + 1)));
                    }
                    case "init" -> builder.init(MemoryInit.parse(keyValue[1]));
                    default -> throw new IllegalArgumentException(program + ": unknown run option " + option);
                }
            }
        }
        return builder.build();
    }

    /** The expected text, or (when updating) writes {@code actual} as the new expected text and returns it. */
    static String expected(Path expectedFile, String actual) {
        if (UPDATE) {
            try {
                Files.writeString(expectedFile, actual, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return actual;
        }
        if (!Files.exists(expectedFile)) {
            throw new AssertionError("no golden " + expectedFile + "; run with -Dfinegrain.golden.update=true");
        }
        return read(expectedFile);
    }
}
