package dev.finegrain.compiler.primitives;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stuart and Owens' Table 5, the best implementation per primitive at scale on each of their GPUs, and the rows of it
 * {@code finegrain primitives} answers for every machine it measures.
 */
public final class PaperTable5 {

    /** A row of the table: a kind of primitive, and for semaphores whether the initial value is the low or high one. */
    public record Question(String label, String kind, boolean highInitial) {
    }

    public static final List<Question> QUESTIONS = List.of(
            new Question("Best Barrier at scale", "barrier", false),
            new Question("Best Mutex at scale", "mutex", false),
            new Question("Best Semaphore at scale (low initial value)", "semaphore", false),
            new Question("Best Semaphore at scale (high initial value)", "semaphore", true));

    /** The paper's answers, by machine family, in the order of {@link #QUESTIONS}. */
    private static final Map<String, List<String>> ANSWERS = Map.of(
            "Tesla", List.of("XF", "FA", "Sleeping", "Sleeping"),
            "Fermi", List.of("XF", "Spin with Backoff", "Spin with Backoff", "Sleeping"));

    private PaperTable5() {
    }

    /** The family the paper measured that a model profile stands for, if any (tesla-gtx295, fermi-gtx580 ...). */
    public static Optional<String> family(String backend) {
        if (backend.startsWith("gpu-model:tesla")) {
            return Optional.of("Tesla");
        }
        if (backend.startsWith("gpu-model:fermi")) {
            return Optional.of("Fermi");
        }
        return Optional.empty();
    }

    public static String answer(String family, Question question) {
        return ANSWERS.get(family).get(QUESTIONS.indexOf(question));
    }
}
