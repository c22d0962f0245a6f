package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.DatastoreOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The read window from the Firestore Admin API's database resource, as {@code GET .../databases/(default)} answers it
 * (bodies shaped as the API documents them). The request itself needs a real project and network, which tests do not
 * have.
 */
class AdminDatabaseTest {
    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00.123456Z");

    private static String database(String fields) {
        return """
                {
                  "name": "projects/acme-prod/databases/(default)",
                  "uid": "b0c1d2e3-0000-4000-8000-123456789abc",
                  "createTime": "2021-03-01T10:00:00.000000Z",
                  "updateTime": "2026-10-02T08:30:00.000000Z",
                  "locationId": "nam5",
                  "type": "DATASTORE_MODE",
                  "concurrencyMode": "PESSIMISTIC",
                  "appEngineIntegrationMode": "ENABLED",
                  "keyPrefix": "s",
                  "deleteProtectionState": "DELETE_PROTECTION_DISABLED",
                  %s
                  "etag": "IOqb2f7k7YkDMNCc6JrU7YkD"
                }
                """.formatted(fields);
    }

    @Test
    void withPointInTimeRecoveryTheWindowStartsAtTheEarliestVersionAndOldTimesAreRoundedToAMinute() {
        ReadWindow window = AdminDatabase.window(database("""
                "versionRetentionPeriod": "604800s",
                "earliestVersionTime": "2026-11-20T12:01:00Z",
                "pointInTimeRecoveryEnablement": "POINT_IN_TIME_RECOVERY_ENABLED",
                """), NOW);
        assertThat(window.earliest()).isEqualTo(Instant.parse("2026-11-20T12:01:00Z"));
        assertThat(window.pitr()).isTrue();
        assertThat(window.source()).contains("earliestVersionTime").contains("point-in-time recovery on");
        List<String> told = new ArrayList<>();
        assertThat(window.check(PointInTime.parse("-2d", NOW), NOW, told::add).time())
                .isEqualTo(Instant.parse("2026-11-25T12:00:00Z"));
        assertThat(told).singleElement().asString().contains("whole minutes");
        assertThatThrownBy(() -> window.check(PointInTime.parse("-7d", NOW), NOW, m -> { }))
                .hasMessageContaining("older than the database keeps").hasMessageContaining("2026-11-20T12:01:00Z")
                .hasMessageNotContaining("enable point-in-time recovery");
    }

    @Test
    void withoutPointInTimeRecoveryTheWindowIsTheHourTheDatabaseKeeps() {
        ReadWindow window = AdminDatabase.window(database("""
                "versionRetentionPeriod": "3600s",
                "earliestVersionTime": "2026-11-27T11:00:00.200Z",
                "pointInTimeRecoveryEnablement": "POINT_IN_TIME_RECOVERY_DISABLED",
                """), NOW);
        assertThat(window).isEqualTo(new ReadWindow(Instant.parse("2026-11-27T11:00:00.200Z"), false,
                "the database's earliestVersionTime, point-in-time recovery off"));
        assertThatThrownBy(() -> window.check(PointInTime.parse("-2h", NOW), NOW, m -> { }))
                .hasMessageContaining("from 2026-11-27T11:00:00.200Z to now")
                .hasMessageContaining("enable point-in-time recovery to keep 7 days");
        assertThat(window.check(PointInTime.parse("-30m", NOW), NOW, m -> { }).time())
                .isEqualTo(NOW.minus(Duration.ofMinutes(30)));
    }

    @Test
    void missingFieldsAreDerivedFromWhatIsThere() {
        ReadWindow retention = AdminDatabase.window(database("""
                "versionRetentionPeriod": "604800s",
                "pointInTimeRecoveryEnablement": "POINT_IN_TIME_RECOVERY_ENABLED",
                """), NOW);
        assertThat(retention).isEqualTo(new ReadWindow(NOW.minus(Duration.ofDays(7)), true,
                "the database's versionRetentionPeriod of 7 days, point-in-time recovery on"));
        ReadWindow badTime = AdminDatabase.window(database("""
                "versionRetentionPeriod": "3600s",
                "earliestVersionTime": "yesterday",
                """), NOW);
        assertThat(badTime).isEqualTo(new ReadWindow(NOW.minus(Duration.ofHours(1)), false,
                "the database's versionRetentionPeriod of 1 hour, point-in-time recovery not named"));
        ReadWindow pitrOnly = AdminDatabase.window(database("""
                "pointInTimeRecoveryEnablement": "POINT_IN_TIME_RECOVERY_ENABLED",
                """), NOW);
        assertThat(pitrOnly.earliest()).isEqualTo(NOW.minus(Duration.ofDays(7)));
        assertThat(pitrOnly.pitr()).isTrue();
        ReadWindow nothing = AdminDatabase.window(database(""), NOW);
        assertThat(nothing.earliest()).isEqualTo(NOW.minus(Duration.ofHours(1)));
        assertThat(nothing.pitr()).isFalse();
        assertThat(nothing.source()).contains("no retention named");
    }

    @Test
    void anAnswerThatIsNotADatabaseGivesTheLastHourSayingWhy() {
        assertThat(AdminDatabase.window("<html>502 Bad Gateway</html>", NOW))
                .isEqualTo(ReadWindow.lastHour(NOW, "the Admin API's answer was not JSON"));
        assertThat(AdminDatabase.window("[]", NOW))
                .isEqualTo(ReadWindow.lastHour(NOW, "the Admin API's answer was not a database"));
    }

    @Test
    void aProductionDatabaseWhoseSettingsCannotBeReadGetsTheLastHourSayingWhy() {
        // without credentials the Admin API refuses (401/403), and without a network it cannot be reached: either
        // way the window is the last hour, and says why
        ConnectionSpec spec = new ConnectionSpec(null, "keyranger-no-such-project", "", "", null, true);
        Session live = Session.of(spec, DatastoreOptions.newBuilder().setProjectId(spec.projectId())
                .setCredentials(NoCredentials.getInstance()).build().getService());
        Instant now = Instant.now();
        ReadWindow window = ReadWindow.of(live, now);
        assertThat(window.earliest()).isEqualTo(now.minus(Duration.ofHours(1)));
        assertThat(window.pitr()).isFalse();
        assertThat(window.source()).startsWith("the last hour (").contains("Admin API");
    }
}
