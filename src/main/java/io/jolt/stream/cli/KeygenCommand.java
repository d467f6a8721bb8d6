package io.jolt.stream.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.SigningKey;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "keygen", mixinStandardHelpOptions = true,
        description = "Generate an Ed25519 signing key into a new file (mode 0600) and print its public key.")
final class KeygenCommand implements Callable<Integer> {
    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The key file to create (never overwritten).")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SigningKey key = SigningKey.generate(new SecureRandom());
        IdentityDirectory.writeKey(out, key);
        ObjectNode line = IdentityDirectory.object();
        line.put("key_file", out.toString());
        line.put("public_key", Hex.encode(key.publicKeyBytes()));
        spec.commandLine().getOut().println(IdentityDirectory.toJsonLine(line));
        return 0;
    }
}
