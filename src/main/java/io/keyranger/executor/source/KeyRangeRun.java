package io.keyranger.executor.source;

import com.google.cloud.datastore.Datastore;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.cells.KindSource;
import io.keyranger.executor.cells.ReadTimeMapper;
import io.keyranger.files.FileStore;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import java.util.function.Consumer;

/**
 * A job over its kind's keys, live or (with a read time) as they were then ({@link ReadTimeMapper}), mapped by its
 * template's mapper. Its id must be free: a new job of it is new ({@code executor.store.JobPlans} refuses a taken
 * id), so there is nothing to check before it starts.
 */
record KeyRangeRun(JobInput.KindKeys input) implements InputRun {
    @Override
    public JobSpec checked(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, Earlier earlier,
                           Consumer<String> warnings) {
        return spec;
    }

    /** Planned over the live kind's keys, or (at a read time) the kind's then, which may have no entities left. */
    @Override
    public InputPlan plan(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec, PlanRequest request,
                          Cancellation cancellation) {
        if (input.readTime() != null) {
            return InputPlan.ranges(new ShardPlanner(ReadTimeMapper.reader(datastore, spec), order)
                    .planRangesOrWhole(request, cancellation));
        }
        return InputPlan.ranges(new ShardPlanner(datastore, order).planRanges(request, cancellation));
    }

    @Override
    public Pages pages(Datastore datastore, FileStore files, KeyOrder order, JobSpec spec) {
        PageMapper mapper = ReadTimeMapper.of(datastore, spec, Mappers.create(spec.mapper()));
        return new Pages(new KindSource(datastore, spec, mapper), mapper);
    }
}
