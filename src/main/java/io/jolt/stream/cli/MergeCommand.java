package io.jolt.stream.cli;

import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.MergedStateJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code jolt merge}: a §9 bundle in, the §9 merged state of every identity out. */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        description = {
            "Read a JSON Lines bundle of authority records and device-writer entries (PROTOCOL §9)",
            "and print the merged state of every identity, sorted by identity.",
            "Lines that cannot be tied to an identity are reported on stderr with their line number."
        },
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {
            "0:every line was read",
            "2:usage error (unknown option, unreadable file)",
            "3:some lines were skipped (see stderr)"
        })
final class MergeCommand implements Callable<Integer> {
    static final int SKIPPED_LINES = 3;

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "The bundle; standard input when absent.")
    Path file;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Bundle bundle = new Bundle();
        if (file == null) {
            readLines(System.in, bundle);
        } else {
            if (!Files.isReadable(file)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "cannot read " + file);
            }
            try (InputStream in = Files.newInputStream(file)) {
                readLines(in, bundle);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(MergedStateJson.write(bundle.merge(SignatureCheck.DEFINITION)));
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        bundle.skipped().forEach(s -> err.println("line " + s.lineNumber() + ": skipped: " + s.reason()));
        err.flush();
        return bundle.skipped().isEmpty() ? 0 : SKIPPED_LINES;
    }

    /** Splits on LF only, byte-wise: a line that is not UTF-8 must reach the reader as it is. */
    static void readLines(InputStream in, Bundle bundle) throws IOException {
        byte[] chunk = new byte[1 << 16];
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int n;
        while ((n = in.read(chunk)) > 0) {
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    bundle.add(line.toByteArray());
                    line.reset();
                } else {
                    line.write(chunk[i]);
                }
            }
        }
        if (line.size() > 0) {
            bundle.add(line.toByteArray());
        }
    }
}
