package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ForkedKafka;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.testing.TestHosts;
import io.jolt.stream.testing.TestHosts.Host;
import io.jolt.stream.testing.Waiting;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The multi-host test bed itself: three brokers and the service, each on a host of its own (a
 * network namespace), the test JVM as the client host. Isolating the service's host cuts it off
 * from the brokers while the client still gets answers from it (cutting its link silences it to
 * the client too); a broker killed with SIGKILL leaves a cluster that takes writes with acks=all
 * (two of three voters and replicas); and once it is all closed nothing is left: no namespace,
 * no link, no process.
 */
class TestHostsIT {
    static final String APPLICATION = "jolt-it-hosts";
    static final Duration START = Duration.ofSeconds(180);

    @Test
    void threeBrokersAndTheServiceOnHostsOfTheirOwn() throws Exception {
        TestHosts.requireCapable();
        List<Long> started = new ArrayList<>();
        TestHosts hosts = TestHosts.create();
        try {
            List<Host> brokers = List.of(hosts.host("k1"), hosts.host("k2"), hosts.host("k3"));
            Host serviceHost = hosts.host("svc");
            long t0 = System.nanoTime();
            try (ForkedKafka cluster = ForkedKafka.onHosts(hosts, brokers)) {
                System.out.printf("[hosts] 3 brokers (each a voter) started on %s in %,d ms%n", cluster.bootstrapServers(), since(t0));
                for (int id = 1; id <= 3; id++) {
                    started.add(cluster.pid(id));
                }
                try (Admin admin = cluster.admin()) {
                    TopicGuard.ensure(admin, Topics.load(4, (short) 3));
                }
                ForkedService service = ForkedService.onHost(hosts, serviceHost, "hosts-svc", ForkedService.settings(cluster.bootstrapServers(),
                        APPLICATION, StreamHarness.tempStateDir("hosts"), 4).with(Map.of(JoltConfig.TOPIC_REPLICATION, "3",
                        "replication.factor", "3", "session.timeout.ms", "6000")));
                started.add(service.pid());
                try {
                    long t1 = System.nanoTime();
                    service.awaitRunning(START);
                    System.out.printf("[hosts] service RUNNING on %s in %,d ms%n", service.baseUrl(), since(t1));
                    ingestAndQuery(cluster, service);
                    isolateTheServiceHost(hosts, serviceHost, brokers, cluster, service);
                    killOneBroker(cluster, started);
                } finally {
                    service.kill();
                }
            }
        } finally {
            hosts.close();
        }
        assertThat(hosts.leftovers()).as("namespaces and links of the run after close").isEmpty();
        assertThat(started).as("processes started by the test, alive after close").noneMatch(TestHosts::alive);
    }

    /** Records posted from the client host reach the brokers through the service, and come back as merged state. */
    private static void ingestAndQuery(ForkedKafka cluster, ForkedService service) throws Exception {
        List<Object> records = FaultScenario.generate(15, 1, 21).records();
        long t0 = System.nanoTime();
        post(service, records);
        new StreamHarness(cluster.bootstrapServers()).awaitProcessed(APPLICATION, Duration.ofSeconds(120));
        System.out.printf("[hosts] %,d records posted from the client host and processed in %,d ms%n", records.size(), since(t0));
        for (MergedState state : OutputAudit.coreMerge(records)) {
            assertThat(service.status("/v1/identities/" + state.identity())).as(state.identity()).isEqualTo(200);
        }
    }

    /**
     * The service's host loses the brokers, not the client: from inside it a broker's port does
     * not connect, while the client's questions are still answered; the group coordinator drops
     * the silent member once its session times out. Healed, the service takes records again.
     */
    private static void isolateTheServiceHost(TestHosts hosts, Host serviceHost, List<Host> brokers, ForkedKafka cluster, ForkedService service)
            throws Exception {
        Host broker = brokers.get(0);
        assertThat(hosts.connects(serviceHost, broker.address(), ForkedKafka.HOST_BROKER_PORT, Duration.ofSeconds(3))).as("reaches a broker before").isTrue();
        long t0 = System.nanoTime();
        hosts.isolate(serviceHost);
        assertThat(hosts.connects(serviceHost, broker.address(), ForkedKafka.HOST_BROKER_PORT, Duration.ofSeconds(2))).as("reaches a broker while isolated").isFalse();
        Map<Integer, Integer> answers = new TreeMap<>();
        try (Admin admin = cluster.admin()) {
            Waiting.await("the isolated service dropped from its group").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        answers.merge(service.status("/v1/identities/none-such"), 1, Integer::sum);
                        return members(admin) == 0;
                    });
            System.out.printf("[hosts] isolated: the group dropped the service %,d ms after the isolation; the client's questions then "
                    + "answered by status: %s%n", since(t0), answers);
            assertThat(answers.keySet()).as("answers to the client while isolated").isNotEmpty().allMatch(status -> status >= 200);

            hosts.heal(serviceHost);
            long t1 = System.nanoTime();
            Waiting.await("the healed service back in its group").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> members(admin) == 1 && service.status("/health") == 200);
            System.out.printf("[hosts] healed: the service back in its group and RUNNING after %,d ms%n", since(t1));
        }
        assertThat(hosts.connects(serviceHost, broker.address(), ForkedKafka.HOST_BROKER_PORT, Duration.ofSeconds(3))).as("reaches a broker once healed").isTrue();
        post(service, FaultScenario.generate(10, 1, 22).records());

        // Cut, unlike isolated, the host answers no one, the client included. A connection of its own: the
        // HTTP client's pooled one would wait out its 30 s request timeout.
        hosts.cut(serviceHost);
        assertThat(connects(serviceHost.address(), ForkedService.HOST_HTTP_PORT)).as("the client connects to a cut host").isFalse();
        hosts.heal(serviceHost);
        long t2 = System.nanoTime();
        service.awaitRunning(Duration.ofSeconds(60));
        System.out.printf("[hosts] cut, then healed: RUNNING again after %,d ms%n", since(t2));
    }

    /** One broker of three killed with SIGKILL: writes with acks=all still land (two in sync); restarted on its data, it rejoins. */
    private static void killOneBroker(ForkedKafka cluster, List<Long> started) throws Exception {
        long t0 = System.nanoTime();
        cluster.kill(3);
        System.out.printf("[hosts] broker 3 killed; leadership off it after %,d ms%n", since(t0));
        var acknowledged = new StreamHarness(cluster.bootstrapServers()).produceRaw(List.of(
                new ProducerRecord<>(Topics.ENTRIES, "after-kill", "not avro".getBytes(StandardCharsets.UTF_8))));
        assertThat(acknowledged).as("acks=all with a broker down").hasSize(1);
        long t1 = System.nanoTime();
        cluster.restart(3);
        started.add(cluster.pid(3));
        System.out.printf("[hosts] broker 3 restarted on its data in %,d ms%n", since(t1));
    }

    private static boolean connects(String address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int members(Admin admin) throws Exception {
        return admin.describeConsumerGroups(List.of(APPLICATION)).all().get(10, TimeUnit.SECONDS).get(APPLICATION).members().size();
    }

    private static void post(ForkedService service, List<Object> records) throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Object r : records) {
            body.writeBytes((r instanceof AuthorityRecord a ? RecordJson.write(a) : RecordJson.write((Entry) r)).getBytes(StandardCharsets.UTF_8));
            body.write('\n');
        }
        var response = service.post("/v1/records", body.toByteArray());
        assertThat(response.statusCode()).as(response.body()).isIn(200, 207);
    }

    private static long since(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
