package io.jolt.stream.cli;

import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.serde.SchemaRegistries;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the stream processor against a Kafka cluster until interrupted.",
            "Creates missing topics from topology/topics.yaml and refuses to start when an existing one contradicts it.",
            "More instances (same application.id) on more partitions scale it out."})
final class RunCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "A properties file (bootstrap.servers, application.id, state.dir, num.stream.threads, jolt.http.port, jolt.*); "
                    + "environment variables like JOLT_BOOTSTRAP_SERVERS override it; an unknown jolt.* key stops the start "
                    + "(jolt config reference lists them). Example: deploy/jolt.properties")
    Path config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        JoltConfig joltConfig = JoltConfig.load(config, System.getenv());
        CountDownLatch stopped = new CountDownLatch(1);
        JoltNode node = JoltNode.start(joltConfig, SchemaRegistries.from(joltConfig::get).orElseGet(TopicSchemas::seededRegistry));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, "jolt-shutdown"));
        spec.commandLine().getErr().println("jolt run: processing (application.id " + joltConfig.get("application.id")
                + "), HTTP API on " + node.baseUrl() + "; Ctrl-C stops");
        stopped.await();
        return 0;
    }
}
