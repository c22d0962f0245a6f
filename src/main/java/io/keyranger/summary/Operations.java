package io.keyranger.summary;

import io.keyranger.backup.PastRestoreDryRun;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.executor.cells.Chunker;
import io.keyranger.job.JobResult;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.job.JobInput;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;

/**
 * The billed operations of a job, counted one way wherever they are shown: before it runs (a confirmation over the
 * kind's count, a dry run scaled from its sample) and after it ran (its persisted counters). Every entity the job
 * goes through is a read (a delete reads its keys too); every entity it puts and every undo record it keeps is a
 * write; every entity it removes is a delete. Given the same counts, every estimate and the finished job come to one
 * price. An undo record is one entity per commit for a job that writes each key once (its before-images together), one
 * per entity put or deleted for the others (a copy, an import): {@link Chunker#undoRecords}.
 *
 * @param reads       entities read
 * @param writes      entities written, undo records included
 * @param deletes     entities deleted
 * @param undoRecords of the writes, the undo record entities (none when undo is off)
 */
public record Operations(long reads, long writes, long deletes, long undoRecords) {
    public Operations {
        if (reads < 0 || writes < 0 || deletes < 0 || undoRecords < 0 || undoRecords > writes) {
            throw new IllegalArgumentException(reads + " reads, " + writes + " writes (" + undoRecords + " undo), "
                    + deletes + " deletes");
        }
    }

    /** What a finished (or stopped) job did, from its persisted counters. */
    public static Operations of(JobResult result) {
        return new Operations(result.readsBilled(), result.writesBilled(), result.total("deleted"),
                result.total(JobResult.UNDO_RECORDS));
    }

    /** What a dry run estimates for the whole job (zero writes and deletes where its matches are unknown). */
    public static Operations of(DryRunner.Result result) {
        return new Operations(result.reads(), result.writes(), result.deletions(), result.undoRecords());
    }

    /**
     * What job {@code spec} over {@code entities} entities, in pages of {@code pageSize} keys (0: not known), does if it
     * changes every one of them: the estimate a confirmation gives from a kind's count, before any dry run. A template
     * that deletes removes each one; one that writes puts each one; with undo it keeps their before-images
     * ({@link Chunker#undoRecords}: one a commit where its mapper writes each key once,
     * {@link JobInput#writesEachKeyOnce}).
     */
    public static Operations overEvery(long entities, MapperSpec spec, int pageSize, ServerLimits limits) {
        Template template = Mappers.template(spec.template());
        boolean deletes = template.name().equals("delete");
        boolean writes = template.writes();
        long changed = writes ? entities : 0;
        long undoRecords = spec.undo() && writes
                ? Chunker.undoRecords(changed, JobInput.of(spec).writesEachKeyOnce(spec), pageSize, limits) : 0;
        return new Operations(entities, (writes && !deletes ? changed : 0) + undoRecords, deletes ? changed : 0,
                undoRecords);
    }

    /**
     * The one estimate of a new job before it runs, which every confirmation gives: the whole-job figures of a dry run
     * of this very spec over its kind when there is one ({@code dryRun}, or null), the figures that dry run itself
     * shows; else, for a job over every entity of its kind ({@code kindCount}, -1 when not known), each one changed
     * ({@link #overEvery}, in pages of {@code pageSize} keys, 0: not known). Null when neither says it: a job whose filters let through a share of the kind that only
     * a dry run measures, or a dry run that could not tell how many entities match.
     */
    public static Operations estimate(MapperSpec spec, int pageSize, long kindCount, DryRunner.Result dryRun,
                                      ServerLimits limits) {
        if (dryRun != null) {
            return dryRun.matches() != null && dryRun.matches().unknown() ? null : of(dryRun);
        }
        boolean filtered = !spec.where().isEmpty() || spec.query() != null || Mappers.clientConditions(spec) != null;
        return filtered || kindCount < 0 ? null : overEvery(kindCount, spec, pageSize, limits);
    }

    /**
     * A restore from the database's past, from its dry run: what it reads to decide each key (its queries and lookups
     * of the past, and the live read in the commit's transaction: {@link PastRestoreDryRun#reads}), its changes with
     * their undo records (it writes each key once: one record per commit).
     */
    public static Operations of(PastRestoreDryRun dry) {
        // only servers without an entity-group limit keep a past (not the legacy emulator)
        long undoRecords = dry.undo() ? Chunker.undoRecords(dry.writes() + dry.deletes(), true, 0,
                ServerLimits.PRODUCTION) : 0;
        return new Operations(dry.reads(), dry.writes() + undoRecords, dry.deletes(), undoRecords);
    }

    /**
     * What a restore from a managed export does: it reads every entity of the selection, and writes those it restores
     * with their undo unless {@code undo} is off. An export holds each key once, so its job writes each once and keeps
     * about one record a commit ({@link Chunker#undoRecords}; its check finds a key held twice, and such a job keeps
     * a record an entity).
     */
    public static Operations ofRestore(long compared, long restores, boolean undo, ServerLimits limits) {
        long undoRecords = undo ? Chunker.undoRecords(restores, true, 0, limits) : 0;
        return new Operations(compared, restores + undoRecords, 0, undoRecords);
    }

    /** Their price, in dollars. */
    public double price(PriceTable prices) {
        return prices.price(reads, writes, deletes);
    }

    /** "20,000 reads, 40,000 writes, 0 deletes ≈ $0.08 at nam5 (multi-region, US) prices of 2026-11-23". */
    public String describe(PriceTable prices) {
        return prices.describe(reads, writes, deletes);
    }
}
