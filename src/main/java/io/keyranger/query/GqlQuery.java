package io.keyranger.query;

import com.google.cloud.datastore.Value;
import java.util.List;

/**
 * A parsed GQL query, as far as KeyRanger reads one: what it selects, from which kind, the AND of its conditions,
 * its order, limit and offset.
 *
 * @param text       the query as written
 * @param kind       the kind after FROM
 * @param keysOnly   SELECT __key__
 * @param projection the properties of SELECT p, q (empty for * and __key__)
 * @param distinct   SELECT DISTINCT
 * @param conditions the WHERE conditions, all of which must hold
 * @param orders     ORDER BY, in order
 * @param limit      LIMIT, or null
 * @param offset     OFFSET, or null
 */
public record GqlQuery(String text, String kind, boolean keysOnly, List<String> projection, boolean distinct,
                       List<Condition> conditions, List<Order> orders, Integer limit, Integer offset) {
    public GqlQuery {
        projection = List.copyOf(projection);
        conditions = List.copyOf(conditions);
        orders = List.copyOf(orders);
    }

    /** A comparison operator of GQL. */
    public enum Op {
        EQUAL("="), LESS_THAN("<"), LESS_THAN_OR_EQUAL("<="), GREATER_THAN(">"), GREATER_THAN_OR_EQUAL(">="),
        NOT_EQUAL("!="), IN("IN"), NOT_IN("NOT IN"), HAS_ANCESTOR("HAS ANCESTOR");

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    /**
     * One condition: {@code property op value}. IN and NOT IN hold several values; IS NULL is {@code = null}.
     *
     * @param property the property, or {@code __key__}
     * @param op       the operator
     * @param values   one value, or the list of IN / NOT IN
     * @param text     the condition as written, for messages
     */
    public record Condition(String property, Op op, List<Value<?>> values, String text) {
        public Condition {
            values = List.copyOf(values);
        }

        public Value<?> value() {
            return values.get(0);
        }
    }

    /**
     * One ORDER BY term.
     *
     * @param property   the property
     * @param descending DESC
     */
    public record Order(String property, boolean descending) {
    }
}
