package io.keyranger.testhooks;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps a {@link Datastore} so that a share of its calls fail with transient errors, or (for commits) succeed on
 * the server and then lose their answer, the ambiguous commit that makes naive retries apply work twice; and so
 * that every round trip, beginning a transaction too, takes extra latency, as a network would add. For tests,
 * benchmarks and the hidden {@code --inject-faults} option; never on by default.
 */
public final class FaultInjector {
    private static final Set<String> DATASTORE_CALLS = Set.of("run", "get", "fetch", "put", "delete", "add",
            "allocateId", "runAggregation");
    private static final Set<String> TRANSACTION_CALLS = Set.of("run", "get", "fetch", "commit");
    /** Round trips that take the latency too but are never made to fail: beginning and rolling back. */
    private static final Set<String> SLOW_ONLY_CALLS = Set.of("newTransaction", "rollback");
    private static final String[][] ERRORS = {{"14", "UNAVAILABLE"}, {"4", "DEADLINE_EXCEEDED"}, {"10", "ABORTED"},
        {"13", "INTERNAL"}};

    private final double failureRate;
    private final double lostCommitRate;
    private final long latencyMillis;
    /** Failures and lost answers draw from streams of their own, so that a lost-answer draw never uses up a failure. */
    private final Random failureDraws;
    private final Random lostCommitDraws;
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong lostCommits = new AtomicLong();
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();

    /**
     * @param failureRate    share of calls that fail before reaching the server
     * @param lostCommitRate share of commits that succeed and then report a failure
     * @param latencyMillis  added to every call
     * @param seed           makes the faults repeatable
     */
    public FaultInjector(double failureRate, double lostCommitRate, long latencyMillis, long seed) {
        this.failureRate = failureRate;
        this.lostCommitRate = lostCommitRate;
        this.latencyMillis = latencyMillis;
        this.failureDraws = new Random(seed);
        this.lostCommitDraws = new Random(~seed);
    }

    /**
     * Parses {@code rate=0.1,lost=0.05,latency=20,seed=7} (every part optional) for the hidden
     * {@code --inject-faults} option.
     */
    public static FaultInjector parse(String text) {
        double rate = 0;
        double lost = 0;
        long latency = 0;
        long seed = System.nanoTime();
        for (String part : text.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length != 2) {
                throw new KeyRangerException("--inject-faults takes rate=R,lost=R,latency=MS,seed=N (got '"
                        + part + "').");
            }
            try {
                switch (kv[0].trim()) {
                    case "rate" -> rate = Double.parseDouble(kv[1]);
                    case "lost" -> lost = Double.parseDouble(kv[1]);
                    case "latency" -> latency = Long.parseLong(kv[1]);
                    case "seed" -> seed = Long.parseLong(kv[1]);
                    default -> throw new KeyRangerException("Unknown --inject-faults setting '" + kv[0]
                            + "'; use rate, lost, latency or seed.");
                }
            } catch (NumberFormatException e) {
                throw new KeyRangerException("--inject-faults: '" + part + "' is not a number.");
            }
        }
        if (rate < 0 || rate > 1 || lost < 0 || lost > 1 || latency < 0) {
            throw new KeyRangerException("--inject-faults: rates are between 0 and 1, latency >= 0.");
        }
        return new FaultInjector(rate, lost, latency, seed);
    }

    /** How many calls of a method (run, get, fetch, commit, …) went through, faulty or not. */
    public long calls(String method) {
        AtomicLong count = calls.get(method);
        return count == null ? 0 : count.get();
    }

    public long failures() {
        return failures.get();
    }

    public long lostCommits() {
        return lostCommits.get();
    }

    public Datastore wrap(Datastore datastore) {
        return (Datastore) Proxy.newProxyInstance(Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
                handler(datastore, DATASTORE_CALLS));
    }

    private InvocationHandler handler(Object target, Set<String> faulty) {
        return (proxy, method, args) -> {
            boolean mayFail = faulty.contains(method.getName());
            if (mayFail || SLOW_ONLY_CALLS.contains(method.getName())) {
                calls.computeIfAbsent(method.getName(), n -> new AtomicLong()).incrementAndGet();
                delay();
                if (mayFail) {
                    maybeFail(method);
                }
            }
            Object value = invoke(target, method, args);
            if (value instanceof Transaction tx) {
                return Proxy.newProxyInstance(Transaction.class.getClassLoader(), new Class<?>[] {Transaction.class},
                        handler(tx, TRANSACTION_CALLS));
            }
            if ("commit".equals(method.getName()) && roll(lostCommitDraws, lostCommitRate)) {
                lostCommits.incrementAndGet();
                throw new DatastoreException(14, "injected fault: the commit succeeded but its answer was lost",
                        "UNAVAILABLE");
            }
            return value;
        };
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private void maybeFail(Method method) {
        if (roll(failureDraws, failureRate)) {
            failures.incrementAndGet();
            String[] error = ERRORS[nextInt(ERRORS.length)];
            throw new DatastoreException(Integer.parseInt(error[0]), "injected fault in " + method.getName(), error[1]);
        }
    }

    private void delay() {
        if (latencyMillis > 0) {
            try {
                Thread.sleep(latencyMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean roll(Random draws, double rate) {
        return rate > 0 && draws.nextDouble() < rate;
    }

    private int nextInt(int bound) {
        return failureDraws.nextInt(bound);
    }
}
