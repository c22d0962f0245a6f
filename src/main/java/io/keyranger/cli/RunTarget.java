package io.keyranger.cli;

import io.keyranger.job.JobIds;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionRules;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** What {@code run} runs: a new job (its options) or a resumed one (its id). */
final class RunTarget {
    @ArgGroup(exclusive = false)
    NewJob newJob;

    @Option(names = "--resume", paramLabel = "JOB_ID", description = "Resume this job from its ledgers (one started here or on Beam).")
    String resume;

    /** The options of a new job. */
    static final class NewJob {
        @Option(names = "--kind", paramLabel = "KIND[,KIND...]", description = "The kind to map, or several "
                + "separated by commas: one job, a tree per kind, kind after kind (or give --gql).")
        String kind;

        @Option(names = "--all-kinds", description = "Map every kind of the namespace (KeyRanger's bookkeeping and "
                + "Datastore's reserved kinds excluded), kind after kind, as one job.")
        boolean allKinds;

        @Option(names = "--include-bookkeeping", description = "With --all-kinds and the export template: export "
                + "KeyRanger's bookkeeping and undo kinds (_KeyRanger*) too; they are left out otherwise.")
        boolean includeBookkeeping;

        @Option(names = "--gql", paramLabel = "QUERY", description = "Map the entities a GQL query selects, e.g. "
                + "\"SELECT * FROM Account WHERE tier = 'pro' AND balance > 100\"; sharded like a kind.")
        String gql;

        @Option(names = "--mapper", required = true, paramLabel = "FILE.json",
                description = "The mapper spec, e.g. {\"template\": \"count\"}.")
        Path mapper;

        @ArgGroup(exclusive = false, multiplicity = "0..1")
        JobSize size = new JobSize();

        @Option(names = "--job-id", paramLabel = "ID", description = "The job's id (default: KIND-TIME-RANDOM).")
        String jobId;

        @Option(names = "--skip-bad-lines", description = "For an import: skip the lines of the file that are not "
                + "exported entities, each counted, instead of refusing the file (then nothing is written).")
        boolean skipBadLines;

        @Option(names = "--no-undo", description = "Keep no undo records: the job writes less (one write per entity it "
                + "changes) but cannot be reverted.")
        boolean noUndo;

        @Option(names = "--backup-to", paramLabel = "URL", description = "Before the job writes, back its kinds up "
                + "with a managed export on the server (the Admin API's exportEntities, as 'gcloud datastore export'),"
                + " to gs://BUCKET/PATH (on the emulator: a new local folder); waits for it and records its URL with "
                + "the job ('jobs' shows it).")
        String backupTo;

        @Option(names = "--dry-run", description = "Map a sample without writing anything and show what would change.")
        boolean dryRun;

        @Option(names = "--sample", defaultValue = "20", paramLabel = "N",
                description = "Entities in the dry run (default: ${DEFAULT-VALUE}).")
        int sample;
    }

    /** Whether the new job runs over several kinds (--kind A,B or --all-kinds). */
    boolean isGroup() {
        return newJob != null && (newJob.allKinds || newJob.kind != null && newJob.kind.contains(","));
    }

    /** The spec of the new job in {@code namespace}, from its options; a clear error for options that do not go together. */
    JobSpec newJobSpec(String namespace) {
        NewJob job = newJob;
        MapperSpec mapper = MapperSpec.read(job.mapper);
        if (job.skipBadLines) {
            if (!RunChecks.isImport(mapper)) {
                throw new KeyRangerException("--skip-bad-lines applies to an import, which reads a file; this job is '"
                        + mapper.template() + "'.");
            }
            mapper = mapper.withSkipBadLines();
        }
        if (job.noUndo) {
            if (!Mappers.template(mapper.template()).writes()) {
                throw new KeyRangerException("--no-undo applies to a job that writes; '" + mapper.template()
                        + "' writes nothing, so there is nothing to undo.");
            }
            mapper = mapper.withoutUndo();
        }
        if (job.allKinds && job.kind != null) {
            throw new KeyRangerException("Give --kind or --all-kinds, not both.");
        }
        if (isGroup()) {
            if (job.gql != null || mapper.query() != null) {
                throw new KeyRangerException("A GQL query reads one kind: run it without --all-kinds or a list of "
                        + "kinds.");
            }
            if (Mappers.template(mapper.template()).source() != Template.Source.KEY_RANGES) {
                throw new KeyRangerException("'" + mapper.template() + "' reads a file into one kind: give one --kind.");
            }
            String first = job.allKinds ? "all-kinds" : job.kind.split(",")[0].strip();
            String id = job.jobId != null ? job.jobId : JobIds.newJobId(first.isEmpty() ? "kinds" : first
                    + "-and-more");
            return new JobSpec(id, namespace, job.allKinds ? "(all kinds)" : job.kind, mapper, job.size.shards,
                    job.size.workers, job.size.pageSize, job.size.qps);
        }
        if (job.gql != null) {
            mapper = mapper.withGql(job.gql);
        }
        String kind = job.kind != null ? job.kind : mapper.query() != null ? mapper.query().kind() : null;
        if (kind == null) {
            throw new KeyRangerException("Say what to map: --kind KIND, or --gql \"SELECT * FROM KIND WHERE ...\".");
        }
        ConnectionRules.kind(kind);
        String id = job.jobId != null ? job.jobId : JobIds.newJobId(kind);
        return new JobSpec(id, namespace, kind, mapper, job.size.shards, job.size.workers, job.size.pageSize,
                job.size.qps);
    }
}
