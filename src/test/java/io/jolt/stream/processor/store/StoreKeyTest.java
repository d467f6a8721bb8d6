package io.jolt.stream.processor.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

/** The byte layout of store keys: what prefix scans and the stores' byte order rely on. */
class StoreKeyTest {
    @Test
    void textIsLengthPrefixedAndNumbersAreBigEndian() {
        assertThat(StoreKey.of("ab").uint64(258).toBytes().get())
                .containsExactly(0, 0, 0, 2, 'a', 'b', 0, 0, 0, 0, 0, 0, 1, 2);
    }

    @Test
    void aKeyOfWholeComponentsIsAPrefixOfItsExtensions() {
        byte[] identity = StoreKey.of("alice").toBytes().get();
        byte[] device = StoreKey.of("alice").text("dev_a").uint64(7).toBytes().get();
        byte[] other = StoreKey.of("alicea").toBytes().get();

        assertThat(Arrays.copyOf(device, identity.length)).isEqualTo(identity);
        assertThat(Arrays.copyOf(other, identity.length)).isNotEqualTo(identity);
    }

    @Test
    void unsignedSequenceOrderIsByteOrder() {
        Bytes small = StoreKey.of("alice").uint64(1).toBytes();
        Bytes large = StoreKey.of("alice").uint64(-1L).toBytes(); // 2^64 - 1 as unsigned
        assertThat(small.compareTo(large)).isNegative();
    }

    @Test
    void aPathSortsBeforeItsExtensionsAndItsPrefixIsAScanPrefix() {
        Bytes path = StoreKey.of("alice").orderedPath("/a").toBytes();
        Bytes extension = StoreKey.of("alice").orderedPath("/a/b").toBytes();
        byte[] prefix = StoreKey.of("alice").pathPrefix("/a").toBytes().get();

        assertThat(path.compareTo(extension)).isNegative();
        assertThat(Arrays.copyOf(extension.get(), prefix.length)).isEqualTo(prefix);
    }

    @Test
    void aKeyLongerThanItsFirstBufferKeepsEveryByte() {
        String identity = "jolt1" + "x".repeat(300);
        StoreKey key = StoreKey.of(identity);
        for (int i = 0; i < 20; i++) {
            key.uint64(i);
        }
        byte[] bytes = key.toBytes().get();

        assertThat(bytes).hasSize(4 + identity.length() + 20 * 8);
        assertThat(StoreKey.identityOf(Bytes.wrap(bytes))).isEqualTo(identity);
        assertThat(bytes[bytes.length - 1]).isEqualTo((byte) 19);
    }
}
