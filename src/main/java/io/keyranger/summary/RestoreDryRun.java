package io.keyranger.summary;

import io.keyranger.backup.ExportDiff;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.job.RestoreMode;

/**
 * What a restore would do, from a comparison of its selection with live data: how many entities it brings back,
 * overwrites or leaves alone, and its operations, counted as every other estimate and the finished restore count
 * them ({@link Operations}). Printers only lay these out.
 *
 * @param diff       the comparison of the export's selection with live data
 * @param mode       what the restore does with an entity that changed live since the export
 * @param operations its whole operations: every compared entity read, every restored one written, with its undo
 */
public record RestoreDryRun(ExportDiff.Result diff, RestoreMode mode, Operations operations) {
    public static RestoreDryRun of(ExportDiff.Result diff, RestoreMode mode, boolean undo, ServerLimits limits) {
        // it writes those missing live, and the changed ones where it overwrites
        long restores = diff.removed() + (mode == RestoreMode.OVERWRITE ? diff.changed() : 0);
        return new RestoreDryRun(diff, mode, Operations.ofRestore(diff.compared(), restores, undo, limits));
    }

    /** Whether the restore writes this entity that differs: it is gone live, or the restore overwrites. */
    public boolean writes(ExportDiff.Example example) {
        return example.now() == null || mode == RestoreMode.OVERWRITE;
    }
}
