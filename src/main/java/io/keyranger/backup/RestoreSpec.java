package io.keyranger.backup;

import io.keyranger.job.JobIds;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.executor.source.SourceJobs;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import java.nio.file.Path;

/**
 * A restore as a job: the import template over a managed export ({@code "format": "managed"}), with its mode and
 * selection. The command line and the app build restores here, so both run the same job.
 *
 * @param export    the export's folder or metadata file
 * @param namespace the namespace restored
 * @param kind      the kind restored
 * @param mode      what to do with an entity that exists live
 * @param gql       a query that selects what is restored, or null
 * @param keys      a file of the only keys restored, or null
 * @param undo      whether the restore keeps undo records (so it can be reverted)
 */
public record RestoreSpec(Path export, String namespace, String kind, RestoreMode mode, String gql, Path keys,
                          boolean undo) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The job, with {@code jobId} or (null) a new id; its spec is checked as any job's is. */
    public JobSpec job(String jobId) {
        ObjectNode json = JSON.createObjectNode();
        json.put("template", "import").put("file", export.toAbsolutePath().toString())
                .put("format", SourceJobs.MANAGED).put(SourceJobs.MODE, mode.id());
        if (gql != null) {
            json.put(SourceJobs.SELECT, gql);
        }
        if (keys != null) {
            json.put(SourceJobs.KEYS, keys.toAbsolutePath().toString());
        }
        MapperSpec mapper = MapperSpec.parse(json.toString());
        mapper = undo ? mapper : mapper.withoutUndo();
        Mappers.template("import").validate(mapper);
        String id = jobId != null ? jobId : JobIds.newJobId("restore-" + kind);
        return new JobSpec(id, namespace, kind, mapper, 16, 8, 200, 0); // as a job's defaults
    }
}
