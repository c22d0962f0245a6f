package io.keyranger.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The gate keeps how long it stood paused, a pause under way included: a job's running time leaves it out. */
class PauseGateTest {
    @Test
    void pausesAddUpAndAPauseUnderWayCounts() {
        AtomicLong now = new AtomicLong(1_000);
        PauseGate gate = new PauseGate(now::get);
        gate.resume(); // not paused: nothing to add
        assertThat(gate.pausedNanos()).isZero();
        gate.pause();
        now.addAndGet(300);
        gate.pause(); // already paused: the pause keeps its start
        now.addAndGet(200);
        assertThat(gate.pausedNanos()).as("a pause under way").isEqualTo(500);
        gate.resume();
        now.addAndGet(10_000); // running
        gate.pause();
        now.addAndGet(50);
        gate.resume();
        assertThat(gate.pausedNanos()).isEqualTo(550);
        assertThat(gate.isPaused()).isFalse();
    }
}
