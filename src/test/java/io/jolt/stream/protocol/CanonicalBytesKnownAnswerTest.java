package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.json.RecordJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;

/**
 * Canonical bytes built here by hand from PROTOCOL §1-§4, field by field, without the
 * implementation's writer. Each is checked three ways: its BLAKE3 hash equals the hash the
 * record's successor names in the vectors (computed by another implementation), the record's
 * signature verifies over it, and the implementation produces exactly these bytes.
 */
class CanonicalBytesKnownAnswerTest {
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    /** §1 primitives, written out longhand. */
    static final class Bytes {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes ascii(String literal) {
            out.writeBytes(literal.getBytes(StandardCharsets.US_ASCII));
            return this;
        }

        Bytes u8(int b) {
            out.write(b);
            return this;
        }

        Bytes be(BigInteger value, int width) {
            byte[] raw = value.toByteArray();
            for (int i = width; i > 0; i--) {
                int index = raw.length - i;
                out.write(index >= 0 ? raw[index] : 0);
            }
            return this;
        }

        Bytes uint16(JsonNode n) {
            return be(n.bigIntegerValue(), 2);
        }

        Bytes uint64(JsonNode n) {
            return be(n.bigIntegerValue(), 8);
        }

        Bytes string(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            be(BigInteger.valueOf(utf8.length), 8);
            out.writeBytes(utf8);
            return this;
        }

        Bytes hex(String hex) {
            out.write(new BigInteger("01" + hex, 16).toByteArray(), 1, hex.length() / 2);
            return this;
        }

        Bytes optionalHex(JsonNode n) {
            return n.isNull() ? u8(0) : u8(1).hex(n.asText());
        }

        byte[] toArray() {
            return out.toByteArray();
        }
    }

    static byte[] blake3(byte[] message) {
        Blake3Digest d = new Blake3Digest(256);
        d.update(message, 0, message.length);
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return out;
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }

