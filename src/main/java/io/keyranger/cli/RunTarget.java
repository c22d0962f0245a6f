package io.keyranger.cli;

import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** What {@code run} runs: a new job (its options) or a resumed one (its id). */
final class RunTarget {
    @ArgGroup(exclusive = false)
    NewJob newJob;

    @Option(names = "--resume", paramLabel = "JOB_ID", description = "Resume this job from its checkpoints.")
    String resume;

    /** The options of a new job. */
    static final class NewJob {
        @Option(names = "--kind", paramLabel = "KIND[,KIND...]", description = "The kind to map, or several "
                + "separated by commas: one job, a tree per kind, kind after kind (or give --gql).")
        String kind;

        @Option(names = "--all-kinds", description = "Map every kind of the namespace (KeyRanger's bookkeeping and "
                + "Datastore's reserved kinds excluded), kind after kind, as one job.")
        boolean allKinds;

        @Option(names = "--gql", paramLabel = "QUERY", description = "Map the entities a GQL query selects, e.g. "
                + "\"SELECT * FROM Account WHERE tier = 'pro' AND balance > 100\"; sharded like a kind.")
        String gql;

        @Option(names = "--mapper", required = true, paramLabel = "FILE.json",
                description = "The mapper spec, e.g. {\"template\": \"count\"}.")
        Path mapper;

        @Option(names = "--shards", defaultValue = "16", paramLabel = "N", description = "Planned ranges (default: ${DEFAULT-VALUE}).")
        int shards;

        @Option(names = "--workers", defaultValue = "8", paramLabel = "N", description = "Ranges at once (default: ${DEFAULT-VALUE}).")
        int workers;

        @Option(names = "--page-size", defaultValue = "200", paramLabel = "N", description = "Keys per page (default: ${DEFAULT-VALUE}).")
        int pageSize;

        @Option(names = "--qps", defaultValue = "0", paramLabel = "N",
                description = "Most entity operations per second, ramping up from 500 (default: no limit).")
        int qps;

        @Option(names = "--job-id", paramLabel = "ID", description = "The job's id (default: KIND-TIME-RANDOM).")
        String jobId;

        @Option(names = "--skip-bad-lines", description = "For an import: skip the lines of the file that are not "
                + "exported entities, each counted, instead of refusing the file (then nothing is written).")
        boolean skipBadLines;

        @Option(names = "--dry-run", description = "Map a sample without writing anything and show what would change.")
        boolean dryRun;

        @Option(names = "--sample", defaultValue = "20", paramLabel = "N",
                description = "Entities in the dry run (default: ${DEFAULT-VALUE}).")
        int sample;
    }
}
