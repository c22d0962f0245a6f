package io.keyranger.dryrun;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.datastore.PropertyInfo;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.cells.Chunker;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.Param;
import io.keyranger.mapper.SpecChecks;
import io.keyranger.mapper.cel.PropertyTypes;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ScatterSampler;
import io.keyranger.sharding.ShardPlanner;
import io.keyranger.sharding.TotalEstimate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs a mapper on the first entities of a kind without writing anything, shows what it would change, and
 * scales the sample's operation counts to the whole kind with the planner's total. Where a key stands for several
 * entities ({@link PageMapper#entitiesPer}: a revert's undo record, for the before-images it holds), the sample and
 * every figure count entities: it reads the records it needs and decides exactly the sample's number of them.
 */
public final class DryRunner {
    /** The most keys a dry run counts one by one to give the exact size instead of an estimate. */
    static final long COUNT_LIMIT = 100_000;
    /**
     * The most entities a dry run reads in full to decide conditions applied on the client (a GQL inequality, a CEL
     * where): up to this many, the count of those that match is exact; beyond, it is scaled from those read.
     */
    static final long SCAN_LIMIT = 10_000;
    /** Keys per lookup after the first page, while the dry run reads on to count matches. */
    private static final int COUNT_PAGE = 1_000;
    private final Datastore datastore;
    private final KeyOrder order;
    private final long scanLimit;
    private final ServerType server;

    /** A dry run on an open connection (its order, and what its server lists of a kind's properties). */
    public DryRunner(Session session) {
        this(session.datastore(), session.order(), SCAN_LIMIT, session.spec().server());
    }

    /** A dry run on a server with property metadata. */
    public DryRunner(Datastore datastore, KeyOrder order) {
        this(datastore, order, SCAN_LIMIT);
    }

    /** As above, reading at most {@code scanLimit} entities to decide conditions applied on the client. */
    DryRunner(Datastore datastore, KeyOrder order, long scanLimit) {
        this(datastore, order, scanLimit, ServerType.PRODUCTION);
    }

    private DryRunner(Datastore datastore, KeyOrder order, long scanLimit, ServerType server) {
        this.datastore = datastore;
        this.order = order;
        this.scanLimit = Math.max(1, scanLimit);
        this.server = server;
    }

    /**
     * One changed property of one entity.
     *
     * @param key      the entity
     * @param property the property
     * @param before   its value before, or "(missing)"
     * @param after    its value after, or "(removed)"
     */
    public record Change(String key, String property, String before, String after) {
    }

    /**
     * What a job would do.
     *
     * @param sampled   entities the mapper saw (a revert's: before-images it decided)
     * @param changes   property changes on the sampled entities
     * @param deletes   keys it would delete
     * @param copies    keys it would write other than the sampled ones (copy targets)
     * @param skipped   entities it would skip
     * @param counters  its own counters on the sample
     * @param total     the kind's size and its source
     * @param reads     estimated reads for the whole job
     * @param writes    estimated writes for the whole job
     * @param deletions estimated deletes for the whole job
     * @param undoRecords estimated undo records for the whole job (counted in {@code writes})
     * @param noUndo    whether the job writes without keeping undo records, and so cannot be reverted
     * @param problems  sampled entities an expression failed on, with why (skipped, and counted in skipped)
     * @param warnings  the spec's properties that the kind does not list, with the nearest names
     * @param matches   how many entities meet the conditions applied on the client, or null when there are none;
     *                  when {@link ClientMatches#unknown()}, the writes, deletions and undo records are not known
     *                  (they are 0 here: say so as the report's DryRunSummary does, never as 0)
     */
    public record Result(int sampled, List<Change> changes, List<String> deletes, List<String> copies, long skipped,
                         Map<String, Long> counters, TotalEstimate total, long reads, long writes, long deletions,
                         long undoRecords, boolean noUndo, List<Problem> problems, List<String> warnings,
                         ClientMatches matches) {
        public Result {
            problems = List.copyOf(problems);
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * A sampled entity that would be skipped, and why.
     *
     * @param key    the entity, formatted
     * @param reason e.g. "set.balance: long overflow"
     */
    public record Problem(String key, String reason) {
    }

    public Result run(String namespace, String kind, MapperSpec spec, int sample) {
        return run(namespace, kind, spec, sample, null);
    }

    /**
     * As above, with the kind's exact size when the caller knows it (used only without filters). A spec with CEL
     * expressions has them type-checked against the kind's properties ({@link DatastoreGateway#properties} and the
     * sampled entities) before anything is mapped: an {@link io.keyranger.mapper.cel.ExpressionException} names the
     * expression and the place in it.
     */
    public Result run(String namespace, String kind, MapperSpec unbound, int sample, TotalEstimate knownTotal) {
        return run(namespace, kind, unbound, sample, knownTotal, ProgressListener.NONE, Cancellation.NEVER);
    }

    /**
     * As above, saying as it goes how many entities (or keys, while it counts the kind) it has read so far, with the
     * total when known (else -1); {@code cancellation} is looked at before each read, and a cancelled dry run stops
     * there with a {@link java.util.concurrent.CancellationException}, starting no read after it.
     */
    public Result run(String namespace, String kind, MapperSpec unbound, int sample, TotalEstimate knownTotal,
                      ProgressListener progress, Cancellation cancellation) {
        MapperSpec spec = unbound.bind(datastore.getOptions().getProjectId(), namespace, order);
        PageMapper mapper = Mappers.create(spec);
        String clientConditions = Mappers.clientConditions(spec);
        // over conditions applied on the client, read on (up to scanLimit) so that the count of matches is known
        Iterator<Key> found = datastore.run(KeyRange.all(order).applyTo(Query.newKeyQueryBuilder()
                .setNamespace(namespace).setKind(kind), spec.where()).setLimit(clientConditions == null ? sample
                : (int) Math.min(Integer.MAX_VALUE, Math.max(sample, scanLimit) + 1)).build());
        cancellation.check();
        List<Key> taken = take(found, sample);
        List<Key> keys = standingFor(taken, sample, mapper);
        progress.progress(keys.size(), -1);
        cancellation.check();
        // the spec's property parameters against the kind's listed properties: a typo is named, with the nearest name
        DatastoreGateway gateway = new DatastoreGateway(datastore, server);
        List<PropertyInfo> properties = gateway.properties(namespace, kind);
        List<String> warnings = SpecChecks.warnings(spec, kind, properties,
                !gateway.listsEverything());
        if (keys.isEmpty()) { // most often a filter's typo: the warnings name it
            throw new KeyRangerException("Kind '" + kind + "' has no entities"
                    + (spec.where().isEmpty() ? "" : " matching the filters") + ": nothing to dry-run."
                    + (warnings.isEmpty() ? "" : " " + String.join(" ", warnings)));
        }
        boolean typed = hasExpressions(spec);
        cancellation.check();
        List<Entity> entities = mapper.needsEntities() || typed ? fetch(keys) : List.of();
        cancellation.check();
        if (typed) {
            mapper = Mappers.create(spec, PropertyTypes.of(properties, entities));
        }
        DryRunTally tally = new DryRunTally();
        mapPage(spec, mapper, keys, entities, tally, true, sample);
        while (clientConditions != null && tally.read < scanLimit && found.hasNext()) {
            progress.progress(tally.read, -1);
            cancellation.check();
            boolean show = tally.sampledMatching < sample; // the shown sample goes on until it holds some matches
            List<Key> next = take(found, (int) Math.min(scanLimit - tally.read, COUNT_PAGE));
            mapPage(spec, mapper, next, mapper.needsEntities() ? fetch(next) : List.of(), tally, show,
                    Integer.MAX_VALUE);
        }
        boolean allRead = clientConditions == null ? taken.size() < sample && tally.read == entitiesIn(taken, mapper)
                : !found.hasNext();
        progress.progress(tally.read, -1);
        cancellation.check();
        long readBefore = tally.read;
        // counting the kind's keys (where that is cheap enough) goes on from the entities read: one count that grows
        ProgressListener counted = (done, total) -> progress.progress(readBefore + done, -1);
        TotalEstimate total = allRead ? new TotalEstimate(tally.read, TotalEstimate.Method.EXACT_SCAN)
                : inEntities(namespace, kind, spec, mapper, taken, knownTotal != null && spec.where().isEmpty()
                ? knownTotal : exactWhenSmall(namespace, kind, spec, new ShardPlanner(datastore, order).preview(
                        new PlanRequest(namespace, kind, spec.where(), 16, PlanRequest.DEFAULT_OVERSAMPLE),
                        ProgressListener.NONE, cancellation).total(), counted, cancellation), counted, cancellation);
        ClientMatches matches = clientConditions == null ? null : new ClientMatches(clientConditions,
                spec.query() == null ? "" : spec.query().serverConditions(), tally.read, tally.matched,
                Math.max(total.total(), tally.read), allRead, tally.sampledMatching);
        double scale = (double) total.total() / tally.read;
        long undoRecords = !mapper.keepsUndo() ? 0 : Chunker.undoRecords(Math.round((tally.puts + tally.deletions)
                * scale), mapper.writesEachKeyOnce(), 0, server.limits());
        return new Result(tally.sampled, tally.changes, tally.deletes, tally.copies, tally.skipped, tally.counters,
                total, total.total(), Math.round(tally.puts * scale) + undoRecords, Math.round(tally.deletions * scale),
                undoRecords, mapper.writes() && !mapper.keepsUndo(), tally.problems, warnings, matches);
    }

    /**
     * Maps one page of keys (and their entities, when the mapper reads them) into the tally, cut to the first
     * {@code most} entities its keys stand for ({@link PageMapper#first}).
     */
    private void mapPage(MapperSpec spec, PageMapper mapper, List<Key> keys, List<Entity> entities, DryRunTally tally,
                         boolean show, int most) {
        Page page = mapper.first(new Page(keys, mapper.needsEntities() ? entities : List.of()), most);
        int read = (int) entitiesIn(page.keys(), mapper);
        Map<Key, Entity> related = new HashMap<>();
        List<Key> asked = mapper.related(page);
        if (!asked.isEmpty()) {
            fetch(asked).forEach(e -> related.put(e.getKey(), e));
            page = new Page(page.keys(), page.entities(), related);
        }
        MapResult result = mapper.map(page);
        Map<Key, Entity> before = new HashMap<>(related);
        entities.forEach(e -> before.put(e.getKey(), e));
        tally.add(result, before, read, Mappers.matching(spec, result, read), show);
    }

    /** The first of {@code keys} that stand for {@code entities} entities, or all of them when they stand for fewer. */
    private static List<Key> standingFor(List<Key> keys, long entities, PageMapper mapper) {
        long standing = 0;
        int n = 0;
        while (n < keys.size() && standing < entities) {
            standing += mapper.entitiesPer(keys.get(n++));
        }
        return keys.subList(0, n);
    }

    private static long entitiesIn(List<Key> keys, PageMapper mapper) {
        return keys.stream().mapToLong(mapper::entitiesPer).sum();
    }

    /**
     * The entities that {@code keys}, a total of the kind's keys, stand for: the same number where each key is one
     * entity; where the first keys ({@code first}) stand for several, the sum over every key by a keys-only scan up to
     * {@link #COUNT_LIMIT} keys, beyond it their count times the first ones' mean.
     */
    private TotalEstimate inEntities(String namespace, String kind, MapperSpec spec, PageMapper mapper,
                                     List<Key> first, TotalEstimate keys, ProgressListener progress,
                                     Cancellation cancellation) {
        long standing = entitiesIn(first, mapper);
        if (standing == first.size()) {
            return keys;
        }
        if (keys.total() > COUNT_LIMIT) {
            return new TotalEstimate(Math.round((double) keys.total() * standing / first.size()),
                    TotalEstimate.Method.PER_KEY);
        }
        Iterator<Key> all = datastore.run(KeyRange.all(order).applyTo(Query.newKeyQueryBuilder()
                .setNamespace(namespace).setKind(kind), spec.where()).build());
        long entities = 0;
        long read = 0;
        while (all.hasNext()) {
            entities += mapper.entitiesPer(all.next());
            if (++read % COUNT_PAGE == 0) {
                progress.progress(read, -1);
                cancellation.check();
            }
        }
        return new TotalEstimate(entities, TotalEstimate.Method.EXACT_SCAN);
    }

    private List<Entity> fetch(List<Key> keys) {
        return datastore.fetch(keys.toArray(new Key[0])).stream().filter(Objects::nonNull).toList();
    }

    private static List<Key> take(Iterator<Key> keys, int n) {
        List<Key> page = new ArrayList<>();
        while (page.size() < n && keys.hasNext()) {
            page.add(keys.next());
        }
        return page;
    }

    /**
     * The exact size in place of a sample-rate estimate, where counting is cheap: a keys-only scan of at most
     * {@link #COUNT_LIMIT} keys (a server with COUNT answered exactly already).
     */
    private TotalEstimate exactWhenSmall(String namespace, String kind, MapperSpec spec, TotalEstimate estimate,
                                         ProgressListener progress, Cancellation cancellation) {
        if (estimate.exact() || estimate.total() > COUNT_LIMIT) {
            return estimate;
        }
        long counted = new KeyCounter(datastore).count(namespace, kind, spec.where().isEmpty()
                ? null : ScatterSampler.and(spec.where()), progress, cancellation).count();
        return new TotalEstimate(counted, TotalEstimate.Method.EXACT_SCAN);
    }

    private static boolean hasExpressions(MapperSpec spec) {
        return spec.whereExpression() != null || Mappers.template(spec.template()).params().stream()
                .anyMatch(p -> p.type() == Param.Type.EXPRESSIONS && spec.json().has(p.name()));
    }
}
