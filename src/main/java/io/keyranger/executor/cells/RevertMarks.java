package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.job.RetryPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A revert's fence on the commits of the job it takes back: before the revert reads a single undo record, every cell
 * ledger of the job is marked with the revert's id, and a ledger is created, marked, for each cell no commit reached
 * yet. Every commit reads its cells' ledgers in its transaction ({@link CellCommitter}), so the server orders each
 * commit against the mark on its ledger: a commit that lands first left its undo record for the revert to see, and one
 * that comes later (a runner frozen past its lease that wakes up) finds the mark and commits nothing. Commits read no
 * entity they did not read before, and the revert writes each ledger once, a server's transaction of them at a time
 * (a few such transactions in flight).
 */
public final class RevertMarks {
    private RevertMarks() {
    }

    /** Transactions of marks in flight at once: a job of many cells is fenced in seconds, not minutes. */
    static final int IN_FLIGHT = 8;

    /** Marks every ledger of job {@code jobId}, whose cells are {@code cells}, as taken back by {@code revertId}. */
    public static void mark(Datastore datastore, String jobId, CellPlan cells, String revertId, ServerLimits limits) {
        // each ledger is an entity group of its own: read and written, it counts once
        int perTransaction = limits.maxEntityGroups() > 0 ? Math.min(limits.maxEntityGroups(), limits.maxMutations())
                : limits.maxMutations();
        ExecutorService threads = Executors.newFixedThreadPool(IN_FLIGHT, r -> {
            Thread t = new Thread(r, "keyranger-revert-marks");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Void>> batches = new ArrayList<>();
            for (int first = 0; first < cells.cells(); first += perTransaction) {
                int from = first;
                int to = Math.min(cells.cells(), first + perTransaction);
                batches.add(threads.submit(() -> RetryPolicy.DEFAULT.call(
                        () -> markBatch(datastore, jobId, cells, revertId, from, to))));
            }
            for (Future<Void> batch : batches) {
                batch.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while fencing job " + jobId);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime
                    : new IllegalStateException(e.getCause());
        } finally {
            threads.shutdownNow();
        }
    }

    private static Void markBatch(Datastore datastore, String jobId, CellPlan cells, String revertId, int from,
                                  int to) {
        Key[] keys = new Key[to - from];
        for (int c = from; c < to; c++) {
            keys[c - from] = RangeEntities.key(datastore, jobId, CellPlan.nodeId(c));
        }
        Transaction tx = datastore.newTransaction();
        try {
            List<Entity> found = tx.fetch(keys);
            List<Entity> marked = new ArrayList<>(keys.length);
            for (int c = from; c < to; c++) {
                Ledger ledger = Ledger.of(keys[c - from], found.get(c - from), cells.order());
                if (ledger.revertedBy() == null) { // marked by an earlier try of this revert, or an earlier revert
                    marked.add(ledger.reverted(jobId, c, cells.cell(c), revertId));
                }
            }
            if (!marked.isEmpty()) {
                tx.put(marked.toArray(new Entity[0]));
            }
            tx.commit();
            return null;
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }
}
