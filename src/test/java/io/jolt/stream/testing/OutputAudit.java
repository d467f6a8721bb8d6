package io.jolt.stream.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.ArchiveLossKind;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.avro.Hash32;
import io.jolt.stream.avro.HeadRef;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.processor.MergedTable;
import io.jolt.stream.processor.TopologyFixture.IdentityPath;
import io.jolt.stream.protocol.AuthorityFork;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.Uint64;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a fault test checks once the service has committed all its input, in the manner of Kafka's
 * own EOS system test: the outputs, read_committed, against the protocol core's merge of the same
 * input.
 *
 * <ul>
 *   <li>the merged state equals the merge;
 *   <li>no output record is doubled (a state change or a path's conflict repeated for its key, an
 *       equivocation or a rejection reported twice);
 *   <li>no verdict of the merge is missing from the outputs: every rejection row has a rejected
 *       record, every equivocation and authority fork an event, and every path left in conflict a
 *       CONCURRENT_HEADS event, the last of which names its losing heads;
 *   <li>every entry eligible in the merge is in the archive or named LOST on the losses topic, and
 *       the losses topic names exactly as many as the test expects, for the reason it gives;
 *   <li>the archive's repeats (at-least-once, deduplicated by dot by its readers) are counted, not
 *       forbidden.
 * </ul>
 */
