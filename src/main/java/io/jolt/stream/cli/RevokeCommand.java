package io.jolt.stream.cli;

import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityWriter;
import io.jolt.stream.protocol.Cutoff;
import io.jolt.stream.protocol.DeviceWriter;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.json.RecordJson;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "revoke", mixinStandardHelpOptions = true,
        description = {"Revoke a device: sign the next authority record and print it (§9 JSON line).",
            "Without a cutoff none of the device's entries stay eligible; with one, its history up to the pinned entry does."})
final class RevokeCommand implements Callable<Integer> {
    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The identity directory.")
    Path dir;

    @Option(names = "--device", required = true, paramLabel = "ID", description = "The device_id to revoke.")
    String device;

    @ArgGroup(exclusive = true)
    CutoffChoice cutoff;

    static final class CutoffChoice {
        @Option(names = "--cutoff-at-head", description = "Keep everything the device wrote so far (from its own writer state).")
        boolean atHead;

        @Option(names = "--cutoff", paramLabel = "SEQ:HASH", description = "Keep the device's branch up to this entry.")
        String explicit;
    }

    @Option(names = "--created-at", paramLabel = "MS", description = "created_at in ms since the epoch (default: now).")
    Long createdAt;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        IdentityDirectory identity = IdentityDirectory.open(dir);
        AuthorityWriter.Written written = identity.authority().write(identity.rootKey(),
                new AuthorityAction.Revoke(device, cutoff(identity)), createdAt == null ? System.currentTimeMillis() : createdAt);
        identity.saveAuthority(written.next());
        spec.commandLine().getOut().println(RecordJson.write(written.record()));
        return 0;
    }

    private Cutoff cutoff(IdentityDirectory identity) throws Exception {
        if (cutoff == null) {
            return null;
        }
        if (cutoff.atHead) {
            DeviceWriter writer = identity.device(device);
            if (writer.previousEntryHash() == null) {
                throw new IllegalArgumentException("device " + device + " has written nothing: revoke without a cutoff");
            }
            return new Cutoff(writer.nextSequence() - 1, writer.previousEntryHash());
        }
        int colon = cutoff.explicit.indexOf(':');
        if (colon < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cutoff wants SEQ:HASH, got " + cutoff.explicit);
        }
        return new Cutoff(Long.parseUnsignedLong(cutoff.explicit.substring(0, colon)), Hash.fromHex(cutoff.explicit.substring(colon + 1)));
    }
}
