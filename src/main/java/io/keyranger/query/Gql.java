package io.keyranger.query;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.Value;
import io.keyranger.query.GqlLexer.Token;
import io.keyranger.query.GqlLexer.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads GQL: {@code SELECT (* | __key__ | p, …) FROM kind [WHERE c AND …] [ORDER BY p [ASC|DESC], …] [LIMIT n]
 * [OFFSET n]}, with conditions {@code p op value} (=, <, <=, >, >=, !=), {@code p IN (…)}, {@code p NOT IN (…)},
 * {@code p IS NULL} and {@code __key__ HAS ANCESTOR KEY(…)}. Values are 'strings' or "strings", numbers, true, false,
 * null, {@code KEY([PROJECT('p'),] [DATABASE('d'),] [NAMESPACE('n'),] Kind, id_or_name, …)} (DATABASE is KeyRanger's
 * own: GQL has no way to name one), * {@code DATETIME('2024-05-01T00:00:00Z')} and {@code BLOB('base64')};
 * names with other characters go in backticks. Keywords are case-insensitive. Errors name the column.
 */
public final class Gql {
    private final String text;
    private final GqlCursor in;
    private final GqlValues values;

    private Gql(String text, String projectId, String databaseId, String namespace) {
        this.text = text;
        this.in = new GqlCursor(text);
        this.values = new GqlValues(in, projectId, databaseId, namespace);
    }

    /**
     * Parses a query; keys written in it belong to this project and namespace unless they say otherwise.
     *
     * @throws GqlException naming the column and what was expected
     */
    public static GqlQuery parse(String text, String projectId, String namespace) {
        if (text == null || text.isBlank()) {
            throw new GqlException("The query is empty: write e.g. SELECT * FROM Account WHERE tier = 'pro'.", 1);
        }
        return new Gql(text.strip(), projectId, "", namespace).query();
    }

    /**
     * A key written as GQL's {@code KEY(Kind, id_or_name, …)}, in this project and namespace (and the default database)
     * unless it names others.
     *
     * @throws GqlException naming the column and what was expected
     */
    public static Key key(String text, String projectId, String namespace) {
        return key(text, projectId, "", namespace);
    }

    /**
     * A key written as GQL's {@code KEY(Kind, id_or_name, …)}, in this project, database and namespace unless it names
     * others, as {@link #keyLiteral(Key, String, String)} writes them.
     *
     * @throws GqlException naming the column and what was expected
     */
    public static Key key(String text, String projectId, String databaseId, String namespace) {
        if (text == null || text.isBlank()) {
            throw new GqlException("The key is empty: write e.g. KEY(Account, 42) or KEY(Org, 'acme', Account, 'a-1').", 1);
        }
        Gql gql = new Gql(text.strip(), projectId, databaseId, namespace);
        if (!gql.in.acceptKeyword("KEY")) {
            throw gql.in.error(gql.in.peek(), "expected KEY(Kind, id_or_name, ...)");
        }
        Key key = gql.values.key();
        if (gql.in.peek().type() != Type.END) {
            throw gql.in.error(gql.in.peek(), "expected the end of the key");
        }
        return key;
    }

    /**
     * A key as GQL's KEY(...) literal, its namespace only when it has one, and neither its project nor its database:
     * {@link #key} reads it back into the reader's project.
     */
    public static String keyLiteral(Key key) {
        return GqlValues.keyLiteral(key, null, null);
    }

    /**
     * A key as GQL's KEY(...) literal that {@link #key(String, String, String, String)} reads back whole from a
     * connection to {@code projectId}/{@code databaseId}: it names the key's project ({@code PROJECT('p')}) and
     * database ({@code DATABASE('d')}, KeyRanger's addition to GQL) where they are not the connection's.
     */
    public static String keyLiteral(Key key, String projectId, String databaseId) {
        return GqlValues.keyLiteral(key, projectId, databaseId == null ? "" : databaseId);
    }

