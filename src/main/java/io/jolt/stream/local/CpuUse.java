package io.jolt.stream.local;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;

/**
 * CPU time spent so far by this process, by its stream threads, and by the local broker's process,
 * so that the bench can say where a timed interval's cores went: the ratio it prints can be no
 * higher than the share of the machine the signature check gets, and this shows that share.
 */
public record CpuUse(long wallNanos, long serviceNanos, long streamThreadNanos, long jitMillis, Optional<Long> brokerNanos) {

    public static CpuUse now(Optional<ProcessHandle> broker) {
        return new CpuUse(System.nanoTime(), processCpuNanos(), StreamThreadsCpu.nanosSoFar(), jitMillisSoFar(),
                broker.flatMap(b -> b.info().totalCpuDuration()).map(Duration::toNanos));
    }

    /** Cores used between {@code start} and this snapshot. */
    public record Cores(double seconds, double service, double streamThreads, double jit, Optional<Double> broker) {
        public double total() {
            return service + broker.orElse(0.0);
        }
    }

    public Cores since(CpuUse start) {
        double wall = wallNanos - start.wallNanos;
        Optional<Double> broker = brokerNanos.isPresent() && start.brokerNanos.isPresent()
                ? Optional.of((brokerNanos.get() - start.brokerNanos.get()) / wall) : Optional.empty();
        return new Cores(wall / 1e9, (serviceNanos - start.serviceNanos) / wall, (streamThreadNanos - start.streamThreadNanos) / wall,
                (jitMillis - start.jitMillis) * 1e6 / wall, broker);
    }

    /** Time the JIT compilers spent so far, summed over its threads: still compiling means not yet at steady state. */
    private static long jitMillisSoFar() {
        var jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
