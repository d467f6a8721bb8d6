package io.jolt.stream.cli;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs a {@code jolt} command in-process and captures exit code, stdout and stderr. */
record CommandRun(int exitCode, String out, String err) {
    static CommandRun of(String... args) {
        return withStdin(new byte[0], args);
    }

    static synchronized CommandRun withStdin(byte[] stdin, String... args) {
        InputStream previous = System.in;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try {
            System.setIn(new ByteArrayInputStream(stdin));
            CommandLine cli = JoltCommand.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            int code = cli.execute(args);
            return new CommandRun(code, out.toString(), err.toString());
        } finally {
            System.setIn(previous);
        }
    }

    static CommandRun withStdin(String stdin, String... args) {
        return withStdin(stdin.getBytes(StandardCharsets.UTF_8), args);
    }
}
