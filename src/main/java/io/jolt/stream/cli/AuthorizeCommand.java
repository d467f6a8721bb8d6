package io.jolt.stream.cli;

import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityWriter;
import io.jolt.stream.protocol.SigningKey;
import io.jolt.stream.protocol.json.RecordJson;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "authorize", mixinStandardHelpOptions = true,
        description = {"Authorize a device: sign the next authority record with the root key and print it (§9 JSON line).",
            "The device gets a new key (or --device-key) and its own writer state in DIR/devices/."})
final class AuthorizeCommand implements Callable<Integer> {
    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The identity directory.")
    Path dir;

    @Option(names = "--device", required = true, paramLabel = "ID", description = "The device_id to authorize.")
    String device;

    @Option(names = "--device-key", paramLabel = "FILE", description = "An existing key file for the device.")
    Path deviceKey;

    @Option(names = "--created-at", paramLabel = "MS", description = "created_at in ms since the epoch (default: now).")
    Long createdAt;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        IdentityDirectory identity = IdentityDirectory.open(dir);
        if (identity.hasDevice(device)) {
            throw new IllegalArgumentException("device " + device + " already has a key in " + dir + "; a device_id is authorized at most once");
        }
        SigningKey key = deviceKey == null ? SigningKey.generate(new SecureRandom()) : IdentityDirectory.readKey(deviceKey);
        AuthorityWriter.Written written = identity.authority().write(identity.rootKey(),
                new AuthorityAction.Authorize(device, key.publicKeyBytes()), createdAt == null ? System.currentTimeMillis() : createdAt);
        identity.addDevice(device, key);
        identity.saveAuthority(written.next());
        spec.commandLine().getOut().println(RecordJson.write(written.record()));
        return 0;
    }
}
