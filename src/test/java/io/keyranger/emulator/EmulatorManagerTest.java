package io.keyranger.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class EmulatorManagerTest {
    @TempDir
    Path temp;

    @Test
    void reportsAMissingSdkDirectoryWithInstallAdvice() {
        CloudSdkLocator locator = new CloudSdkLocator(temp.resolve("no-such-sdk"), Map.of());
        assertThatThrownBy(locator::emulatorJar)
                .isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("gcloud components install cloud-datastore-emulator");
    }

    @Test
    void reportsAnSdkWithoutTheEmulatorComponent() throws Exception {
        Files.createDirectories(temp.resolve("sdk/bin"));
        CloudSdkLocator locator = new CloudSdkLocator(temp.resolve("sdk"), Map.of());
        assertThatThrownBy(locator::emulatorJar)
                .isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("has no Datastore emulator component");
    }

    @Test
    void reportsNoGcloudOnPath() {
        CloudSdkLocator locator = new CloudSdkLocator(null, Map.of("PATH", temp.toString()));
        assertThatThrownBy(locator::emulatorJar)
                .isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("no 'gcloud' on PATH");
    }

    @Test
    void findsTheSdkThroughCloudsdkRoot() throws Exception {
        Path jar = temp.resolve("sdk").resolve(CloudSdkLocator.EMULATOR_DIR).resolve(CloudSdkLocator.EMULATOR_JAR);
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "not really a jar");
        CloudSdkLocator locator = new CloudSdkLocator(null, Map.of("CLOUDSDK_ROOT", temp.resolve("sdk").toString()));
        assertThat(locator.emulatorJar()).isEqualTo(jar);
    }

    @Test
    void refusesAPortThatIsAlreadyTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            EmulatorManager manager = new EmulatorManager(CloudSdkLocator.fromEnvironment(null));
            assertThatThrownBy(() -> manager.start(taken.getLocalPort()))
                    .isInstanceOf(KeyRangerException.class)
                    .hasMessageContaining("Port " + taken.getLocalPort() + " on 127.0.0.1 is already in use");
        }
    }

    @Test
    void startsHealthyAndStopsItsWholeProcessTree() {
        EmulatorManager manager = new EmulatorManager(CloudSdkLocator.fromEnvironment(null));
        RunningEmulator emulator = manager.start(0);
        List<ProcessHandle> tree = emulator.process().descendants().toList();
        DatastoreConnector.checkEmulatorReachable(emulator.hostPort());
        if (Files.isReadable(Path.of("/proc/self/stat"))) {
            // the emulator's JVM runs 10 nice levels below the app (field 19 of /proc/PID/stat)
            int ours = niceness(ProcessHandle.current().pid());
            assertThat(tree).filteredOn(p -> p.info().command().orElse("").endsWith("java")).singleElement()
                    .satisfies(java -> assertThat(niceness(java.pid())).isEqualTo(Math.min(19, ours + 10)));
        }
        emulator.close();
        assertThat(emulator.isAlive()).isFalse();
        assertThat(tree).isNotEmpty().noneMatch(ProcessHandle::isAlive);
        assertThatThrownBy(() -> DatastoreConnector.checkEmulatorReachable(emulator.hostPort()))
                .hasMessageContaining("connection refused");
    }

    /**
     * The Firestore emulator in Datastore mode starts, serves entities in production's UTF-8 key order (the legacy
     * emulator sorts U+1F600 before U+E000, in UTF-16), refuses the kind queries it lacks, and stops with its tree.
     */
    @Test
    void startsTheFirestoreEmulatorInDatastoreMode() {
        EmulatorManager manager = new EmulatorManager(CloudSdkLocator.fromEnvironment(null));
        assertThatThrownBy(() -> manager.start(ServerType.FIRESTORE_EMULATOR, 0, temp.resolve("data")))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("keeps no data on disk");
        RunningEmulator emulator = manager.start(ServerType.FIRESTORE_EMULATOR, 0, null);
        List<ProcessHandle> tree = emulator.process().descendants().toList();
        assertThat(emulator.server()).isEqualTo(ServerType.FIRESTORE_EMULATOR);
        Datastore datastore = DatastoreConnector.connect(emulator.connection("fs-start"));
        KeyFactory keys = datastore.newKeyFactory().setKind("W");
        for (String name : List.of("\uE000", "\uD83D\uDE00", "a")) {
            datastore.put(Entity.newBuilder(keys.newKey(name)).build());
        }
        List<String> order = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("W").build())
                .forEachRemaining(k -> order.add(k.getName()));
        assertThat(order).as("UTF-8 byte order, as production").containsExactly("a", "\uE000", "\uD83D\uDE00");
        assertThatThrownBy(() -> datastore.run(Query.newKeyQueryBuilder()
                .setKind("__kind__").build()).hasNext()).hasMessageContaining("Kind queries are not supported");
        emulator.close();
        assertThat(emulator.isAlive()).isFalse();
        assertThat(tree).isNotEmpty().noneMatch(ProcessHandle::isAlive);
    }

    /**
     * An emulator with a data directory saves its store when stopped (its periodic save comes only about every 30 s):
     * what was written a moment before the stop is there after a restart.
     */
    @Test
    void whatWasWrittenJustBeforeTheStopSurvivesARestart() {
        EmulatorManager manager = new EmulatorManager(CloudSdkLocator.fromEnvironment(null));
        Path dataDir = temp.resolve("data");
        RunningEmulator first = manager.start(0, dataDir);
        Datastore datastore = DatastoreConnector.connect(first.connection("saved"));
        Key key = datastore.newKeyFactory().setKind("Doc").newKey("last");
        datastore.put(Entity.newBuilder(key).set("n", 7).build());
        first.close();
        try (RunningEmulator restarted = manager.start(first.port(), dataDir)) {
            Entity found = DatastoreConnector.connect(restarted.connection("saved")).get(key);
            assertThat(found).isNotNull();
            assertThat(found.getLong("n")).isEqualTo(7);
        }
    }

    /** Even SIGKILL of the app, which runs no shutdown hook, must not leave an emulator behind. */
    @Test
    @DisabledOnOs(OS.WINDOWS)
    void emulatorDiesWhenTheAppIsKilled() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process app = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dkeyranger.config.dir=" + temp, "io.keyranger.app.Main", "demo", "--headless", "--entities", "20")
                .redirectErrorStream(true).start();
        String hostPort = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("Datastore emulator: ")) {
                    hostPort = line.substring("Datastore emulator: ".length()).trim();
                    // the address comes once the data is there: a script that reads it finds every Account
                    long accounts = 0;
                    var keys = DatastoreConnector.connect(ConnectionSpec.emulator(hostPort,
                            "demo-project")).run(Query.newKeyQueryBuilder()
                            .setKind("Account").build());
                    for (; keys.hasNext(); keys.next()) {
                        accounts++;
                    }
                    assertThat(accounts).as("Accounts seeded when the address was printed").isEqualTo(20);
                }
                if (line.startsWith("The emulator runs until")) {
                    break;
                }
            }
            assertThat(hostPort).as("the app printed its emulator").isNotNull();
            List<ProcessHandle> tree = app.descendants().toList();
            assertThat(tree).isNotEmpty();
            app.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (tree.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(tree).noneMatch(ProcessHandle::isAlive);
        } finally {
            app.descendants().forEach(ProcessHandle::destroyForcibly);
            app.destroyForcibly();
        }
    }

    private static int niceness(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
