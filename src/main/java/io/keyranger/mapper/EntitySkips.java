package io.keyranger.mapper;

import com.google.cloud.datastore.Key;
import io.keyranger.mapper.cel.ExpressionFailure;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entities of one page an expression failed on: how many, a counter per reason ("skipped: overflow in
 * set.balance"; reasons and expressions are few, so the counters stay few), and each key with its reason.
 */
final class EntitySkips {
    /** Counters of skipped entities start with this. */
    static final String PREFIX = "skipped: ";

    private long count;
    private final Map<String, Long> counters = new HashMap<>();
    private final List<MapResult.Problem> problems = new ArrayList<>();

    void add(Key key, String expression, ExpressionFailure failure) {
        count++;
        counters.merge(PREFIX + failure.category() + " in " + expression, 1L, Long::sum);
        String detail = failure.detail();
        problems.add(new MapResult.Problem(key, detail.startsWith(expression + ": ") ? detail
                : expression + ": " + detail));
    }

    long count() {
        return count;
    }

    /** The counters, merged into {@code into}. */
    Map<String, Long> addCountersTo(Map<String, Long> into) {
        counters.forEach((name, by) -> into.merge(name, by, Long::sum));
        return into;
    }

    List<MapResult.Problem> problems() {
        return problems;
    }
}
