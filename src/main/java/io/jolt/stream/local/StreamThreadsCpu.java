package io.jolt.stream.local;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU time this process's stream threads have used so far: the processing work itself, without
 * the wait for a commit, which is what a cost per record should count (a wall-clock measurement
 * of a few thousand records is mostly the commit interval).
 */
public final class StreamThreadsCpu {
    private StreamThreadsCpu() {}

    /** Summed over the threads Kafka Streams names {@code <client id>-StreamThread-<n>}; their producers' network threads are not counted. */
    public static long nanosSoFar() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported()) {
            return 0;
        }
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().matches(".*-StreamThread-\\d+")) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }
}
