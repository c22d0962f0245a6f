package io.keyranger.demo;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.datastore.ServerType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes the {@link DemoDataset} with batched, non-transactional upserts on a few threads, reporting progress.
 * Upserts make seeding repeatable: running it twice leaves the same data.
 */
public final class DemoSeeder {
    static final int BATCH = 500;
    private static final int THREADS = 4;

    private final Datastore datastore;
    private final ServerType server;

    /** A seeder for a server that lists its kinds (the legacy emulator). */
    public DemoSeeder(Datastore datastore) {
        this(datastore, ServerType.EMULATOR);
    }

    /**
     * A seeder for a server of type {@code server}: on one that cannot list kinds (the Firestore emulator), the kinds
     * it seeds are recorded as known, so the app and {@code kinds} list them.
     */
    public DemoSeeder(Datastore datastore, ServerType server) {
        this.datastore = datastore;
        this.server = server;
    }

    /** Seeds the demo data and returns the number of entities written per "namespace/kind". */
    public Map<String, Long> seed(int accounts, ProgressListener progress, Cancellation cancellation) {
        DemoDataset dataset = new DemoDataset(datastore.getOptions().getProjectId(),
                datastore.getOptions().getDatabaseId(), accounts);
        List<Entity> all = new ArrayList<>(dataset.defaultNamespaceEntities());
        all.addAll(dataset.secondNamespaceEntities());
        write(all, progress, cancellation);
        Map<String, Long> summary = new LinkedHashMap<>();
        DatastoreGateway gateway = new DatastoreGateway(datastore, server);
        all.stream().map(e -> e.getKey().getNamespace() + "/" + e.getKey().getKind()).distinct()
                .forEach(nsKind -> gateway.remember(nsKind.substring(0, nsKind.indexOf('/')),
                        nsKind.substring(nsKind.indexOf('/') + 1)));
        for (Entity entity : all) {
            String ns = entity.getKey().getNamespace();
            summary.merge((ns.isEmpty() ? "(default)" : ns) + "/" + entity.getKey().getKind(), 1L, Long::sum);
        }
        return summary;
    }

    private void write(List<Entity> entities, ProgressListener progress, Cancellation cancellation) {
        AtomicLong written = new AtomicLong();
        int total = entities.size();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "keyranger-seed");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int from = 0; from < total; from += BATCH) {
                List<Entity> batch = entities.subList(from, Math.min(total, from + BATCH));
                futures.add(pool.submit(() -> {
                    cancellation.check();
                    datastore.put(batch.toArray(new Entity[0]));
                    progress.progress(written.addAndGet(batch.size()), total);
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException cancelled) {
                throw cancelled;
            }
            throw new KeyRangerException("Seeding the demo data failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } finally {
            pool.shutdownNow();
        }
    }
}
