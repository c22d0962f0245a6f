package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.DatastoreOptions;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The read window from the Firestore Admin API's database resource, as {@code GET .../databases/(default)} answers it
 * (bodies shaped as the API documents them), and the request and its failures against a stand-in for the API on
 * localhost (tests have no real project or network).
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
    void theDatabaseResourceIsReadFromTheAdminApiWithTheConnectionsOwnClient() throws Exception {
        List<String> asked = new ArrayList<>();
        HttpServer admin = admin(asked, 200, database("""
                "versionRetentionPeriod": "604800s",
                "earliestVersionTime": "2026-11-20T12:01:00Z",
                "pointInTimeRecoveryEnablement": "POINT_IN_TIME_RECOVERY_ENABLED",
                """));
        try {
            ReadWindow window = AdminDatabase.window(production(""), NOW, api(admin));
            assertThat(asked).containsExactly("GET /v1/projects/keyranger-no-such-project/databases/(default)");
            assertThat(window).isEqualTo(new ReadWindow(Instant.parse("2026-11-20T12:01:00Z"), true,
                    "the database's earliestVersionTime, point-in-time recovery on"));
        } finally {
            admin.stop(0);
        }
    }

    @Test
    void aRefusalOfTheAdminApiGivesTheLastHourNamingTheStatusAndTheReason() throws Exception {
        List<String> asked = new ArrayList<>();
        HttpServer admin = admin(asked, 403, """
                {"error": {"code": 403, "message": "The caller does not have permission", "status": "PERMISSION_DENIED"}}
                """);
        try {
            assertThat(AdminDatabase.window(production(""), NOW, api(admin))).isEqualTo(ReadWindow.lastHour(NOW,
                    "the Admin API answered 403 to reading the database's retention: these credentials may not read"
                            + " the database's settings (The caller does not have permission)"));
        } finally {
            admin.stop(0);
        }
        HttpServer missing = admin(asked, 404, "{\"error\": {\"code\": 404, \"message\": \"not found\"}}");
        try {
            assertThat(AdminDatabase.window(production("orders"), NOW, api(missing)).source()).isEqualTo(
                    "the last hour (the Admin API answered 404 to reading the database's retention: no database orders"
                            + " in project keyranger-no-such-project (not found))");
            assertThat(asked).last().isEqualTo("GET /v1/projects/keyranger-no-such-project/databases/orders");
        } finally {
            missing.stop(0);
        }
    }

    @Test
    void anAdminApiThatCannotBeReachedGivesTheLastHourSayingSo() throws Exception {
        HttpServer closed = admin(new ArrayList<>(), 200, "{}");
        String api = api(closed);
        closed.stop(0); // nothing listens on its port any more
        ReadWindow window = AdminDatabase.window(production(""), NOW, api);
        assertThat(window.earliest()).isEqualTo(NOW.minus(Duration.ofHours(1)));
        assertThat(window.pitr()).isFalse();
        assertThat(window.source()).startsWith("the last hour (the database's retention could not be read from the"
                + " Admin API: ").containsIgnoringCase("connection refused");
    }

    /** A production session to a project that does not exist, without credentials. */
    private static Session production(String databaseId) {
        ConnectionSpec spec = new ConnectionSpec(null, "keyranger-no-such-project", databaseId, "", null, true);
        return Session.of(spec, DatastoreOptions.newBuilder().setProjectId(spec.projectId()).setDatabaseId(databaseId)
                .setCredentials(NoCredentials.getInstance()).build().getService());
    }

    /** A stand-in for the Admin API on localhost answering every request {@code status} and {@code body}. */
    private static HttpServer admin(List<String> asked, int status, String body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            asked.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return server;
    }

    private static String api(HttpServer server) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/";
    }
}
