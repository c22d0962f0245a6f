package io.keyranger.datastore;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.AggregationQuery;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.ReadOption;
import com.google.cloud.datastore.models.ExplainOptions;
import io.keyranger.KeyRangerException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;

/**
 * A client that reads the database as it was at one moment: every lookup, query and aggregation carries
 * {@code read_time}, and anything that would write (or open a transaction) is refused, since the past is read-only.
 */
public final class PastReads {
    private static final Set<String> READS = Set.of("get", "fetch", "run", "runAggregation");
    private static final Set<String> PASSED = Set.of("getOptions", "newKeyFactory", "close", "isClosed", "toString",
            "hashCode", "equals");

    private PastReads() {
    }

    /** {@code datastore} (live, or another moment's) reading at {@code time} only. */
    public static Datastore at(Datastore datastore, Timestamp time) {
        return (Datastore) Proxy.newProxyInstance(Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
                new Handler(live(datastore), time));
    }

    /** The live client under {@code datastore}: itself unless it reads a past moment ({@link #at}). */
    public static Datastore live(Datastore datastore) {
        return Proxy.isProxyClass(datastore.getClass()) && Proxy.getInvocationHandler(datastore) instanceof Handler h
                ? h.live : datastore;
    }

    private record Handler(Datastore live, Timestamp time) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            String name = method.getName();
            if (READS.contains(name)) {
                try {
                    Object answer = read(live, method, args == null ? new Object[0] : args,
                            ReadOption.readTime(time));
                    return answer instanceof QueryResults<?> results ? pages(results, time) : answer;
                } catch (DatastoreException e) {
                    throw atReadTime(e, time);
                }
            }
            if (PASSED.contains(name)) {
                return call(live, method, args);
            }
            throw new KeyRangerException("This connection reads the database as of " + time
                    + "; the past cannot be written (" + name + ").");
        }
    }

    /**
     * {@code e} as it was, kept under a copy that says the moment read ({@link ServerErrors#readTime}): the same
     * status, reason and message, so retries decide as they would on {@code e}.
     */
    private static DatastoreException atReadTime(DatastoreException e, Timestamp time) {
        return new DatastoreException(e.getCode(), e.getMessage(), e.getReason(), e.isRetryable(),
                new ServerErrors.PastRead(Instant.ofEpochSecond(time.getSeconds(), time.getNanos()), e));
    }

    /** A query's results, whose later pages (read as they are iterated) fail saying the moment too. */
    private static Object pages(QueryResults<?> results, Timestamp time) {
        return Proxy.newProxyInstance(QueryResults.class.getClassLoader(), new Class<?>[] {QueryResults.class},
                (proxy, method, args) -> {
                    try {
                        return call(results, method, args);
                    } catch (DatastoreException e) {
                        throw atReadTime(e, time);
                    }
                });
    }

    private static Object read(Datastore datastore, Method method, Object[] args, ReadOption readTime) {
        Class<?>[] types = method.getParameterTypes();
        if (types.length > 0 && types[types.length - 1] == ReadOption[].class) {
            Object[] with = args.clone();
            ReadOption[] given = (ReadOption[]) args[args.length - 1];
            ReadOption[] options = Arrays.copyOf(given, given.length + 1);
            options[given.length] = readTime;
            with[with.length - 1] = options;
            return call(datastore, method, with);
        }
        ReadOption[] options = {readTime};
        return switch (method.getName()) {
            case "get" -> args[0] instanceof Key key ? datastore.get(key, options)
                    : datastore.get(Arrays.asList((Key[]) args[0]), options);
            case "fetch" -> datastore.fetch(Arrays.asList((Key[]) args[0]), options);
            case "run" -> datastore.run((Query<?>) args[0], options);
            default -> args.length == 2
                    ? datastore.runAggregation((AggregationQuery) args[0], (ExplainOptions) args[1], options)
                    : datastore.runAggregation((AggregationQuery) args[0], options);
        };
    }

    private static Object call(Object target, Method method, Object[] args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
