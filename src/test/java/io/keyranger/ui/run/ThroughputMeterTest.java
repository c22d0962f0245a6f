package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Run tab's clock on a made-up timeline: a pause stops it, and the ETA is the recent rate's; its axis and totals. */
class ThroughputMeterTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aPauseStopsTheClockAndTheEtaAfterItComesFromTheRateSinceTheResume() {
        ThroughputMeter meter = new ThroughputMeter();
        long t = 0;
        meter.restart(t);
        long read = 0;
        for (int s = 1; s <= 20; s++) { // 100 entities a second
            t += SECOND;
            read += 100;
            meter.tick(t, read, true, 20_000, true);
        }
        assertThat(meter.tick(t, read, true, 20_000, true)).isEqualTo("elapsed 20.0 s · ETA 180 s");
        meter.pause(t);
        t += 300 * SECOND; // five minutes paused
        assertThat(meter.tick(t, read, true, 20_000, true)).as("stands still while paused")
                .isEqualTo("paused · elapsed 20.0 s");
        meter.resume(t);
        assertThat(meter.tick(t, read, true, 20_000, true)).as("no ETA from a window with the pause in it")
                .isEqualTo("elapsed 20.0 s");
        for (int s = 1; s <= 5; s++) { // 400 entities a second after the resume
            t += SECOND;
            read += 400;
            meter.tick(t, read, true, 20_000, true);
        }
        assertThat(meter.tick(t, read, true, 20_000, true)).isEqualTo("elapsed 25.0 s · ETA 40 s");
    }

    @Test
    void theTimeAxisHasAtMostTenRoundTicksHoweverLongTheJob() {
        assertThat(ThroughputMeter.axis(0)).containsExactly(10, 1);
        assertThat(ThroughputMeter.axis(35.2)).containsExactly(40, 5);
        assertThat(ThroughputMeter.axis(61)).containsExactly(70, 10);
        assertThat(ThroughputMeter.axis(3 * 3600 + 5)).containsExactly(7 * 1800, 1800);
        for (double seconds = 0; seconds < 200_000; seconds = seconds * 1.3 + 0.7) {
            double[] axis = ThroughputMeter.axis(seconds);
            assertThat(axis[0]).isGreaterThanOrEqualTo(seconds);
            assertThat(axis[0] / axis[1]).isLessThanOrEqualTo(10).isEqualTo(Math.rint(axis[0] / axis[1]));
        }
    }

    @Test
    void theTotalsKeepTheirCountsOnTwoLinesOfTheirOwn() {
        assertThat(ThroughputMeter.describeTotals(Map.of("read", 2000L, "by:pro", 7L)))
                .isEqualTo("read 2,000   written 0   deleted 0\nskipped 0   failed 0\nby:pro 7");
    }
}
