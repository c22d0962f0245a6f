package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.Transaction;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.local.Calibration;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.SharedEmulator;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a new job waits for before its first page, on the real emulator: its creating transaction, with its plan made
 * beside it, and the server's calibration: once the plan is made (alone, but for that transaction's commit) on a server
 * that answers one request at a time, as the emulator does; beside the plan on one that answers many at once, as
 * production does (as the engine tells its executor from the session's server type). Nothing it already knows (the counter it created, that counter's totals) is
 * read again.
 */
class JobStartTest {
    private static final int ITEMS = 400;

    /** One call to the server, as answered: the thread that made it (its name and id), and the method. */
    private record Call(String thread, long threadId, String method) {
        boolean byWorker() {
            return thread.startsWith("keyranger-job-");
        }
    }

    @Test
    void aNewJobsRangesStartAfterItsCreatingTransactionAndACalibrationMadeAloneAfterThePlan() throws Exception {
        // the plan's sample held 300 ms: a calibration made beside the plan would be answered meanwhile
        Started started = start(ServerType.EMULATOR, ServerType.EMULATOR, answered -> Thread.sleep(300));

        // on the starting thread: begin, the transaction's read of the job, commit; no counter or totals read after
        assertThat(started.onStarter()).as("calls before the first range: %s", started.before())
                .containsExactly("newTransaction", "fetch", "commit");
        // beside it, on threads of their own: the plan's queries, then the calibration's, after every one of them
        List<Call> beside = started.beside();
        List<Call> calibration = started.calibration();
        assertThat(calibration).as("calls beside the creating transaction: %s", beside)
                .isEqualTo(beside.subList(beside.size() - Calibration.QUERIES, beside.size()));
        assertThat(beside.size()).as("the plan's queries before the calibration: %s", beside)
                .isGreaterThan(Calibration.QUERIES);
    }

    @Test
    void onAServerThatAnswersAtOnceTheCalibrationIsMadeBesideThePlan() throws Exception {
        // the Firestore emulator (ordered and limited as production) stands for a server that answers at once
        // the plan's sample held until three other queries of the start are answered (at most 30 s)
        Started started = start(ServerType.FIRESTORE_EMULATOR, ServerType.MODEL,
                answered -> answered.await(30, TimeUnit.SECONDS));

        assertThat(started.onStarter()).as("calls before the first range: %s", started.before())
                .containsExactly("newTransaction", "fetch", "commit");
        // the calibration's three queries are answered while the plan's sample is held, before any query of the plan
        List<Call> beside = started.beside();
        assertThat(started.calibration()).as("calls beside the creating transaction: %s", beside)
                .isEqualTo(beside.subList(0, Calibration.QUERIES));
        assertThat(beside.size()).as("the plan's queries after the calibration: %s", beside)
                .isGreaterThan(Calibration.QUERIES);
    }

    /** The calls a job over a new kind made before its first range's, as answered; the job ran to the end. */
    private record Started(List<Call> before, String starter) {
        List<String> onStarter() {
            return before.stream().filter(c -> c.thread().equals(starter)).map(Call::method).toList();
        }

        List<Call> beside() {
            return before.stream().filter(c -> !c.thread().equals(starter)).toList();
        }

        /** The calls of the calibration's thread: the one whose calls are all one-key queries, as many as it makes. */
        List<Call> calibration() {
            List<Call> beside = beside();
            List<Long> threads = beside.stream().map(Call::threadId).distinct().toList();
            List<List<Call>> calibrating = threads.stream()
                    .map(id -> beside.stream().filter(c -> c.threadId() == id).toList())
                    .filter(calls -> calls.size() == Calibration.QUERIES
                            && calls.stream().allMatch(c -> c.method().equals("run")))
                    .toList();
            assertThat(calibrating).as("threads beside the creating transaction: %s", beside).hasSize(1);
            return calibrating.get(0);
        }
    }

