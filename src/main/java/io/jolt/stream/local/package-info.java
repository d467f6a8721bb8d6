/**
 * A local stack for the demo and the benches: a real broker started from the jars, the service
 * beside it, the workload fed in with progress, and what a run costs in CPU. Uses the service.
 */
package io.jolt.stream.local;
