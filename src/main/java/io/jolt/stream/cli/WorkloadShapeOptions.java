package io.jolt.stream.cli;

import io.jolt.stream.workload.Workload;
import picocli.CommandLine.Option;

/** What bench and archive bench share on their command line: the shape of each generated identity. */
final class WorkloadShapeOptions {
    @Option(names = "--devices", defaultValue = "3", description = "Devices per identity (default ${DEFAULT-VALUE}).")
    int devices;

    @Option(names = "--entries-per-device", defaultValue = "10", description = "Entries per device (default ${DEFAULT-VALUE}).")
    int entriesPerDevice;

    /** Identities of this shape for about {@code entries} entries (0 entries: none). */
    int identitiesFor(int entries) {
        return (int) Math.ceil(entries / (double) (devices * entriesPerDevice));
    }

    Workload.Shape shape(int identities, long seed) {
        return new Workload.Shape(identities, devices, entriesPerDevice, seed);
    }
}
