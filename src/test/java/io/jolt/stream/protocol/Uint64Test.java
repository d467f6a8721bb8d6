package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** A uint64 on the topics is its exact decimal, 0 to 2^64−1, and nothing else reads back. */
class Uint64Test {
    @Test
    void theExtremesOfTheConformanceScenariosAreExactDecimals() {
        assertThat(Uint64.decimal(0)).isEqualByComparingTo("0");
        assertThat(Uint64.decimal(Long.MIN_VALUE + 5)).as("2^63+5").isEqualByComparingTo("9223372036854775813");
        assertThat(Uint64.decimal(-1L)).as("2^64-1").isEqualByComparingTo("18446744073709551615");
    }

    @Test
    void aDecimalReadsBackAsTheUnsignedLongItCameFrom() {
        for (long v : new long[] {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 5, -1L}) {
            assertThat(Uint64.unsigned(Uint64.decimal(v), "created_at")).isEqualTo(v);
        }
        assertThat(Uint64.decimalOrNull(null)).isNull();
    }

    @Test
    void aValueOutsideUint64IsATypedDecodeError() {
        for (String bad : new String[] {"-1", "18446744073709551616", "1.5"}) {
            assertThatThrownBy(() -> Uint64.unsigned(new BigDecimal(bad), "device_sequence"))
                    .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(e.kind()).isEqualTo(DecodeException.Kind.OUT_OF_RANGE))
                    .hasMessageContaining("device_sequence " + bad + " is not a uint64");
        }
    }
}
