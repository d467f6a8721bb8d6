package io.jolt.stream.testing;

import io.jolt.stream.protocol.Uint64;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.processor.MergedTable;
import io.jolt.stream.processor.TopologyFixture.IdentityPath;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a fault test checks once the service has committed all its input, in the manner of Kafka's
 * own EOS system test: the outputs, read_committed, against the inputs. The merged state equals
 * the core's merge of every input record; no output record is doubled (a state change or a path's
 * conflict repeated for its key, an equivocation or a rejection reported twice); every entry eligible in that merge is in the
 * archive or named on the losses topic; and the archive's repeats (at-least-once, deduplicated by
 * dot by its readers) are counted, not forbidden.
 */
public record OutputAudit(int inputRecords, boolean stateEqual, int stateDuplicates, int conflicts, int conflictDuplicates,
                          int rejections, int undecodable, int rejectionDuplicates, int eligible, int archiveMissing, int lossesNamed,
                          int archiveOperations, int archiveDuplicates) {

    public static OutputAudit of(StreamHarness harness, SchemaRegistry registry, List<?> input) {
        Map<IdentityPath, Resolution> expected = MergedTable.of(input);
        boolean stateEqual = harness.stateTable(registry).equals(expected);
        int stateDuplicates = repeatedForItsKey(raw(harness, Topics.STATE));
        List<ConflictEvent> conflicts = new ArrayList<>();
        ConfluentAvroSerde<ConflictEvent> conflictSerde = new ConfluentAvroSerde<>(registry, ConflictEvent.getClassSchema());
        raw(harness, Topics.CONFLICTS).forEach(r -> conflicts.add(conflictSerde.deserialize(r.topic(), r.value())));
        List<ConsumerRecord<byte[], byte[]>> rejected = raw(harness, Topics.REJECTED);
        ConfluentAvroSerde<RejectedRecord> rejectedSerde = new ConfluentAvroSerde<>(registry, RejectedRecord.getClassSchema());
        int undecodable = (int) rejected.stream()
                .filter(r -> rejectedSerde.deserialize(r.topic(), r.value()).getReason() == RejectionKind.UNDECODABLE).count();

        List<String> operations = new ArrayList<>();
        ConfluentAvroSerde<ArchiveRecord> archive = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
        raw(harness, Topics.ARCHIVE).forEach(r -> {
            ArchiveRecord a = archive.deserialize(r.topic(), r.value());
            operations.add(dot(a.getIdentity(), a.getDeviceId(), Uint64.unsigned(a.getDeviceSequence(), "device_sequence"), a.getEntryHash().bytes()) + "/" + a.getKind());
        });
        Set<String> named = new HashSet<>();
        ConfluentAvroSerde<ArchiveLoss> losses = new ConfluentAvroSerde<>(registry, ArchiveLoss.getClassSchema());
        raw(harness, Topics.ARCHIVE_LOSSES).forEach(r -> {
            ArchiveLoss l = losses.deserialize(r.topic(), r.value());
            named.add(dot(l.getIdentity(), l.getDeviceId(), Uint64.unsigned(l.getDeviceSequence(), "device_sequence"), l.getEntryHash().bytes()));
        });
        Set<String> archived = new HashSet<>();
        operations.forEach(o -> archived.add(o.substring(0, o.lastIndexOf('/'))));
        Set<String> eligible = eligibleDots(input);
        Set<String> missing = new HashSet<>(eligible);
        missing.removeAll(archived);
        missing.removeAll(named);
        return new OutputAudit(input.size(), stateEqual, stateDuplicates, conflicts.size(), repeatedConflicts(conflicts), rejected.size(), undecodable,
                distinctRepeats(rejected), eligible.size(), missing.size(), named.size(), operations.size(),
                operations.size() - new HashSet<>(operations).size());
    }

    /** Nothing lost, nothing doubled; archive repeats allowed (and reported by {@link #row}). */
    public OutputAudit assertClean() {
        assertThat(stateEqual).as("merged state equals the core's merge of all input: " + this).isTrue();
        assertThat(stateDuplicates).as("state changes repeated for their key").isZero();
        assertThat(conflictDuplicates).as("conflict events reported twice").isZero();
        assertThat(rejectionDuplicates).as("rejections reported twice").isZero();
        assertThat(eligible).as("the scenario has eligible entries").isPositive();
        assertThat(archiveMissing).as("eligible entries neither archived nor named as lost").isZero();
        return this;
    }

    /** A row of the Reliability table (src/site/markdown/testing.md). */
    public String row(String fault, long inFlight) {
        return String.format("| %s | %,d | %,d | %s | %d | %d of %,d | %,d |", fault, inputRecords, inFlight, stateEqual ? "yes" : "NO",
                stateDuplicates + conflictDuplicates + rejectionDuplicates, lossesNamed, eligible, archiveDuplicates);
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

    /** The dots of every entry eligible in the core's merge of the records, identity by identity. */
    public static Set<String> eligibleDots(List<?> records) {
        Map<String, List<AuthorityRecord>> authority = new LinkedHashMap<>();
        Map<String, List<EntryInput>> entries = new LinkedHashMap<>();
        for (Object r : records) {
            if (r instanceof AuthorityRecord a) {
                authority.computeIfAbsent(a.body().identity(), k -> new ArrayList<>()).add(a);
            } else {
                Entry e = (Entry) r;
                entries.computeIfAbsent(e.body().identity(), k -> new ArrayList<>()).add(new EntryInput.Signed(e));
            }
        }
        Set<String> out = new HashSet<>();
        authority.forEach((identity, auth) -> {
            for (DeviceLog log : IdentityAssembler.assemble(identity, auth, entries.getOrDefault(identity, List.of()), SignatureCheck.DEFINITION).deviceLogs()) {
                log.eligible().forEach(e -> out.add(dot(identity, e.deviceId(), e.sequence(), e.hash().bytes())));
            }
        });
        return out;
    }

    public static String dot(String identity, String device, long sequence, byte[] hash) {
        return identity + "/" + device + "/" + Long.toUnsignedString(sequence) + "/" + Hex.encode(hash);
    }
}
