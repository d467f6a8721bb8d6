package io.jolt.stream.cli;

import io.jolt.stream.protocol.ContentId;
import io.jolt.stream.protocol.DeviceWriter;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.RecordJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "write", mixinStandardHelpOptions = true,
        description = {"Sign a device's next entry and print it (§9 JSON line).",
            "The sequence and previous hash come from the device's own writer state, never from a bundle."})
final class WriteCommand implements Callable<Integer> {
    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The identity directory.")
    Path dir;

    @Option(names = "--device", required = true, paramLabel = "ID", description = "The writing device.")
    String device;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
        @Option(names = "--set", paramLabel = "PATH", description = "Bind PATH (needs --cid or --content).")
        String set;

        @Option(names = "--tombstone", paramLabel = "PATH", description = "Tombstone the singleton PATH.")
        String tombstone;
    }

    @ArgGroup(exclusive = true)
    Content content;

    static final class Content {
        @Option(names = "--cid", paramLabel = "CID", description = "The content id to bind.")
        String cid;

        @Option(names = "--content", paramLabel = "TEXT", description = "Bind the raw BLAKE3 CID of this text.")
        String text;
    }

    @Option(names = "--append", description = "An append record instead of a singleton binding.")
    boolean append;

    @Option(names = "--observe", paramLabel = "HASH", description = "An observed singleton head (repeatable; sorted for you).")
    List<String> observe = new ArrayList<>();

    @Option(names = "--observe-heads-in", paramLabel = "BUNDLE",
            description = "Observe every active head of the target path in the merged state of this bundle (what this writer has seen).")
    Path observeHeadsIn;

    @Option(names = "--created-at", paramLabel = "MS", description = "created_at in ms since the epoch (default: now).")
    Long createdAt;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        IdentityDirectory identity = IdentityDirectory.open(dir);
        DeviceWriter writer = identity.device(device);
        List<Hash> heads = new ArrayList<>(observe.stream().map(Hash::fromHex).toList());
        if (observeHeadsIn != null) {
            heads.addAll(activeHeads(writer.identity(), target.set != null ? target.set : target.tombstone));
        }
        DeviceWriter.Written written = writer.write(identity.deviceKey(device), operation(),
                createdAt == null ? System.currentTimeMillis() : createdAt, heads);
        identity.saveDevice(written.next());
        spec.commandLine().getOut().println(RecordJson.write(written.entry()));
        return 0;
    }

    /** The current head and conflicts of a singleton path, as merged from a bundle. */
    private List<Hash> activeHeads(String identity, String path) throws IOException {
        Bundle bundle = new Bundle();
        try (InputStream in = Files.newInputStream(observeHeadsIn)) {
            MergeCommand.readLines(in, bundle);
        }
        List<Hash> heads = new ArrayList<>();
        for (MergedState state : bundle.merge(SignatureCheck.DEFINITION)) {
            if (state.identity().equals(identity)) {
                for (SingletonState singleton : state.singletons()) {
                    if (singleton.path().equals(path)) {
                        heads.add(singleton.current().hash());
                        singleton.conflicts().forEach(c -> heads.add(c.hash()));
                    }
                }
            }
        }
        return heads;
    }

    private Operation operation() {
        if (target.tombstone != null) {
            if (content != null || append) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--tombstone takes no content and is never --append");
            }
            return new Operation.TombstonePath(target.tombstone);
        }
        if (content == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--set needs --cid or --content");
        }
        String cid = content.cid != null ? content.cid : ContentId.ofRaw(content.text.getBytes(StandardCharsets.UTF_8));
        return new Operation.SetPath(target.set, cid, append ? Operation.Mode.APPEND : Operation.Mode.SINGLETON);
    }
}
