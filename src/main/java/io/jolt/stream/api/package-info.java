/**
 * The service's HTTP API: routes, errors, access, quotas, owner routing, the endpoints and the
 * dashboard. Uses the processor's queries, the wire's ingest and the shared {@code http} base.
 */
package io.jolt.stream.api;
