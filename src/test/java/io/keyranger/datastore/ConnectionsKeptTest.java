package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import io.keyranger.support.SharedEmulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Datastore client keeps a connection for each of many concurrent calls once they have ended, not the JDK's
 * default five, so a job's workers do not open a new connection (a TLS handshake, in production) for most of their
 * calls. Run in a JVM of its own ({@link Probe}), as a job's is: the JDK reads the setting once a JVM, and this test
 * JVM's other tests may have made it read it first. Counted from the kernel's table of that process's TCP connections.
 */
class ConnectionsKeptTest {
    private static final int CALLS = 24;

    @Test
    void manyConcurrentCallsLeaveTheirConnectionsOpenForTheNextOnes() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("conns");
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Probe.class.getName(), conn.emulatorHost(),
                conn.projectId()).redirectErrorStream(true).start();
        assertThat(probe.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(probe.exitValue()).as(output).isZero();
        long kept = Long.parseLong(output.lines().filter(l -> l.startsWith(Probe.KEPT)).findFirst()
                .orElseThrow(() -> new AssertionError(output)).substring(Probe.KEPT.length()).trim());
        // the JDK's default keeps 5 a host
        assertThat(kept).as("connections kept open to the emulator after the calls").isGreaterThanOrEqualTo(CALLS / 2);
    }

    /** Connects as the product does, makes {@value #CALLS} calls at once three times, and counts what stays open. */
    public static final class Probe {
        static final String KEPT = "kept:";

        public static void main(String[] args) throws Exception {
            Datastore datastore = DatastoreConnector.connect(ConnectionSpec.emulator(args[0], args[1]));
            Key key = datastore.newKeyFactory().setKind("Conn").newKey("one");
            int port = Integer.parseInt(args[0].substring(args[0].lastIndexOf(':') + 1));
            ExecutorService pool = Executors.newFixedThreadPool(CALLS);
            for (int burst = 0; burst < 3; burst++) {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> calls = new ArrayList<>();
                for (int i = 0; i < CALLS; i++) {
                    calls.add(pool.submit(() -> {
                        start.await();
                        return datastore.get(key);
                    }));
                }
                start.countDown();
                for (Future<?> call : calls) {
                    call.get();
                }
            }
            pool.shutdown();
            long kept = established(ProcessHandle.current().pid(), port);
            System.out.println(KEPT + " " + kept);
            System.exit(0);
        }
    }

    /** Established TCP connections of process {@code pid} whose remote end is {@code port} (IPv4 and IPv6). */
    static long established(long pid, int port) throws IOException {
        Set<String> sockets = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        sockets.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closed) {
                    // closed while listed
                }
            }
        }
        String remote = String.format(":%04X", port);
        long count = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (Files.exists(path)) {
                count += Files.readAllLines(path).stream().skip(1).map(l -> l.trim().split("\\s+"))
                        .filter(f -> f.length > 9 && f[2].endsWith(remote) && f[3].equals("01")
                                && sockets.contains(f[9])).count();
            }
        }
        return count;
    }
}
