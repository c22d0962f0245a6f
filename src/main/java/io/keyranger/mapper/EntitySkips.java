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
        String category = failure.category() + " in " + expression;
        counters.merge(PREFIX + category, 1L, Long::sum);
        String detail = failure.detail();
        problems.add(new MapResult.Problem(key, detail.startsWith(expression + ": ") ? detail
                : expression + ": " + detail, category));
    }

    /** An entity skipped for a reason of its own: counted under {@code category}, kept with {@code detail}. */
    void add(Key key, String category, String detail) {
        count++;
        counters.merge(PREFIX + category, 1L, Long::sum);
        problems.add(new MapResult.Problem(key, detail, category));
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
