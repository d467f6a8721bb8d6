package io.jolt.stream.cli;

import picocli.CommandLine.Option;

/** What bench and soak share on their command line: where to run and how wide. */
final class LocalRunOptions {
    @Option(names = "--threads", description = "Stream threads (default: the machine's cores; bench also verifies with as many for its crypto limit).")
    Integer threads;

    @Option(names = "--partitions", defaultValue = "4", description = "Partitions of every topic (default ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "An empty Kafka cluster to use instead of a fresh local broker.")
    String bootstrap;

    int streamThreads() {
        return threads != null ? threads : Runtime.getRuntime().availableProcessors();
    }
}
