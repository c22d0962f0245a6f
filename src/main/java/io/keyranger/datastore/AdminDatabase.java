package io.keyranger.datastore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.HttpResponseException;
import com.google.cloud.datastore.DatastoreOptions;
import com.google.cloud.http.HttpTransportOptions;
import java.io.IOException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long a production database keeps its versions, from the Firestore Admin API's database resource
 * ({@code GET https://firestore.googleapis.com/v1/projects/P/databases/D}): {@code pointInTimeRecoveryEnablement},
 * {@code versionRetentionPeriod} and {@code earliestVersionTime}. Whatever cannot be read falls back to the last hour,
 * which every database keeps, and the window says why.
 */
final class AdminDatabase {
    private static final Logger LOG = LoggerFactory.getLogger(AdminDatabase.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String API = "https://firestore.googleapis.com/v1/";
    private static final String PITR_ON = "POINT_IN_TIME_RECOVERY_ENABLED";
    /** What a database with PITR keeps when the answer names no retention. */
    private static final Duration PITR = Duration.ofDays(7);
    private static final int TIMEOUT_MILLIS = 10_000;

    private AdminDatabase() {
    }

    /** The window of the database {@code live} reaches, read with its own credentials; the last hour if that fails. */
    static ReadWindow window(Session live, Instant now) {
        return window(live, now, API);
    }

    /**
     * As {@link #window(Session, Instant)}, from the Admin API at {@code api}: a local stand-in, in tests, or the
     * production model, which answers the database resource at its own address.
     */
    static ReadWindow window(Session live, Instant now, String api) {
        ConnectionSpec spec = live.spec();
        String database = spec.databaseId().isEmpty() ? "(default)" : spec.databaseId();
        String url = api + "projects/" + spec.projectId() + "/databases/" + database;
        try {
            return window(get(live.live().datastore().getOptions(), url), now);
        } catch (HttpResponseException e) {
            LOG.info("reading {} answered {}", url, e.getStatusCode());
            return ReadWindow.lastHour(now, "the Admin API answered " + e.getStatusCode() + " to reading the "
                    + "database's retention" + switch (e.getStatusCode()) {
                        case 401, 403 -> ": these credentials may not read the database's settings";
                        case 404 -> ": no database " + database + " in project " + spec.projectId();
                        default -> "";
                    } + serverMessage(e.getContent()));
        } catch (UnknownHostException e) {
            LOG.info("reading {} failed", url, e);
            return ReadWindow.lastHour(now, "the Admin API could not be reached to read the database's retention: "
                    + "no address for " + e.getMessage() + " (offline?)");
        } catch (IOException | RuntimeException e) {
            LOG.info("reading {} failed", url, e);
            return ReadWindow.lastHour(now, "the database's retention could not be read from the Admin API: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    private static String get(DatastoreOptions options, String url) throws IOException {
        HttpTransportOptions transport = options.getTransportOptions() instanceof HttpTransportOptions http ? http
                : HttpTransportOptions.newBuilder().build(); // the Datastore client's own, or its defaults
        HttpRequest request = transport.getHttpTransportFactory().create()
                .createRequestFactory(transport.getHttpRequestInitializer(options))
                .buildGetRequest(new GenericUrl(url));
        request.setConnectTimeout(TIMEOUT_MILLIS).setReadTimeout(TIMEOUT_MILLIS);
        HttpResponse response = request.execute();
        try {
            return response.parseAsString();
        } finally {
            response.disconnect();
        }
    }

    /**
     * The window a database resource ({@code body}, the Admin API's JSON) describes at {@code now}: from its
     * {@code earliestVersionTime}, else {@code now} less its {@code versionRetentionPeriod}, else less what PITR keeps
     * (7 days on, an hour off). A body that is not such a resource gives the last hour, saying so.
     */
    static ReadWindow window(String body, Instant now) {
        JsonNode database;
        try {
            database = JSON.readTree(body);
        } catch (IOException e) {
            return ReadWindow.lastHour(now, "the Admin API's answer was not JSON");
        }
        if (database == null || !database.isObject()) {
            return ReadWindow.lastHour(now, "the Admin API's answer was not a database");
        }
        String enablement = database.path("pointInTimeRecoveryEnablement").asText("");
        boolean pitr = PITR_ON.equals(enablement);
        String said = pitr ? "point-in-time recovery on" : enablement.isEmpty() ? "point-in-time recovery not named"
                : "point-in-time recovery off";
        String earliest = database.path("earliestVersionTime").asText("");
        if (!earliest.isEmpty()) {
            try {
                return new ReadWindow(OffsetDateTime.parse(earliest).toInstant(), pitr,
                        "the database's earliestVersionTime, " + said);
            } catch (DateTimeParseException e) {
                LOG.info("earliestVersionTime '{}' is not a time", earliest);
            }
        }
        Duration retention = retention(database.path("versionRetentionPeriod").asText(""));
        if (retention != null) {
            return new ReadWindow(now.minus(retention), pitr, "the database's versionRetentionPeriod of "
                    + (retention.toSeconds() % 86_400 == 0 ? count(retention.toDays(), "day")
                    : retention.toSeconds() % 3_600 == 0 ? count(retention.toHours(), "hour")
                    : count(retention.toSeconds(), "second")) + ", " + said);
        }
        return new ReadWindow(now.minus(pitr ? PITR : ReadWindow.FINE), pitr, "no retention named by the database, "
                + said);
    }

    /** A JSON duration ({@code "604800s"}, {@code "3600.5s"}), or null when there is none or it is not one. */
    private static Duration retention(String text) {
        if (!text.matches("\\d+(\\.\\d{1,9})?s")) {
            return null;
        }
        return Duration.parse("PT" + text.toUpperCase());
    }

    private static String count(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }

    /** The {@code error.message} of an error body, as " (MESSAGE)", or "". */
    private static String serverMessage(String content) {
        try {
            String message = content == null ? "" : JSON.readTree(content).path("error").path("message").asText("");
            return message.isEmpty() ? "" : " (" + message + ")";
        } catch (IOException e) {
            return "";
        }
    }
}
