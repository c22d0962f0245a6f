package io.keyranger.bench;

import io.keyranger.KeyRangerException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The JVMs the bench's Beam strategies run their pipelines in, one a strategy, each a {@link PipelineHost} kept for as
 * long as this is open: a strategy's later runs meet a JVM that its earlier ones have compiled, as the local strategies'
 * runs meet the bench's own. One that has died is started again for the next run. Closing ends them all.
 */
public final class PipelineJvms implements AutoCloseable {
    private final List<String> flags;
    private final Map<BenchStrategy, Jvm> open = new EnumMap<>(BenchStrategy.class);

    /** {@code flags}: the pipeline JVMs' own (none: the JVM as a user starts it). */
    public PipelineJvms(List<String> flags) {
        this.flags = List.copyOf(flags);
    }

    /** The strategy's JVM, started if it has none or the one it had has ended. */
    synchronized Jvm of(BenchStrategy strategy) {
        Jvm jvm = open.get(strategy);
        if (jvm == null || !jvm.process.isAlive()) {
            jvm = start();
            open.put(strategy, jvm);
        }
        return jvm;
    }

    private Jvm start() {
        // the pipeline's JVM as a user starts it (README, "On Apache Beam"), with the flags the bench was given
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx4g"));
        command.addAll(flags);
        command.addAll(List.of("-cp", BeamBench.classPath(), PipelineHost.class.getName()));
        try {
            return new Jvm(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new KeyRangerException("Cannot start the Beam pipeline's JVM: " + e.getMessage());
        }
    }

    /** The processes of the JVMs open now. */
    public synchronized List<Long> pids() {
        return open.values().stream().filter(j -> j.process.isAlive()).map(j -> j.process.pid()).toList();
    }

    @Override
    public synchronized void close() {
        for (Jvm jvm : open.values()) {
            jvm.close();
        }
        open.clear();
    }

    /** One pipeline JVM: requests go in on its input, its output comes back to the line that ends each. */
    static final class Jvm {
        private final Process process;
        private final Writer requests;
        private final BufferedReader output;

        private Jvm(Process process) {
            this.process = process;
            this.requests = process.outputWriter(StandardCharsets.UTF_8);
            this.output = process.inputReader(StandardCharsets.UTF_8);
        }

        /**
         * Runs the timed pipeline, after the warm-up one when {@code warmUp} is not null ({@code warmed} runs between
         * the two); what the timed one printed, and its exit code.
         */
        Ran run(List<String> warmUp, List<String> timed, Runnable warmed) {
            try {
                if (warmUp != null) {
                    Ran warm = request(PipelineHost.WARM, warmUp);
                    if (warm.exit() != 0) {
                        return warm;
                    }
                    warmed.run();
                }
                return request(PipelineHost.RUN, timed);
            } catch (IOException e) {
                throw new KeyRangerException("The Beam pipeline's JVM stopped answering: " + e.getMessage());
            }
        }

        private Ran request(String kind, List<String> arguments) throws IOException {
            requests.write(PipelineHost.request(kind, arguments));
            requests.write('\n');
            requests.flush();
            StringBuilder lines = new StringBuilder();
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith(PipelineHost.ENDED)) {
                    return new Ran(Integer.parseInt(line.substring(PipelineHost.ENDED.length()).trim()),
                            lines.toString());
                }
                lines.append(line).append('\n');
            }
            // the JVM ended without ending the request (it threw, or was killed): its exit code says how
            try {
                return new Ran(process.waitFor(), lines.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new KeyRangerException("Interrupted while the Beam pipeline's JVM was ending.");
            }
        }

        private void close() {
            try {
                requests.close(); // its input ends: it exits
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (IOException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /**
     * What a request printed and its exit code.
     *
     * @param exit   its exit code
     * @param output its lines
     */
    record Ran(int exit, String output) {
    }
}
