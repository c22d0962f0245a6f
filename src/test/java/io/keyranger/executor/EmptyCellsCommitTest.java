package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import io.keyranger.testhooks.FaultInjector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * A span where a job's filter matches nothing, committed as covered: a planned range of a filtered job often holds no
 * match across a few dozen cells. Where transactions have no entity-group limit (production, the Firestore emulator)
 * its cells are covered in one transaction, not one per ten cells; under the legacy emulator's 25 groups, ten a
 * transaction as before. Either way every cell's ledger, read back from the emulator, covers its whole cell.
 */
@OnDataEmulators
class EmptyCellsCommitTest {
    private static final int CELLS = 36;

    @Parameter
    ServerType server;

    @Test
    void aSpanWithNoKeyCoversItsCellsInAsFewTransactionsAsTheServerAllows() {
        Datastore plain = SharedEmulator.connect(SharedEmulator.freshProject(server, "emptycells"));
        KeyFactory keys = plain.newKeyFactory().setKind("Item");
        List<Key> bounds = new ArrayList<>();
        for (int i = 1; i < CELLS; i++) {
            Key key = keys.newKey(i * 10L);
            bounds.add(key);
            plain.put(Entity.newBuilder(key).set("n", 0L).set("hot", false).build());
        }
        CellPlan cells = new CellPlan(server.keyOrder(), bounds);
        assertThat(cells.cells()).isEqualTo(CELLS);
        String jobId = "EmptyCells_" + server.name();
        ShardedCounter.open(plain, JobSpec.counterName(jobId), 4);
        PageMapper mapper = Mappers.create(MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\","
                + "\"amount\":1,\"where\":[{\"property\":\"hot\",\"value\":true}]}"));
        FaultInjector counting = new FaultInjector(0, 0, 0, 1);
        CellCommitter committer = new CellCommitter(counting.wrap(plain), server.keyOrder(), mapper, jobId, cells,
                server.limits());

        CellCommitter.Outcome outcome = committer.commit(KeyRange.all(server.keyOrder()), List.of());

        assertThat(outcome.applied()).isZero();
        int perCommit = CellCommitter.emptyCellsPerCommit(server.limits());
        long expected = (CELLS + perCommit - 1) / perCommit;
        assertThat(counting.calls("commit")).as("transactions for %d empty cells", CELLS).isEqualTo(expected);
        if (server.limits().maxEntityGroups() == 0) {
            assertThat(expected).isEqualTo(1);
        } else {
            assertThat(expected).isEqualTo(4); // ten cells a transaction within the legacy emulator's 25 groups
        }
        CellCommitter reader = new CellCommitter(plain, server.keyOrder(), mapper, jobId, cells, server.limits());
        for (int c = 0; c < CELLS; c++) {
            assertThat(reader.read(c).coversAll(cells.cell(c))).as("cell %d covered", c).isTrue();
        }
        for (int i = 1; i < CELLS; i++) {
            assertThat(plain.get(keys.newKey(i * 10L)).getLong("n")).isZero();
        }
    }
}
