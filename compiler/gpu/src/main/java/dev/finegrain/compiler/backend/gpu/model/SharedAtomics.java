package dev.finegrain.compiler.backend.gpu.model;

/**
 * Shared-memory atomics as the target compiles them: the {@code ATOMS} instruction, or, on profiles whose shared
 * atomics are loops on lock bits ({@code feature.sharedAtomicsAsLockLoops}: Fermi), the SASS nvcc emits there
 * (seed 001 Listing 1 for an exchange, Listing 3 for Listing 2's lock), so that atomics contend for the word's lock
 * bit with every other lane that touches it, as they do on the chip. The caller names the scratch predicates.
 */
final class SharedAtomics {

    private final SimtAssembler asm;
    private final boolean lockLoops;
    /** What a lock's lanes that found it taken do before they try again: the wait policy's pause, given a guard. */
    private final java.util.function.Consumer<String> beforeRetry;
    /** How a look at a word loads it. */
    private final SimtPollLoad look;

    SharedAtomics(SimtAssembler asm, boolean lockLoops, java.util.function.Consumer<String> beforeRetry, SimtPollLoad look) {
        this.asm = asm;
        this.lockLoops = lockLoops;
        this.beforeRetry = beforeRetry;
        this.look = look;
    }

    /**
     * {@code old = atomicExch(address, value)} for the lanes where {@code participants} holds ({@code PT},
     * {@code P1}, {@code !P1}); {@code old} may be RZ. Scratch: {@code todo}, {@code took}, {@code P0}.
     */
    void exchange(String old, String address, String value, String participants, String todo, String took,
                  String why) {
        if (!lockLoops) {
            asm.emit(participants, "ATOMS.EXCH " + old + ", " + address + ", " + value + "   // " + why);
            return;
        }
        lockBitLoop("exchange", why + ": atomicExch as Fermi runs it, a loop on the word's lock bit (Listing 1)",
                participants, old, address, todo, took, () -> value);
    }

    /**
     * {@code old = atomicAdd(address, value)} for the lanes where {@code participants} holds; {@code old} may be RZ.
     * Scratch: {@code todo}, {@code took}, {@code P0}.
     */
    void add(String old, String address, String value, String participants, String todo, String took, String why) {
        if (!lockLoops) {
            asm.emit(participants, "ATOMS.ADD " + old + ", " + address + ", " + value + "   // " + why);
            return;
        }
        String seen = old.equals("RZ") ? asm.register() : old;
        String sum = asm.register();
        lockBitLoop("add", why + ": atomicAdd as Fermi runs it, a loop on the word's lock bit", participants, seen,
                address, todo, took, () -> {
                    asm.emit("P0", "IADD " + sum + ", " + seen + ", " + value);
                    return sum;
                });
    }

    /**
     * {@code old = atomicCAS(address, expected, value)} for the lanes where {@code participants} holds. Scratch:
     * {@code todo}, {@code took}, {@code equal}, {@code P0}.
     */
    void compareAndSwap(String old, String address, String expected, String value, String participants, String todo,
                        String took, String equal, String why) {
        if (!lockLoops) {
            asm.emit(participants, "ATOMS.CAS " + old + ", " + address + ", " + expected + ", " + value + "   // " + why);
            return;
        }
        String stored = asm.register();
        lockBitLoop("cas", why + ": atomicCAS as Fermi runs it, a loop on the word's lock bit (Listing 3)", participants,
                old, address, todo, took, () -> {
                    asm.emit("P0", "ISETP.EQ.AND " + equal + ", PT, " + old + ", " + expected + ", PT");
                    asm.emit("P0", "SEL " + stored + ", " + value + ", " + old + ", " + equal);
                    return stored;
                });
    }

    /**
     * Listing 2's {@code while (atomicCAS(address, 0, 1) != 0);} for every active lane. Scratch: {@code todo},
     * {@code took}, {@code taken}, {@code P0}; {@code old} ends 0.
     */
    void lock(String old, String address, String one, String todo, String took, String taken) {
        lock(old, address, one, todo, took, taken, false);
    }

    /**
     * Test-and-test-and-set: as {@link #lock}, but every look is a plain load, and the compare-and-swap runs only once
     * the word looked free (a failed one looks again).
     */
    void lookThenLock(String old, String address, String one, String todo, String took, String taken) {
        lock(old, address, one, todo, took, taken, true);
    }

    private void lock(String old, String address, String one, String todo, String took, String taken, boolean lookFirst) {
        String spin = asm.label("lock");
        asm.place(spin);
        if (lookFirst) {
            look.emit("PT", old, address, false, "look: taken while not 0");
            asm.emit("ISETP.NE.AND " + taken + ", PT, " + old + ", RZ, PT");
            beforeRetry.accept(taken);
            asm.emit(taken, "BRA " + spin);
        }
        if (!lockLoops) {
            asm.emit("ATOMS.CAS " + old + ", " + address + ", RZ, " + one + "   // lock (Listing 2)");
        } else {
            String updated = asm.register();
            lockBitLoop("cas", "lock (Listing 2) as Fermi runs it: atomicCAS is a loop on the lock bit inside the while"
                    + " loop (Listing 3)", "PT", old, address, todo, took, () -> {
                        asm.emit("P0", "ISETP.NE.U32.AND " + taken + ", PT, " + old + ", RZ, PT");
                        asm.emit("P0", "SEL " + updated + ", " + old + ", 0x1, " + taken);
                        return updated;
                    });
        }
        asm.emit("ISETP.NE.AND " + taken + ", PT, " + old + ", RZ, PT");
        beforeRetry.accept(taken);
        asm.emit(taken, "BRA " + spin);
    }

    /**
     * The loop nvcc emits on Fermi for one shared atomic: every lane in {@code participants} retries {@code LDSLK}
     * until it took the word's lock bit (reading the word into {@code old}); under P0, the lanes that just took it
     * compute what to store ({@code update} emits that and names the register, or names a value as it is) and
     * {@code STSUL} it, which frees the bit.
     */
    private void lockBitLoop(String stem, String comment, String participants, String old, String address, String todo,
                             String took, java.util.function.Supplier<String> update) {
        String loop = asm.label(stem);
        asm.comment(comment);
        asm.emit("PSETP.AND.AND " + todo + ", PT, " + participants + ", PT, PT");
        asm.place(loop);
        asm.emit(todo, "LDSLK " + took + ", " + old + ", " + address);
        asm.emit("PSETP.AND.AND P0, PT, " + took + ", " + todo + ", PT");
        String stored = update.get();
        asm.emit("P0", "STSUL " + address + ", " + stored);
        asm.emit("PSETP.AND.AND " + todo + ", PT, " + todo + ", !" + took + ", PT");
        asm.emit(todo, "BRA " + loop);
    }
}
