package dev.finegrain.gpu;

import com.oracle.truffle.api.CallTarget;
import com.oracle.truffle.api.TruffleLanguage;
import dev.finegrain.gpu.nodes.SimtInstructionTargets;
import dev.finegrain.gpu.nodes.SimtKernelRootNode;

/**
 * The Truffle language the kernels run in. It exists so that the {@link SimtKernelRootNode} and the instructions'
 * call targets belong to a language and run inside a polyglot context, where the engine's options (the JIT, its
 * tracing) apply; {@link SimtSimulator} enters a context and calls the language's one kernel root once per launch.
 * Programs are not evaluated through the polyglot API: a run needs a launch (profile, grid, mode) that
 * {@code Context.eval} cannot carry.
 */
@TruffleLanguage.Registration(id = SimtLanguage.ID, name = "Finegrain SIMT model", version = "0.1",
        characterMimeTypes = SimtLanguage.MIME_TYPE, defaultMimeType = SimtLanguage.MIME_TYPE)
public final class SimtLanguage extends TruffleLanguage<TruffleLanguage.Env> {
    public static final String ID = "simt";
    public static final String MIME_TYPE = "application/x-finegrain-simt";

    private static final LanguageReference<SimtLanguage> REFERENCE = LanguageReference.create(SimtLanguage.class);

    private volatile CallTarget kernel;
    private final SimtInstructionTargets instructionTargets = new SimtInstructionTargets(this);

    /** The language of the context the current thread has entered. */
    public static SimtLanguage get() {
        return REFERENCE.get(null);
    }

    /** The root every launch runs in, made on first use: it holds no program, so one serves every kernel. */
    public CallTarget kernel() {
        CallTarget made = kernel;
        if (made == null) {
            synchronized (this) {
                made = kernel;
                if (made == null) {
                    made = new SimtKernelRootNode(this).getCallTarget();
                    kernel = made;
                }
            }
        }
        return made;
    }

    /** The call targets of instructions, shared by every kernel run in this language. */
    public SimtInstructionTargets instructionTargets() {
        return instructionTargets;
    }

    @Override
    protected Env createContext(Env env) {
        return env;
    }

    /**
     * Any number of threads may be in a context at once: the language keeps no state in its context (the
     * {@link Env}), a run's state is its own {@link dev.finegrain.gpu.runtime.SimtMachine}, and nodes hold only
     * what their kernel was built from, so concurrent runs of one kernel share its call targets and nothing else.
     */
    @Override
    protected boolean isThreadAccessAllowed(Thread thread, boolean singleThreaded) {
        return true;
    }
}