    private GqlQuery query() {
        in.expectKeyword("SELECT", "SELECT at the start of the query");
        boolean distinct = in.acceptKeyword("DISTINCT");
        boolean keysOnly = false;
        List<String> projection = new ArrayList<>();
        if (in.accept("*")) {
            // every property
        } else {
            do {
                String name = in.name("a property name, * or __key__ after SELECT");
                if (name.equals("__key__")) {
                    keysOnly = true;
                } else {
                    projection.add(name);
                }
            } while (in.accept(","));
            if (keysOnly && !projection.isEmpty()) {
                throw in.error(in.peek(), "SELECT __key__ cannot be combined with properties");
            }
        }
        in.expectKeyword("FROM", "FROM and a kind after the selection");
        String kind = in.name("a kind after FROM");
        List<GqlQuery.Condition> conditions = new ArrayList<>();
        if (in.acceptKeyword("WHERE")) {
            do {
                conditions.add(condition());
            } while (in.acceptKeyword("AND"));
            if (in.peekKeyword("OR")) {
                throw in.error(in.peek(), "OR is not supported: run one query per alternative, or use a CEL \"where\" "
                        + "expression in the mapper spec");
            }
        }
        List<GqlQuery.Order> orders = new ArrayList<>();
        if (in.acceptKeyword("ORDER")) {
            in.expectKeyword("BY", "BY after ORDER");
            do {
                String property = in.name("a property after ORDER BY");
                boolean descending = in.acceptKeyword("DESC");
                if (!descending) {
                    in.acceptKeyword("ASC");
                }
                orders.add(new GqlQuery.Order(property, descending));
            } while (in.accept(","));
        }
        Integer limit = null;
        Integer offset = null;
        if (in.acceptKeyword("LIMIT")) {
            limit = in.count("a whole number after LIMIT");
        }
        if (in.acceptKeyword("OFFSET")) {
            offset = in.count("a whole number after OFFSET");
        }
        if (in.peek().type() != Type.END) {
            throw in.error(in.peek(), "expected the end of the query, or WHERE, AND, ORDER BY, LIMIT or OFFSET where they "
                    + "belong");
        }
        return new GqlQuery(text, kind, keysOnly, projection, distinct, conditions, orders, limit, offset);
    }

    private GqlQuery.Condition condition() {
        Token start = in.peek();
        String property = in.name("a property name in the condition");
        GqlQuery.Condition condition;
        if (in.acceptKeyword("IS")) {
            in.expectKeyword("NULL", "NULL after IS");
            condition = new GqlQuery.Condition(property, GqlQuery.Op.EQUAL, List.of(NullValue.of()), "");
        } else if (in.acceptKeyword("HAS")) {
            in.expectKeyword("ANCESTOR", "ANCESTOR after HAS");
            if (!property.equals("__key__")) {
                throw in.error(start, "HAS ANCESTOR applies to __key__, as in __key__ HAS ANCESTOR KEY(Customer, 7)");
            }
            Token at = in.peek();
            Value<?> value = values.value();
            if (!(value instanceof KeyValue)) {
                throw in.error(at, "HAS ANCESTOR needs a KEY(...)");
            }
            condition = new GqlQuery.Condition(property, GqlQuery.Op.HAS_ANCESTOR, List.of(value), "");
        } else if (in.acceptKeyword("IN")) {
            condition = new GqlQuery.Condition(property, GqlQuery.Op.IN, values.list(), "");
        } else if (in.acceptKeyword("NOT")) {
            in.expectKeyword("IN", "IN after NOT");
            condition = new GqlQuery.Condition(property, GqlQuery.Op.NOT_IN, values.list(), "");
        } else {
            GqlQuery.Op op = comparison();
            Token at = in.peek();
            Value<?> value = values.value();
            if (property.equals("__key__") && !(value instanceof KeyValue)) {
                throw in.error(at, "__key__ compares with a KEY(...) value");
            }
            condition = new GqlQuery.Condition(property, op, List.of(value), "");
        }
        String written = text.substring(start.offset(), in.previousEnd()).strip();
        return new GqlQuery.Condition(condition.property(), condition.op(), condition.values(), written);
    }

    private GqlQuery.Op comparison() {
        Token token = in.peek();
        if (token.type() == Type.SYMBOL) {
            GqlQuery.Op op = switch (token.text()) {
                case "=" -> GqlQuery.Op.EQUAL;
                case "<" -> GqlQuery.Op.LESS_THAN;
                case "<=" -> GqlQuery.Op.LESS_THAN_OR_EQUAL;
                case ">" -> GqlQuery.Op.GREATER_THAN;
                case ">=" -> GqlQuery.Op.GREATER_THAN_OR_EQUAL;
                case "!=" -> GqlQuery.Op.NOT_EQUAL;
                default -> null;
            };
            if (op != null) {
                in.skip(1);
                return op;
            }
        }
        throw in.error(token, "expected an operator: =, <, <=, >, >=, !=, IN, NOT IN, IS NULL or HAS ANCESTOR");
    }
}
