package io.keyranger.datastore;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import com.google.cloud.http.HttpTransportOptions;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a {@link Datastore} client for a {@link ConnectionSpec}, always over the HTTP transport (the gRPC one ignores
 * an emulator host). It checks up front what a user can get wrong (an unreachable emulator, a missing or invalid key
 * file) so that the failure is one clear message instead of minutes of client retries.
 */
public final class DatastoreConnector {
    private static final Logger LOG = LoggerFactory.getLogger(DatastoreConnector.class);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);
    /**
     * Idle connections the JDK's HTTP client (the Datastore client's transport) keeps to a host, unless the user set
     * {@code http.maxConnections}: the JDK keeps 5, so a job with more workers than that closed most connections after
     * each call and opened a new one (a TLS handshake, in production) for the next.
     */
    private static final int IDLE_CONNECTIONS = 256;

    static {
        // the JDK reads it once, when it first keeps a connection: so before this class's first client
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", Integer.toString(IDLE_CONNECTIONS));
        }
    }

    private DatastoreConnector() {
    }

    public static Datastore connect(ConnectionSpec spec) {
        DatastoreOptions.Builder builder = DatastoreOptions.newBuilder()
                .setProjectId(spec.projectId())
                .setNamespace(spec.namespace())
                // short client retries: KeyRanger's executor retries with its own budget, and a lost server must
                // surface within seconds rather than after the client's default ten minutes
                .setRetrySettings(RetrySettings.newBuilder()
                        .setMaxAttempts(3)
                        .setInitialRetryDelayDuration(Duration.ofMillis(100))
                        .setRetryDelayMultiplier(2.0)
                        .setMaxRetryDelayDuration(Duration.ofSeconds(2))
                        .setTotalTimeoutDuration(Duration.ofSeconds(30))
                        .setInitialRpcTimeoutDuration(Duration.ofSeconds(30))
                        .setMaxRpcTimeoutDuration(Duration.ofSeconds(30))
                        .setRpcTimeoutMultiplier(1.0)
                        .build())
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setConnectTimeout(5_000).setReadTimeout(60_000).build());
        if (!spec.databaseId().isEmpty()) {
            builder.setDatabaseId(spec.databaseId());
        }
        if (spec.isLocal()) {
            checkEmulatorReachable(spec.emulatorHost());
            builder.setHost("http://" + spec.emulatorHost()).setCredentials(NoCredentials.getInstance());
        } else {
            builder.setCredentials(loadCredentials(spec));
        }
        LOG.info("Connecting to {}", spec.describe());
        return builder.build().getService();
    }

    /**
     * The one client the health checks share: each {@link HttpClient} starts threads of its own, and a Beam worker
     * connects once per DoFn set-up (a 64-slot Flink job made 195 of them).
     */
    private static final class Probe {
        static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
    }

    /** The HTTP client for talking to an emulator's own endpoints (health, save), shared by the whole process. */
    public static HttpClient emulatorHttp() {
        return Probe.CLIENT;
    }

    /** Asks the emulator's health endpoint; refuses with an actionable message when nothing answers. */
    public static void checkEmulatorReachable(String hostPort) {
        URI uri;
        try {
            uri = URI.create("http://" + hostPort + "/");
            if (uri.getHost() == null || uri.getPort() < 0) {
                throw new IllegalArgumentException("no host or port");
            }
        } catch (IllegalArgumentException e) {
            throw new KeyRangerException("'" + hostPort + "' is not a valid emulator address; use HOST:PORT, e.g. 127.0.0.1:8081.");
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(PROBE_TIMEOUT).GET().build();
        try {
            HttpResponse<String> response = Probe.CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new KeyRangerException("Something answers at " + hostPort + " but it is not a Datastore emulator (HTTP "
                        + response.statusCode() + ").");
            }
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new KeyRangerException("Cannot reach a Datastore emulator at " + hostPort
                    + " (connection refused). Is it running? Start one with 'keyranger demo --headless'.", e);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot reach a Datastore emulator at " + hostPort + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyRangerException("Interrupted while contacting the emulator at " + hostPort, e);
        }
    }

    /**
     * Which emulator answers at {@code hostPort} (refused, as {@link #checkEmulatorReachable}, when none does): a
     * lookup of a key no one writes, whose answer carries a {@code readTime} from the Firestore emulator in Datastore
     * mode and none from the legacy Datastore emulator. Their health checks answer alike, and the metadata one lacks
     * may come one day; the read time is what its reads are built on.
     */
    public static ServerType detectEmulator(String hostPort, String projectId) {
        checkEmulatorReachable(hostPort);
        HttpRequest lookup = HttpRequest.newBuilder(URI.create("http://" + hostPort + "/v1/projects/" + projectId
                        + ":lookup")).timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"keys\":[{\"path\":[{\"kind\":\"KeyRangerProbe\","
                        + "\"name\":\"probe\"}]}]}")).build();
        try {
            HttpResponse<String> response = Probe.CLIENT.send(lookup, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new KeyRangerException("The emulator at " + hostPort + " does not answer a lookup in project "
                        + projectId + " (HTTP " + response.statusCode() + "): " + response.body().strip());
            }
            return JSON.readTree(response.body()).has("readTime") ? ServerType.FIRESTORE_EMULATOR
                    : ServerType.EMULATOR;
        } catch (IOException e) {
            throw new KeyRangerException("Cannot ask the emulator at " + hostPort + " which it is: " + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeyRangerException("Interrupted while contacting the emulator at " + hostPort, e);
        }
    }

    /**
     * {@code spec} with the emulator it reaches found out ({@link #detectEmulator}): a host alone does not say
     * whether the legacy emulator or the Firestore one answers there, and the key order and commit limits depend on
     * it. Any other connection is returned as it is. It calls the server: never on the FX thread.
     */
    public static ConnectionSpec identify(ConnectionSpec spec) {
        return spec.isEmulator() ? spec.withServer(detectEmulator(spec.emulatorHost(), spec.projectId())) : spec;
    }

    private static final ObjectMapper JSON =
            new ObjectMapper();

    static GoogleCredentials loadCredentials(ConnectionSpec spec) {
        if (spec.credentialsFile() == null) {
            try {
                return GoogleCredentials.getApplicationDefault();
            } catch (IOException e) {
                throw new KeyRangerException("No credentials: pass --credentials FILE with a service-account key, or run "
                        + "'gcloud auth application-default login'.", e);
            }
        }
        if (!Files.isRegularFile(spec.credentialsFile())) {
            throw new KeyRangerException("Credentials file not found: " + spec.credentialsFile());
        }
        try (InputStream in = Files.newInputStream(spec.credentialsFile())) {
            return GoogleCredentials.fromStream(in);
        } catch (IOException | RuntimeException e) {
            // The parser's message can quote the file; keep it out of the message and the log.
            throw new KeyRangerException("Credentials file " + spec.credentialsFile()
                    + " is not a valid service-account key (expected the JSON key downloaded from the Cloud console).");
        }
    }
}
