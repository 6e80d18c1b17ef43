package dev.finegrain.dsl;

/**
 * Where in the user's code a construct was declared, so a message can point at it. Captured as the first stack
 * frame outside the DSL's own package.
 */
public record CallSite(String file, int line) {

    static final CallSite UNKNOWN = new CallSite("unknown", 0);

    private static final String DSL_PACKAGE = CallSite.class.getPackageName();

    static CallSite capture() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames
                        .filter(frame -> !frame.getDeclaringClass().getPackageName().equals(DSL_PACKAGE))
                        .findFirst()
                        .map(frame -> new CallSite(
                                frame.getFileName() == null ? frame.getClassName() : frame.getFileName(),
                                frame.getLineNumber()))
                        .orElse(UNKNOWN));
    }

    @Override
    public String toString() {
        return file + ":" + line;
    }
}
