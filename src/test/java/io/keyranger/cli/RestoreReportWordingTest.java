package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A skip-changed restore that leaves one entity changed since the export says so once: its report names the key once
 * before what differs ("e.g. Acct:2: balance: …", not "Acct:2: Acct:2: …"), and its closing line says "1 entity".
 */
class RestoreReportWordingTest {
    @TempDir
    Path dir;

    @Test
    void oneEntityChangedSinceIsNamedOnceAndInTheSingular() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("restore-wording");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            seeded.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Acct").newKey(i)).set("balance", i)
                    .build());
        }
        SharedEmulator.putAll(datastore, seeded);
        Path export = EmulatorExports.export(conn, dir, null);
        Key changed = seeded.get(1).getKey();
        datastore.put(Entity.newBuilder(seeded.get(1)).set("balance", -2).build());
        datastore.delete(seeded.get(0).getKey());

        InProcessCli.Result restore = new InProcessCli(dir, conn).run("restore", "--export", export.toString(),
                "--kind", "Acct");
        String all = restore.out() + restore.err();
        assertThat(all).contains("e.g. Acct:2: ").doesNotContain("Acct:2: Acct:2");
        assertThat(restore.err()).as(all).contains("keyranger: 1 entity changed since").doesNotContain("1 entities");
        assertThat(datastore.get(changed).getLong("balance")).isEqualTo(-2);
        assertThat(datastore.get(seeded.get(0).getKey())).isEqualTo(seeded.get(0));
    }
}
