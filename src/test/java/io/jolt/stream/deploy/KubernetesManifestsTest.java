package io.jolt.stream.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.jolt.stream.connect.JoltSyncSourceConnector;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltSettings;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The manifests of deploy/kubernetes/ cannot run here (no cluster): every document of every one is
 * read with a real Kubernetes client's model (fabric8's), much as the API server's strict
 * field validation reads it: an unknown or misspelt field, a value of the wrong type, a duplicate key
 * or an apiVersion the kind does not have is refused. Then the wiring a cluster would only reveal at
 * run time is checked: which Service governs the StatefulSet, what each pod advertises, where the
 * state lives, what the probes ask, and that every setting is one the service, Kafka Streams, the
 * Connect worker or the connector knows.
 */
class KubernetesManifestsTest {
    static final Path DIR = Path.of("deploy", "kubernetes");
    static final String SERVICE = "jolt-stream.yaml";
    static final String ARCHIVE = "jolt-archive.yaml";
    static final String CONNECT = "jolt-connect.yaml";
    static final String SECRETS = "jolt-secrets.example.yaml";

    /** The kinds the manifests use, each under the one apiVersion a current cluster serves it at. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "v1 ConfigMap", ConfigMap.class,
            "v1 Secret", Secret.class,
            "v1 Service", Service.class,
            "apps/v1 StatefulSet", StatefulSet.class,
            "apps/v1 Deployment", Deployment.class,
            "policy/v1 PodDisruptionBudget", PodDisruptionBudget.class);

    /**
     * YAML documents into trees, refusing a key given twice in one mapping. The project's Jackson 2
     * reads the YAML; fabric8's model is built on Jackson 3, which gets each document as JSON text
     * (numbers, strings and booleans stay what the YAML made them).
     */
    static final com.fasterxml.jackson.databind.ObjectMapper YAML = new com.fasterxml.jackson.databind.ObjectMapper(new YAMLFactory())
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** JSON into fabric8's model, strictly. */
    static final ObjectMapper STRICT = JsonMapper.builder()
            // fabric8's classes keep unknown fields in a @JsonAnySetter map, where no feature sees them:
            // without it they are unknown properties, and FAIL_ON_UNKNOWN_PROPERTIES refuses them
            .annotationIntrospector(new WithoutAnySetter())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
                    DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY, DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            // "3" is no int32 and 8080 no string to the API server (Go's JSON): no coercion either way
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Textual, text -> text.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Integer, number -> number.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Float, number -> number.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Boolean, flag -> flag.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail))
            .build();

    /** Jackson's annotations as they are, but for @JsonAnySetter, which is ignored. */
    static final class WithoutAnySetter extends JacksonAnnotationIntrospector {
        private static final long serialVersionUID = 1L;

        @Override
        public Boolean hasAnySetter(MapperConfig<?> config, Annotated a) {
            return Boolean.FALSE;
        }
    }

    /** Every document of a manifest's text, each as the model's class for its apiVersion and kind. */
    static List<HasMetadata> parse(String yaml) throws IOException {
        List<HasMetadata> objects = new ArrayList<>();
        try (var documents = YAML.readerFor(com.fasterxml.jackson.databind.JsonNode.class)
                .<com.fasterxml.jackson.databind.JsonNode>readValues(new StringReader(yaml))) {
            while (documents.hasNext()) {
                com.fasterxml.jackson.databind.JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue; // an empty document (a trailing ---), which kubectl skips too
                }
                String kind = document.path("apiVersion").asText() + " " + document.path("kind").asText();
                Class<? extends HasMetadata> type = KINDS.get(kind);
                if (type == null) {
                    throw new IllegalArgumentException("not a kind these manifests may use: " + kind + " (known: " + KINDS.keySet() + ")");
                }
                objects.add(STRICT.readValue(JSON.writeValueAsString(document), type));
            }
        }
        return objects;
    }

    static String text(String manifest) throws IOException {
        return Files.readString(DIR.resolve(manifest));
    }

    static List<HasMetadata> manifest(String manifest) throws IOException {
        return parse(text(manifest));
    }

    static <T extends HasMetadata> T one(String manifest, Class<T> kind, String name) throws IOException {
        List<T> found = manifest(manifest).stream().filter(kind::isInstance).map(kind::cast)
                .filter(o -> o.getMetadata().getName().equals(name)).toList();
        assertThat(found).as(manifest + " has one " + kind.getSimpleName() + " " + name).hasSize(1);
        return found.get(0);
    }

    static Container container(PodSpec pod, String name) {
        return pod.getContainers().stream().filter(c -> c.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no container " + name));
    }

    static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " has no variable " + name));
    }

    static int envIndex(Container container, String name) {
        return container.getEnv().indexOf(env(container, name));
    }

    /** A variable's value as the kubelet expands it: $(NAME) of a variable defined before it, else left as it is. */
    static String expand(String value, Map<String, String> earlier) {
        Matcher reference = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(value);
        StringBuilder out = new StringBuilder();
        while (reference.find()) {
            reference.appendReplacement(out, Matcher.quoteReplacement(earlier.getOrDefault(reference.group(1), reference.group())));
        }
        return reference.appendTail(out).toString();
    }

    static Properties properties(String text) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return p;
    }

    static Properties properties(ConfigMap map, String key) throws IOException {
        assertThat(map.getData()).as("ConfigMap " + map.getMetadata().getName()).containsKey(key);
        return properties(map.getData().get(key));
    }

    /** The container port a probe's port (a name or a number) stands for. */
    static int port(Container container, IntOrString port) {
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        return container.getPorts().stream().filter(p -> port.getStrVal().equals(p.getName())).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " has no port named " + port.getStrVal()))
                .getContainerPort();
    }

    /** The mount of a container whose path holds a file path. */
    static VolumeMount mountHolding(Container container, String file) {
        return container.getVolumeMounts().stream().filter(m -> Path.of(file).startsWith(Path.of(m.getMountPath()))).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " mounts nothing that holds " + file));
    }

    static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }

    /** The argument after an option of a container's args. */
    static String option(Container container, String name) {
        List<String> args = container.getArgs();
        int at = args.indexOf(name);
        assertThat(at).as(container.getName() + " passes " + name).isNotNegative();
        return args.get(at + 1);
    }

    static long bytes(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity).longValueExact();
    }

    /** -Xmx of a JVM options string, in bytes. */
    static long maxHeap(String jvmOptions) {
        Matcher xmx = Pattern.compile("-Xmx(\\d+)([kKmMgG])").matcher(jvmOptions);
        assertThat(xmx.find()).as("a heap bound in " + jvmOptions).isTrue();
        long unit = switch (Character.toLowerCase(xmx.group(2).charAt(0))) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            default -> 1L << 30;
        };
        return Long.parseLong(xmx.group(1)) * unit;
    }

    static List<PodSpec> podSpecs() throws IOException {
        List<PodSpec> pods = new ArrayList<>();
        for (String manifest : List.of(SERVICE, ARCHIVE, CONNECT)) {
            for (HasMetadata o : manifest(manifest)) {
                if (o instanceof StatefulSet s) {
                    pods.add(s.getSpec().getTemplate().getSpec());
                } else if (o instanceof Deployment d) {
                    pods.add(d.getSpec().getTemplate().getSpec());
                }
            }
        }
        return pods;
    }

    // --- strictness

    @Test
    void everyDocumentOfEveryManifestIsReadStrictlyByTheModel() throws IOException {
        // given every manifest of the folder
        List<String> manifests;
        try (Stream<Path> files = Files.list(DIR)) {
            manifests = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList();
        }
        assertThat(manifests).contains(SERVICE, ARCHIVE, CONNECT, SECRETS);
        Map<String, Integer> objects = new LinkedHashMap<>();
        for (String manifest : manifests) {
            // when each is read strictly
            List<HasMetadata> read = manifest(manifest);
            // expect objects, each named, labelled as part of jolt-stream, and no kind and name twice
            assertThat(read).as(manifest).isNotEmpty();
            for (HasMetadata o : read) {
                assertThat(o.getMetadata().getName()).as("a name in " + manifest).isNotBlank();
                assertThat(o.getMetadata().getNamespace()).as(o.getMetadata().getName() + ": the namespace is kubectl's -n").isNull();
                assertThat(o.getMetadata().getLabels()).as(o.getMetadata().getName()).containsEntry("app.kubernetes.io/part-of", "jolt-stream");
                objects.merge(o.getKind() + "/" + o.getMetadata().getName(), 1, Integer::sum);
            }
        }
        assertThat(objects).as("objects defined twice").allSatisfy((object, count) -> assertThat(count).as(object).isEqualTo(1));
        assertThat(objects).containsKeys("StatefulSet/jolt-stream", "Service/jolt-stream-headless", "Service/jolt-stream",
                "PodDisruptionBudget/jolt-stream", "StatefulSet/jolt-archive", "Deployment/jolt-connect", "Secret/jolt-stream-http-auth");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a misspelt field                     | '          readinessProbe:'           | '          readinesProbe:'                         | readinesProbe
            a field of another object            | '  serviceName: jolt-stream-headless' | '  serviceName: jolt-stream-headless\\n  clusterIP: None' | clusterIP
            a string where an int32 is           | '  replicas: 3'                       | '  replicas: "3"'                                 | Cannot coerce String
            a number where a string is           | '              value: /dev/null'      | '              value: 0'                          | Cannot coerce Integer
            a fraction where an int32 is         | '              containerPort: 8080'   | '              containerPort: 8080.5'             | Cannot coerce Floating-point
            a string where a boolean is          | '        runAsNonRoot: true'          | '        runAsNonRoot: "true"'                     | Boolean
            a string where a list is             | 'args: ["run", "--config", "/etc/jolt-stream/jolt.properties"]' | 'args: run' | ArrayList
            a key given twice                    | '  replicas: 3'                       | '  replicas: 3\\n  replicas: 5'                    | Duplicate field
            an apiVersion the kind no longer has | 'apiVersion: policy/v1'               | 'apiVersion: policy/v1beta1'                      | policy/v1beta1 PodDisruptionBudget
            """)
    void aManifestWithAMistakeIsRefused(String mistake, String right, String wrong, String refusal) throws IOException {
        // given jolt-stream.yaml, which is read, and the same with one mistake (the table's \n: a new line)
        String manifest = text(SERVICE);
        assertThat(parse(manifest)).isNotEmpty();
        assertThat(manifest).as("the text the mistake replaces").contains(right);
        String mistaken = manifest.replaceFirst(Pattern.quote(right), Matcher.quoteReplacement(wrong.replace("\\n", "\n")));
        // expect the mistaken one refused, for that mistake
        assertThatThrownBy(() -> parse(mistaken)).as(mistake)
                .isInstanceOfAny(JacksonException.class, com.fasterxml.jackson.core.JacksonException.class,
                        com.fasterxml.jackson.databind.RuntimeJsonMappingException.class, IllegalArgumentException.class)
                .hasMessageContaining(refusal);
    }

    @Test
    void aMisspeltFieldIsRefusedByItsNameWhereTheModelAloneWouldKeepIt() throws IOException {
        // given a probe whose field is misspelt
        String mistaken = text(SERVICE).replaceFirst("periodSeconds: 5", "periodSecond: 5");
        // expect the refusal to name the field and the class that does not have it
        assertThatThrownBy(() -> parse(mistaken)).isInstanceOf(UnrecognizedPropertyException.class)
                .hasMessageContaining("periodSecond").hasMessageContaining("Probe");
        // where a mapper as fabric8's classes come would have kept it aside, in their @JsonAnySetter map
        ConfigMap kept = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
                .readValue("{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"x\"}, \"dataa\": {}}", ConfigMap.class);
        assertThat(kept.getAdditionalProperties()).containsKey("dataa");
    }

    // --- the service: jolt-stream.yaml

    @Test
    void theStatefulSetIsGovernedByTheHeadlessServiceAndEachPodAdvertisesItsNameUnderIt() throws IOException {
        // given the StatefulSet, its two Services and its container
        StatefulSet set = one(SERVICE, StatefulSet.class, "jolt-stream");
        Service headless = one(SERVICE, Service.class, set.getSpec().getServiceName());
        Service client = one(SERVICE, Service.class, "jolt-stream");
        Map<String, String> podLabels = set.getSpec().getTemplate().getMetadata().getLabels();
        Container jolt = container(set.getSpec().getTemplate().getSpec(), "jolt-stream");
        Properties config = properties(one(SERVICE, ConfigMap.class, "jolt-stream-config"), "jolt.properties");

        // expect three instances, governed by a headless Service that publishes pods before they are Ready
        assertThat(set.getSpec().getReplicas()).isEqualTo(3);
        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(podLabels).containsAllEntriesOf(headless.getSpec().getSelector()).containsAllEntriesOf(set.getSpec().getSelector().getMatchLabels());
        // and a client Service, with an address of its own, in front of the same pods
        assertThat(client.getSpec().getClusterIP()).isNull();
        assertThat(podLabels).containsAllEntriesOf(client.getSpec().getSelector());

        // expect application.server: the pod's name under the headless Service, at the HTTP port
        int httpPort = Integer.parseInt(config.getProperty(JoltConfig.HTTP_PORT));
        assertThat(port(jolt, new IntOrString("http"))).isEqualTo(httpPort);
        assertThat(headless.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getPort()).isEqualTo(httpPort));
        String server = env(jolt, "JOLT_APPLICATION_SERVER").getValue();
        assertThat(server).isEqualTo("$(POD_NAME)." + headless.getMetadata().getName() + ".$(POD_NAMESPACE).svc.cluster.local:" + httpPort);
        // from the downward API, defined before it (the kubelet expands only variables defined earlier)
        assertThat(env(jolt, "POD_NAME").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        assertThat(env(jolt, "POD_NAMESPACE").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
        assertThat(envIndex(jolt, "POD_NAME")).isLessThan(envIndex(jolt, "JOLT_APPLICATION_SERVER"));
        assertThat(envIndex(jolt, "POD_NAMESPACE")).isLessThan(envIndex(jolt, "JOLT_APPLICATION_SERVER"));
        // a host:port as Kafka Streams reads it, once expanded; and not one left in the file to contradict it
        HostInfo expanded = HostInfo.buildFromEndpoint(expand(server, Map.of("POD_NAME", "jolt-stream-0", "POD_NAMESPACE", "jolt")));
        assertThat(expanded.host()).isEqualTo("jolt-stream-0.jolt-stream-headless.jolt.svc.cluster.local");
        assertThat(config).doesNotContainKey(StreamsConfig.APPLICATION_SERVER_CONFIG);
        // listening on every address of the pod, so that the probes and the Services reach it
        assertThat(config.getProperty(JoltConfig.HTTP_HOST)).isEqualTo("0.0.0.0");
    }

    @Test
    void theStateDirectoryIsOnEachPodsOwnVolume() throws IOException {
        // given the StatefulSet, its container and its configuration
        StatefulSet set = one(SERVICE, StatefulSet.class, "jolt-stream");
        PodSpec pod = set.getSpec().getTemplate().getSpec();
        Container jolt = container(pod, "jolt-stream");
        ConfigMap configMap = one(SERVICE, ConfigMap.class, "jolt-stream-config");
        Properties config = properties(configMap, "jolt.properties");

        // expect state.dir under the mount of a volume claim template: one volume per pod, kept across restarts
        String stateDir = config.getProperty(StreamsConfig.STATE_DIR_CONFIG);
        VolumeMount mount = mountHolding(jolt, stateDir);
        assertThat(set.getSpec().getVolumeClaimTemplates()).extracting(c -> c.getMetadata().getName()).contains(mount.getName());
        assertThat(pod.getVolumes()).extracting(Volume::getName).doesNotContain(mount.getName());
        PersistentVolumeClaim claim = set.getSpec().getVolumeClaimTemplates().stream()
                .filter(c -> c.getMetadata().getName().equals(mount.getName())).findFirst().orElseThrow();
        assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
        assertThat(bytes(claim.getSpec().getResources().getRequests().get("storage"))).isGreaterThanOrEqualTo(1L << 30);
        assertThat(mount.getReadOnly()).isNotEqualTo(Boolean.TRUE);

        // and the --config file is the ConfigMap's, mounted where the command looks for it
        String file = option(jolt, "--config");
        assertThat(jolt.getArgs().get(0)).isEqualTo("run");
        VolumeMount configMount = mountHolding(jolt, file);
        assertThat(volume(pod, configMount.getName()).getConfigMap().getName()).isEqualTo(configMap.getMetadata().getName());
        assertThat(configMap.getData()).containsKey(Path.of(configMount.getMountPath()).relativize(Path.of(file)).toString());
    }

    @Test
    void theConfigurationIsOneTheServiceAndKafkaStreamsAccept() throws IOException {
        // given the service's properties and the variables of its container (literal ones, and the example Secret's)
        Properties config = properties(one(SERVICE, ConfigMap.class, "jolt-stream-config"), "jolt.properties");
        Container jolt = container(one(SERVICE, StatefulSet.class, "jolt-stream").getSpec().getTemplate().getSpec(), "jolt-stream");
        Map<String, String> environment = new LinkedHashMap<>();
        for (EnvVar e : jolt.getEnv()) {
            if (e.getValue() != null) {
                environment.put(e.getName(), expand(e.getValue(), environment));
            } else if (e.getValueFrom().getSecretKeyRef() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                environment.put(e.getName(), one(SECRETS, Secret.class, ref.getName()).getStringData().get(ref.getKey()));
            } else {
                environment.put(e.getName(), Map.of("metadata.name", "jolt-stream-0", "metadata.namespace", "jolt")
                        .get(e.getValueFrom().getFieldRef().getFieldPath()));
            }
        }

        // expect every jolt.* key one of JoltSettings' (its ConfigDef names) or the bolt producers' prefix
        for (String key : config.stringPropertyNames()) {
            if (key.startsWith(JoltSettings.NAMESPACE) && !key.startsWith(JoltConfig.BOLT_PRODUCER_PREFIX)) {
                assertThat(JoltSettings.DEFINITION.names()).as("a setting of the service").contains(key);
            }
        }
        // and the whole read as `jolt run` reads it (types, ranges, user:password), then by Kafka Streams
        JoltConfig joltConfig = JoltConfig.of(config, environment);
        StreamsConfig streams = new StreamsConfig(joltConfig.streamsProperties());
        assertThat(streams.getInt(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).as("a warm standby of every store").isEqualTo(1);
        assertThat(streams.getString(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
        assertThat(joltConfig.get(StreamsConfig.APPLICATION_SERVER_CONFIG)).isEqualTo("jolt-stream-0.jolt-stream-headless.jolt.svc.cluster.local:8080");
        assertThat(joltConfig.get("jolt.http.auth.token")).isNotBlank();
        // partitions chosen before the first start, as many as archive-topic.sh gives the archive
        assertThat(joltConfig.topicPartitions()).isEqualTo(12);
        assertThat(Files.readString(Path.of("deploy", "production", "archive-topic.sh"))).contains("--partitions 12");
    }

    @Test
    void probesAskWhetherTheProcessLivesAndWhetherItIsReadyAtItsOwnPort() throws IOException {
        // given the service's and the archive service's containers, and the ports they listen on
        Container jolt = container(one(SERVICE, StatefulSet.class, "jolt-stream").getSpec().getTemplate().getSpec(), "jolt-stream");
        Container archive = container(one(ARCHIVE, StatefulSet.class, "jolt-archive").getSpec().getTemplate().getSpec(), "jolt-archive");
        int joltPort = Integer.parseInt(properties(one(SERVICE, ConfigMap.class, "jolt-stream-config"), "jolt.properties")
                .getProperty(JoltConfig.HTTP_PORT));
        int archivePort = Integer.parseInt(option(archive, "--port"));

        for (var c : Map.of(jolt, joltPort, archive, archivePort).entrySet()) {
            Container container = c.getKey();
            int listening = c.getValue();
            // expect liveness (and the start) on /health/live, readiness on /health/ready, at the port it listens on
            assertThat(probe(container, container.getStartupProbe())).isEqualTo("/health/live :" + listening);
            assertThat(probe(container, container.getLivenessProbe())).isEqualTo("/health/live :" + listening);
            assertThat(probe(container, container.getReadinessProbe())).isEqualTo("/health/ready :" + listening);
            // a restart waits for several failed answers, never one slow one
            assertThat(container.getLivenessProbe().getFailureThreshold()).isGreaterThanOrEqualTo(3);
            assertThat(container.getStartupProbe().getFailureThreshold() * container.getStartupProbe().getPeriodSeconds())
                    .as("seconds a JVM has to start").isGreaterThanOrEqualTo(60);
        }
    }

    static String probe(Container container, Probe probe) {
        assertThat(probe).as(container.getName()).isNotNull();
        HTTPGetAction get = probe.getHttpGet();
        assertThat(get.getScheme()).as("plain HTTP, as the manifests configure no TLS").isIn(null, "HTTP");
        return get.getPath() + " :" + port(container, get.getPort());
    }

    @Test
    void thePodDisruptionBudgetLetsOneInstanceGoAtATime() throws IOException {
        // given the budget and the StatefulSet's pods
        PodDisruptionBudget budget = one(SERVICE, PodDisruptionBudget.class, "jolt-stream");
        StatefulSet set = one(SERVICE, StatefulSet.class, "jolt-stream");
        // expect one at a time, of exactly the StatefulSet's pods
        assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(budget.getSpec().getMinAvailable()).isNull();
        assertThat(budget.getSpec().getSelector()).isEqualTo(set.getSpec().getSelector());
        assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(budget.getSpec().getSelector().getMatchLabels());
    }

    @Test
    void theMemoryLimitHoldsTheHeapTheRocksDbBudgetAndRoomForTheRestOfTheJvm() throws IOException {
        // given each service container, its heap and its RocksDB budget
        Container jolt = container(one(SERVICE, StatefulSet.class, "jolt-stream").getSpec().getTemplate().getSpec(), "jolt-stream");
        Container archive = container(one(ARCHIVE, StatefulSet.class, "jolt-archive").getSpec().getTemplate().getSpec(), "jolt-archive");
        Properties joltConfig = properties(one(SERVICE, ConfigMap.class, "jolt-stream-config"), "jolt.properties");
        Properties archiveConfig = properties(one(ARCHIVE, ConfigMap.class, "jolt-archive-config"), "client.properties");

        for (var c : Map.of(jolt, joltConfig, archive, archiveConfig).entrySet()) {
            Container container = c.getKey();
            long heap = maxHeap(env(container, "JDK_JAVA_OPTIONS").getValue());
            long rocksDb = Long.parseLong(c.getValue().getProperty(JoltConfig.ROCKSDB_CACHE_BYTES));
            long limit = bytes(container.getResources().getLimits().get("memory"));
            // expect heap + RocksDB + at least 512 MiB within the limit, and as much requested (memory is not given back)
            assertThat(limit).as(container.getName()).isGreaterThanOrEqualTo(heap + rocksDb + (512L << 20));
            assertThat(bytes(container.getResources().getRequests().get("memory"))).as(container.getName()).isEqualTo(limit);
            // and the write buffers inside the cache they are charged to
            assertThat(Long.parseLong(c.getValue().getProperty(JoltConfig.ROCKSDB_WRITE_BUFFER_BYTES))).isLessThan(rocksDb);
        }
        // a requested core for each stream thread
        BigDecimal cores = Quantity.getAmountInBytes(jolt.getResources().getRequests().get("cpu"));
        assertThat(cores).isGreaterThanOrEqualTo(new BigDecimal(joltConfig.getProperty(StreamsConfig.NUM_STREAM_THREADS_CONFIG)));
    }

    // --- the archive service: jolt-archive.yaml

    @Test
    void theArchiveServiceKeepsItsIndexOnItsOwnVolumeAndIsReachedByItsPodsName() throws IOException {
        // given the archive's StatefulSet, Services, configuration and container
        StatefulSet set = one(ARCHIVE, StatefulSet.class, "jolt-archive");
        PodSpec pod = set.getSpec().getTemplate().getSpec();
        Container archive = container(pod, "jolt-archive");
        Service headless = one(ARCHIVE, Service.class, set.getSpec().getServiceName());
        Service client = one(ARCHIVE, Service.class, "jolt-archive");
        ConfigMap configMap = one(ARCHIVE, ConfigMap.class, "jolt-archive-config");

        // expect `jolt archive serve` with its index under a volume claim template's mount
        assertThat(archive.getArgs().subList(0, 2)).containsExactly("archive", "serve");
        VolumeMount index = mountHolding(archive, option(archive, "--state-dir"));
        assertThat(set.getSpec().getVolumeClaimTemplates()).extracting(c -> c.getMetadata().getName()).contains(index.getName());
        assertThat(set.getSpec().getVolumeClaimTemplates()).extracting(c -> c.getMetadata().getName()).doesNotContain("state");

        // and its --host (where it listens, and its application.server) the pod's name under the headless Service
        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(option(archive, "--host")).isEqualTo("$(POD_NAME)." + headless.getMetadata().getName() + ".$(POD_NAMESPACE).svc.cluster.local");
        assertThat(env(archive, "POD_NAME").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        assertThat(env(archive, "POD_NAMESPACE").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
        assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(client.getSpec().getSelector());
        int port = Integer.parseInt(option(archive, "--port"));
        assertThat(port(archive, new IntOrString("http"))).isEqualTo(port);

        // the bootstrap from the ConfigMap, and a client configuration Kafka Streams accepts: its jolt.* keys
        // the service's, its config setter a class that loads
        assertThat(option(archive, "--bootstrap")).isEqualTo("$(KAFKA_BOOTSTRAP)");
        var bootstrapRef = env(archive, "KAFKA_BOOTSTRAP").getValueFrom().getConfigMapKeyRef();
        assertThat(configMap.getData()).containsKey(bootstrapRef.getKey());
        String clientConfig = option(archive, "--client-config");
        VolumeMount configMount = mountHolding(archive, clientConfig);
        assertThat(volume(pod, configMount.getName()).getConfigMap().getName()).isEqualTo(configMap.getMetadata().getName());
        Properties clients = properties(configMap, Path.of(configMount.getMountPath()).relativize(Path.of(clientConfig)).toString());
        clients.stringPropertyNames().stream().filter(k -> k.startsWith(JoltSettings.NAMESPACE))
                .forEach(k -> assertThat(JoltSettings.DEFINITION.names()).as("a setting of the service").contains(k));
        clients.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, configMap.getData().get(bootstrapRef.getKey()));
        clients.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, "jolt-archive");
        assertThat(new StreamsConfig(clients).getClass(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG).getName())
                .isEqualTo("io.jolt.stream.processor.BoundedRocksDbMemory");
    }

    // --- the Connect worker: jolt-connect.yaml

    @Test
    void theConnectWorkerRunsConnectorsWorkerPropertiesWithThePluginOnItsPath() throws IOException {
        // given the worker's Deployment, configuration and the repository's worker.properties
        Deployment deployment = one(CONNECT, Deployment.class, "jolt-connect");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container connect = container(pod, "connect");
        ConfigMap workerMap = one(CONNECT, ConfigMap.class, "jolt-connect-worker");
        Properties worker = properties(workerMap, "worker.properties");
        Properties repository = properties(Files.readString(Path.of("connectors", "worker.properties")));

        // expect a distributed worker reading the ConfigMap's file
        String file = connect.getCommand().get(1);
        assertThat(connect.getCommand().get(0)).endsWith("/connect-distributed.sh");
        VolumeMount workerMount = mountHolding(connect, file);
        assertThat(volume(pod, workerMount.getName()).getConfigMap().getName()).isEqualTo(workerMap.getMetadata().getName());
        // with every setting of connectors/worker.properties, the same but where a pod differs
        assertThat(worker.stringPropertyNames()).containsAll(repository.stringPropertyNames());
        Set<String> differ = Set.of("bootstrap.servers", "listeners", "plugin.path", "config.providers");
        for (String key : repository.stringPropertyNames()) {
            if (!differ.contains(key)) {
                assertThat(worker.getProperty(key)).as(key).isEqualTo(repository.getProperty(key));
            }
        }
        assertThat(worker.getProperty("exactly.once.source.support")).isEqualTo("enabled");
        // the REST API on every address, at the container's port, which the probes ask (/health, KIP-1017)
        assertThat(worker.getProperty("listeners")).isEqualTo("http://0.0.0.0:" + port(connect, new IntOrString("rest")));
        for (Probe probe : List.of(connect.getStartupProbe(), connect.getLivenessProbe(), connect.getReadinessProbe())) {
            assertThat(probe.getHttpGet().getPath()).isEqualTo("/health");
            assertThat(port(connect, probe.getHttpGet().getPort())).isEqualTo(port(connect, new IntOrString("rest")));
        }
        // advertising the pod's IP, which the env provider reads from the downward API
        assertThat(worker.getProperty("rest.advertised.host.name")).isEqualTo("${env:POD_IP}");
        assertThat(worker.getProperty("config.providers").split(",")).contains("file", "env");
        assertThat(worker.getProperty("config.providers.env.class")).isEqualTo("org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        assertThat(env(connect, "POD_IP").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("status.podIP");

        // and plugin.path the volume the init container fills from the service's image
        String pluginPath = worker.getProperty("plugin.path");
        VolumeMount plugins = mountHolding(connect, pluginPath);
        assertThat(plugins.getMountPath()).isEqualTo(pluginPath);
        assertThat(volume(pod, plugins.getName()).getEmptyDir()).isNotNull();
        Container init = pod.getInitContainers().get(0);
        VolumeMount filled = init.getVolumeMounts().stream().filter(m -> m.getName().equals(plugins.getName())).findFirst().orElseThrow();
        assertThat(init.getCommand()).containsExactly("cp", "-R", "/opt/connect-plugins/.", filled.getMountPath() + "/");
        assertThat(init.getImage()).isEqualTo(container(one(SERVICE, StatefulSet.class, "jolt-stream").getSpec().getTemplate().getSpec(), "jolt-stream").getImage());
        assertThat(Files.readString(DIR.resolve("Dockerfile"))).contains("/opt/connect-plugins/");
    }

    @Test
    void theConnectorConfigurationIsOneTheConnectorKnowsAndReadsFilesTheWorkersMount() throws IOException {
        // given the connector's configuration as POST /connectors takes it, and the worker's pod
        ConfigMap connectorMap = one(CONNECT, ConfigMap.class, "jolt-connect-connector");
        JsonNode posted = STRICT.readTree(connectorMap.getData().get("jolt-sync-partners.json"));
        Map<String, String> config = new LinkedHashMap<>();
        posted.path("config").properties().forEach(e -> config.put(e.getKey(), e.getValue().asString()));
        Deployment deployment = one(CONNECT, Deployment.class, "jolt-connect");
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container connect = container(pod, "connect");

        // expect the connector's class, converters that pass its bytes through, and only jolt.sync.* keys it defines
        assertThat(posted.path("name").asString()).isEqualTo("jolt-sync-partners");
        assertThat(config.get("connector.class")).isEqualTo(JoltSyncSourceConnector.class.getName());
        assertThat(config.get("key.converter")).isEqualTo("org.apache.kafka.connect.storage.StringConverter");
        assertThat(config.get("value.converter")).isEqualTo("org.apache.kafka.connect.converters.ByteArrayConverter");
        Set<String> defined = new JoltSyncSourceConnector().config().names();
        config.keySet().stream().filter(k -> k.startsWith("jolt.")).forEach(k -> assertThat(defined).as("a setting of the connector").contains(k));

        // the identities file in every worker, from the same ConfigMap
        String identities = config.get("jolt.sync.identities.file");
        VolumeMount identitiesMount = mountHolding(connect, identities);
        Volume identitiesVolume = volume(pod, identitiesMount.getName());
        assertThat(identitiesVolume.getConfigMap().getName()).isEqualTo(connectorMap.getMetadata().getName());
        String identitiesKey = Path.of(identitiesMount.getMountPath()).relativize(Path.of(identities)).toString();
        assertThat(identitiesVolume.getConfigMap().getItems()).anySatisfy(i -> assertThat(i.getPath()).isEqualTo(identitiesKey));
        assertThat(identitiesMount.getSubPath()).as("a subPath mount never sees the ConfigMap change").isNull();

        // and the token through the FileConfigProvider, from a file of the Secret the workers mount
        Matcher reference = Pattern.compile("\\$\\{file:([^:]+):([^}]+)}").matcher(config.get("jolt.sync.auth.token"));
        assertThat(reference.matches()).isTrue();
        VolumeMount secretMount = mountHolding(connect, reference.group(1));
        Secret secret = one(SECRETS, Secret.class, volume(pod, secretMount.getName()).getSecret().getSecretName());
        String secretFile = secret.getStringData().get(Path.of(secretMount.getMountPath()).relativize(Path.of(reference.group(1))).toString());
        assertThat(properties(secretFile)).containsKey(reference.group(2));
    }

    // --- across the manifests

    @Test
    void everyConfigMapAndSecretAPodReadsIsDefinedWithTheKeysItReads() throws IOException {
        // given every object of the manifests, by kind and name
        Map<String, Map<String, String>> defined = new HashMap<>();
        for (String manifest : List.of(SERVICE, ARCHIVE, CONNECT, SECRETS)) {
            for (HasMetadata o : manifest(manifest)) {
                if (o instanceof ConfigMap m) {
                    defined.put("ConfigMap/" + m.getMetadata().getName(), m.getData());
                } else if (o instanceof Secret s) {
                    defined.put("Secret/" + s.getMetadata().getName(), s.getStringData());
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (PodSpec pod : podSpecs()) {
            for (Volume v : pod.getVolumes()) {
                if (v.getConfigMap() != null) {
                    String name = "ConfigMap/" + v.getConfigMap().getName();
                    need(defined, name, null, missing);
                    v.getConfigMap().getItems().forEach(i -> need(defined, name, i.getKey(), missing));
                }
                if (v.getSecret() != null) {
                    need(defined, "Secret/" + v.getSecret().getSecretName(), null, missing);
                }
            }
            for (Container c : Stream.concat(pod.getContainers().stream(), pod.getInitContainers().stream()).toList()) {
                for (EnvVar e : c.getEnv()) {
                    if (e.getValueFrom() != null && e.getValueFrom().getConfigMapKeyRef() != null) {
                        need(defined, "ConfigMap/" + e.getValueFrom().getConfigMapKeyRef().getName(), e.getValueFrom().getConfigMapKeyRef().getKey(), missing);
                    }
                    if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                        need(defined, "Secret/" + e.getValueFrom().getSecretKeyRef().getName(), e.getValueFrom().getSecretKeyRef().getKey(), missing);
                    }
                }
            }
        }
        // expect none missing
        assertThat(missing).isEmpty();
    }

    static void need(Map<String, Map<String, String>> defined, String object, String key, List<String> missing) {
        if (!defined.containsKey(object)) {
            missing.add(object);
        } else if (key != null && !defined.get(object).containsKey(key)) {
            missing.add(object + " key " + key);
        }
    }

    @Test
    void everyContainerRunsUnprivilegedWithBoundedResources() throws IOException {
        // given the image's user, as the Dockerfile makes it
        String dockerfile = Files.readString(DIR.resolve("Dockerfile"));
        assertThat(dockerfile).contains("FROM eclipse-temurin:17-jre").contains("USER 10001:10001")
                .contains("COPY target/jolt.jar /opt/jolt-stream/jolt.jar")
                .contains("ENTRYPOINT [\"java\", \"-jar\", \"/opt/jolt-stream/jolt.jar\"]");
        for (PodSpec pod : podSpecs()) {
            // expect a non-root user, no privilege to gain, no capability, and limits on every container
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
            for (Container c : Stream.concat(pod.getContainers().stream(), pod.getInitContainers().stream()).toList()) {
                assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
                assertThat(c.getSecurityContext().getCapabilities().getDrop()).as(c.getName()).containsExactly("ALL");
                assertThat(c.getResources().getLimits()).as(c.getName()).containsKeys("cpu", "memory");
                assertThat(c.getResources().getRequests()).as(c.getName()).containsKeys("cpu", "memory");
                Stream.of(c.getResources().getLimits(), c.getResources().getRequests()).flatMap(m -> m.values().stream())
                        .forEach(q -> assertThat(Quantity.getAmountInBytes(q)).as(c.getName() + " " + q).isPositive());
                if (c.getImage().contains("/jolt-stream:")) {
                    // the service's image writes nothing outside its volumes
                    assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).as(c.getName()).isTrue();
                }
            }
            for (Container c : pod.getContainers()) {
                if (c.getImage().contains("/jolt-stream:")) {
                    // its own user, a writable /tmp for the native libraries it unpacks, and the console for its log
                    assertThat(pod.getSecurityContext().getRunAsUser()).as(c.getName()).isEqualTo(10001L);
                    assertThat(c.getVolumeMounts()).extracting(VolumeMount::getMountPath).as(c.getName()).contains("/tmp");
                    assertThat(env(c, "JOLT_LOG_FILE").getValue()).isEqualTo("/dev/null");
                }
            }
        }
    }
}
