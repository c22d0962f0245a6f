package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The ranges a runner owns, in fenced transactions of a few ranges each: writing a new plan, claiming the ranges of
 * a job it took (stamping them with its epoch), and forgetting a job that could not be planned.
 */
final class JobRanges {
    private static final String RANGE_KIND = JobStore.RANGE_KIND;

    private final Datastore datastore;
    private final JobStore store;
    private final CommitHook hook;

    JobRanges(Datastore datastore, JobStore store, CommitHook hook) {
        this.datastore = datastore;
        this.store = store;
        this.hook = hook;
    }

    /**
     * Writes a plan's root ranges in fenced batches of {@code batch}; the last transaction marks the job planned. Any
     * ranges of an earlier, unfinished plan are deleted first (nothing ran in them: ranges run once a job is planned).
     */
    void savePlan(JobLease lease, String jobId, List<RangeNode> roots, int batch, RetryPolicy policy) {
        List<Key> stale = policy.call(() -> {
            List<Key> keys = new ArrayList<>();
            datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                    .setFilter(PropertyFilter.eq("jobId", jobId)).build()).forEachRemaining(keys::add);
            return keys;
        });
        for (int i = 0; i < stale.size(); i += batch) {
            List<Key> slice = stale.subList(i, Math.min(stale.size(), i + batch));
            retries(policy, () -> fencedDelete(lease, slice));
        }
        for (int i = 0; i < roots.size(); i += batch) {
            List<Entity> slice = roots.subList(i, Math.min(roots.size(), i + batch)).stream()
                    .map(n -> store.nodeEntity(jobId, n)).toList();
            retries(policy, () -> store.fencedOnJob("plan", lease, job -> slice));
        }
        retries(policy, () -> store.fencedOnJob("plan", lease, job -> List.of(Entity.newBuilder(job).set("planned", true)
                .build())));
    }

    /**
     * Removes a job that could not be planned (an empty kind, a server error while planning): its ranges, then the job
     * and its lease in one fenced transaction, so that a failed start leaves nothing half-written behind.
     */
    void forget(JobLease lease, String jobId, RetryPolicy policy) {
        List<Key> ranges = policy.call(() -> {
            List<Key> keys = new ArrayList<>();
            datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                    .setFilter(PropertyFilter.eq("jobId", jobId)).build()).forEachRemaining(keys::add);
            return keys;
        });
        for (int i = 0; i < ranges.size(); i += 20) {
            List<Key> slice = ranges.subList(i, Math.min(ranges.size(), i + 20));
            retries(policy, () -> fencedDelete(lease, slice));
        }
        retries(policy, () -> fencedDelete(lease, List.of(lease.fenceKey(), lease.leaseKey())));
    }

    private void fencedDelete(JobLease lease, List<Key> keys) {
        Transaction tx = datastore.newTransaction();
        try {
            lease.check(tx.get(lease.fenceKey()));
            tx.delete(keys.toArray(new Key[0]));
            hook.beforeCommit("plan");
            tx.commit();
        } finally {
            if (tx.isActive()) {
                io.keyranger.datastore.Retries.rollbackQuietly(tx);
            }
        }
    }

    private static void retries(RetryPolicy policy, Runnable operation) {
        policy.call(() -> {
            operation.run();
            return null;
        });
    }

    /**
     * Stamps every range of the job that is not finished with this runner's epoch, in transactions of {@code batch}
     * ranges, and returns every range as stored after that. From then on a runner that held the job before can commit
     * nothing to them. Ranges it split off meanwhile (with its older epoch) are found and stamped in the next round.
     */
    List<RangeNode> claim(JobLease lease, String jobId, KeyOrder order, int batch, RetryPolicy policy) {
        for (int round = 0; round < 10_000; round++) {
            List<Entity> stored = policy.call(() -> {
                List<Entity> all = new ArrayList<>();
                datastore.run(Query.newEntityQueryBuilder().setNamespace("").setKind(RANGE_KIND)
                        .setFilter(PropertyFilter.eq("jobId", jobId)).build()).forEachRemaining(all::add);
                return all;
            });
            List<Key> unclaimed = stored.stream()
                    .filter(e -> !NodeStatus.valueOf(e.getString("status")).isFinal())
                    .filter(e -> !e.contains("epoch") || e.getLong("epoch") != lease.epoch())
                    .map(Entity::getKey).toList();
            if (unclaimed.isEmpty()) {
                List<RangeNode> nodes = new ArrayList<>(stored.stream().map(e -> RangeEntities.toNode(e, order)).toList());
                nodes.sort((a, b) -> a.id.compareTo(b.id));
                return nodes;
            }
            for (int i = 0; i < unclaimed.size(); i += batch) {
                List<Key> slice = unclaimed.subList(i, Math.min(unclaimed.size(), i + batch));
                retries(policy, () -> claim(lease, slice));
            }
        }
        throw new KeyRangerException("Could not claim the ranges of job " + jobId + ": they keep changing.");
    }

    private void claim(JobLease lease, List<Key> nodes) {
        Transaction tx = datastore.newTransaction();
        try {
            List<Entity> puts = new ArrayList<>();
            for (Entity node : tx.fetch(nodes.toArray(new Key[0]))) {
                if (node == null) {
                    continue;
                }
                long stored = node.contains("epoch") ? node.getLong("epoch") : 0;
                if (stored > lease.epoch()) {
                    throw lease.fencedNow(); // taken over again meanwhile
                }
                puts.add(Entity.newBuilder(node).set("epoch", lease.epoch()).build());
            }
            tx.put(puts.toArray(new Entity[0]));
            hook.beforeCommit("claim");
            tx.commit();
        } finally {
            if (tx.isActive()) {
                io.keyranger.datastore.Retries.rollbackQuietly(tx);
            }
        }
    }
}
