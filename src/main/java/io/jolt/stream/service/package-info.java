/**
 * One running instance, wired: the configuration, {@code JoltService} (processor and bolt), and
 * {@code JoltNode} (that, record ingest and the HTTP API), and the console's log filter. The
 * composition root: it may use every live package; only the commands and the local stack use it.
 */
package io.jolt.stream.service;
