/**
 * The synthetic workload of the demo and the benches: identities, devices and their signed
 * records, conflicts and bad input planted on purpose. Uses only the protocol core.
 */
package io.jolt.stream.workload;
