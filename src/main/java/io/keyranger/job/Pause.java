package io.keyranger.job;

import java.time.Instant;

/**
 * A time a job stood paused, by the wall clock: a run's chart drawn afterwards leaves it out, as its running time does.
 *
 * @param from when it was paused
 * @param to   when it was resumed (or, for a pause under way, when it was asked about)
 */
public record Pause(Instant from, Instant to) {
}
