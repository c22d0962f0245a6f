package io.keyranger.bench;

import com.google.cloud.datastore.Datastore;
import io.keyranger.KeyRangerException;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmark's Beam strategies: the same job run by {@code keyranger-beam.jar} on the DirectRunner or on Flink's
 * local mini-cluster, in a JVM of its own ({@link PipelineJvms}: the app carries none of Beam), against the same server
 * and data, with the same mapper (its where clause too). The time is the one the pipeline reports (from building the
 * pipeline to its end: Beam's start-up is part of it, the JVM's own start is not).
 */
final class BeamBench {
    private static final Pattern TIME = Pattern.compile(" in ([0-9.]+) s ");
    private static final Pattern CPU = Pattern.compile("this run's CPU ([0-9.]+) s");

    /**
     * What a pipeline run took.
     *
     * @param wallMillis its wall time, as it reports it
     * @param cpuNanos   its JVM's CPU, from its where-the-time-went line, -1 when it prints none (a runner outside its
     *                   JVM)
     */
    record Pipeline(long wallMillis, long cpuNanos) {
    }

    private BeamBench() {
    }

    /**
     * The class path of a pipeline JVM: the Beam jar, then the bench's own classes ({@link PipelineHost}); or, when
     * this JVM has Beam's classes (the beam module's tests), this JVM's class path.
     */
    static String classPath() {
        try {
            Class.forName(MAIN);
            return System.getProperty("java.class.path");
        } catch (ClassNotFoundException e) {
            try {
                return jar() + File.pathSeparator
                        + Path.of(PipelineHost.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException bad) {
                throw new KeyRangerException("Cannot find the bench's own jar: " + bad.getMessage());
            }
        }
    }

    static final String MAIN = "io.keyranger.beam.BeamMain";

    /** The Beam jar: {@code -Dkeyranger.beamJar}, else beam/target/keyranger-beam.jar from the working directory. */
    static Path jar() {
        String configured = System.getProperty("keyranger.beamJar", System.getenv("KEYRANGER_BEAM_JAR"));
        List<Path> candidates = new ArrayList<>();
        if (configured != null) {
            candidates.add(Path.of(configured));
        }
        candidates.add(Path.of("beam/target/keyranger-beam.jar"));
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate)) {
                return candidate.toAbsolutePath();
            }
        }
        throw new KeyRangerException("The Beam strategies need beam/target/keyranger-beam.jar: build it with "
                + "'mvn -B package -DskipTests' in the project's root (or pass -Dkeyranger.beamJar=PATH).");
    }

    /**
     * Runs the strategy over {@code kind} on the emulator, or on the production model ({@code model}: the pipeline
     * then takes production's key order and limits, as the local strategies do), in {@code jvm}; the pipeline's wall
     * time in milliseconds and its CPU. With a {@code warmKind}, the same pipeline first runs over that kind in that
     * JVM, untimed, and {@code warmed} runs between the two.
     */
    static Pipeline run(BenchStrategy strategy, Datastore datastore, boolean model, String kind, String warmKind,
                        PipelineJvms.Jvm jvm, Runnable warmed, int workers, int pageSize, String mapperJson,
                        Consumer<String> log) {
        List<String> timed = arguments(strategy, datastore, model, kind, workers, pageSize, mapperJson);
        PipelineJvms.Ran ran = jvm.run(warmKind == null ? null
                : arguments(strategy, datastore, model, warmKind, workers, pageSize, mapperJson), timed, warmed);
        String output = ran.output();
        String summary = output.lines().filter(l -> l.startsWith("Job ") || l.startsWith("DatastoreIO:"))
                .reduce((a, b) -> b).orElse("");
        log.accept("  " + strategy.id() + ": " + summary);
        List<String> where = output.lines().filter(l -> l.startsWith("Where the time went")).toList();
        where.forEach(l -> log.accept("  " + l));
        Matcher time = TIME.matcher(summary);
        if (ran.exit() != 0 || !time.find()) {
            throw new KeyRangerException("The " + strategy.id() + " pipeline failed (exit " + ran.exit() + "): "
                    + output.lines().filter(l -> l.startsWith("keyranger-beam") || l.contains("Exception"))
                    .findFirst().orElse(summary));
        }
        Matcher cpu = CPU.matcher(where.isEmpty() ? "" : where.get(where.size() - 1));
        return new Pipeline(Math.round(Double.parseDouble(time.group(1)) * 1000),
                cpu.find() ? Math.round(Double.parseDouble(cpu.group(1)) * 1e9) : -1);
    }

    /** The arguments of a pipeline over {@code kind}: runner, connection, job. */
    private static List<String> arguments(BenchStrategy strategy, Datastore datastore, boolean model, String kind,
                                          int workers, int pageSize, String mapperJson) {
        String host = datastore.getOptions().getHost().replaceFirst("^https?://", "");
        List<String> command = new ArrayList<>(List.of("--runner=" + strategy.beamRunner(),
                "--targetParallelism=" + workers,
                "--project=" + datastore.getOptions().getProjectId(),
                (model ? "--modelHost=" : "--emulatorHost=") + host, "--kind=" + kind));
        if (strategy.beamRunner().equals("FlinkRunner")) {
            // the local mini-cluster: as many task slots as workers, every one running the job's DoFns
            command.addAll(List.of("--flinkMaster=[local]", "--parallelism=" + workers));
        }
        command.add("--mapperSpec=" + mapperJson);
        if (strategy.datastoreIo()) {
            command.addAll(List.of("--pipeline=datastoreio", "--numQuerySplits=" + workers));
        } else {
            command.addAll(List.of("--jobId=" + kind, "--shards=" + workers, "--pageSize=" + pageSize));
        }
        return command;
    }
}
