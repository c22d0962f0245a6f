package io.keyranger.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.summary.JobProgress.Phase;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A followed job's clock on a made-up timeline: running time without pauses, the recent rate, an ETA only running on. */
class JobClockTest {
    private static final long SECOND = 1_000_000_000L;
    private static final JobProgress.Ranges RANGES = new JobProgress.Ranges(8, 4, 3, 1, 0, 2);

    /** Runs the clock for {@code seconds}, 100 entities a second, sampling each second; returns the time reached. */
    private static long run(JobClock clock, long from, long read, int seconds) {
        long t = from;
        for (int s = 1; s <= seconds; s++) {
            clock.sample(t += SECOND, read + 100L * s);
        }
        return t;
    }

    private static JobProgress at(JobClock clock, long now, long read, long known) {
        return clock.progress(now, Map.of("read", read, "written", read / 2), RANGES, known);
    }

    @Test
    void runningTimeLeavesPausesOutAndStandsStillWhilePaused() {
        JobClock clock = new JobClock(0);
        long t = run(clock, 0, 0, 20);
        clock.pause(t);
        assertThat(at(clock, t + 300 * SECOND, 2_000, 20_000).elapsedSeconds()).isEqualTo(20.0);
        clock.resume(t += 300 * SECOND);
        t = run(clock, t, 2_000, 5);
        JobProgress progress = at(clock, t, 2_500, 20_000);
        assertThat(progress.elapsedSeconds()).isEqualTo(25.0);
        assertThat(progress.phase()).isEqualTo(Phase.RUNNING);
        assertThat(progress.total("written")).isEqualTo(1_250);
        assertThat(progress.ranges()).isEqualTo(RANGES);
    }

    @Test
    void theRateIsThatOfTheLastTenSecondsOfRunningAndTheEtaComesFromIt() {
        JobClock clock = new JobClock(0);
        long t = run(clock, 0, 0, 20); // 100 a second
        for (int s = 1; s <= 20; s++) { // then 400 a second
            clock.sample(t += SECOND, 2_000 + 400L * s);
        }
        JobProgress progress = at(clock, t, 10_000, 20_000);
        assertThat(progress.rate()).isEqualTo(400.0);
        assertThat(progress.etaSeconds()).isEqualTo(OptionalDouble.of(25));
    }

    @Test
    void noRateAndNoEtaBeforeTwoSecondsOfRunning() {
        JobClock clock = new JobClock(0);
        assertThat(at(clock, 0, 0, 20_000).rate()).isNaN();
        run(clock, 0, 0, 1);
        JobProgress progress = at(clock, 2 * SECOND - 1, 100, 20_000);
        assertThat(progress.etaSeconds()).isEmpty();
    }

    @Test
    void aPausedJobHasNoEtaAndItsRateStandsStill() {
        JobClock clock = new JobClock(0);
        long t = run(clock, 0, 0, 10);
        assertThat(at(clock, t, 1_000, 20_000).etaSeconds()).isPresent();
        clock.pause(t);
        JobProgress paused = at(clock, t + 60 * SECOND, 1_000, 20_000);
        assertThat(paused.phase()).isEqualTo(Phase.PAUSED);
        assertThat(paused.etaSeconds()).isEmpty();
        assertThat(paused.rate()).isEqualTo(100.0);
        clock.resume(t + 60 * SECOND);
        assertThat(at(clock, t + 60 * SECOND, 1_000, 20_000).etaSeconds()).as("measured afresh after a resume")
                .isEmpty();
    }

    @Test
    void aJobAskedToStopHasNoEtaThoughItsClockRunsUntilItEnds() {
        JobClock clock = new JobClock(0);
        long t = run(clock, 0, 0, 10);
        clock.stopping(t);
        t = run(clock, t, 1_000, 3);
        JobProgress stopping = at(clock, t, 1_300, 20_000);
        assertThat(stopping.phase()).isEqualTo(Phase.STOPPING);
        assertThat(stopping.etaSeconds()).isEmpty();
        assertThat(stopping.elapsedSeconds()).isEqualTo(13.0);
    }

    @Test
    void noEtaWhenTheWholeIsUnknownOrAlreadyRead() {
        JobClock clock = new JobClock(0);
        long t = run(clock, 0, 0, 10);
        assertThat(at(clock, t, 1_000, -1).etaSeconds()).isEmpty();
        assertThat(at(clock, t, 1_000, 1_000).etaSeconds()).isEmpty();
    }
}
