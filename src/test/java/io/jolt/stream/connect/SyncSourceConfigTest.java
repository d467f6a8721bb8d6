package io.jolt.stream.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.protocol.IdentityId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Given settings, expect them taken or refused with the setting and the reason named. */
class SyncSourceConfigTest {
    static final String ALICE = IdentityId.derive(new byte[32]);
    static final String BOB = IdentityId.derive(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
        26, 27, 28, 29, 30, 31, 32});

    static Map<String, String> valid() {
        Map<String, String> props = new HashMap<>();
        props.put(SyncSourceConfig.PROVIDERS, "http://127.0.0.1:8080/, https://provider.example");
        props.put(SyncSourceConfig.IDENTITIES, ALICE);
        props.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        props.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        return props;
    }

    @Test
    void validSettingsWithDefaults() {
        SyncSourceConfig config = new SyncSourceConfig(valid());
        assertThat(config.providers()).containsExactly("http://127.0.0.1:8080", "https://provider.example");
        assertThat(config.identities()).containsExactly(ALICE);
        assertThat(config.pollInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.authorization()).isEmpty();
        assertThat(config.backoff().after(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.backoff().after(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(config.backoff().after(40)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aBadUrlOrIdentityIsNamed() {
        Map<String, String> props = valid();
        props.put(SyncSourceConfig.PROVIDERS, "provider.example:8080");
        assertThatThrownBy(() -> new SyncSourceConfig(props)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(SyncSourceConfig.PROVIDERS).hasMessageContaining("not an http or https URL");
        Map<String, String> identity = valid();
        identity.put(SyncSourceConfig.IDENTITIES, ALICE + ",jolt1nope");
        assertThatThrownBy(() -> new SyncSourceConfig(identity)).hasMessageContaining("jolt1nope").hasMessageContaining("not an identity");
    }

    @Test
    void identitiesComeFromTheListAndTheFileAndAnUnreadableLineIsNamed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("follow.txt");
        Files.write(file, List.of("# followed", BOB + "  # bob", "", ALICE));
        Map<String, String> props = valid();
        props.put(SyncSourceConfig.IDENTITIES_FILE, file.toString());
        assertThat(new SyncSourceConfig(props).identities()).containsExactly(ALICE, BOB);
        Files.write(file, List.of(BOB, "jolt1typo"));
        assertThatThrownBy(() -> new SyncSourceConfig(props)).hasMessageContaining("line 2").hasMessageContaining("jolt1typo");
    }

    @Test
    void noIdentitiesOrAnotherConverterIsRefused() {
        Map<String, String> none = valid();
        none.remove(SyncSourceConfig.IDENTITIES);
        assertThat(SyncSourceConfig.problems(none)).extracting(SyncSourceConfig.Problem::name).containsExactly(SyncSourceConfig.IDENTITIES);
        Map<String, String> json = valid();
        json.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        assertThat(SyncSourceConfig.problems(json)).singleElement().satisfies(p -> assertThat(p.message()).contains("ByteArrayConverter"));
    }

    @Test
    void credentialsBecomeTheAuthorizationHeader() {
        Map<String, String> token = valid();
        token.put(SyncSourceConfig.AUTH_TOKEN, "s3cret");
        assertThat(new SyncSourceConfig(token).authorization()).contains("Bearer s3cret");
        Map<String, String> basic = valid();
        basic.put(SyncSourceConfig.AUTH_BASIC, "jolt:pw");
        assertThat(new SyncSourceConfig(basic).authorization()).contains("Basic am9sdDpwdw==");
    }
}
