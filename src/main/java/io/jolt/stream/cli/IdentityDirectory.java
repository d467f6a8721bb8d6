package io.jolt.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.protocol.AuthorityWriter;
import io.jolt.stream.protocol.DeviceId;
import io.jolt.stream.protocol.DeviceWriter;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.SigningKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The files of one identity a person writes records for: the root key, the authority chain's
 * position, and for each device its key and its own writer state (next sequence, previous hash).
 *
 * <pre>
 * DIR/identity.json            identity, root public key, next authority sequence, previous record hash
 * DIR/root.key                 root signing key (0600)
 * DIR/devices/ID.key           device signing key (0600)
 * DIR/devices/ID.state.json    the device's next sequence and previous entry hash
 * </pre>
 *
 * State files are replaced atomically and written before the record is printed, so a crash can
 * leave a gap in a device's sequence but never make it sign a used sequence twice.
 */
final class IdentityDirectory {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path dir;

    private IdentityDirectory(Path dir) {
        this.dir = dir;
    }

    static IdentityDirectory create(Path dir, SigningKey root) throws IOException {
        Files.createDirectories(dir.resolve("devices"));
        if (Files.exists(dir.resolve("identity.json"))) {
            throw new FileAlreadyExistsException(dir.resolve("identity.json").toString(), null, "an identity already lives here");
        }
        IdentityDirectory identity = new IdentityDirectory(dir);
        writeKey(dir.resolve("root.key"), root);
        identity.saveAuthority(AuthorityWriter.genesis(root));
        return identity;
    }

    static IdentityDirectory open(Path dir) {
        if (!Files.isRegularFile(dir.resolve("identity.json"))) {
            throw new IllegalArgumentException(dir + " holds no identity (run `jolt identity new --dir " + dir + "` first)");
        }
        return new IdentityDirectory(dir);
    }

    SigningKey rootKey() throws IOException {
        return readKey(dir.resolve("root.key"));
    }

    AuthorityWriter authority() throws IOException {
        JsonNode node = JSON.readTree(dir.resolve("identity.json").toFile());
        return new AuthorityWriter(node.get("identity").asText(), Hex.decode(node.get("root_public_key").asText(), 32),
                Long.parseUnsignedLong(node.get("next_authority_sequence").asText()), hashOrNull(node.get("previous_record_hash")));
    }

    void saveAuthority(AuthorityWriter writer) throws IOException {
        ObjectNode node = JSON.createObjectNode();
        node.put("identity", writer.identity());
        node.put("root_public_key", Hex.encode(writer.rootPublicKey()));
        node.put("next_authority_sequence", Long.toUnsignedString(writer.nextSequence()));
        node.put("previous_record_hash", writer.previousRecordHash() == null ? null : writer.previousRecordHash().hex());
        replace(dir.resolve("identity.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(node));
    }

    boolean hasDevice(String deviceId) {
        return Files.exists(deviceKeyFile(deviceId));
    }

    void addDevice(String deviceId, SigningKey key) throws IOException {
        writeKey(deviceKeyFile(deviceId), key);
        saveDevice(DeviceWriter.genesis(authorityIdentity(), deviceId));
    }

    SigningKey deviceKey(String deviceId) throws IOException {
        return readKey(deviceKeyFile(deviceId));
    }

    DeviceWriter device(String deviceId) throws IOException {
        Path state = deviceStateFile(deviceId);
        if (!Files.isRegularFile(state)) {
            throw new IllegalArgumentException("device " + deviceId + " has no writer state in " + dir + " (authorize it first)");
        }
        JsonNode node = JSON.readTree(state.toFile());
        return new DeviceWriter(node.get("identity").asText(), node.get("device_id").asText(),
                Long.parseUnsignedLong(node.get("next_sequence").asText()), hashOrNull(node.get("previous_entry_hash")));
    }

    void saveDevice(DeviceWriter writer) throws IOException {
        ObjectNode node = JSON.createObjectNode();
        node.put("identity", writer.identity());
        node.put("device_id", writer.deviceId());
        node.put("next_sequence", Long.toUnsignedString(writer.nextSequence()));
        node.put("previous_entry_hash", writer.previousEntryHash() == null ? null : writer.previousEntryHash().hex());
        replace(deviceStateFile(writer.deviceId()), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(node));
    }

    private String authorityIdentity() throws IOException {
        return authority().identity();
    }

    private Path deviceKeyFile(String deviceId) {
        requireDeviceId(deviceId);
        return dir.resolve("devices").resolve(deviceId + ".key");
    }

    private Path deviceStateFile(String deviceId) {
        requireDeviceId(deviceId);
        return dir.resolve("devices").resolve(deviceId + ".state.json");
    }

    private static void requireDeviceId(String deviceId) {
        // Also keeps a device id from naming a file outside the directory.
        if (!DeviceId.isValid(deviceId)) {
            throw new IllegalArgumentException("not a valid device_id: \"" + deviceId + "\" (want [a-z0-9_][a-z0-9_.-]{0,63})");
        }
    }

    private static Hash hashOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : Hash.fromHex(node.asText());
    }

    /** Writes a new key file readable by its owner only; never overwrites one. */
    static void writeKey(Path file, SigningKey key) throws IOException {
        ObjectNode node = JSON.createObjectNode();
        node.put("kind", "jolt.ed25519.signing-key");
        node.put("seed", Hex.encode(key.seed()));
        node.put("public_key", Hex.encode(key.publicKeyBytes()));
        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(node));
    }

    static SigningKey readKey(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no key file at " + file);
        }
        if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
            throw new IllegalArgumentException("key file " + file + " must be readable by its owner only (chmod 600)");
        }
        JsonNode node = JSON.readTree(file.toFile());
        if (node == null || !node.has("seed")) {
            throw new IllegalArgumentException(file + " is not a jolt key file");
        }
        return SigningKey.fromSeed(Hex.decode(node.get("seed").asText(), SigningKey.SEED_LENGTH));
    }

    private static void replace(Path file, byte[] content) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(tmp, content);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static String toJsonLine(ObjectNode node) {
        try {
            return new String(JSON.writeValueAsBytes(node), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }
}
