/**
 * The processor's RocksDB stores: their names, keys and the typed faces over one identity's
 * stores, read-only and read-write. Uses only the protocol core.
 */
package io.jolt.stream.processor.store;
