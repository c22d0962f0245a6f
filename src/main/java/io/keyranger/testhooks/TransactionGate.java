package io.keyranger.testhooks;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Transaction;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Holds a job between its transactions, for tests that kill or freeze a runner where it holds no lock: once
 * {@link #close()}d, every transaction a wrapped client begins waits at the gate until {@link #release()}, while those
 * already open run to their end. When the last of them has ended, {@code onHeld} runs once: the runner then has no
 * transaction open (the Firestore emulator would keep an open one's locks for 60 s after a kill) and its server state
 * stands still but for the lease's renewals, which pass (threads named {@code keyranger-lease-}), so a held job stays
 * live. The hidden {@code --hold-between-chunks} uses it ({@link HoldHook#between}), closed by the job's mapper after
 * N chunks; never on in a product run.
 */
public final class TransactionGate {
    /** Threads whose transactions pass a closed gate: the lease's renewals. */
    private static final String PASSING_THREADS = "keyranger-lease-";

    private final Runnable onHeld;
    private final CountDownLatch opened = new CountDownLatch(1);
    private int open;
    private boolean closed;
    private boolean held;

    public TransactionGate(Runnable onHeld) {
        this.onHeld = onHeld;
    }

    /** From now on no new transaction begins until {@link #release()}; those open may end. */
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        heldIfQuiet();
    }

    /** Lets every waiting and later transaction begin. */
    public void release() {
        synchronized (this) {
            closed = false;
        }
        opened.countDown();
    }

    /** {@code datastore}, its transactions counted and, once closed, held before they begin. */
    public Datastore wrap(Datastore datastore) {
        return (Datastore) Proxy.newProxyInstance(Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
                (proxy, method, args) -> {
                    if (!"newTransaction".equals(method.getName())) {
                        return invoke(datastore, method, args);
                    }
                    waitIfClosed();
                    Transaction tx;
                    try {
                        tx = (Transaction) invoke(datastore, method, args);
                    } catch (Throwable e) {
                        ended();
                        throw e;
                    }
                    return Proxy.newProxyInstance(Transaction.class.getClassLoader(),
                            new Class<?>[] {Transaction.class}, counted(tx));
                });
    }

    private InvocationHandler counted(Transaction tx) {
        AtomicBoolean done = new AtomicBoolean();
        return (proxy, method, args) -> {
            try {
                return invoke(tx, method, args);
            } finally {
                // a rollback ends it whatever its answer; a commit that failed leaves it open for the rollback after
                boolean ends = "rollback".equals(method.getName())
                        || ("commit".equals(method.getName()) && !tx.isActive());
                if (ends && done.compareAndSet(false, true)) {
                    ended();
                }
            }
        };
    }

    private void waitIfClosed() throws InterruptedException {
        boolean passes = Thread.currentThread().getName().startsWith(PASSING_THREADS);
        synchronized (this) {
            if (!closed || passes) {
                open++;
                return;
            }
        }
        if (!opened.await(300, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the transaction gate was never released");
        }
        synchronized (this) {
            open++;
        }
    }

    private void ended() {
        synchronized (this) {
            open--;
        }
        heldIfQuiet();
    }

    private void heldIfQuiet() {
        synchronized (this) {
            if (!closed || held || open > 0) {
                return;
            }
            held = true;
        }
        onHeld.run();
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
