package io.keyranger.sharding;

import io.keyranger.keys.KeyRange;

/**
 * One range of a plan.
 *
 * @param index     its position, from 0
 * @param range     the keys it covers
 * @param samples   how many sampled keys fell in it
 * @param estimated its estimated number of entities
 * @param exact     its exact number of entities, or null until counted
 */
public record PlannedRange(int index, KeyRange range, int samples, long estimated, Long exact) {
    public PlannedRange withExact(long count) {
        return new PlannedRange(index, range, samples, estimated, count);
    }

    /** The exact size when counted, the estimate otherwise. */
    public long size() {
        return exact != null ? exact : estimated;
    }
}
