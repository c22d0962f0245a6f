package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link PointInTime#parse}: the times RFC 3339 allows and users type, and a plain "not a time" for the rest. */
class PointInTimeTest {
    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00.123456Z");

    @Test
    void relativeTimesTooFarBackAreNotATime() {
        // digits beyond a long, days beyond a Duration, and a Duration beyond what an Instant holds
        for (String typed : new String[] {"-99999999999999999999d", "-9999999999999999d", "-999999999999d",
                "-9223372036854775807s1s"}) {
            assertThatThrownBy(() -> PointInTime.parse(typed, NOW)).as(typed)
                    .isExactlyInstanceOf(KeyRangerException.class)
                    .hasMessageStartingWith("'" + typed + "' is not a time");
        }
    }

    @Test
    void aSpaceForTheTAndLowercaseLettersAreAcceptedAsRfc3339Allows() {
        Instant at = Instant.parse("2026-11-27T10:15:00Z");
        for (String typed : new String[] {"2026-11-27 10:15:00Z", "2026-11-27t10:15:00z", "2026-11-27 10:15:00z",
                "2026-11-27 11:15:00+01:00", " 2026-11-27T10:15:00.000Z "}) {
            PointInTime parsed = PointInTime.parse(typed, NOW);
            assertThat(parsed.time()).as(typed).isEqualTo(at);
            assertThat(parsed.typed()).isEqualTo(typed.strip());
        }
        assertThatThrownBy(() -> PointInTime.parse("2026-11-27  10:15:00Z", NOW)).hasMessageContaining("is not a time");
        assertThatThrownBy(() -> PointInTime.parse("2026-11-27 10:15:00", NOW)).hasMessageContaining("is not a time");
    }
}
