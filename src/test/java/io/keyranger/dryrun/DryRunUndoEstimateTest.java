package io.keyranger.dryrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import io.keyranger.formats.undo.UndoRecords;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * A dry run's undo records against those the job then writes, counted by the emulator's own query of the job's undo
 * kind: on the legacy emulator its 25-entity-group limit makes commits of at most 20 entities (41 predicted where 314
 * were written, when the estimate assumed production's commits of about 100; here 15 against 110 before, 79 after).
 */
@OnDataEmulators
class DryRunUndoEstimateTest {
    private static final int LEDGERS = 1_500;

    @Parameter
    ServerType server;
    @TempDir
    Path dir;

    @Test
    void theDryRunsUndoRecordsAreTheJobs() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "undoest");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> ledgers = new ArrayList<>();
        for (long id = 1; id <= LEDGERS; id++) {
            ledgers.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Ledger").newKey(id))
                    .set("balance", id).build());
        }
        SharedEmulator.putAll(datastore, ledgers);
        String spec = "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1}";

        DryRunner.Result dry = new DryRunner(Session.open(conn)).run("", "Ledger", MapperSpec.parse(spec), 20);
        InProcessCli.Result job = new InProcessCli(dir, conn).run("run", "--kind", "Ledger", "--mapper",
                new InProcessCli(dir, conn).mapper(spec).toString(), "--job-id", "est", "--shards", "4",
                "--workers", "2");
        assertThat(job.exitCode()).as(job.err()).isZero();
        int written = 0;
        for (var it = datastore.run(Query.newKeyQueryBuilder().setKind(UndoRecords.kind("est")).build());
             it.hasNext(); it.next()) {
            written++;
        }
        System.out.printf("%s: dry run %d undo records, the job wrote %d%n", server, dry.undoRecords(), written);
        assertThat(written).isPositive();
        // On the legacy emulator a record holds at most 19 images: the estimate is the fewest the job can write.
        // Without a group limit a commit holds what a page of the job's range gives it (about 100 with many workers
        // splitting, up to a page of 200 with two): the estimate prices 100, never fewer records than are written.
        double ratio = server == ServerType.EMULATOR ? (double) written / dry.undoRecords()
                : (double) dry.undoRecords() / written;
        assertThat(ratio).as("predicted %d, written %d", dry.undoRecords(), written).isBetween(1.0, 2.0);
    }
}
