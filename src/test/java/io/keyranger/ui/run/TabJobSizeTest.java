package io.keyranger.ui.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.datastore.EntityCount;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.SharedEmulator;
import io.keyranger.ui.common.KindTarget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The size a Run-tab job's ETA counts down from: the counted kind's size only for a job that reads all of it. A job
 * over a server filter read 4,070 of 20,000 and was done in 38 s under an "ETA 107 s" drawn from the whole kind.
 */
class TabJobSizeTest {
    private static KindTarget account;

    @BeforeAll
    static void connect() {
        Session session = Session.open(SharedEmulator.freshProject("size"));
        account = new KindTarget(session, "", "Account",
                () -> new EntityCount(20_000, EntityCount.Method.KEYS_ONLY_SCAN));
    }

    private static long size(String kind, String mapper) {
        return TabJob.sizeOf(account, new JobSpec("j", "", kind, MapperSpec.parse(mapper), 16, 2, 20, 0));
    }

    @Test
    void aJobOverTheWholeKindCountsDownFromItsCount() {
        assertThat(size("Account", "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1}"))
                .isEqualTo(20_000);
        assertThat(size("Account", "{\"template\":\"delete\",\"where\":\"tier == 'pro'\"}"))
                .as("a condition checked on the client still reads every entity").isEqualTo(20_000);
    }

    @Test
    void aJobThatReadsSomeOtherNumberHasNoSizeHere() {
        assertThat(size("Account", "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1,"
                + "\"where\":[{\"property\":\"tier\",\"value\":\"pro\"}]}")).as("a server filter").isEqualTo(-1);
        assertThat(size("Org", "{\"template\":\"delete\"}")).as("another kind").isEqualTo(-1);
        assertThat(size("Account", "{\"template\":\"import\",\"file\":\"/tmp/none.jsonl\"}")).as("a file")
                .isEqualTo(-1);
    }
}
