package io.keyranger.executor.lease;

import com.google.cloud.datastore.Entity;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Who runs (or ran) a job, as its fence records it.
 *
 * @param id           a random id per run
 * @param host         the host name
 * @param pid          the process id
 * @param processStart when that process started, epoch millis (0 when unknown): tells a reused pid apart
 * @param since        when it took the job
 */
public record Runner(String id, String host, long pid, long processStart, Instant since) {
    /** A new run of this process. */
    public static Runner self() {
        ProcessHandle me = ProcessHandle.current();
        return new Runner(UUID.randomUUID().toString(), HostName.NAME, me.pid(),
                me.info().startInstant().map(Instant::toEpochMilli).orElse(0L), Instant.now());
    }

    /** The runner a fence entity names. */
    public static Runner of(Entity fence) {
        if (!fence.contains("runnerId")) {
            return new Runner("unknown", "an unknown host", 0, 0, Instant.EPOCH);
        }
        return new Runner(fence.getString("runnerId"), fence.getString("runnerHost"), fence.getLong("runnerPid"),
                fence.getLong("runnerProcessStart"), fence.getTimestamp("runnerSince").toDate().toInstant());
    }

    /** "runner 1a2b3c4d on host h (pid 123) since 2026-11-23T08:00:00Z" */
    public String describe() {
        return name() + " since " + since.truncatedTo(ChronoUnit.SECONDS);
    }

    /** "runner 1a2b3c4d on host h (pid 123) at 2026-11-23T08:00:00Z", for the runner that took a job over. */
    public String describeTakeOver() {
        return name() + " at " + since.truncatedTo(ChronoUnit.SECONDS);
    }

    private String name() {
        return "runner " + id.substring(0, Math.min(8, id.length())) + " on host " + host + " (pid " + pid + ")";
    }

    /**
     * Whether this runner is known to be gone: it ran on this host, and its process no longer exists (or the pid now
     * belongs to a process started at another time), or it is a run of this very process that is not among the
     * {@code active} ones.
     */
    public boolean isGone(Set<String> active) {
        Runner me = self();
        if (!host.equals(me.host())) {
            return false;
        }
        if (pid == me.pid() && processStart == me.processStart()) {
            return !active.contains(id);
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return true;
        }
        long started = process.get().info().startInstant().map(Instant::toEpochMilli).orElse(0L);
        return processStart != 0 && started != 0 && started != processStart;
    }

    /** The host name, looked up once (it may ask DNS). */
    private static final class HostName {
        static final String NAME = lookUp();

        private static String lookUp() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException | SecurityException e) {
                String env = System.getenv("HOSTNAME");
                return env == null || env.isBlank() ? "an unknown host" : env;
            }
        }
    }
}
