/**
 * The protocol's JSON forms: record lines read strictly, merged state written. Uses only the
 * protocol core and Jackson.
 */
package io.jolt.stream.protocol.json;
