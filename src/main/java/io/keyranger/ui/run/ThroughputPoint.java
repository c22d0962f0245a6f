package io.keyranger.ui.run;

/**
 * Entities per second at a moment of the run.
 *
 * @param seconds since the start
 * @param rate    entities read per second since the point before
 */
public record ThroughputPoint(double seconds, double rate) {
}
