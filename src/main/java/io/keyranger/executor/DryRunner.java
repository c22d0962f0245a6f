package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.EntityJson;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.keys.KeyFormat;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.cel.PropertyTypes;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.ShardPlanner;
import io.keyranger.sharding.TotalEstimate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Runs a mapper on the first entities of a kind without writing anything, shows what it would change, and
 * scales the sample's operation counts to the whole kind with the planner's total.
 */
public final class DryRunner {
    /** The most keys a dry run counts one by one to give the exact size instead of an estimate. */
    static final long COUNT_LIMIT = 100_000;
    private final Datastore datastore;
    private final KeyOrder order;

    public DryRunner(Datastore datastore, KeyOrder order) {
        this.datastore = datastore;
        this.order = order;
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
     * @param sampled   entities the mapper saw
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
     */
    public record Result(int sampled, List<Change> changes, List<String> deletes, List<String> copies, long skipped,
                         Map<String, Long> counters, TotalEstimate total, long reads, long writes, long deletions,
                         long undoRecords, boolean noUndo, List<Problem> problems, List<String> warnings) {
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
        MapperSpec spec = unbound.bind(datastore.getOptions().getProjectId(), namespace, order);
        PageMapper mapper = Mappers.create(spec);
        List<Key> keys = new ArrayList<>();
        datastore.run(KeyRange.all(order).applyTo(Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind),
                spec.where()).setLimit(sample).build()).forEachRemaining(keys::add);
        if (keys.isEmpty()) {
            throw new io.keyranger.KeyRangerException("Kind '" + kind + "' has no entities"
                    + (spec.where().isEmpty() ? "" : " matching the filters") + ": nothing to dry-run.");
        }
        boolean typed = hasExpressions(spec);
        List<Entity> entities = mapper.needsEntities() || typed
                ? datastore.fetch(keys.toArray(new Key[0])).stream().filter(Objects::nonNull).toList() : List.of();
        // the spec's property parameters against the kind's listed properties: a typo is named, with the nearest name
        List<io.keyranger.datastore.PropertyInfo> properties = new DatastoreGateway(datastore).properties(namespace,
                kind);
        List<String> warnings = io.keyranger.mapper.SpecChecks.warnings(spec, kind, properties);
        if (typed) {
            mapper = Mappers.create(spec, PropertyTypes.of(properties, entities));
        }
        Page page = new Page(keys, mapper.needsEntities() ? entities : List.of());
        Map<Key, Entity> related = new HashMap<>();
        List<Key> asked = mapper.related(page);
        if (!asked.isEmpty()) {
            datastore.fetch(asked.toArray(new Key[0])).stream().filter(Objects::nonNull)
                    .forEach(e -> related.put(e.getKey(), e));
            page = new Page(page.keys(), page.entities(), related);
        }
        MapResult result = mapper.map(page);
        Map<Key, Entity> before = new HashMap<>(related);
        entities.forEach(e -> before.put(e.getKey(), e));
        List<Change> changes = new ArrayList<>();
        List<String> copies = new ArrayList<>();
        for (Entity put : result.puts()) {
            Entity original = before.get(put.getKey());
            if (original == null) {
                copies.add(KeyFormat.format(put.getKey()) + (put.getKey().getNamespace().isEmpty() ? ""
                        : " in namespace " + put.getKey().getNamespace()));
            } else {
                changes.addAll(diff(original, put));
            }
        }
        TotalEstimate total = keys.size() < sample ? new TotalEstimate(keys.size(), TotalEstimate.Method.EXACT_SCAN)
                : knownTotal != null && spec.where().isEmpty() ? knownTotal
                : exactWhenSmall(namespace, kind, spec, new ShardPlanner(datastore, order).preview(new PlanRequest(
                        namespace, kind, spec.where(), 16, PlanRequest.DEFAULT_OVERSAMPLE), ProgressListener.NONE,
                        Cancellation.NEVER).total());
        double scale = (double) total.total() / keys.size();
        long undoRecords = !mapper.keepsUndo() ? 0 : Math.round((result.puts().size() + result.deletes().size()) * scale);
        return new Result(keys.size(), changes, result.deletes().stream().map(KeyFormat::format).toList(), copies,
                result.skipped(), result.counters(), total, total.total(), Math.round(result.puts().size() * scale)
                + undoRecords, Math.round(result.deletes().size() * scale), undoRecords, mapper.writes()
                && !mapper.keepsUndo(), result.problems().stream()
                .map(p -> new Problem(KeyFormat.format(p.key()), p.reason())).toList(), warnings);
    }

    /**
     * The exact size in place of a sample-rate estimate, where counting is cheap: a keys-only scan of at most
     * {@link #COUNT_LIMIT} keys (a server with COUNT answered exactly already).
     */
    private TotalEstimate exactWhenSmall(String namespace, String kind, MapperSpec spec, TotalEstimate estimate) {
        if (estimate.exact() || estimate.total() > COUNT_LIMIT) {
            return estimate;
        }
        long counted = new io.keyranger.datastore.KeyCounter(datastore).count(namespace, kind, spec.where().isEmpty()
                ? null : io.keyranger.sharding.ScatterSampler.and(spec.where()), ProgressListener.NONE,
                Cancellation.NEVER).count();
        return new TotalEstimate(counted, TotalEstimate.Method.EXACT_SCAN);
    }

    private static boolean hasExpressions(MapperSpec spec) {
        return spec.whereExpression() != null || Mappers.template(spec.template()).params().stream()
                .anyMatch(p -> p.type() == io.keyranger.mapper.Param.Type.EXPRESSIONS && spec.json().has(p.name()));
    }

    private static List<Change> diff(Entity before, Entity after) {
        List<Change> changes = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>(before.getNames());
        names.addAll(after.getNames());
        String key = KeyFormat.format(before.getKey());
        for (String name : names) {
            String was = before.contains(name) ? EntityJson.cell(before.getValue(name)) : "(missing)";
            String now = after.contains(name) ? EntityJson.cell(after.getValue(name)) : "(removed)";
            boolean indexChanged = before.contains(name) && after.contains(name)
                    && before.getValue(name).excludeFromIndexes() != after.getValue(name).excludeFromIndexes();
            if (!was.equals(now) || indexChanged) {
                changes.add(new Change(key, name, was, now + (indexChanged ? " (index setting changed)" : "")));
            }
        }
        if (changes.isEmpty()) {
            changes.add(new Change(key, "(all)", "unchanged", "rewritten unchanged"));
        }
        return changes;
    }
}
