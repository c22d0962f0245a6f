package io.keyranger.beam;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.ServerType;
import io.keyranger.emulator.RunningEmulator;
import io.keyranger.support.ChildCli;
import io.keyranger.support.SharedEmulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;

/**
 * The Beam tests' emulators, through the app's one test helper ({@link SharedEmulator}): each test takes a project of
 * its own, on the legacy emulator or on the emulator it names, and the project says which emulator it is on.
 */
final class BeamEmulator {
    static final String[] COLORS = {"red", "green", "blue", "amber", "violet"};
    private static final Map<String, ServerType> SERVERS = new ConcurrentHashMap<>();

    private BeamEmulator() {
    }

    /** The legacy emulator. */
    static RunningEmulator get() {
        return SharedEmulator.get();
    }

    /** A project no other test uses, on the legacy emulator. */
    static String freshProject(String prefix) {
        return freshProject(ServerType.EMULATOR, prefix);
    }

    /** A project no other test uses, on the emulator of type {@code server}. */
    static String freshProject(ServerType server, String prefix) {
        String project = SharedEmulator.freshProject(server, prefix).projectId();
        SERVERS.put(project, server);
        return project;
    }

    /** The host and port of the emulator that holds {@code project}. */
    static String host(String project) {
        return SharedEmulator.get(SERVERS.getOrDefault(project, ServerType.EMULATOR)).hostPort();
    }

    static Datastore connect(String project) {
        return DatastoreConnector.connect(ConnectionSpec.emulator(host(project), project,
                SERVERS.getOrDefault(project, ServerType.EMULATOR)));
    }

    /** {@code count} Items (ids and names mixed), each with n = 0 and a color. */
    static void seed(Datastore datastore, String kind, int count) {
        List<Entity> batch = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            Key key = i % 4 == 0 ? datastore.newKeyFactory().setKind(kind).newKey("item-" + i)
                    : datastore.newKeyFactory().setKind(kind).newKey(i * 7919L);
            batch.add(Entity.newBuilder(key).set("n", 0).set("color", COLORS[i % COLORS.length]).build());
            if (batch.size() == 500 || i == count) {
                datastore.put(batch.toArray(new Entity[0]));
                batch.clear();
            }
        }
    }

    /** What a run printed and its exit code. */
    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = BeamMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A job's totals as its sharded counter holds them, or none while it has no counter yet. */
    static Map<String, Long> totals(Datastore datastore, String jobId) {
        try {
            return ShardedCounter.existing(datastore, "job:" + jobId).totals();
        } catch (RuntimeException notYet) {
            return Map.of();
        }
    }

    /**
     * Starts the pipeline of {@code args} in a JVM of its own, waits until job {@code jobId} has read
     * {@code atLeast} entities, and kills it with SIGKILL: the entities it had read, asserted to be fewer than
     * {@code entities} (the pipeline was still running).
     */
    static long killAfter(Datastore datastore, String jobId, String[] args, long atLeast, long entities,
                          Path log) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), "-cp", System.getProperty("java.class.path")));
        command.addAll(ChildCli.SHORT_LIVED_JVM);
        command.add(BeamMain.class.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            long read = 0;
            while (read < atLeast && System.nanoTime() < deadline && process.isAlive()) {
                Thread.sleep(100);
                read = totals(datastore, jobId).getOrDefault("read", 0L);
            }
            Assertions.assertThat(process.isAlive()).as(Files.readString(log))
                    .isTrue();
            Assertions.assertThat(read).isBetween(atLeast, entities - 1);
        } finally {
            process.destroyForcibly().waitFor();
        }
        return totals(datastore, jobId).get("read");
    }

    /** The pipeline's arguments for a job over Item in {@code project}: the DirectRunner, 4 shards, pages of 200. */
    static String[] pipelineArgs(String project, Path mapper, String jobId, String... more) {
        return pipelineArgsOn("DirectRunner", project, mapper, jobId, more);
    }

    /** As above, on {@code runner}; FlinkRunner runs on Flink's local mini-cluster with 4 task slots. */
    static String[] pipelineArgsOn(String runner, String project, Path mapper, String jobId,
                                   String... more) {
        List<String> args = new ArrayList<>(List.of("--runner=" + runner, "--project=" + project,
                "--emulatorHost=" + host(project), "--kind=Item", "--mapper=" + mapper, "--jobId=" + jobId,
                "--shards=4", "--pageSize=200"));
        if (runner.equals("FlinkRunner")) {
            args.addAll(List.of("--flinkMaster=[local]", "--parallelism=4"));
        }
        args.addAll(List.of(more));
        return args.toArray(new String[0]);
    }
}
