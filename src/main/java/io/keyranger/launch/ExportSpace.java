package io.keyranger.launch;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Before an export reads anything: whether its file's disk has room for it. The size is estimated from a sample of
 * the kind's entities, encoded as the export writes them, times the planner's estimate of the kind's size; an export
 * that would not fit is refused with both figures. (Parts are written beside the file and joined at the end, so the
 * disk needs the export's size twice over at the join.)
 */
public final class ExportSpace {
    private static final int SAMPLE = 50;

    private ExportSpace() {
    }

    /**
     * The estimate, in bytes.
     *
     * @param bytes    the estimated size of the export
     * @param entities the estimated number of entities
     */
    public record Estimate(long bytes, long entities) {
    }

    public static Estimate estimate(Datastore datastore, KeyOrder order, JobSpec spec) {
        List<Entity> sample = new ArrayList<>();
        datastore.run(KeyRange.all(order).applyTo(Query.newEntityQueryBuilder().setNamespace(spec.namespace())
                .setKind(spec.kind()), spec.mapper().where()).setLimit(SAMPLE).build()).forEachRemaining(sample::add);
        if (sample.isEmpty()) {
            return new Estimate(0, 0);
        }
        long sampleBytes = sample.stream().mapToLong(e -> EntityCodec.line(e)
                .getBytes(StandardCharsets.UTF_8).length + 1).sum();
        long entities = sample.size() < SAMPLE ? sample.size() : new ShardPlanner(datastore, order).preview(
                new PlanRequest(spec.namespace(), spec.kind(), spec.mapper().where(), 16, PlanRequest.DEFAULT_OVERSAMPLE),
                ProgressListener.NONE, Cancellation.NEVER).total().total();
        return new Estimate(Math.round((double) sampleBytes / sample.size() * entities), entities);
    }

    /** Refuses an export whose disk has less room than twice its estimated size. */
    public static void check(Estimate estimate, Path file) {
        long free;
        try {
            free = Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace();
        } catch (IOException e) {
            return; // no figure to check against: the export's own writes will say if the disk fills
        }
        if (estimate.bytes() * 2 > free) {
            throw new KeyRangerException(String.format("Not enough room for the export: about %,d entities, %,d MB "
                    + "(twice that while its parts are joined), and %s has %,d MB free. Export to another disk, or "
                    + "free some space.", estimate.entities(), mb(estimate.bytes()),
                    file.toAbsolutePath().getParent(), mb(free)));
        }
    }

    private static long mb(long bytes) {
        return (bytes + 999_999) / 1_000_000;
    }
}
