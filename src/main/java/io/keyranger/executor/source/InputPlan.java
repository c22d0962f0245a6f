package io.keyranger.executor.source;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.keys.KeyRange;
import io.keyranger.sharding.ShardPlanner;
import java.util.List;

/**
 * How a new job starts, as its input planned it: over key ranges, its starting ranges with the scatter samples its
 * cells are cut at ({@code cells} null), and the keys it counted when it scanned them all (else -1); over a file's
 * entries, its cells cut along the file's bytes, the ranges of whole cells it starts from, and the entries the
 * file's check counted.
 */
public record InputPlan(List<KeyRange> starts, List<Key> samples, CellPlan cells, long entries) {
    /** A plan over key ranges. */
    public static InputPlan ranges(ShardPlanner.RangePlan plan) {
        return new InputPlan(plan.ranges(), plan.samples(), null, plan.entities());
    }
}
