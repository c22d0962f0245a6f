package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.executor.local.ServerGauge;
import io.keyranger.executor.local.SplitPolicy;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The headroom the adaptive policy reads from call latency. */
class ServerGaugeTest {
    private static final long MS = 1_000_000L;

    private static void calls(ServerGauge gauge, int count, long millis) {
        for (int i = 0; i < count; i++) {
            gauge.record(millis * MS);
        }
    }

    @Test
    void latencyWellAboveTheLowestSeenMeansNoHeadroomUntilItFallsBack() {
        ServerGauge gauge = new ServerGauge();
        calls(gauge, ServerGauge.WARM_UP_CALLS - 1, 500);
        assertThat(gauge.headroom(1)).as("warming up").isTrue();
        calls(gauge, 200, 20);
        assertThat(gauge.headroom(1)).as("at the floor").isTrue();
        assertThat(gauge.load()).isBetween(0.99, 1.01);
        calls(gauge, 200, 30);
        assertThat(gauge.headroom(1)).as("1.5x the floor").isTrue();
        calls(gauge, 200, 100);
        assertThat(gauge.headroom(1)).as("5x the floor: queueing").isFalse();
        assertThat(gauge.load()).isGreaterThan(ServerGauge.HEADROOM_FACTOR);
        calls(gauge, 200, 22);
        assertThat(gauge.headroom(1)).as("load fell again").isTrue();
    }

    @Test
    void aCalibrationMadeAloneSetsTheFloorThatALoadedStartWouldHide() {
        ServerGauge loadedFromTheStart = new ServerGauge();
        calls(loadedFromTheStart, 400, 300);
        assertThat(loadedFromTheStart.headroom(1)).as("never seen unloaded: no way to tell").isTrue();
        ServerGauge calibrated = new ServerGauge();
        calibrated.calibrate(30 * MS);
        calls(calibrated, 400, 300);
        assertThat(calibrated.headroom(1)).as("ten times the latency alone: queueing").isFalse();
        calls(calibrated, 400, 40);
        assertThat(calibrated.headroom(1)).isTrue();
    }

    @Test
    void aCalibrationThatDrewFastCallsStillSeesAnIdleServerWithProductionsLatencyTail() {
        // production's log-normal latency (median 20 ms, p99 100 ms), calibrated from a low draw: its 10th percentile
        double sigma = Math.log(5) / 2.326;
        ServerGauge gauge = new ServerGauge();
        gauge.calibrate(Math.round(20 * MS * Math.exp(-1.2816 * sigma)));
        Random random = new Random(3);
        int headroom = 0;
        for (int i = 0; i < 2_000; i++) {
            gauge.record(Math.round(20 * MS * Math.exp(sigma * random.nextGaussian())));
            headroom += gauge.headroom(1) ? 1 : 0;
        }
        assertThat(headroom).as("calls that found room on an idle server (the arithmetic mean found none)")
                .isGreaterThan(1_800);
        // the same server queueing: every call five times as long
        for (int i = 0; i < 200; i++) {
            gauge.record(Math.round(100 * MS * Math.exp(sigma * random.nextGaussian())));
        }
        assertThat(gauge.headroom(1)).isFalse();
    }

    @Test
    void aSerialServerHasNoHeadroomAtAnyConcurrencyButOneThatServesCallsAtOnceHasEvenWhenCallsSlowDown() {
        for (int inFlight : new int[] {4, 8, 16, 64}) {
            ServerGauge serial = new ServerGauge(); // the legacy emulator: each call waits for all before it
            serial.calibrate(20 * MS);
            calls(serial, 200, 20L * inFlight);
            assertThat(serial.headroom(inFlight)).as("serial, %d in flight", inFlight).isFalse();
        }
        // two cores shared by 64 calls in flight (the model on this machine): 7 times as long as one alone, yet
        // about 9 times the calls a second; more in flight still serves more
        ServerGauge shortOfCpu = new ServerGauge();
        shortOfCpu.calibrate(20 * MS);
        calls(shortOfCpu, 200, 140);
        assertThat(shortOfCpu.headroom(64)).isTrue();
        assertThat(shortOfCpu.headroom(8)).as("the same latency with 8 in flight: queueing").isFalse();
    }

    @Test
    void idleWorkersGetWorkWhileMoreInFlightServesMoreButASpareSplitWaitsForTheFloor() {
        ServerGauge gauge = new ServerGauge();
        gauge.calibrate(20 * MS);
        calls(gauge, 200, 140); // 7 times the floor, with 56 of 64 workers on a range
        assertThat(SplitPolicy.Load.of(64, 56, 0, gauge).headroom()).as("8 idle workers").isTrue();
        assertThat(SplitPolicy.Load.of(64, 64, 0, gauge).headroom()).as("none idle").isFalse();
        assertThat(SplitPolicy.Load.of(64, 4, 0, gauge).headroom()).as("4 in flight: queueing").isFalse();
        calls(gauge, 200, 30);
        assertThat(SplitPolicy.Load.of(64, 64, 0, gauge).headroom()).as("none idle, near the floor").isTrue();
    }
}
