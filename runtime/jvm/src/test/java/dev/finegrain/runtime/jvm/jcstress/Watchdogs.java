package dev.finegrain.runtime.jvm.jcstress;

import dev.finegrain.runtime.jvm.Watchdog;

/** One shared watchdog for all tests: their actors always publish, so it only fires if the harness hangs. */
final class Watchdogs {
    static final Watchdog SHARED = new Watchdog(Watchdog.DEFAULT_TIMEOUT_NANOS,
            (channel, consumer, producer) -> "jcstress actor waits on channel " + channel);

    private Watchdogs() {
    }
}
