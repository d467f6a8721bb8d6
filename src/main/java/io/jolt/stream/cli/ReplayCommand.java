package io.jolt.stream.cli;

import io.jolt.stream.archive.replay.ArchiveReplay;
import io.jolt.stream.kafka.TopicSchemas;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.protocol.json.RecordJson;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Read the bolt (jolt.archive.v1), never write anything: the archived history of an identity or a path,",
            "the merged singleton/append state as of an archive offset or time (computed by the protocol core from the",
            "archived entries), or an export as §9 JSON Lines. A replay may be read; it must never be authored from."})
final class ReplayCommand implements Callable<Integer> {
    enum Mode { history, state, export }

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT")
    String bootstrap;

    @Option(names = "--identity", paramLabel = "ID", description = "The identity (required for history and state).")
    String identity;

    @Option(names = "--path", paramLabel = "PATH", description = "Only this path (history).")
    String path;

    @Option(names = "--mode", defaultValue = "history", description = "history | state | export (default ${DEFAULT-VALUE}).")
    Mode mode;

    @Option(names = "--until-offset", paramLabel = "N", description = "Only archive records at or below this offset of their partition.")
    Long untilOffset;

    @Option(names = "--until-time", paramLabel = "MS", description = "Only archive records written at or before this time (ms since the epoch).")
    Long untilTime;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (identity == null && mode != Mode.export) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--identity is required for --mode " + mode);
        }
        PrintWriter out = spec.commandLine().getOut();
        List<ArchiveReplay.Archived> archived = new ArchiveReplay(bootstrap, TopicSchemas.seededRegistry()).read(identity, untilOffset, untilTime);
        switch (mode) {
            case history -> archived.stream()
                    .filter(a -> path == null || a.entry().body().operation().path().equals(path))
                    .forEach(a -> out.printf("%s %s %s#%s %s %s (archive %d/%d)%n", a.kind(), a.identity(), a.entry().deviceId(),
                            Long.toUnsignedString(a.entry().sequence()), a.entry().body().operation().path(), a.entry().hash(),
                            a.partition(), a.offset()));
            case state -> {
                List<Entry> entries = archived.stream().map(ArchiveReplay.Archived::entry).toList();
                MergedState state = IdentityAssembler.fromEligible(identity, entries);
                out.println(MergedStateJson.write(state));
            }
            case export -> archived.forEach(a -> out.println(RecordJson.write(a.entry())));
        }
        out.flush();
        return 0;
    }
}