public record OutputAudit(int inputRecords, boolean stateEqual, int stateDuplicates, int conflicts, int conflictDuplicates,
                          int rejections, int undecodable, int rejectionDuplicates, Verdicts verdicts, List<String> unreported,
                          int eligible, int archiveMissing, int lossesNamed, int degradedNamed, int archiveOperations, int archiveDuplicates) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * How many writes a test expects named {@code LOST} on {@code jolt.archive.losses.v2} after its
     * fault, and why that many: a bolt that named every write lost would otherwise pass as "nothing
     * missing". {@code DEGRADED_DURABILITY} reports (the write landed, without the replicas'
     * promise) are allowed only when {@code degradedWhy} says why the fault may cause them.
     */
    public record ExpectedLosses(int named, String why, String degradedWhy) {
        public static ExpectedLosses none(String why) {
            return new ExpectedLosses(0, why, null);
        }

        /** The same, allowing writes reported as landed with degraded durability, for the reason given. */
        public ExpectedLosses orDegraded(String because) {
            return new ExpectedLosses(named, why, because);
        }
    }

    /** The verdicts of the core's merge the outputs must carry, by kind. */
    public record Verdicts(int rejections, int equivocations, int authorityForks, int conflictedPaths) {
        int total() {
            return rejections + equivocations + authorityForks + conflictedPaths;
        }
    }

    public static OutputAudit of(StreamHarness harness, SchemaRegistry registry, List<?> input) {
        List<MergedState> merge = coreMerge(input);
        Map<IdentityPath, Resolution> expected = MergedTable.of(input);
        boolean stateEqual = harness.stateTable(registry).equals(expected);
        int stateDuplicates = repeatedForItsKey(raw(harness, Topics.STATE));

        ConfluentAvroSerde<ConflictEvent> conflictSerde = new ConfluentAvroSerde<>(registry, ConflictEvent.getClassSchema());
        List<ConflictEvent> conflicts = raw(harness, Topics.CONFLICTS).stream().map(r -> conflictSerde.deserialize(r.topic(), r.value())).toList();
        List<ConsumerRecord<byte[], byte[]>> rawRejected = raw(harness, Topics.REJECTED);
        ConfluentAvroSerde<RejectedRecord> rejectedSerde = new ConfluentAvroSerde<>(registry, RejectedRecord.getClassSchema());
        List<RejectedRecord> rejected = rawRejected.stream().map(r -> rejectedSerde.deserialize(r.topic(), r.value())).toList();
        int undecodable = (int) rejected.stream().filter(r -> r.getReason() == RejectionKind.UNDECODABLE).count();

        List<String> operations = new ArrayList<>();
        ConfluentAvroSerde<ArchiveRecord> archive = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
        raw(harness, Topics.ARCHIVE).forEach(r -> {
            ArchiveRecord a = archive.deserialize(r.topic(), r.value());
            operations.add(dot(a.getIdentity(), a.getDeviceId(), Uint64.unsigned(a.getDeviceSequence(), "device_sequence"), a.getEntryHash().bytes()) + "/" + a.getKind());
        });
        ConfluentAvroSerde<ArchiveLoss> lossSerde = new ConfluentAvroSerde<>(registry, ArchiveLoss.getClassSchema());
        List<ArchiveLoss> losses = raw(harness, Topics.ARCHIVE_LOSSES).stream().map(r -> lossSerde.deserialize(r.topic(), r.value())).toList();
        // A DEGRADED_DURABILITY report says the write landed: only a LOST one excuses an entry missing from the archive.
        Set<String> namedLost = new HashSet<>();
        losses.stream().filter(l -> l.getKind() == ArchiveLossKind.LOST).forEach(l -> namedLost.add(
                dot(l.getIdentity(), l.getDeviceId(), Uint64.unsigned(l.getDeviceSequence(), "device_sequence"), l.getEntryHash().bytes())));
        Set<String> archived = new HashSet<>();
        operations.forEach(o -> archived.add(o.substring(0, o.lastIndexOf('/'))));
        Set<String> eligible = eligibleIn(merge);
        Set<String> missing = new HashSet<>(eligible);
        missing.removeAll(archived);
        missing.removeAll(namedLost);
        return new OutputAudit(input.size(), stateEqual, stateDuplicates, conflicts.size(), repeatedConflicts(conflicts), rejected.size(), undecodable,
                distinctRepeats(rawRejected), verdicts(merge), unreported(merge, conflicts, rejected), eligible.size(), missing.size(),
                (int) losses.stream().filter(l -> l.getKind() == ArchiveLossKind.LOST).count(),
                (int) losses.stream().filter(l -> l.getKind() == ArchiveLossKind.DEGRADED_DURABILITY).count(), operations.size(), operations.size() - new HashSet<>(operations).size());
    }

    /**
     * Nothing lost, nothing doubled, nothing left unreported, and exactly the losses the test
     * expects named; archive repeats allowed (and reported by {@link #row}).
     */
    public OutputAudit assertClean(ExpectedLosses expected) {
        assertThat(stateEqual).as("merged state equals the core's merge of all input: " + this).isTrue();
        assertThat(stateDuplicates).as("state changes repeated for their key").isZero();
        assertThat(conflictDuplicates).as("conflict events reported twice").isZero();
        assertThat(rejectionDuplicates).as("rejections reported twice").isZero();
        assertThat(verdicts.rejections()).as("the scenario's merge has rejection rows to report").isPositive();
        assertThat(verdicts.conflictedPaths()).as("the scenario's merge has paths in conflict to report").isPositive();
        assertThat(unreported).as("verdicts of the core's merge missing from jolt.conflicts.v2 and jolt.rejected.v2 (first 10 of %d): %s",
                unreported.size(), unreported.subList(0, Math.min(10, unreported.size()))).isEmpty();
        assertThat(eligible).as("the scenario has eligible entries").isPositive();
        assertThat(archiveMissing).as("eligible entries neither archived nor named as lost").isZero();
        assertThat(lossesNamed).as("writes named LOST on jolt.archive.losses.v2, expected because " + expected.why()).isEqualTo(expected.named());
        if (expected.degradedWhy() == null) {
            assertThat(degradedNamed).as("writes reported DEGRADED_DURABILITY, none expected because " + expected.why()).isZero();
        }
        return this;
    }

    /** A row of the Reliability table (src/site/markdown/testing.md). */
    public String row(String fault, String inFlight) {
        String named = degradedNamed == 0 ? String.format("%,d", lossesNamed) : String.format("%,d (+%,d degraded)", lossesNamed, degradedNamed);
        return String.format("| %s | %,d | %s | %s | %d | %,d of %,d | %s of %,d | %,d |", fault, inputRecords, inFlight, stateEqual ? "yes" : "NO",
                stateDuplicates + conflictDuplicates + rejectionDuplicates, verdicts.total() - unreported.size(), verdicts.total(), named,
                eligible, archiveDuplicates);
    }

    private static List<ConsumerRecord<byte[], byte[]>> raw(StreamHarness harness, String topic) {
        return harness.readAll(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A state change equal to the one before it for the same key changes nothing: it was emitted twice. */
    private static int repeatedForItsKey(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, String> last = new HashMap<>();
        int repeats = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String value = Hex.encode(r.value());
            if (value.equals(last.put(Hex.encode(r.key()), value))) {
                repeats++;
            }
        }
        return repeats;
    }

    /**
     * Conflict events reported twice: an equivocation is reported once ever; a path's set of
     * losing heads is reported when it changes, so the same set may come back after another
     * (arrival order decides), but never twice in a row.
     */
    private static int repeatedConflicts(List<ConflictEvent> events) {
        Set<ConflictEvent> equivocations = new HashSet<>();
        Map<String, ConflictEvent> lastForPath = new HashMap<>();
        int repeats = 0;
        for (ConflictEvent e : events) {
            boolean repeated = e.getKind() == ConflictKind.EQUIVOCATION
                    ? !equivocations.add(e)
                    : e.equals(lastForPath.put(e.getIdentity() + "\u0000" + e.getPath(), e));
            repeats += repeated ? 1 : 0;
        }
        return repeats;
    }

    /** Records whose key and value both equal an earlier one's. */
    private static int distinctRepeats(List<ConsumerRecord<byte[], byte[]>> records) {
        Set<String> seen = new HashSet<>();
        int repeats = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (!seen.add(Hex.encode(r.key() == null ? new byte[0] : r.key()) + ":" + Hex.encode(r.value()))) {
                repeats++;
            }
        }
        return repeats;
    }

    private static Verdicts verdicts(List<MergedState> merge) {
        int rows = 0;
        int equivocations = 0;
        int forks = 0;
        int conflicted = 0;
        for (MergedState state : merge) {
            rows += state.rejected().size();
            equivocations += state.equivocations().size();
            forks += state.authority().forks().size();
            conflicted += (int) state.singletons().stream().filter(s -> !s.conflicts().isEmpty()).count();
        }
        return new Verdicts(rows, equivocations, forks, conflicted);
    }

    /**
     * The final verdicts of the merge that the outputs do not carry. Rejected records and
     * equivocation and fork events are verdicts as records arrived (an entry of an unknown device
     * is reported so, and may be eligible once its Authorize arrives), so each final one must
     * appear at least once, and earlier ones are no error. A path's CONCURRENT_HEADS event is
     * emitted whenever its set of losing heads changes, so the last one must name the final set
     * (not necessarily the final winner: a new winner that leaves the same heads losing is a state
     * change, not a conflict event).
     */
    private static List<String> unreported(List<MergedState> merge, List<ConflictEvent> events, List<RejectedRecord> rejected) {
        Set<String> reportedRows = new HashSet<>();
        rejected.forEach(r -> reportedRows.add(rowKey(r.getIdentity(), r.getReason().name(), r.getDeviceId(),
                r.getDeviceSequence() == null ? null : Uint64.unsigned(r.getDeviceSequence(), "device_sequence"),
                r.getEntryHash() == null ? null : r.getEntryHash().bytes())));
        Set<String> reportedEvidence = new HashSet<>();
        Map<IdentityPath, ConflictEvent> lastForPath = new HashMap<>();
        for (ConflictEvent e : events) {
            switch (e.getKind()) {
                case EQUIVOCATION -> reportedEvidence.add(equivocationKey(e.getIdentity(), e.getDeviceId(), sequence(e.getDeviceSequence()),
                        e.getEntryHashes().stream().map(h -> Hex.encode(h.bytes())).toList()));
                case AUTHORITY_FORK -> reportedEvidence.add(forkKey(e.getIdentity(), sequence(e.getAuthoritySequence()),
                        e.getEntryHashes().stream().map(h -> Hex.encode(h.bytes())).toList()));
                case CONCURRENT_HEADS -> lastForPath.put(new IdentityPath(e.getIdentity(), e.getPath()), e);
            }
        }
        List<String> out = new ArrayList<>();
        for (MergedState state : merge) {
            String identity = state.identity();
            for (Rejection row : state.rejected()) {
                String key = rowKey(identity, row.reason().name(), row.deviceId(), row.deviceSequence(),
                        row.entryHash() == null ? null : row.entryHash().bytes());
                if (!reportedRows.contains(key)) {
                    out.add("rejection " + key);
                }
            }
            for (Equivocation evidence : state.equivocations()) {
                String key = equivocationKey(identity, evidence.deviceId(), evidence.deviceSequence(), hexes(evidence.entryHashes()));
                if (!reportedEvidence.contains(key)) {
                    out.add("equivocation " + key);
                }
            }
            for (AuthorityFork fork : state.authority().forks()) {
                String key = forkKey(identity, fork.authoritySequence(), hexes(fork.recordHashes()));
                if (!reportedEvidence.contains(key)) {
                    out.add("authority fork " + key);
                }
            }
            for (SingletonState s : state.singletons()) {
                if (s.conflicts().isEmpty()) {
                    continue;
                }
                List<String> losing = hexes(s.conflicts().stream().map(Entry::hash).toList());
                ConflictEvent last = lastForPath.get(new IdentityPath(identity, s.path()));
                List<String> reported = last == null ? null : last.getLosers().stream().map(HeadRef::getEntryHash).map(Hash32::bytes).map(Hex::encode).toList();
                if (!losing.equals(reported)) {
                    out.add("concurrent heads " + identity + " " + s.path() + ": losing " + losing + ", last reported " + reported);
                }
            }
        }
        return out;
    }

    private static String rowKey(String identity, String reason, String deviceId, Long sequence, byte[] hash) {
        return identity + " " + reason + " " + deviceId + "#" + (sequence == null ? null : Long.toUnsignedString(sequence)) + ":"
                + (hash == null ? null : Hex.encode(hash));
    }

    private static String equivocationKey(String identity, String deviceId, long sequence, List<String> hashes) {
        return identity + " " + deviceId + "#" + Long.toUnsignedString(sequence) + " " + hashes;
    }

    private static String forkKey(String identity, long authoritySequence, List<String> hashes) {
        return identity + " authority#" + Long.toUnsignedString(authoritySequence) + " " + hashes;
    }

    private static long sequence(BigDecimal uint64) {
        return Uint64.unsigned(uint64, "sequence");
    }

    private static List<String> hexes(List<Hash> hashes) {
        return hashes.stream().map(Hash::hex).toList();
    }

    /** The protocol core's merge of the records, one state per identity that has any record. */
    public static List<MergedState> coreMerge(List<?> records) {
        Map<String, List<AuthorityRecord>> authority = new TreeMap<>();
        Map<String, List<EntryInput>> entries = new TreeMap<>();
        Set<String> identities = new TreeSet<>();
        for (Object r : records) {
            if (r instanceof AuthorityRecord a) {
                authority.computeIfAbsent(a.body().identity(), k -> new ArrayList<>()).add(a);
                identities.add(a.body().identity());
            } else {
                Entry e = (Entry) r;
                entries.computeIfAbsent(e.body().identity(), k -> new ArrayList<>()).add(new EntryInput.Signed(e));
                identities.add(e.body().identity());
            }
        }
        return identities.stream().map(identity -> IdentityAssembler.assemble(identity, authority.getOrDefault(identity, List.of()),
                entries.getOrDefault(identity, List.of()), SignatureCheck.DEFINITION)).toList();
    }

    /**
     * The core's merged state as the service serves it: less the rows of invalid entries (those
     * are on jolt.rejected.v2, not stored: src/site/markdown/http-api.md).
     */
    public static JsonNode asServed(MergedState state) {
        try {
            ObjectNode json = (ObjectNode) JSON.readTree(MergedStateJson.write(state));
            ArrayNode kept = JSON.createArrayNode();
            json.get("rejected").forEach(row -> {
                if (!row.get("reason").asText().equals("invalid_entry")) {
                    kept.add(row);
                }
            });
            json.set("rejected", kept);
            return json;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The dots of every entry eligible in the core's merge of the records. */
    public static Set<String> eligibleDots(List<?> records) {
        return eligibleIn(coreMerge(records));
    }

    private static Set<String> eligibleIn(List<MergedState> merge) {
        Set<String> out = new HashSet<>();
        for (MergedState state : merge) {
            for (DeviceLog log : state.deviceLogs()) {
                log.eligible().forEach(e -> out.add(dot(state.identity(), e.deviceId(), e.sequence(), e.hash().bytes())));
            }
        }
        return out;
    }

    public static String dot(String identity, String device, long sequence, byte[] hash) {
        return identity + "/" + device + "/" + Long.toUnsignedString(sequence) + "/" + Hex.encode(hash);
    }
}
