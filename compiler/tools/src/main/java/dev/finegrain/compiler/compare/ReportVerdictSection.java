package dev.finegrain.compiler.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.finegrain.compiler.compare.ReportPage.escape;

/**
 * The report's first section, the answers: a line per kernel and backend (its winner at the largest point of the
 * sweep), the verdict at every point as a table, whether each model profile picked the real GPU's winner, and the
 * warning about rows too short to time.
 */
final class ReportVerdictSection {

    private ReportVerdictSection() {}

    static void append(StringBuilder page, List<ResultRow> rows) {
        List<ReportVerdicts.Verdict> verdicts = ReportVerdicts.verdicts(rows);
        page.append("<section id=\"verdicts\">\n<h2>Verdicts</h2>\n");
        if (verdicts.isEmpty()) {
            page.append("<p>No verified rows: nothing to judge.</p>\n</section>\n");
            return;
        }
        ShortRuns.warning(rows).ifPresent(warning -> page.append("<p class=\"warning\">").append(escape(warning)).append("</p>\n"));
        appendHeadlines(page, verdicts);
        page.append("<p>The winner has the lowest median time (modelled time on a model profile, critical path on the"
                + " reference). A variant whose runs overlap the winner's (fastest to slowest) is a tie: its difference is"
                + " inside the noise. The baseline is the fastest data-parallel row.</p>\n");
        page.append("<table class=\"verdicts\">\n<thead><tr><th>kernel</th><th>backend</th><th>size</th><th>winner</th>"
                + "<th>its cost (runs)</th><th>speed-up over the baseline</th><th>ties: within the noise of the winner</th>"
                + "<th>variants</th></tr></thead>\n<tbody>\n");
        for (ReportVerdicts.Verdict verdict : verdicts) {
            page.append("<tr><td>").append(escape(verdict.kernel())).append("</td><td>").append(escape(verdict.backend()))
                    .append("</td><td>").append(escape(verdict.point())).append("</td><td class=\"winner\">")
                    .append(escape(verdict.winner())).append("</td><td>").append(escape(verdict.cost().text()))
                    .append(verdict.boundFraction().isNaN() ? "" : String.format(Locale.ROOT, "; %.1f %% of the memory bound",
                            100 * verdict.boundFraction()))
                    .append("</td><td>").append(escape(speedup(verdict))).append("</td><td>").append(escape(ties(verdict)))
                    .append("</td><td class=\"number\">").append(verdict.variants()).append("</td></tr>\n");
        }
        page.append("</tbody>\n</table>\n");
        appendModelChecks(page, ReportVerdicts.modelChecks(rows));
        page.append("</section>\n");
    }

    /** One line per kernel and backend: the winner at its largest point. */
    private static void appendHeadlines(StringBuilder page, List<ReportVerdicts.Verdict> verdicts) {
        Map<String, ReportVerdicts.Verdict> largest = new LinkedHashMap<>();
        for (ReportVerdicts.Verdict verdict : verdicts) {
            String key = verdict.kernel() + "|" + verdict.backend();
            ReportVerdicts.Verdict known = largest.get(key);
            if (known == null || ReportCharts.points(verdict.size()) >= ReportCharts.points(known.size())) {
                largest.put(key, verdict);
            }
        }
        page.append("<ul class=\"headline\">\n");
        for (ReportVerdicts.Verdict verdict : largest.values()) {
            page.append("<li>On <b>").append(escape(verdict.backend())).append("</b> at ").append(escape(verdict.point()))
                    .append(largest.size() > 1 && verdicts.stream().map(ReportVerdicts.Verdict::kernel).distinct().count() > 1
                            ? " (" + escape(verdict.kernel()) + ")" : "")
                    .append(": <b>").append(escape(verdict.winner())).append("</b> wins, ").append(escape(speedup(verdict)))
                    .append(verdict.ties().isEmpty() ? "" : "; tied within the noise with " + escape(String.join(", ", verdict.ties())))
                    .append(".</li>\n");
        }
        page.append("</ul>\n");
    }

    private static void appendModelChecks(StringBuilder page, List<ReportVerdicts.ModelCheck> checks) {
        if (checks.isEmpty()) {
            return;
        }
        long agree = checks.stream().filter(ReportVerdicts.ModelCheck::agrees).count();
        page.append("<h3>The model against the real GPU</h3>\n<p>Where a model profile and a real GPU ran the same kernel at the"
                        + " same size: did the model pick the variant that was fastest on the GPU, among the variants both ran? ")
                .append(agree).append(" of ").append(checks.size()).append(" picks agree.</p>\n")
                .append("<table class=\"model-checks\">\n<thead><tr><th>kernel</th><th>size</th><th>model</th><th>GPU</th>"
                        + "<th>the model picks</th><th>fastest on the GPU</th><th>verdict</th><th>variants</th></tr></thead>\n<tbody>\n");
        for (ReportVerdicts.ModelCheck check : checks) {
            String verdict = !check.agrees() ? String.format(Locale.ROOT, "misses: its pick took %.2f× the winner's time",
                    check.pickOverWinner())
                    : check.tied() ? "agrees: its pick is within the noise of the winner" : "agrees";
            page.append("<tr><td>").append(escape(check.kernel())).append("</td><td>").append(escape(check.point()))
                    .append("</td><td>").append(escape(check.model())).append("</td><td>").append(escape(check.real()))
                    .append("</td><td>").append(escape(check.modelPick())).append("</td><td>").append(escape(check.realWinner()))
                    .append("</td><td class=\"").append(check.agrees() ? "agrees" : "misses").append("\">").append(escape(verdict))
                    .append("</td><td class=\"number\">").append(check.variants()).append("</td></tr>\n");
        }
        page.append("</tbody>\n</table>\n");
    }

    /** The speed-up in words: over which baseline, or that the winner is the baseline. */
    static String speedup(ReportVerdicts.Verdict verdict) {
        if (verdict.winnerIsBaseline()) {
            return "the baseline itself";
        }
        return String.format(Locale.ROOT, "%.2f× over %s", verdict.speedup(), verdict.baseline());
    }

    private static String ties(ReportVerdicts.Verdict verdict) {
        if (!verdict.cost().spreadKnown()) {
            return "unknown: the winner has no spread (timed once, or its runs not kept)";
        }
        return verdict.ties().isEmpty() ? "none" : String.join(", ", verdict.ties());
    }
}
