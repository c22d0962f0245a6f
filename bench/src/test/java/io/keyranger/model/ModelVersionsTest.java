package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ReadOption;
import io.keyranger.KeyRangerException;
import io.keyranger.bench.cli.BenchMain;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the model keeps of the past, beyond what the Firestore emulator can show ({@link ModelVersionsFidelityTest}):
 * production's hour by default, 7 days at whole minutes as with point-in-time recovery, the window KeyRanger reads
 * from it as from production's Admin API, and versions pruned once they leave the window.
 */
class ModelVersionsTest {
    @Test
    void byDefaultTheModelKeepsProductionsHourAndKeyRangerReadsThatWindowFromIt() throws Exception {
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0))) {
            Session live = Session.open(ConnectionSpec.model(server.hostPort(), "hour"));
            Instant now = Instant.now();
            ReadWindow window = ReadWindow.of(live, now);
            assertThat(window.pitr()).isFalse();
            assertThat(Duration.between(window.earliest(), now).toSeconds()).as(window.source()).isBetween(3_595L,
                    3_605L);
            assertThat(window.source()).contains("earliestVersionTime");

            Key key = live.datastore().newKeyFactory().setKind("H").newKey(1);
            live.datastore().put(Entity.newBuilder(key).set("v", 1).build());
            Thread.sleep(20);
            String before = Instant.now().toString();
            Thread.sleep(20);
            live.datastore().put(Entity.newBuilder(key).set("v", 2).build());

            Session past = ReadWindow.open(live, before, note -> { });
            assertThat(past.datastore().get(key).getLong("v")).as("the version as of then").isEqualTo(1);
            assertThat(live.datastore().get(key).getLong("v")).isEqualTo(2);
            assertThatThrownBy(() -> ReadWindow.open(live, "-2h", note -> { })).isInstanceOf(KeyRangerException.class)
                    .hasMessageContaining("older than the database keeps");
            assertThatThrownBy(() -> live.datastore().get(key, at(now.minus(2, ChronoUnit.HOURS))))
                    .isInstanceOf(DatastoreException.class)
                    .satisfies(e -> assertThat(((DatastoreException) e).getReason()).isEqualTo("FAILED_PRECONDITION"))
                    .hasMessageContaining("The requested 'read_time' is too old.");
        }
    }

    @Test
    void withPointInTimeRecoveryItKeepsSevenDaysAtWholeMinutesPastTheFirstHour() throws Exception {
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0)
                .withVersionRetention(Duration.ofDays(7)))) {
            Session live = Session.open(ConnectionSpec.model(server.hostPort(), "pitr"));
            Instant now = Instant.now();
            ReadWindow window = ReadWindow.of(live, now);
            assertThat(window.pitr()).isTrue();
            assertThat(Duration.between(window.earliest(), now).toSeconds()).as(window.source())
                    .isBetween(7 * 86_400L - 5, 7 * 86_400L + 5);
            Key key = live.datastore().newKeyFactory().setKind("P").newKey(1);
            Instant twoHours = now.minus(2, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES);
            assertThat(live.datastore().get(key, at(twoHours))).as("a whole minute: read").isNull();
            assertThatThrownBy(() -> live.datastore().get(key, at(twoHours.plusSeconds(1))))
                    .isInstanceOf(DatastoreException.class)
                    .satisfies(e -> assertThat(((DatastoreException) e).getReason()).isEqualTo("INVALID_ARGUMENT"));
        }
    }

    @Test
    void versionsThatLeaveTheWindowArePrunedAndAMomentBeforeItIsRefused() throws Exception {
        try (ModelServer server = ModelServer.start(0, ModelServer.Options.DEFAULT.withLatency(0, 0)
                .withVersionRetention(Duration.ofSeconds(2)))) {
            Datastore datastore = Session.open(ConnectionSpec.model(server.hostPort(), "prune")).datastore();
            KeyFactory keys = datastore.newKeyFactory().setKind("Pr");
            List<Entity> seed = new ArrayList<>();
            List<Entity> changed = new ArrayList<>();
            for (int i = 1; i <= 100; i++) {
                seed.add(Entity.newBuilder(keys.newKey(i)).set("v", i).build());
                changed.add(Entity.newBuilder(keys.newKey(i)).set("v", -i).build());
            }
            datastore.put(seed.toArray(new Entity[0]));
            Thread.sleep(20);
            Instant seeded = Instant.now();
            Thread.sleep(20);
            datastore.put(changed.toArray(new Entity[0]));
            for (int i = 1; i <= 50; i++) {
                datastore.delete(keys.newKey(i));
            }
            ModelData data = server.data();
            ModelData.Table table = data.table(new ModelData.Partition("prune", "", ""), "Pr");
            assertThat(data.versions().replacedCount()).as("100 changes and 50 deletions kept").isEqualTo(150);
            assertThat(table.rows).hasSize(50);
            assertThat(table.gone).as("the deleted stay for reads of the past").hasSize(50);
            assertThat(datastore.get(keys.newKey(1), at(seeded)).getLong("v")).isEqualTo(1);
            assertThat(count(datastore, at(seeded))).isEqualTo(100);

            Thread.sleep(2_200);
            datastore.put(Entity.newBuilder(keys.newKey(1_000)).build()); // a commit prunes what expired
            assertThat(data.versions().replacedCount()).as("nothing older than the window is kept").isZero();
            assertThat(table.gone).as("the deleted are pruned").isEmpty();
            assertThat(table.rows).hasSize(51);
            assertThat(count(datastore)).isEqualTo(51);
            Instant recent = Instant.now().minusMillis(500);
            assertThat(count(datastore, at(recent))).as("inside the window").isEqualTo(50);
            assertThatThrownBy(() -> datastore.get(keys.newKey(60), at(seeded))).isInstanceOf(DatastoreException.class)
                    .hasMessageContaining("too old");
        }
    }

    @Test
    void theModelServerCommandTakesARetentionUpToSevenDays() {
        for (String wrong : List.of("8d", "0s", "an hour")) {
            StringWriter err = new StringWriter();
            int code = BenchMain.execute(new PrintWriter(new StringWriter()),
                    new PrintWriter(err), "model-server", "--version-retention", wrong);
            assertThat(code).as(wrong).isNotZero();
            assertThat(err.toString()).contains("--version-retention takes a time from 1s to 7d")
                    .contains("'" + wrong + "'");
        }
    }

    private static ReadOption at(Instant time) {
        return ReadOption.readTime(Timestamp.ofTimeSecondsAndNanos(time.getEpochSecond(), time.getNano()));
    }

    private static int count(Datastore datastore, ReadOption... options) {
        int[] n = {0};
        datastore.run(Query.newKeyQueryBuilder().setKind("Pr").build(), options).forEachRemaining(k -> n[0]++);
        return n[0];
    }
}
