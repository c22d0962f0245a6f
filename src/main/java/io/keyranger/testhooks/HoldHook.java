package io.keyranger.testhooks;

import com.google.cloud.datastore.Datastore;
import io.keyranger.mapper.DelegatingMapper;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The hidden {@code --hold-after-chunks N} and {@code --hold-between-chunks N}: let a test hold a job in a child
 * process at a known point and then kill, freeze or release it, instead of polling for progress. After N chunks the
 * first holds every worker inside its next chunk, its transaction open (a kill there leaves locks behind, which the
 * Firestore emulator keeps for 60 s); the second lets the transactions in flight end and holds every worker before its
 * next one, so a kill leaves none open. Either announces "keyranger: held" on standard error once held; a line (or the
 * end) on standard input releases it.
 */
public final class HoldHook {
    /** What a held child prints. */
    public static final String HELD = "keyranger: held";

    private HoldHook() {
    }

    /** Holds inside the chunk after {@code chunks}: a {@link GatedMapper} around the job's mapper. */
    public static PageMapper inside(PageMapper mapper, int chunks, PrintWriter err) {
        GatedMapper[] gate = new GatedMapper[1];
        gate[0] = new GatedMapper(mapper, chunks, () -> {
            announce(err, chunks, "inside a chunk");
            releaseOnInput(gate[0]::release);
        });
        return gate[0];
    }

    /**
     * Holds between chunks once {@code chunks} have been mapped: the job's client goes through {@link Between#client()},
     * its mapper through {@link Between#mapper(PageMapper)}.
     */
    public static Between between(int chunks, PrintWriter err) {
        return new Between(chunks, err);
    }

    /** A hold between chunks: the gate on the job's client, closed by its mapper after the chunks. */
    public static final class Between {
        private final int chunks;
        private final TransactionGate gate;

        private Between(int chunks, PrintWriter err) {
            this.chunks = chunks;
            TransactionGate[] made = new TransactionGate[1];
            made[0] = new TransactionGate(() -> {
                announce(err, chunks, "between chunks");
                releaseOnInput(made[0]::release);
            });
            this.gate = made[0];
        }

        /** Wraps the job's client: its transactions wait at the gate once it is closed. */
        public UnaryOperator<Datastore> client() {
            return gate::wrap;
        }

        /** The job's mapper, closing the gate once it has mapped the chunks (the last of them still commits). */
        public PageMapper mapper(PageMapper mapper) {
            AtomicInteger mapped = new AtomicInteger();
            return new DelegatingMapper(mapper) {
                @Override
                public MapResult map(Page page) {
                    if (mapped.incrementAndGet() == chunks) {
                        gate.close();
                    }
                    return inner.map(page);
                }
            };
        }
    }

    private static void announce(PrintWriter err, int chunks, String where) {
        err.println(HELD + " after " + chunks + " chunks, " + where);
        err.flush();
    }

    private static void releaseOnInput(Runnable release) {
        Thread thread = new Thread(() -> {
            try {
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            } catch (IOException e) {
                // stdin closed: release
            }
            release.run();
        }, "keyranger-hold-release");
        thread.setDaemon(true);
        thread.start();
    }
}
