package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.formats.undo.Reverting;
import io.keyranger.formats.undo.UndoBatch;
import io.keyranger.formats.undo.UndoImage;
import io.keyranger.formats.undo.UndoRecords;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes a job back: runs over the job's undo records ({@code _KeyRangerUndo.JOB}), read with their page (they never
 * change: {@link PageMapper#pageEntitiesFixed}), reads the entities they hold images of in the commit's transaction,
 * and restores each one's before state where the job's change is still there. Entities changed since the job are
 * conflicts: skipped with what differs, or restored anyway with {@code force}. Not offered as a template of
 * its own: {@code keyranger revert} and the Run tab's Revert button make its jobs.
 */
final class RevertTemplate extends BaseTemplate {
    static final String RESTORED = "restored";
    static final String ALREADY = "already as before";
    static final String FORCED = "restored over a later change";
    static final String CONFLICT = "changed since the job";

    RevertTemplate() {
        super("revert", "Take a job back: restore what it changed, where nothing changed it since.", true, true,
                Param.required("job", Param.Type.STRING, "the job to revert"),
                Param.optional("force", Param.Type.BOOLEAN, "restore entities changed since the job too", false));
    }

    @Override
    PageMapper build(SpecReader r) {
        String job = r.string("job", null);
        boolean force = r.bool("force", false);
        return new PageMapper() {
            @Override
            public String name() {
                return "revert";
            }

            @Override
            public boolean needsEntities() {
                return true;
            }

            @Override
            public boolean writes() {
                return true;
            }

            @Override
            public int entityGroupsPerKey() {
                return 2; // the undo record's group (its ledger's) and, for each image it holds, the restored entity's
            }

            @Override
            public boolean writesEachKeyOnce() {
                return true; // each entity has one image in the job it takes back
            }

            @Override
            public int entitiesPer(Key key) {
                return UndoRecords.imagesIn(key);
            }

            @Override
            public Page first(Page page, int entities) {
                List<Key> keys = new ArrayList<>();
                List<Entity> records = new ArrayList<>();
                int left = entities;
                for (Entity record : page.entities()) {
                    if (left <= 0) {
                        break;
                    }
                    UndoBatch kept = UndoBatch.firstOf(record, left);
                    keys.add(kept.record().getKey());
                    records.add(kept.record());
                    left -= kept.images().size();
                }
                return new Page(keys, records);
            }

            @Override
            public boolean pageEntitiesFixed() {
                return true; // undo records: see PageMapper#pageEntitiesFixed
            }

            @Override
            public List<Key> related(Page page) {
                return images(page).stream().map(UndoImage::target).toList();
            }

            @Override
            public MapResult map(Page page) {
                try {
                    return revert(job, force, page, images(page));
                } finally {
                    DECODED.remove(); // the page is done: a pooled thread keeps none of it
                }
            }
        };
    }

    /**
     * The images of a page just decoded on this thread (for its related keys), so that map does not decode them again;
     * map removes them (a commit that finds its page covered maps nothing: the next page's replace them).
     */
    private static final ThreadLocal<Decoded> DECODED = new ThreadLocal<>();

    private record Decoded(List<Entity> records, List<UndoImage> images) {
    }

    /** The images the page's records hold, in order, whatever their form ({@link UndoBatch#imagesOf}). */
    private static List<UndoImage> images(Page page) {
        Decoded last = DECODED.get();
        if (last != null && last.records() == page.entities()) {
            return last.images();
        }
        List<UndoImage> images = new ArrayList<>();
        page.entities().forEach(record -> images.addAll(UndoBatch.imagesOf(record)));
        DECODED.set(new Decoded(page.entities(), images));
        return images;
    }

    private static MapResult revert(String job, boolean force, Page page, List<UndoImage> images) {
        List<Entity> puts = new ArrayList<>();
        List<Key> deletes = new ArrayList<>();
        Map<String, Long> counters = new HashMap<>();
        EntitySkips conflicts = new EntitySkips();
        for (UndoImage image : images) {
            Entity live = page.related().get(image.target());
            Reverting.Verdict verdict = Reverting.verdict(image, live);
            if (verdict == Reverting.Verdict.ALREADY_BEFORE) {
                counters.merge(ALREADY, 1L, Long::sum);
                continue;
            }
            if (verdict == Reverting.Verdict.CONFLICT && !force) {
                conflicts.add(image.target(), CONFLICT, "changed since job " + job + ": "
                        + Reverting.differences(image.after(), live));
                continue;
            }
            counters.merge(verdict == Reverting.Verdict.CONFLICT ? FORCED : RESTORED, 1L, Long::sum);
            if (image.before() != null) {
                puts.add(image.before());
            } else if (live != null) {
                deletes.add(image.target());
            }
        }
        return new MapResult(puts, deletes, conflicts.count(), conflicts.addCountersTo(counters), List.of(),
                conflicts.problems());
    }
}
