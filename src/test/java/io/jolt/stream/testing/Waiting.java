package io.jolt.stream.testing;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * How the tests wait for a condition: Awaitility, named for what is awaited so that a timeout
 * says so, set as the hand-written loops it replaced behaved: the condition is asked at once and
 * then every poll interval, on the waiting thread (readers, admins and browsers stay on the
 * thread that opened them), and another thread's uncaught exception does not end the wait (the
 * in-process brokers and services have threads of their own, some stopped on purpose).
 * Each caller sets its own {@code atMost} and, where it is not Awaitility's 100 ms, its poll interval.
 */
public final class Waiting {
    private Waiting() {}

    public static ConditionFactory await(String what) {
        return Awaitility.await(what).pollInSameThread().pollDelay(Duration.ZERO).dontCatchUncaughtExceptions();
    }
}
