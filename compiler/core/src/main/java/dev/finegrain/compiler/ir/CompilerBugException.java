package dev.finegrain.compiler.ir;

/**
 * A broken compiler invariant, never a user's mistake: names the pass after which the verifier failed and
 * carries the printed IR so the bug can be reproduced.
 */
public final class CompilerBugException extends RuntimeException {

    public CompilerBugException(String pass, String problem, String ir) {
        super("compiler bug after pass " + pass + ": " + problem + "\n--- IR ---\n" + ir);
    }
}
