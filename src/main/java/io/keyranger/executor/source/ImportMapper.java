package io.keyranger.executor.source;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.MixedArrays;
import io.keyranger.job.JobReport;
import io.keyranger.job.RestoreMode;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The mapper of an import or a restore: over a page of its input's entries, it writes the entities of the job's kind
 * as its {@link RestoreMode} decides against the live ones (read in the commit's transaction), and counts the entries
 * it passes over: bad ones, those the selection does not take, those of another kind.
 */
final class ImportMapper implements PageMapper {
    /** The reason an entity of another kind than the job's is skipped with. */
    static final String OTHER_KIND = "of another kind";

    private final String kind;
    private final RestoreMode mode;
    private final UnaryOperator<Entity> placing;
    /** Whether the input is a managed export, whose format does not keep the order of mixed arrays. */
    private final boolean managed;
    /** Whether its input's check found no key in two entries it takes ({@code JobInput#writesEachKeyOnce}). */
    private final boolean eachKeyOnce;

    ImportMapper(String kind, RestoreMode mode, UnaryOperator<Entity> placing, boolean managed, boolean eachKeyOnce) {
        this.kind = kind;
        this.mode = mode;
        this.placing = placing;
        this.managed = managed;
        this.eachKeyOnce = eachKeyOnce;
    }

    @Override
    public String name() {
        return "import";
    }

    @Override
    public boolean needsEntities() {
        return false;
    }

    @Override
    public boolean writes() {
        return true;
    }

    @Override
    public boolean readsSource() {
        return true;
    }

    @Override
    public int entityGroupsPerKey() {
        return 1;
    }

    /** Each target once where its input's check found so: its commits keep their undo in one record each. */
    @Override
    public boolean writesEachKeyOnce() {
        return eachKeyOnce;
    }

    /** The live entities a restore decides against; an import that overwrites reads none. */
    @Override
    public List<Key> related(Page page) {
        return mode.readsLive() ? chosen(page, new HashMap<>(), new ArrayList<>()).stream().map(Entity::getKey).toList()
                : List.of();
    }

    @Override
    public MapResult map(Page page) {
        Map<String, Long> counters = new HashMap<>();
        List<MapResult.Problem> problems = new ArrayList<>();
        List<Entity> chosen = chosen(page, counters, problems);
        if (managed) {
            long mixed = chosen.stream().filter(MixedArrays::in).count();
            if (mixed > 0) {
                counters.merge(MixedArrays.NOT_KEPT, mixed, Long::sum);
            }
        }
        long passed = counters.entrySet().stream().filter(c -> !c.getKey().equals(FileRun.NOT_SELECTED))
                .mapToLong(Map.Entry::getValue).sum(); // skipped: not those the selection passes over
        MapResult decided = mode.decide(chosen, page.related(), placing);
        decided.counters().forEach((name, n) -> counters.merge(name, n, Long::sum));
        problems.addAll(decided.problems());
        return new MapResult(decided.puts(), List.of(), passed + decided.skipped(), counters, List.of(), problems);
    }

    /**
     * The page's entities of the job's kind, the last of each key (an input may hold a key twice; one commit writes
     * it once); the others counted in {@code counters}, with a problem for each bad entry.
     */
    private List<Entity> chosen(Page page, Map<String, Long> counters, List<MapResult.Problem> problems) {
        Map<Key, Entity> chosen = new LinkedHashMap<>();
        for (Key position : page.keys()) {
            SourceRecord record = page.records().get(position);
            if (record == null) {
                continue;
            }
            if (record.skipped() != null) {
                counters.merge(record.skipped(), 1L, Long::sum);
                if (record.detail() != null) {
                    problems.add(new MapResult.Problem(position, record.detail(), ImportFile.BAD_LINE));
                }
            } else if (!record.entity().getKey().getKind().equals(kind)) {
                counters.merge(JobReport.SKIPPED_PREFIX + OTHER_KIND, 1L, Long::sum);
            } else {
                chosen.remove(record.entity().getKey());
                chosen.put(record.entity().getKey(), record.entity());
            }
        }
        return new ArrayList<>(chosen.values());
    }
}
