/**
 * The {@code jolt} command and its subcommands (picocli), and the files of an identity built by
 * hand. Only the commands: what they run lives in the packages they call.
 */
package io.jolt.stream.cli;
