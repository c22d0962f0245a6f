package io.keyranger.model;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.rpc.Code;
import com.google.rpc.Status;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A model of production Firestore in Datastore mode, for benchmarks only: it speaks the emulator's HTTP protocol
 * (protobuf bodies at {@code /v1/projects/P:method}), so KeyRanger's real client path is what gets measured, but it
 * behaves as production does where speed is concerned: it serves requests concurrently (up to its capacity, no global
 * lock), a key-range query costs O(log n + page) whatever the kind's size, keys sort by UTF-8 bytes, about 0.78% of
 * keys carry {@code __scatter__}, and conflicting transactions are aborted optimistically. Every call waits a latency
 * drawn from a seeded log-normal distribution. It keeps versions as production does (an hour by default, 7 days as
 * with point-in-time recovery: {@link Options#versionRetention}), so reads of the past ({@code read_time}) are measured
 * too, and answers the Admin API's database resource with that window. It is never used in place of the emulator in a
 * correctness test.
 *
 * <p>Where it is not production: a new Firestore database in Datastore mode locks pessimistically by default (a
 * transaction's reads take locks; a conflicting writer waits or is aborted), as the Firestore emulator does; the model
 * checks reads at commit instead. On both, one of two conflicting commits is ABORTED (ModelFidelityTest), which is all
 * KeyRanger's retries rely on; what the model does not show is the wait behind a held lock (BENCHMARKS.md, "The
 * model's transactions and production's locks").
 */
public final class ModelServer implements AutoCloseable {
    /** Keys in 10,000 that carry {@code __scatter__}, as in production (about 0.78%). */
    public static final int SCATTER_PER_10K = 78;

    private static final Logger LOG = LoggerFactory.getLogger(ModelServer.class);
    private static final String PROTOBUF = "application/x-protobuf";

    static {
        // the JDK server writes headers and body apart: without TCP_NODELAY, delayed ACKs add ~40 ms to a call
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final Options options;
    private final ModelData data;
    private final ModelService service;
    private final HttpServer http;
    private final ExecutorService threads;
    private final Semaphore capacity;
    private final Random random;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private volatile boolean quiet;

    /**
     * How the model behaves.
     *
     * @param medianLatencyMs median latency per call
     * @param p99LatencyMs    99th percentile latency per call (log-normal between the two)
     * @param capacity        calls served at once; more wait their turn
     * @param seed            seeds the latency draws
     * @param order           key order: {@link ProtoKeyOrder#PRODUCTION}, or the emulator's for fidelity tests
     * @param versionRetention how far back reads of the past can go: production's hour by default, 7 days with
     *                         point-in-time recovery ({@link ModelVersions})
     */
    public record Options(double medianLatencyMs, double p99LatencyMs, int capacity, long seed, ProtoKeyOrder order,
                          Duration versionRetention) {
        public static final Options DEFAULT = new Options(20, 100, 256, 1, ProtoKeyOrder.PRODUCTION,
                ModelVersions.FINE);

        public Options {
            if (medianLatencyMs < 0 || p99LatencyMs < medianLatencyMs) {
                throw new IllegalArgumentException("latency: need 0 <= median <= p99");
            }
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be at least 1");
            }
            if (versionRetention.isNegative() || versionRetention.isZero()
                    || versionRetention.compareTo(ModelVersions.PITR) > 0) {
                throw new IllegalArgumentException("the version retention must be more than 0 and at most 7 days");
            }
        }

        public Options withLatency(double median, double p99) {
            return new Options(median, p99, capacity, seed, order, versionRetention);
        }

        public Options withCapacity(int value) {
            return new Options(medianLatencyMs, p99LatencyMs, value, seed, order, versionRetention);
        }

        public Options withSeed(long value) {
            return new Options(medianLatencyMs, p99LatencyMs, capacity, value, order, versionRetention);
        }

        public Options withOrder(ProtoKeyOrder value) {
            return new Options(medianLatencyMs, p99LatencyMs, capacity, seed, value, versionRetention);
        }

        /** Keeps versions this long: an hour as production does, 7 days as with point-in-time recovery. */
        public Options withVersionRetention(Duration value) {
            return new Options(medianLatencyMs, p99LatencyMs, capacity, seed, order, value);
        }
    }

    private ModelServer(Options options, HttpServer http) {
        this.options = options;
        this.data = new ModelData(options.order(), options.versionRetention());
        this.service = new ModelService(data);
        this.http = http;
        this.capacity = new Semaphore(options.capacity(), true);
        this.random = new Random(options.seed());
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "model-server");
            t.setDaemon(true);
            return t;
        });
        http.setExecutor(threads);
        http.createContext("/", this::handle);
        http.createContext(CONTROL, this::control);
    }

    /**
     * A bench in another process steers the model here: {@code POST /keyranger/quiet} with "true" or "false", and
     * {@code GET /keyranger/stats} for "calls maxInFlight". Datastore's paths start with /v1/, so none is shadowed.
     */
    public static final String CONTROL = "/keyranger/";

    private void control(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String answer;
            int status = 200;
            if (path.equals(CONTROL + "quiet") && "POST".equals(exchange.getRequestMethod())) {
                String body = new String(exchange.getRequestBody().readAllBytes(),
                        StandardCharsets.UTF_8).trim();
                quiet(Boolean.parseBoolean(body));
                answer = "quiet " + quiet;
            } else if (path.equals(CONTROL + "stats")) {
                answer = calls() + " " + maxInFlight();
            } else {
                status = 404;
                answer = "unknown control " + path;
            }
            byte[] bytes = (answer + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    /** Starts on loopback; port 0 picks a free one. */
    public static ModelServer start(int port, Options options) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 4096);
        ModelServer server = new ModelServer(options, http);
        http.start();
        LOG.info("Model server on {} ({} ms median, {} ms p99, capacity {})", server.hostPort(),
                options.medianLatencyMs(), options.p99LatencyMs(), options.capacity());
        return server;
    }

    public String hostPort() {
        return "127.0.0.1:" + http.getAddress().getPort();
    }

    /** While quiet, calls wait no latency and take no capacity (seeding and checking a bench, not timing it). */
    public void quiet(boolean value) {
        quiet = value;
    }

    /** Calls served so far while not quiet (the timed ones). */
    public long calls() {
        return calls.get();
    }

    /** The most calls that were being served at once, counted while not quiet. */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    public Options options() {
        return options;
    }

    /** The model's data, for tests of what it keeps. */
    ModelData data() {
        return data;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if ("GET".equals(exchange.getRequestMethod())) {
                Matcher database = DATABASE.matcher(exchange.getRequestURI().getPath());
                byte[] ok = (database.matches() ? database(database.group(1), database.group(2)) : "Ok\n")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", database.matches() ? "application/json"
                        : "text/plain");
                exchange.sendResponseHeaders(200, ok.length);
                exchange.getResponseBody().write(ok);
                return;
            }
            int colon = path.lastIndexOf(':');
            int projects = path.indexOf("/projects/");
            if (colon < 0 || projects < 0) {
                reply(exchange, new ModelError(Code.NOT_FOUND, "no such method: " + path));
                return;
            }
            String method = path.substring(colon + 1);
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Message response;
            try {
                response = serve(method, body);
            } catch (ModelError e) {
                reply(exchange, e);
                return;
            } catch (InvalidProtocolBufferException e) {
                reply(exchange, new ModelError(Code.INVALID_ARGUMENT, "malformed request: " + e.getMessage()));
                return;
            } catch (RuntimeException e) {
                LOG.warn("Model server failed on {}", method, e);
                reply(exchange, new ModelError(Code.INTERNAL, "model server: " + e));
                return;
            }
            byte[] bytes = response.toByteArray();
            exchange.getResponseHeaders().set("Content-Type", PROTOBUF);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** A database resource of the Firestore Admin API: {@code GET /v1/projects/P/databases/D}. */
    private static final Pattern DATABASE = Pattern.compile("/v1/projects/([^/:]+)/databases/([^/:]+)");

    /**
     * What the Admin API answers of a database, for the fields KeyRanger reads to know how far back it can read
     * ({@code io.keyranger.datastore.AdminDatabase}): the model's retention, its earliest version and whether that is
     * point-in-time recovery.
     */
    private String database(String project, String database) {
        ModelVersions versions = data.versions();
        Instant earliest = Instant.EPOCH.plus(versions.earliest(), ChronoUnit.MICROS);
        return "{\"name\": \"projects/" + project + "/databases/" + database + "\", \"type\": \"DATASTORE_MODE\", "
                + "\"versionRetentionPeriod\": \"" + versions.retention().toSeconds() + "s\", "
                + "\"earliestVersionTime\": \"" + earliest + "\", \"pointInTimeRecoveryEnablement\": \""
                + (versions.pitr() ? "POINT_IN_TIME_RECOVERY_ENABLED" : "POINT_IN_TIME_RECOVERY_DISABLED") + "\"}\n";
    }

    private static void reply(HttpExchange exchange, ModelError error) throws IOException {
        byte[] bytes = Status.newBuilder().setCode(error.code().getNumber()).setMessage(error.getMessage()).build()
                .toByteArray();
        exchange.getResponseHeaders().set("Content-Type", PROTOBUF);
        exchange.sendResponseHeaders(error.httpStatus(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private Message serve(String method, byte[] body) throws InvalidProtocolBufferException {
        boolean waited = !quiet;
        if (waited) {
            calls.incrementAndGet();
            capacity.acquireUninterruptibly();
        }
        int now = inFlight.incrementAndGet();
        if (waited) {
            maxInFlight.accumulateAndGet(now, Math::max);
        }
        try {
            if (waited) {
                sleep(latencyMillis());
            }
            return service.serve(method, body);
        } finally {
            inFlight.decrementAndGet();
            if (waited) {
                capacity.release();
            }
        }
    }

    /** A draw from a log-normal with the configured median and 99th percentile. */
    double latencyMillis() {
        if (options.medianLatencyMs() == 0) {
            return 0;
        }
        double sigma = Math.log(options.p99LatencyMs() / options.medianLatencyMs()) / 2.326;
        double z;
        synchronized (random) {
            z = random.nextGaussian();
        }
        return options.medianLatencyMs() * Math.exp(sigma * z);
    }

    private static void sleep(double millis) {
        try {
            TimeUnit.MICROSECONDS.sleep(Math.round(millis * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        http.stop(0);
        threads.shutdownNow();
    }
}
