package io.keyranger.model;

import io.keyranger.job.LeaseMode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.RestoreMode;
import io.keyranger.job.RetryPolicy;
import io.keyranger.executor.Engine;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.formats.managed.ManagedExportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code diff} and {@code restore} against the production model (20 ms median latency, requests served concurrently):
 * {@code -Dentities} (default 200,000) entities, a managed export of them by KeyRanger's writer, then 1% deleted
 * and 1% changed; the comparison (lookups of 500 keys, 1 and 8 in flight) and a skip-changed restore are timed.
 * Not part of {@code mvn verify}: {@code mvn -B -pl :keyranger-bench test -Dtest=ExportDiffRestoreBenchmark}.
 * Prints figures; checks the results (the restore brings back exactly the deleted ones), asserts nothing about speed.
 */
class ExportDiffRestoreBenchmark {
    @Test
    void diffAndRestoreThroughputOnTheProductionModel() throws Exception {
        int n = Integer.getInteger("entities", 200_000);
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT)) {
            ConnectionSpec conn = ConnectionSpec.model(server.hostPort(), "bench");
            Datastore datastore = DatastoreConnector.connect(conn);
            server.quiet(true);
            Path dir = Files.createTempDirectory("diff-bench");
            Path root;
            List<Key> keys = new ArrayList<>(n);
            try (ManagedExportWriter writer = ManagedExportWriter.create(dir.resolve("export"))) {
                List<Entity> batch = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    Key key = i % 2 == 0 ? datastore.newKeyFactory().setKind("Account").newKey("a-" + i)
                            : datastore.newKeyFactory().setKind("Account").newKey(1_000_000L + i);
                    Entity e = Entity.newBuilder(key).set("balance", (long) i).set("tier", i % 3 == 0 ? "pro" : "free")
                            .build();
                    keys.add(key);
                    writer.write(e);
                    batch.add(e);
                    if (batch.size() == 500) {
                        datastore.put(batch.toArray(new Entity[0]));
                        batch.clear();
                    }
                }
                if (!batch.isEmpty()) {
                    datastore.put(batch.toArray(new Entity[0]));
                }
                writer.finish();
                root = writer.root();
            }
            int touched = n / 100;
            List<Key> deleted = new ArrayList<>();
            List<Entity> changed = new ArrayList<>();
            for (int i = 0; i < touched; i++) {
                deleted.add(keys.get(i * 50));
                changed.add(Entity.newBuilder(keys.get(i * 50 + 25)).set("balance", -1L).set("tier", "x").build());
            }
            for (int from = 0; from < touched; from += 500) {
                datastore.delete(deleted.subList(from, Math.min(touched, from + 500)).toArray(new Key[0]));
                datastore.put(changed.subList(from, Math.min(touched, from + 500)).toArray(new Entity[0]));
            }
            ManagedExport export = ManagedExport.open(root);
            server.quiet(false);
            Session session = Session.open(conn);
            for (int parallel : new int[] {1, 8}) {
                long calls = server.calls();
                long t = System.nanoTime();
                ExportDiff.Result r = ExportDiff.of(session, export, "", "Account", null, null).parallel(parallel)
                        .run(true, x -> { }, Cancellation.NEVER);
                double s = (System.nanoTime() - t) / 1e9;
                System.out.printf("diff, %d lookup%s in flight: %,d compared in %.1f s (%,.0f entities/s), %,d "
                        + "lookups, %,d calls; same %,d, changed %,d, removed %,d, added %,d%n", parallel,
                        parallel == 1 ? "" : "s", r.compared(), s, r.compared() / s, r.lookups(),
                        server.calls() - calls, r.same(), r.changed(), r.removed(), r.added());
            }
            long calls = server.calls();
            long t = System.nanoTime();
            JobResult result = new Engine(session, RetryPolicy.DEFAULT, JobLease.DEFAULT_DURATION).start(
                    new RestoreSpec(root, "", "Account", RestoreMode.SKIP_CHANGED, null, null, true).job("restore-bench"),
                    LeaseMode.RESUME, JobListener.NONE, m -> { }).await();
            double s = (System.nanoTime() - t) / 1e9;
            System.out.printf("restore (skip-changed, with undo): %,d read in %.1f s (%,.0f entities/s), %,d calls; "
                    + "%s%n", result.total("read"), s, result.total("read") / s, server.calls() - calls,
                    result.totals());
            server.quiet(true);
            long back = datastore.fetch(deleted.toArray(new Key[0])).stream().filter(e -> e != null).count();
            if (back != touched || result.total("skipped") != touched) {
                throw new AssertionError("restored " + back + " of " + touched + ", skipped " + result.total("skipped"));
            }
        }
    }
}
