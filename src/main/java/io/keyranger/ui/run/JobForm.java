package io.keyranger.ui.run;

import io.keyranger.executor.AdaptiveSplitExecutor;
import io.keyranger.executor.JobSpec;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** The Run tab's form: the mapper spec and how the job runs (planned ranges, workers, page size, rate limit). */
public final class JobForm {
    private final StringProperty mapperJson = new SimpleStringProperty("{\"template\": \"count\"}");
    private final IntegerProperty shards = new SimpleIntegerProperty(16);
    private final IntegerProperty workers = new SimpleIntegerProperty(8);
    private final IntegerProperty pageSize = new SimpleIntegerProperty(200);
    private final IntegerProperty qps = new SimpleIntegerProperty(0);

    /** A new job on {@code target} from the form; a {@link io.keyranger.KeyRangerException} says what is wrong. */
    JobSpec spec(JobTarget target) {
        MapperSpec mapper = MapperSpec.parse(mapperJson.get());
        Mappers.template(mapper.template()).validate(mapper);
        return new JobSpec(AdaptiveSplitExecutor.newJobId(target.kind()), target.namespace(), target.kind(), mapper,
                shards.get(), workers.get(), pageSize.get(), qps.get());
    }

    public StringProperty mapperJsonProperty() {
        return mapperJson;
    }

    public IntegerProperty shardsProperty() {
        return shards;
    }

    public IntegerProperty workersProperty() {
        return workers;
    }

    public IntegerProperty pageSizeProperty() {
        return pageSize;
    }

    public IntegerProperty qpsProperty() {
        return qps;
    }
}
