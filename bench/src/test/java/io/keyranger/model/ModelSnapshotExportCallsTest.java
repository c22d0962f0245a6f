package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot export (the default on a server that keeps versions: every page read as of the job's start) costs the
 * server no more calls than a live one ({@code run --no-snapshot}) on the production model: its page queries at that
 * moment bring the entities, so no page needs a lookup at the read time besides its commit. Both exports hold every
 * entity, checked one by one against the model's own answers.
 */
class ModelSnapshotExportCallsTest {
    private static final int SEEDED = 2_000;
    private static final int PAGES = SEEDED / 100;

    @TempDir
    Path dir;

    @Test
    void aSnapshotExportTakesNoMoreCallsThanALiveOne() throws Exception {
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0))) {
            ConnectionSpec conn = ConnectionSpec.model(server.hostPort(), "snapshot-calls");
            Datastore datastore = Session.open(conn).datastore();
            RichEntities.put(datastore, "Item", SEEDED);
            Map<Key, Entity> kind = RichEntities.read(datastore, "", "Item");
            InProcessCli cli = new InProcessCli(dir, conn);

            long live = export(server, cli, "live", true);
            long snapshot = export(server, cli, "snapshot", false);
            // without the entities in the page query, a snapshot export looks each page up at its read time: a call
            // more a page (PAGES more) than the live export
            assertThat(snapshot).as("calls of the snapshot export (live: %d)", live).isLessThan(live + PAGES / 2);

            for (String name : List.of("live", "snapshot")) {
                Path folder = dir.resolve(name);
                ManagedExport export = ManagedExport.open(folder);
                ExportSnapshot record = ExportSnapshot.ofManaged(export.store(), export.metadata());
                assertThat(record.readTime() == null).as(name + " read live").isEqualTo(name.equals("live"));
                Map<Key, Entity> held = new HashMap<>();
                try (ManagedExport.Entities entities = export.entities(conn.projectId(), conn.databaseId(), "",
                        "Item")) {
                    for (Entity e = entities.next(); e != null; e = entities.next()) {
                        held.put(e.getKey(), e);
                    }
                }
                assertThat(held).as(name + ": every entity as the model holds it").isEqualTo(kind);
            }
        }
    }

    /** Runs a managed export of the kind to {@code dir/name} as {@code run} does; the model's calls while it ran. */
    private long export(ModelServer server, InProcessCli cli, String name, boolean live) throws Exception {
        Path mapper = cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\""
                + dir.resolve(name).toString().replace("\\", "\\\\") + "\"}");
        long before = server.calls();
        List<String> args = new java.util.ArrayList<>(List.of("run", "--kind", "Item", "--job-id", name,
                "--workers", "4", "--shards", "4", "--page-size", "100", "--mapper", mapper.toString(),
                "--model-host", server.hostPort(), "--project", "snapshot-calls"));
        if (live) {
            args.add("--no-snapshot");
        }
        InProcessCli.Result run = cli.offline(args.toArray(new String[0]));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        return server.calls() - before;
    }
}
