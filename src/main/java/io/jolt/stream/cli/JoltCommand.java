package io.jolt.stream.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code jolt} command line. */
@Command(
        name = "jolt",
        mixinStandardHelpOptions = true,
        versionProvider = JoltCommand.Version.class,
        description = "Verify, merge, serve and archive signed Jolt device-writer records.",
        subcommands = {
            MergeCommand.class,
            KeygenCommand.class,
            IdentityCommand.class,
            AuthorizeCommand.class,
            RevokeCommand.class,
            WriteCommand.class,
            RunCommand.class,
            ConfigCommand.class,
            DemoCommand.class,
            BenchCommand.class,
            SoakCommand.class,
            ConflictsCommand.class,
            SyncCommand.class,
            ReplayCommand.class,
            ArchiveCommand.class,
            CommandLine.HelpCommand.class
        })
public final class JoltCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        return new CommandLine(new JoltCommand()).setExecutionExceptionHandler(JoltCommand::reportFailure);
    }

    /** A failing command prints one clear line, not a stack trace (set JOLT_DEBUG=1 for one). */
    private static int reportFailure(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + message);
        if (System.getenv("JOLT_DEBUG") != null) {
            e.printStackTrace(command.getErr());
        }
        return 1;
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = JoltCommand.class.getPackage().getImplementationVersion();
            return new String[] {"jolt " + (version == null ? "(development build)" : version)};
        }
    }
}
