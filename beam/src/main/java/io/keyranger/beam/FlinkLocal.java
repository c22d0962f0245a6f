package io.keyranger.beam;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Flink as KeyRanger runs it. Its local mini-cluster sizes its network buffers for a few task slots (64 MiB), and a
 * job at the parallelism of a desktop's workers (64) needs several times that for the shuffle after the DoFn: when no
 * configuration directory is given, one is written that sizes them for {@code --parallelism} (a real cluster,
 * {@code --flinkMaster=HOST:PORT}, keeps its own). And a job on Flink starts from more ranges than it has slots
 * ({@link #startingRanges}).
 */
final class FlinkLocal {
    private static final long BUFFER = 32 * 1024;

    /** Starting ranges per task slot on Flink (see {@link #startingRanges}). */
    static final int RANGES_PER_SLOT = 4;

    private FlinkLocal() {
    }

    /**
     * How many ranges a job starts from: its shards, but on Flink at least {@link #RANGES_PER_SLOT} per task slot.
     * Flink's batch mode never splits running work (no checkpoints, no dynamic splits), so the starting ranges are all
     * the pieces its slots share: with one range a slot, a slot whose range is large ends last, alone (and when the
     * ranges were spread by hash, 64 ranges on 64 slots left about a third of the slots without work: 200,000
     * entities on the model took 48 s, with at most 36 calls in flight).
     */
    static int startingRanges(PipelineOptions options, int shards) {
        if (!onFlink(options)) {
            return shards;
        }
        int slots = options.as(FlinkPipelineOptions.class).getParallelism();
        return Math.max(shards, RANGES_PER_SLOT * Math.max(1, slots));
    }

    /** Whether the pipeline runs on Flink (a local mini-cluster or a cluster). */
    static boolean onFlink(PipelineOptions options) {
        return options.getRunner() != null && options.getRunner().getSimpleName().equals("FlinkRunner");
    }

    /** Whether the pipeline runs on Flink's local mini-cluster, in this JVM (its workers share this machine). */
    static boolean isLocal(PipelineOptions options) {
        if (!onFlink(options)) {
            return false;
        }
        String master = options.as(FlinkPipelineOptions.class).getFlinkMaster();
        return "[local]".equals(master) || "[auto]".equals(master);
    }

    static void configure(PipelineOptions options) throws IOException {
        if (!onFlink(options)) {
            return;
        }
        FlinkPipelineOptions flink = options.as(FlinkPipelineOptions.class);
        if (flink.getFlinkConfDir() != null || !isLocal(options)) {
            return;
        }
        long parallelism = Math.max(1, flink.getParallelism());
        // two buffers each way for every pair of tasks, within 64 MiB to 1 GiB
        long bytes = Math.min(1L << 30, Math.max(64L << 20, parallelism * parallelism * 4 * BUFFER));
        Path dir = Files.createTempDirectory("keyranger-flink-");
        dir.toFile().deleteOnExit();
        Path conf = dir.resolve("flink-conf.yaml");
        Files.writeString(conf, "taskmanager.memory.network.min: " + bytes + "b\n"
                + "taskmanager.memory.network.max: " + bytes + "b\n");
        conf.toFile().deleteOnExit();
        flink.setFlinkConfDir(dir.toString());
    }
}
