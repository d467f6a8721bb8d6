package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worked example of protocol.md ("Trying the rules by hand"), command by command: build a history by hand and merge it. */
class KeyToolingTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    Path bundle;

    String run(String... args) throws Exception {
        CommandRun run = CommandRun.of(args);
        assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run.err()).isZero();
        return run.out();
    }

    void record(String... args) throws Exception {
        String line = run(args);
        Files.writeString(bundle, line, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    JsonNode merged() throws Exception {
        CommandRun run = CommandRun.of("merge", bundle.toString());
        assertThat(run.exitCode()).isZero();
        return JSON.readTree(run.out()).get(0);
    }

    @Test
    void identityTwoDevicesConcurrentWritesTombstoneAndRestore() throws Exception {
        bundle = dir.resolve("alice.jsonl");
        Path alice = dir.resolve("alice");
        String identity = JSON.readTree(run("identity", "new", "--dir", alice.toString())).get("identity").asText();
        record("authorize", "--dir", alice.toString(), "--device", "laptop");
        record("authorize", "--dir", alice.toString(), "--device", "phone");
        record("write", "--dir", alice.toString(), "--device", "laptop", "--set", "/profile", "--content", "from laptop");
        record("write", "--dir", alice.toString(), "--device", "phone", "--set", "/profile", "--content", "from phone");

        JsonNode concurrent = merged();
        assertThat(concurrent.get("identity").asText()).isEqualTo(identity);
        JsonNode profile = concurrent.get("singletons").get(0);
        assertThat(profile.get("head").get("device_id").asText()).as("equal sequences: the greater device_id").isEqualTo("phone");
        assertThat(profile.get("conflicts")).hasSize(1);

        record("write", "--dir", alice.toString(), "--device", "laptop", "--tombstone", "/profile", "--observe-heads-in", bundle.toString());
        JsonNode deleted = merged();
        assertThat(deleted.get("singletons").get(0).get("state").asText()).isEqualTo("tombstoned");
        assertThat(deleted.get("singletons").get(0).get("conflicts")).isEmpty();
        assertThat(deleted.get("required_operation_level").asInt()).isEqualTo(3);

        record("write", "--dir", alice.toString(), "--device", "phone", "--set", "/profile", "--content", "restored",
                "--observe-heads-in", bundle.toString());
        JsonNode restored = merged();
        assertThat(restored.get("singletons").get(0).get("state").asText()).isEqualTo("present");
        assertThat(restored.get("singletons").get(0).get("head").get("device_id").asText()).isEqualTo("phone");
        assertThat(restored.get("rejected")).isEmpty();
    }

    @Test
    void privateKeysAreOwnerOnlyAndNeverOverwritten() throws Exception {
        Path key = dir.resolve("k.key");
        JsonNode out = JSON.readTree(run("keygen", "--out", key.toString()));
        assertThat(out.get("public_key").asText()).hasSize(64);
        assertThat(Files.getPosixFilePermissions(key)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        CommandRun again = CommandRun.of("keygen", "--out", key.toString());
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains(key.toString());

        Path alice = dir.resolve("alice");
        run("identity", "new", "--dir", alice.toString(), "--root-key", key.toString());
        assertThat(Files.getPosixFilePermissions(alice.resolve("root.key"))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(alice.resolve("root.key"), PosixFilePermissions.fromString("rw-r--r--"));
        CommandRun leaky = CommandRun.of("authorize", "--dir", alice.toString(), "--device", "dev_a");
        assertThat(leaky.exitCode()).isEqualTo(1);
        assertThat(leaky.err()).contains("chmod 600");
    }

    @Test
    void aDevicesSequenceComesFromItsOwnStateFileNotFromAnyBundle() throws Exception {
        Path alice = dir.resolve("alice");
        run("identity", "new", "--dir", alice.toString());
        run("authorize", "--dir", alice.toString(), "--device", "dev_a");
        JsonNode first = JSON.readTree(run("write", "--dir", alice.toString(), "--device", "dev_a", "--set", "/a", "--content", "1"));
        JsonNode second = JSON.readTree(run("write", "--dir", alice.toString(), "--device", "dev_a", "--append", "--set", "/log", "--content", "2"));
        assertThat(first.get("device_sequence").asLong()).isZero();
        assertThat(second.get("device_sequence").asLong()).isEqualTo(1);
        JsonNode state = JSON.readTree(alice.resolve("devices/dev_a.state.json").toFile());
        assertThat(state.get("next_sequence").asText()).isEqualTo("2");
        CommandRun revoke = CommandRun.of("revoke", "--dir", alice.toString(), "--device", "dev_a", "--cutoff-at-head");
        assertThat(revoke.exitCode()).isZero();
        JsonNode cutoff = JSON.readTree(revoke.out()).get("action").get("cutoff");
        assertThat(cutoff.get("device_sequence").asLong()).isEqualTo(1);
        assertThat(cutoff.get("entry_hash").asText()).isEqualTo(state.get("previous_entry_hash").asText());
    }

    @Test
    void badInputGetsAClearErrorAndNoStackTrace() throws Exception {
        Path alice = dir.resolve("alice");
        run("identity", "new", "--dir", alice.toString());
        run("authorize", "--dir", alice.toString(), "--device", "dev_a");
        CommandRun badPath = CommandRun.of("write", "--dir", alice.toString(), "--device", "dev_a", "--set", "/a/", "--content", "x");
        assertThat(badPath.exitCode()).isEqualTo(1);
        assertThat(badPath.err()).contains("canonical").doesNotContain("\tat ");
        CommandRun badDevice = CommandRun.of("authorize", "--dir", alice.toString(), "--device", "../x");
        assertThat(badDevice.exitCode()).isEqualTo(1);
        assertThat(badDevice.err()).contains("not a valid device_id");
        CommandRun noIdentity = CommandRun.of("write", "--dir", dir.resolve("nobody").toString(), "--device", "dev_a", "--tombstone", "/a");
        assertThat(noIdentity.err()).contains("holds no identity");
    }
}
