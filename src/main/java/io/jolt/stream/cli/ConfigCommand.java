package io.jolt.stream.cli;

import io.jolt.stream.service.JoltSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine;

@Command(name = "config", mixinStandardHelpOptions = true, description = "The service's configuration.",
        subcommands = ConfigCommand.Reference.class)
final class ConfigCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    @Command(name = "reference", mixinStandardHelpOptions = true,
            description = {"Print the reference of every jolt.* setting as a Markdown table (name, type, default, valid values, importance, description),",
                "generated from the service's ConfigDef: the table of src/site/markdown/operations.md between its config-reference markers."})
    static final class Reference implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getOut().print(JoltSettings.markdownTable());
            spec.commandLine().getOut().flush();
        }
    }
}
