package io.jolt.stream.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.protocol.AuthorityWriter;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.SigningKey;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "identity", mixinStandardHelpOptions = true, description = "Manage identities.",
        subcommands = IdentityCommand.New.class)
final class IdentityCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    @Command(name = "new", mixinStandardHelpOptions = true,
            description = {"Create an identity directory: a root key (new, or --root-key) and the authority chain's state.",
                "Prints the identity id."})
    static final class New implements Callable<Integer> {
        @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Directory to create the identity in.")
        Path dir;

        @Option(names = "--root-key", paramLabel = "FILE", description = "An existing key file (from `jolt keygen`) to use as root key.")
        Path rootKey;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            SigningKey root = rootKey == null ? SigningKey.generate(new SecureRandom()) : IdentityDirectory.readKey(rootKey);
            IdentityDirectory.create(dir, root);
            ObjectNode line = IdentityDirectory.object();
            line.put("identity", AuthorityWriter.genesis(root).identity());
            line.put("root_public_key", Hex.encode(root.publicKeyBytes()));
            line.put("dir", dir.toString());
            spec.commandLine().getOut().println(IdentityDirectory.toJsonLine(line));
            return 0;
        }
    }
}
