package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.support.SharedEmulator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session as of a past moment reads what the Firestore emulator kept at that moment, by lookup and by query, and
 * writes nothing; the legacy emulator, which ignores read_time, refuses it.
 */
class PastReadsTest {
    @Test
    void readsTheFirestoreEmulatorsPastAndRefusesToWriteIt() throws Exception {
        Session live = Session.open(SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "past"));
        Key one = live.datastore().newKeyFactory().setKind("Account").newKey(1);
        Key two = live.datastore().newKeyFactory().setKind("Account").newKey(2);
        live.datastore().put(Entity.newBuilder(one).set("balance", 5).build(),
                Entity.newBuilder(two).set("balance", 7).build());
        Thread.sleep(5);
        PointInTime before = PointInTime.at(Instant.now());
        Thread.sleep(5);
        live.datastore().put(Entity.newBuilder(one).set("balance", 9).build());
        live.datastore().delete(two);

        Session past = live.asOf(before);
        assertThat(past.past()).isTrue();
        assertThat(past.readOnly()).isTrue();
        assertThat(past.datastore().get(one).getLong("balance")).isEqualTo(5);
        assertThat(past.datastore().get(two)).isNotNull();
        List<Key> keys = new ArrayList<>();
        past.datastore().run(Query.newKeyQueryBuilder().setKind("Account").build()).forEachRemaining(keys::add);
        assertThat(keys).containsExactly(one, two);
        assertThat(live.datastore().get(two)).isNull();
        assertThat(past.live().datastore().get(one).getLong("balance")).isEqualTo(9);
        assertThatThrownBy(() -> past.datastore().put(Entity.newBuilder(one).set("balance", 1).build()))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("cannot be written");
    }

    @Test
    void theLegacyEmulatorKeepsNoPast() {
        Session legacy = Session.open(SharedEmulator.freshProject(ServerType.EMULATOR, "past"));
        assertThatThrownBy(() -> legacy.asOf(PointInTime.at(Instant.now())))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("legacy Datastore emulator keeps no past");
    }

    @Test
    void timesOutsideTheWindowAreRefusedAndOldOnesRoundedToAMinute() {
        Instant now = Instant.parse("2026-11-27T12:00:00.123456Z");
        assertThat(PointInTime.parse("-15m", now).time()).isEqualTo(Instant.parse("2026-11-27T11:45:00.123456Z"));
        assertThat(PointInTime.parse("-1h30m", now).time()).isEqualTo(Instant.parse("2026-11-27T10:30:00.123456Z"));
        assertThat(PointInTime.parse("2026-11-27T12:15:00+01:00", now).time())
                .isEqualTo(Instant.parse("2026-11-27T11:15:00Z"));
        assertThatThrownBy(() -> PointInTime.parse("yesterday", now)).hasMessageContaining("is not a time");

        ReadWindow hour = ReadWindow.lastHour(now, "no PITR");
        assertThatThrownBy(() -> hour.check(PointInTime.parse("-2h", now), now, m -> { }))
                .hasMessageContaining("older than the database keeps").hasMessageContaining("2026-11-27T11:00:00.123456Z");
        assertThatThrownBy(() -> hour.check(PointInTime.parse("2026-11-27T12:01:00Z", now), now, m -> { }))
                .hasMessageContaining("in the future");
        ReadWindow week = new ReadWindow(now.minus(Duration.ofDays(7)), true, "PITR");
        List<String> told = new ArrayList<>();
        assertThat(week.check(PointInTime.parse("-2d", now), now, told::add).time())
                .isEqualTo(Instant.parse("2026-11-25T12:00:00Z"));
        assertThat(told).singleElement().asString().contains("whole minutes");
        assertThat(week.check(PointInTime.parse("-10m", now), now, told::add).time())
                .isEqualTo(Instant.parse("2026-11-27T11:50:00.123456Z"));
    }
}
