package io.keyranger.support;

import com.google.cloud.datastore.Datastore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A gate on a Datastore client for tests of long reads: once {@link #arm armed}, the first call of the named methods
 * is held until {@link #release}, as a slow read of the server would hold it (uninterruptibly, as a blocking socket
 * read does), while the other calls go through. Counts the calls made since it was armed, to show that a cancelled
 * read starts no more.
 */
public final class HeldRead {
    private final Set<String> methods;
    private volatile Predicate<Object[]> which = args -> true;
    private final AtomicBoolean armed = new AtomicBoolean();
    private final AtomicBoolean taken = new AtomicBoolean();
    private final AtomicInteger calls = new AtomicInteger();
    private final CountDownLatch holding = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile Thread holder;

    private HeldRead(Set<String> methods) {
        this.methods = methods;
    }

    /** A gate on these methods of {@link Datastore} ({@code run}, {@code fetch}, {@code runAggregation}…). */
    public static HeldRead on(String... methods) {
        return new HeldRead(Set.of(methods));
    }

    /** {@code datastore}, its calls going through this gate. */
    public Datastore wrap(Datastore datastore) {
        return (Datastore) Proxy.newProxyInstance(Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
                (proxy, method, args) -> {
                    if (methods.contains(method.getName()) && armed.get()) {
                        calls.incrementAndGet();
                        if (which.test(args) && taken.compareAndSet(false, true)) {
                            hold();
                        }
                    }
                    try {
                        return method.invoke(datastore, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private void hold() {
        holder = Thread.currentThread();
        holding.countDown();
        boolean interrupted = false;
        while (released.getCount() > 0) {
            try {
                released.await();
            } catch (InterruptedException e) {
                interrupted = true; // a blocking read does not end when its thread is interrupted
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Holds only a call whose arguments {@code args} accepts (the first of them). */
    public HeldRead when(Predicate<Object[]> args) {
        this.which = args;
        return this;
    }

    /** From now on, the first call of the methods is held. */
    public void arm() {
        armed.set(true);
    }

    /** Whether a call is held now. */
    public boolean holding() {
        return holding.getCount() == 0 && released.getCount() > 0;
    }

    /** The thread whose call was held, or null before one was. */
    public Thread holder() {
        return holder;
    }

    /** Calls of the methods since {@link #arm}, the held one among them. */
    public int calls() {
        return calls.get();
    }

    public void release() {
        released.countDown();
    }
}
