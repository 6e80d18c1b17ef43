package dev.finegrain.samples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Keeps the documentation honest: the files docs/your-project.md quotes are the real files of examples/my-kernels
 * (which the Maven plugin's invoker tests build), the front page and the performance page stay short, and every
 * relative link of README.md and docs/*.md points at a file that exists.
 *
 * <p>Convention: a line {@code <!-- file: PATH -->} right before a fenced block says that the block is the file at
 * PATH (relative to the repository root), byte for byte: the block's text is everything between the line after the
 * opening fence and the closing fence's line, final newline included.
 */
class YourProjectPageTest {

    private static final Path ROOT = repositoryRoot();
    private static final Pattern QUOTED_FILE = Pattern.compile("<!-- file: (\\S+) -->\\n(`{3,})[^\\n]*\\n");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern FENCED_BLOCK = Pattern.compile("(?ms)^(`{3,})[^\\n]*\\n.*?^\\1[ \\t]*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");

    /** The folder holding mvnw, found from the working directory (samples/ when Maven runs this test) upwards. */
    private static Path repositoryRoot() {
        for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
            if (Files.isRegularFile(folder.resolve("mvnw")) && Files.isDirectory(folder.resolve("docs"))) {
                return folder;
            }
        }
        throw new IllegalStateException("no folder holding mvnw and docs/ above " + Path.of("").toAbsolutePath());
    }

    private static String read(String relative) throws IOException {
        return Files.readString(ROOT.resolve(relative), StandardCharsets.UTF_8);
    }

    /** Every block of the page labelled with a file, by path, in page order. */
    static Map<String, String> quotedFiles(String page) {
        Map<String, String> quoted = new LinkedHashMap<>();
        Matcher label = QUOTED_FILE.matcher(page);
        while (label.find()) {
            String path = label.group(1);
            String fence = label.group(2);
            int start = label.end();
            int end = start;
            while (true) {
                int lineEnd = page.indexOf('\n', end);
                if (lineEnd < 0) {
                    fail("the block of " + path + " in docs/your-project.md has no closing " + fence);
                }
                if (page.substring(end, lineEnd).strip().equals(fence)) {
                    break;
                }
                end = lineEnd + 1;
            }
            assertTrue(quoted.put(path, page.substring(start, end)) == null, "docs/your-project.md quotes " + path + " twice");
        }
        return quoted;
    }

    @Test
    void everyQuotedFileOfTheYourProjectPageIsTheRealFileByteForByte() throws IOException {
        Map<String, String> quoted = quotedFiles(read("docs/your-project.md"));
        for (String required : List.of("examples/my-kernels/pom.xml",
                "examples/my-kernels/src/main/java/com/example/kernels/MyKernels.java",
                "examples/my-kernels/src/main/resources/META-INF/services/dev.finegrain.dsl.KernelLibrary")) {
            assertTrue(quoted.containsKey(required), "docs/your-project.md must quote " + required + "; it quotes " + quoted.keySet());
        }
        for (Map.Entry<String, String> block : quoted.entrySet()) {
            Path file = ROOT.resolve(block.getKey()).normalize();
            assertTrue(file.startsWith(ROOT) && Files.isRegularFile(file),
                    "docs/your-project.md quotes " + block.getKey() + ", which is not a file of the repository");
            assertEquals(Files.readString(file, StandardCharsets.UTF_8), block.getValue(),
                    "the block of docs/your-project.md labelled " + block.getKey() + " differs from the file; copy the file"
                            + " into the page again");
        }
    }

    @Test
    void theFileLabelsFindBlocksAsTheConventionSays() {
        String page = "text\n<!-- file: a/b.txt -->\n```text\nfirst\n\n```inner not a fence\nlast\n```\nafter\n";
        assertEquals(Map.of("a/b.txt", "first\n\n```inner not a fence\nlast\n"), quotedFiles(page));
    }

    @Test
    void theFrontPageAndThePerformancePageStayShort() throws IOException {
        long readme = Files.size(ROOT.resolve("README.md"));
        long performance = Files.size(ROOT.resolve("docs/performance.md"));
        assertTrue(readme <= 12_000, "README.md is " + readme + " bytes; keep it at most 12,000 and move detail to docs/");
        assertTrue(performance <= 20_000,
                "docs/performance.md is " + performance + " bytes; keep it at most 20,000: current numbers only, history is in git");
    }

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsPointsAtAFileThatExists() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(page -> page.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            for (String target : relativeLinks(Files.readString(page, StandardCharsets.UTF_8))) {
                links++;
                String path = target.replaceFirst("#.*$", "");
                if (path.isEmpty()) {
                    continue; // an anchor on the same page
                }
                if (!Files.exists(page.getParent().resolve(path).normalize())) {
                    broken.add(ROOT.relativize(page) + ": " + target);
                }
            }
        }
        assertTrue(links > 0, "found no relative links at all; the link pattern is broken");
        assertEquals(List.of(), broken, "links to files that do not exist");
    }

    /** The targets of the page's Markdown links, outside code, that name no scheme (http:, mailto:, ...). */
    static List<String> relativeLinks(String page) {
        String prose = INLINE_CODE.matcher(FENCED_BLOCK.matcher(page).replaceAll("")).replaceAll("");
        List<String> targets = new ArrayList<>();
        Matcher link = LINK.matcher(prose);
        while (link.find()) {
            String target = link.group(1);
            if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                targets.add(target);
            }
        }
        return targets;
    }

    @Test
    void linksInCodeAndAbsoluteLinksAreNotChecked() {
        String page = "See [cli](docs/cli.md#run) and [site](https://example.com).\n```\n[x](missing.md)\n```\n`[y](gone.md)`\n";
        assertEquals(List.of("docs/cli.md#run"), relativeLinks(page));
    }
}