    /**
     * Runs an increment over a new kind of {@link #ITEMS} entities on an emulator of type {@code emulator}, started by
     * the engine of a session that takes it for a server of type {@code declared}.
     */
    private static Started start(ServerType emulator, ServerType declared, Hold sample) throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(emulator, "job-start");
        Datastore plain = SharedEmulator.connect(conn);
        List<Entity> items = new ArrayList<>();
        for (int i = 1; i <= ITEMS; i++) {
            items.add(Entity.newBuilder(plain.newKeyFactory().setKind("Item").newKey(i * 7919L)).set("n", 0).build());
        }
        SharedEmulator.putAll(plain, items);
        List<Call> calls = new CopyOnWriteArrayList<>();
        Session session = Session.of(conn.withServer(declared), recording(plain, calls, sample));

        JobSpec spec = new JobSpec("starts-at-once", "", "Item",
                MapperSpec.parse("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}"), 8, 8, 50, 0);
        String starter = Thread.currentThread().getName();
        JobResult result = new Engine(session, RetryPolicy.DEFAULT, JobLease.DEFAULT_DURATION).executor()
                .start(spec, JobListener.NONE).await();

        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        List<Long> values = new ArrayList<>();
        plain.run(Query.newEntityQueryBuilder().setKind("Item").build()).forEachRemaining(e -> values.add(e.getLong("n")));
        assertThat(values).hasSize(ITEMS).containsOnly(1L);

        int firstWorkerCall = indexOfFirstWorkerCall(calls);
        assertThat(firstWorkerCall).as("calls before the first range: %s", calls).isPositive();
        return new Started(List.copyOf(calls.subList(0, firstWorkerCall)), starter);
    }

    private static int indexOfFirstWorkerCall(List<Call> calls) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).byWorker()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code datastore}, each call of it and of its transactions recorded in {@code calls} as it is answered, the plan's
     * sample held by {@code sample}.
     */
    private static Datastore recording(Datastore datastore, List<Call> calls, Hold sample) {
        CountDownLatch answered = new CountDownLatch(Calibration.QUERIES);
        Recorder recorder = new Recorder(calls, sample, answered);
        return (Datastore) Proxy.newProxyInstance(Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
                (proxy, method, args) -> {
                    Object value = recorder.invoke(datastore, method, args, DATASTORE_CALLS);
                    if (value instanceof Transaction tx) {
                        return Proxy.newProxyInstance(Transaction.class.getClassLoader(),
                                new Class<?>[] {Transaction.class},
                                (p, m, a) -> recorder.invoke(tx, m, a, TRANSACTION_CALLS));
                    }
                    return value;
                });
    }

    /** What the plan's sample query waits for before it is sent, given a latch of the start's other queries. */
    private interface Hold {
        void await(CountDownLatch answered) throws InterruptedException;
    }

    /**
     * Records each server call as answered; holds the plan's sample query ({@code __scatter__}) with {@code sample},
     * and counts down {@code answered} for each other query answered on a thread of the start while it is held.
     */
    private record Recorder(List<Call> calls, Hold sample, CountDownLatch answered) {
        Object invoke(Object target, Method method, Object[] args, Set<String> serverCalls) throws Throwable {
            boolean recorded = serverCalls.contains(method.getName());
            if (recorded && args != null && args.length > 0 && String.valueOf(args[0]).contains("__scatter__")) {
                sample.await(answered);
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            } finally {
                if (recorded) { // as answered
                    Thread thread = Thread.currentThread();
                    calls.add(new Call(thread.getName(), thread.getId(), method.getName()));
                    if (method.getName().equals("run") && thread.getName().equals("keyranger-start")) {
                        answered.countDown();
                    }
                }
            }
        }
    }

    /** The methods that call the server: a transaction's writes are sent with its commit. */
    private static final Set<String> DATASTORE_CALLS = Set.of("newTransaction", "get", "fetch", "run",
            "runAggregation", "put", "add", "update", "delete", "allocateId", "runInTransaction");
    private static final Set<String> TRANSACTION_CALLS = Set.of("get", "fetch", "run", "runAggregation", "commit",
            "rollback");
}
