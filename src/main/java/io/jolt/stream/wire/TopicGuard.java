package io.jolt.stream.wire;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At start: creates the topics of topics.yaml that are missing and refuses to run when an
 * existing topic contradicts it (partitions, cleanup.policy, retention). Above all a compacted or
 * expiring {@code jolt.archive.v2} would silently forget what the bolt promises to keep.
 */
public final class TopicGuard {
    private static final Logger LOG = LoggerFactory.getLogger(TopicGuard.class);

    /** The service must not start: what contradicts topics.yaml, topic by topic. */
    public static final class TopicContradictionException extends RuntimeException {
        public TopicContradictionException(List<String> problems) {
            super("existing topics contradict topology/topics.yaml:\n  " + String.join("\n  ", problems));
        }
    }

    private TopicGuard() {}

    public static void ensure(Admin admin, Collection<Topics.Spec> specs) {
        try {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            List<Topics.Spec> present = new ArrayList<>();
            for (Topics.Spec spec : specs) {
                if (existing.contains(spec.name())) {
                    present.add(spec);
                } else {
                    missing.add(new NewTopic(spec.name(), spec.partitions(), spec.replication()).configs(spec.config()));
                }
            }
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
                    awaitLeaders(admin, missing);
                    LOG.info("created {} topic(s): {}", missing.size(), missing.stream()
                            .map(t -> t.name() + " (" + t.numPartitions() + " partitions)").collect(Collectors.joining(", ")));
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            verify(admin, present);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot check topics against the cluster: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topics", e);
        }
    }

    /**
     * Until every partition of the new topics answers at its leader. A topic is created before
     * its leaders are ready: a fresh idempotent producer whose first batch is refused then
     * (NOT_LEADER_OR_FOLLOWER) while its next is appended retries the first with
     * OUT_OF_ORDER_SEQUENCE_NUMBER until it expires (KAFKA-14359; seen here: `jolt archive bench`
     * failed after 120 s writing its new archive topic). Listing an end offset is served by the
     * leader alone; until the topic's metadata has reached the broker asked, or its leader is
     * ready, the answer is a retriable error (unknown topic, not the leader), and it is asked again.
     */
    private static void awaitLeaders(Admin admin, List<NewTopic> created) throws ExecutionException, InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        created.forEach(t -> IntStream.range(0, t.numPartitions()).forEach(p -> ends.put(new TopicPartition(t.name(), p), OffsetSpec.latest())));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    private static void verify(Admin admin, List<Topics.Spec> specs) throws ExecutionException, InterruptedException, TimeoutException {
        if (specs.isEmpty()) {
            return;
        }
        Map<String, Topics.Spec> byName = new HashMap<>();
        specs.forEach(s -> byName.put(s.name(), s));
        Map<String, TopicDescription> descriptions = admin.describeTopics(byName.keySet()).allTopicNames().get(30, TimeUnit.SECONDS);
        List<ConfigResource> resources = byName.keySet().stream().map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
        List<String> problems = new ArrayList<>();
        for (Topics.Spec spec : specs) {
            int partitions = descriptions.get(spec.name()).partitions().size();
            if (partitions != spec.partitions()) {
                problems.add(spec.name() + ": " + partitions + " partitions, topics.yaml wants " + spec.partitions());
            }
            Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()));
            spec.config().forEach((key, wanted) -> {
                ConfigEntry entry = config.get(key);
                String actual = entry == null ? null : entry.value();
                if (!wanted.equals(actual)) {
                    problems.add(spec.name() + ": " + key + "=" + actual + ", topics.yaml wants " + wanted);
                }
            });
        }
        if (!problems.isEmpty()) {
            throw new TopicContradictionException(problems);
        }
    }
}
