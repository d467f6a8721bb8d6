package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jolt.stream.protocol.json.RecordJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Decoders only ever answer with a value or their typed {@link DecodeException}; a decoded value
 * re-encodes to exactly the bytes it came from (canonical bytes are never re-normalised).
 */
class DecoderRobustnessProperties {
    static final List<byte[]> ENTRY_BODIES = Vectors.lines("mixed").stream()
            .map(RecordJson::read)
            .filter(l -> l instanceof RecordJson.EntryLine e && e.input() instanceof EntryInput.Signed)
            .map(l -> ((EntryInput.Signed) ((RecordJson.EntryLine) l).input()).entry().bodyBytes())
            .toList();
    static final List<byte[]> AUTHORITY_BODIES = Vectors.lines("mixed").stream()
            .map(RecordJson::read)
            .filter(l -> l instanceof RecordJson.AuthorityLine a && a.record() != null)
            .map(l -> ((RecordJson.AuthorityLine) l).record().bodyBytes())
            .toList();
    static final List<byte[]> LINES = Vectors.kinds().stream().flatMap(k -> Vectors.lines(k).stream()).toList();

    @Provide
    Arbitrary<byte[]> randomBytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(400);
    }

    @Property(tries = 500)
    void randomBytesAreNeverAnythingButADecodeError(@ForAll("randomBytes") byte[] bytes) {
        assertDecodesCanonicallyOrFailsTyped(bytes);
    }

    @Property(tries = 2000)
    void mutatedEntryAndAuthorityBodiesDecodeCanonicallyOrFailTyped(@ForAll Random random) {
        List<byte[]> pool = random.nextBoolean() ? ENTRY_BODIES : AUTHORITY_BODIES;
        byte[] mutated = mutate(pool.get(random.nextInt(pool.size())), random);
        assertDecodesCanonicallyOrFailsTyped(mutated);
    }

    @Property(tries = 2000)
    void mutatedJsonLinesNeverThrow(@ForAll Random random) {
        byte[] line = mutate(LINES.get(random.nextInt(LINES.size())), random);
        assertThat(RecordJson.read(line)).isNotNull();
    }

    @Property(tries = 500)
    void randomTextLinesNeverThrow(@ForAll("jsonish") String text) {
        assertThat(RecordJson.read(text.getBytes(StandardCharsets.UTF_8))).isNotNull();
    }

    @Provide
    Arbitrary<String> jsonish() {
        return Arbitraries.strings().withChars("{}[]\":,0123456789-.eEtrufalsn \\u").ofMaxLength(80)
                .map(s -> "{\"record_type\":\"jolt.device_writer_log_entry\",\"identity\":\"x\"," + s);
    }

    static void assertDecodesCanonicallyOrFailsTyped(byte[] bytes) {
        Throwable entryError = catchThrowable(() -> assertThat(EntryBody.decode(bytes).canonicalBytes()).isEqualTo(bytes));
        assertThat(entryError).satisfiesAnyOf(e -> assertThat(e).isNull(), e -> assertThat(e).isInstanceOf(DecodeException.class));
        Throwable authorityError = catchThrowable(() -> assertThat(AuthorityBody.decode(bytes).canonicalBytes()).isEqualTo(bytes));
        assertThat(authorityError).satisfiesAnyOf(e -> assertThat(e).isNull(), e -> assertThat(e).isInstanceOf(DecodeException.class));
    }

    /** Flips, truncates, extends, or splices bytes. */
    static byte[] mutate(byte[] original, Random random) {
        byte[] b = original.clone();
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations && b.length > 0; m++) {
            switch (random.nextInt(5)) {
                case 0 -> b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                case 1 -> b = Arrays.copyOf(b, random.nextInt(b.length));
                case 2 -> {
                    byte[] longer = Arrays.copyOf(b, b.length + 1 + random.nextInt(8));
                    for (int i = b.length; i < longer.length; i++) {
                        longer[i] = (byte) random.nextInt(256);
                    }
                    b = longer;
                }
                case 3 -> b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                default -> {
                    int at = random.nextInt(b.length);
                    b[at] = (byte) (random.nextBoolean() ? 0xff : 0x00);
                }
            }
        }
        return b;
    }
}