    static List<JsonNode> records(String kind) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Vectors.textLines(kind)) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    static JsonNode entry(String kind, String identityPrefix, String device, int sequence) throws IOException {
        return records(kind).stream()
                .filter(r -> r.get("record_type").asText().equals("jolt.device_writer_log_entry"))
                .filter(r -> r.get("identity").asText().startsWith(identityPrefix) && r.get("device_id").asText().equals(device)
                        && r.get("device_sequence").asInt() == sequence)
                .findFirst().orElseThrow();
    }

    static JsonNode authority(String kind, String identityPrefix, int sequence) throws IOException {
        return records(kind).stream()
                .filter(r -> r.get("record_type").asText().equals("jolt.device_authorization"))
                .filter(r -> r.get("identity").asText().startsWith(identityPrefix) && r.get("authority_sequence").asInt() == sequence)
                .findFirst().orElseThrow();
    }

    /** The hash the next record of the same chain names as its predecessor. */
    static String successorPrevious(String kind, JsonNode record) throws IOException {
        boolean isEntry = record.has("device_id");
        for (JsonNode r : records(kind)) {
            if (!r.get("identity").equals(record.get("identity"))) {
                continue;
            }
            if (isEntry && r.has("device_id") && r.get("device_id").equals(record.get("device_id"))
                    && r.get("device_sequence").bigIntegerValue().equals(record.get("device_sequence").bigIntegerValue().add(BigInteger.ONE))) {
                return r.get("previous_entry_hash").asText();
            }
            if (!isEntry && r.has("authority_sequence")
                    && r.get("authority_sequence").bigIntegerValue().equals(record.get("authority_sequence").bigIntegerValue().add(BigInteger.ONE))) {
                return r.get("previous_record_hash").asText();
            }
        }
        throw new AssertionError("no successor for " + record);
    }

    static byte[] entryBodyByHand(JsonNode r) {
        Bytes b = new Bytes()
                .ascii("jolt:device-writer-log-entry:v1").u8(0)
                .string("jolt.device_writer_log_entry")
                .uint16(r.get("version"))
                .string(r.get("identity").asText())
                .string(r.get("device_id").asText())
                .uint64(r.get("device_sequence"))
                .optionalHex(r.get("previous_entry_hash"));
        JsonNode op = r.get("operation");
        if (op.get("op").asText().equals("set")) {
            b.u8(0x00).string(op.get("path").asText()).string(op.get("content_id").asText())
                    .u8(op.get("mode").asText().equals("singleton") ? 0x00 : 0x01);
        } else {
            b.u8(0x01).string(op.get("path").asText());
        }
        b.uint64(r.get("created_at"));
        JsonNode heads = r.get("observed_heads");
        if (heads != null && heads.size() > 0) {
            b.u8(0x00).ascii("jolt:observed-singleton-heads:v1").u8(0x00).be(BigInteger.valueOf(heads.size()), 8);
            heads.forEach(h -> b.hex(h.asText()));
        }
        return b.toArray();
    }

    static byte[] authorityBodyByHand(JsonNode r) {
        Bytes b = new Bytes()
                .ascii("jolt:device-authorization:v1").u8(0)
                .string("jolt.device_authorization")
                .uint16(r.get("version"))
                .string(r.get("identity").asText())
                .hex(r.get("root_public_key").asText())
                .uint64(r.get("authority_sequence"))
                .optionalHex(r.get("previous_record_hash"));
        JsonNode action = r.get("action");
        if (action.get("op").asText().equals("authorize")) {
            b.u8(0x00).string(action.get("device_id").asText()).hex(action.get("device_public_key").asText());
        } else {
            b.u8(0x01).string(action.get("device_id").asText());
            JsonNode cutoff = action.get("cutoff");
            if (cutoff.isNull()) {
                b.u8(0x00);
            } else {
                b.u8(0x01).uint64(cutoff.get("device_sequence")).hex(cutoff.get("entry_hash").asText());
            }
        }
        return b.uint64(r.get("created_at")).toArray();
    }

    void assertEntryKnownAnswer(String kind, JsonNode record) throws IOException {
        byte[] byHand = entryBodyByHand(record);
        assertThat(hex(blake3(byHand))).isEqualTo(successorPrevious(kind, record));
        Entry parsed = ((io.jolt.stream.protocol.EntryInput.Signed) ((RecordJson.EntryLine) RecordJson.read(
                JSON.writeValueAsBytes(record))).input()).entry();
        assertThat(parsed.bodyBytes()).isEqualTo(byHand);
        assertThat(parsed.hash().hex()).isEqualTo(hex(blake3(byHand)));
    }

    void assertAuthorityKnownAnswer(String kind, JsonNode record) throws IOException {
        byte[] byHand = authorityBodyByHand(record);
        assertThat(hex(blake3(byHand))).isEqualTo(successorPrevious(kind, record));
        byte[] signature = new BigInteger("01" + record.get("signature").asText(), 16).toByteArray();
        byte[] root = new BigInteger("01" + record.get("root_public_key").asText(), 16).toByteArray();
        assertThat(Ed25519.verify(signature, 1, root, 1, byHand, 0, byHand.length)).isTrue();
        AuthorityRecord parsed = ((RecordJson.AuthorityLine) RecordJson.read(JSON.writeValueAsBytes(record))).record();
        assertThat(parsed.bodyBytes()).isEqualTo(byHand);
    }

    @Test
    void entryWithoutObservedHeadsHasExactlyTheRfc0003Bytes() throws IOException {
        JsonNode genesis = entry("simple", "jolt1znrf", "dev_a", 0);
        assertThat(genesis.has("observed_heads")).isFalse();
        assertEntryKnownAnswer("simple", genesis);
        assertThat(hex(blake3(entryBodyByHand(genesis)))).isEqualTo("27794346e893a1c754db09d6cbff6d51c88e3bed6b8e31f26ddcd8da83bfb368");
    }

    @Test
    void entryWithObservedHeadsAppendsTheHeadsExtension() throws IOException {
        JsonNode withHeads = entry("heads", "jolt1vzzz", "dev_b", 0);
        assertThat(withHeads.get("observed_heads").size()).isPositive();
        assertEntryKnownAnswer("heads", withHeads);
    }

    @Test
    void tombstoneUsesDiscriminatorOne() throws IOException {
        JsonNode tombstone = entry("tombstone", "jolt1czre", "dev_a", 3);
        assertThat(tombstone.get("operation").get("op").asText()).isEqualTo("tombstone");
        assertEntryKnownAnswer("tombstone", tombstone);
    }

    @Test
    void authorizeRecord() throws IOException {
        JsonNode authorize = authority("simple", "jolt1znrf", 0);
        assertAuthorityKnownAnswer("simple", authorize);
        assertThat(hex(blake3(authorityBodyByHand(authorize)))).isEqualTo("501244d440c0b1c3682eecb32d2cc2e952a8ce77536651946f275d73ab182be2");
    }

    @Test
    void revokeRecordWithCutoff() throws IOException {
        JsonNode revoke = authority("revoked", "jolt1qin5", 5);
        assertThat(revoke.get("action").get("cutoff").isObject()).isTrue();
        assertAuthorityKnownAnswer("revoked", revoke);
    }

    @Test
    void revokeRecordWithoutCutoff() throws IOException {
        JsonNode revoke = authority("revoked", "jolt1qin5", 7);
        assertThat(revoke.get("action").get("cutoff").isNull()).isTrue();
        assertAuthorityKnownAnswer("revoked", revoke);
    }

    @Test
    void identityIdIsJolt1AndBase32OfTheDomainSeparatedRootKeyHash() throws IOException {
        for (String kind : List.of("simple", "revoked", "mixed")) {
            for (JsonNode r : records(kind)) {
                if (!r.has("root_public_key")) {
                    continue;
                }
                byte[] input = new Bytes().ascii("jolt:identity:v1").u8(0).hex(r.get("root_public_key").asText()).toArray();
                String byHand = "jolt1" + base32ByHand(blake3(input));
                assertThat(byHand).hasSize(57);
                if (r.get("identity").asText().equals(byHand)) {
                    assertThat(IdentityId.derive(new Bytes().hex(r.get("root_public_key").asText()).toArray())).isEqualTo(byHand);
                    return;
                }
            }
        }
        throw new AssertionError("no vector identity matched its root key");
    }

    /** RFC 4648 base32 through a big integer: 256 bits padded with 4 zero bits into 52 digits. */
    static String base32ByHand(byte[] digest) {
        BigInteger value = new BigInteger(1, digest).shiftLeft(4);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 52; i++) {
            out.insert(0, "abcdefghijklmnopqrstuvwxyz234567".charAt(value.and(BigInteger.valueOf(31)).intValue()));
            value = value.shiftRight(5);
        }
        return out.toString();
    }
}
