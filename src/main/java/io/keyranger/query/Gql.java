package io.keyranger.query;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Reads GQL: {@code SELECT (* | __key__ | p, …) FROM kind [WHERE c AND …] [ORDER BY p [ASC|DESC], …] [LIMIT n]
 * [OFFSET n]}, with conditions {@code p op value} (=, <, <=, >, >=, !=), {@code p IN (…)}, {@code p NOT IN (…)},
 * {@code p IS NULL} and {@code __key__ HAS ANCESTOR KEY(…)}. Values are 'strings' or "strings", numbers, true, false,
 * null, {@code KEY(Kind, id_or_name, …)}, {@code DATETIME('2024-05-01T00:00:00Z')} and {@code BLOB('base64')};
 * names with other characters go in backticks. Keywords are case-insensitive. Errors name the column.
 */
public final class Gql {
    private final String text;
    private final String projectId;
    private final String namespace;
    private final List<Token> tokens;
    private int next;

    private Gql(String text, String projectId, String namespace) {
        this.text = text;
        this.projectId = projectId;
        this.namespace = namespace == null ? "" : namespace;
        this.tokens = new Lexer(text).tokens();
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
        return new Gql(text.strip(), projectId, namespace).query();
    }

    /**
     * A key written as GQL's {@code KEY(Kind, id_or_name, …)}, in this project and namespace unless it names others.
     *
     * @throws GqlException naming the column and what was expected
     */
    public static Key key(String text, String projectId, String namespace) {
        if (text == null || text.isBlank()) {
            throw new GqlException("The key is empty: write e.g. KEY(Account, 42) or KEY(Org, 'acme', Account, 'a-1').", 1);
        }
        Gql gql = new Gql(text.strip(), projectId, namespace);
        if (!gql.acceptKeyword("KEY")) {
            throw gql.error(gql.peek(), "expected KEY(Kind, id_or_name, ...)");
        }
        Key key = gql.key();
        if (gql.peek().type != Type.END) {
            throw gql.error(gql.peek(), "expected the end of the key");
        }
        return key;
    }

    /** A key as GQL's KEY(...) literal, which {@link #key} reads back (its namespace only when it has one). */
    public static String keyLiteral(Key key) {
        StringBuilder out = new StringBuilder("KEY(");
        if (!key.getNamespace().isEmpty()) {
            out.append("NAMESPACE(").append(quote(key.getNamespace())).append("), ");
        }
        List<PathElement> path = new ArrayList<>(key.getAncestors());
        path.add(key.hasId() ? PathElement.of(key.getKind(), key.getId()) : PathElement.of(key.getKind(), key.getName()));
        for (int i = 0; i < path.size(); i++) {
            PathElement e = path.get(i);
            if (i > 0) {
                out.append(", ");
            }
            out.append(e.getKind().matches("[A-Za-z_$][A-Za-z0-9_$]*")
                    && !Lexer.RESERVED.contains(e.getKind().toUpperCase(Locale.ROOT)) ? e.getKind() : quote(e.getKind()))
                    .append(", ").append(e.hasId() ? String.valueOf(e.getId()) : quote(e.getName()));
        }
        return out.append(')').toString();
    }

    private static String quote(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private GqlQuery query() {
        expectKeyword("SELECT", "SELECT at the start of the query");
        boolean distinct = acceptKeyword("DISTINCT");
        boolean keysOnly = false;
        List<String> projection = new ArrayList<>();
        if (accept("*")) {
            // every property
        } else {
            do {
                String name = name("a property name, * or __key__ after SELECT");
                if (name.equals("__key__")) {
                    keysOnly = true;
                } else {
                    projection.add(name);
                }
            } while (accept(","));
            if (keysOnly && !projection.isEmpty()) {
                throw error(peek(), "SELECT __key__ cannot be combined with properties");
            }
        }
        expectKeyword("FROM", "FROM and a kind after the selection");
        String kind = name("a kind after FROM");
        List<GqlQuery.Condition> conditions = new ArrayList<>();
        if (acceptKeyword("WHERE")) {
            do {
                conditions.add(condition());
            } while (acceptKeyword("AND"));
            if (peekKeyword("OR")) {
                throw error(peek(), "OR is not supported: run one query per alternative, or use a CEL \"where\" "
                        + "expression in the mapper spec");
            }
        }
        List<GqlQuery.Order> orders = new ArrayList<>();
        if (acceptKeyword("ORDER")) {
            expectKeyword("BY", "BY after ORDER");
            do {
                String property = name("a property after ORDER BY");
                boolean descending = acceptKeyword("DESC");
                if (!descending) {
                    acceptKeyword("ASC");
                }
                orders.add(new GqlQuery.Order(property, descending));
            } while (accept(","));
        }
        Integer limit = null;
        Integer offset = null;
        if (acceptKeyword("LIMIT")) {
            limit = count("a whole number after LIMIT");
        }
        if (acceptKeyword("OFFSET")) {
            offset = count("a whole number after OFFSET");
        }
        if (peek().type != Type.END) {
            throw error(peek(), "expected the end of the query, or WHERE, AND, ORDER BY, LIMIT or OFFSET where they "
                    + "belong");
        }
        return new GqlQuery(text, kind, keysOnly, projection, distinct, conditions, orders, limit, offset);
    }

    private GqlQuery.Condition condition() {
        Token start = peek();
        String property = name("a property name in the condition");
        GqlQuery.Condition condition;
        if (acceptKeyword("IS")) {
            expectKeyword("NULL", "NULL after IS");
            condition = new GqlQuery.Condition(property, GqlQuery.Op.EQUAL, List.of(NullValue.of()), "");
        } else if (acceptKeyword("HAS")) {
            expectKeyword("ANCESTOR", "ANCESTOR after HAS");
            if (!property.equals("__key__")) {
                throw error(start, "HAS ANCESTOR applies to __key__, as in __key__ HAS ANCESTOR KEY(Customer, 7)");
            }
            Token at = peek();
            Value<?> value = value();
            if (!(value instanceof KeyValue)) {
                throw error(at, "HAS ANCESTOR needs a KEY(...)");
            }
            condition = new GqlQuery.Condition(property, GqlQuery.Op.HAS_ANCESTOR, List.of(value), "");
        } else if (acceptKeyword("IN")) {
            condition = new GqlQuery.Condition(property, GqlQuery.Op.IN, list(), "");
        } else if (acceptKeyword("NOT")) {
            expectKeyword("IN", "IN after NOT");
            condition = new GqlQuery.Condition(property, GqlQuery.Op.NOT_IN, list(), "");
        } else {
            GqlQuery.Op op = comparison();
            Token at = peek();
            Value<?> value = value();
            if (property.equals("__key__") && !(value instanceof KeyValue)) {
                throw error(at, "__key__ compares with a KEY(...) value");
            }
            condition = new GqlQuery.Condition(property, op, List.of(value), "");
        }
        String written = text.substring(start.offset, tokens.get(next - 1).end).strip();
        return new GqlQuery.Condition(condition.property(), condition.op(), condition.values(), written);
    }

    private GqlQuery.Op comparison() {
        Token token = peek();
        if (token.type == Type.SYMBOL) {
            GqlQuery.Op op = switch (token.text) {
                case "=" -> GqlQuery.Op.EQUAL;
                case "<" -> GqlQuery.Op.LESS_THAN;
                case "<=" -> GqlQuery.Op.LESS_THAN_OR_EQUAL;
                case ">" -> GqlQuery.Op.GREATER_THAN;
                case ">=" -> GqlQuery.Op.GREATER_THAN_OR_EQUAL;
                case "!=" -> GqlQuery.Op.NOT_EQUAL;
                default -> null;
            };
            if (op != null) {
                next++;
                return op;
            }
        }
        throw error(token, "expected an operator: =, <, <=, >, >=, !=, IN, NOT IN, IS NULL or HAS ANCESTOR");
    }

    /** {@code (v, …)} or {@code ARRAY(v, …)}. */
    private List<Value<?>> list() {
        acceptKeyword("ARRAY");
        expect("(", "a list of values in parentheses, e.g. ('gold', 'silver')");
        List<Value<?>> values = new ArrayList<>();
        do {
            values.add(value());
        } while (accept(","));
        expect(")", "',' or ')' in the list of values");
        return values;
    }

    private Value<?> value() {
        Token token = peek();
        switch (token.type) {
            case STRING -> {
                next++;
                return StringValue.of(token.text);
            }
            case NUMBER -> {
                next++;
                return number(token, false);
            }
            case SYMBOL -> {
                if (token.text.equals("-") && peekAt(1).type == Type.NUMBER) {
                    next++;
                    Token number = peek();
                    next++;
                    return number(number, true);
                }
                if (token.text.equals("@")) {
                    throw error(token, "bindings (@name) are not supported: write the value itself");
                }
                throw error(token, "expected a value: a 'string', a number, true, false, null, KEY(...), "
                        + "DATETIME('...') or BLOB('...')");
            }
            case WORD -> {
                String word = token.text.toUpperCase(Locale.ROOT);
                next++;
                switch (word) {
                    case "TRUE":
                        return BooleanValue.of(true);
                    case "FALSE":
                        return BooleanValue.of(false);
                    case "NULL":
                        return NullValue.of();
                    case "KEY":
                        return KeyValue.of(key());
                    case "DATETIME":
                        return datetime();
                    case "BLOB":
                        return blob();
                    default:
                        next--;
                        throw error(token, "'" + token.text + "' is not a value: quote strings, as in '"
                                + token.text + "'");
                }
            }
            default -> throw error(token, "expected a value: a 'string', a number, true, false, null, KEY(...), "
                    + "DATETIME('...') or BLOB('...')");
        }
    }

    private Value<?> number(Token token, boolean negative) {
        String digits = (negative ? "-" : "") + token.text;
        try {
            if (digits.matches("-?\\d+")) {
                return LongValue.of(Long.parseLong(digits));
            }
            double d = Double.parseDouble(digits);
            if (Double.isInfinite(d)) {
                throw error(token, "the number " + digits + " is too large");
            }
            return DoubleValue.of(d);
        } catch (NumberFormatException e) {
            throw error(token, "the number " + digits + " does not fit in a 64-bit integer");
        }
    }

    /** {@code KEY([PROJECT('p'),] [NAMESPACE('n'),] Kind, id_or_name, …)}; the caller has read KEY. */
    private Key key() {
        Token open = peek();
        expect("(", "'(' after KEY, as in KEY(Account, 42)");
        String project = projectId;
        String ns = namespace;
        if (peekKeyword("PROJECT") && peekAt(1).text.equals("(")) {
            next += 2;
            project = stringArgument("PROJECT");
            expect(",", "',' and the key's path after PROJECT(...)");
        }
        if (peekKeyword("NAMESPACE") && peekAt(1).text.equals("(")) {
            next += 2;
            ns = stringArgument("NAMESPACE");
            expect(",", "',' and the key's path after NAMESPACE(...)");
        }
        List<PathElement> path = new ArrayList<>();
        do {
            Token kindToken = peek();
            String kind = kindToken.type == Type.STRING ? take().text : name("a kind in KEY(...)");
            expect(",", "',' and an id or a name after the kind '" + kind + "' in KEY(...)");
            Token id = peek();
            if (kind.isEmpty() || kind.matches("__.*__")) {
                throw error(kindToken, kind.isEmpty() ? "a kind cannot be empty" : "kinds like " + kind
                        + " are reserved by Datastore");
            }
            if (id.type == Type.NUMBER && id.text.matches("\\d+")) {
                next++;
                long number;
                try {
                    number = Long.parseLong(id.text);
                } catch (NumberFormatException e) {
                    throw error(id, "the id " + id.text + " does not fit in a 64-bit integer");
                }
                if (number < 1) {
                    throw error(id, "numeric ids start at 1");
                }
                path.add(PathElement.of(kind, number));
            } else if (id.type == Type.STRING) {
                next++;
                if (id.text.isEmpty() || id.text.matches("__.*__")) {
                    throw error(id, id.text.isEmpty() ? "a key name cannot be empty: type one between the quotes"
                            : "names like " + id.text + " are reserved by Datastore");
                }
                path.add(PathElement.of(kind, id.text));
            } else {
                throw error(id, "expected a numeric id or a 'name' in KEY(...)");
            }
        } while (accept(","));
        expect(")", "')' to close KEY(...)");
        if (path.isEmpty()) {
            throw error(open, "KEY(...) needs a kind and an id or name");
        }
        PathElement last = path.get(path.size() - 1);
        Key.Builder builder = last.hasId() ? Key.newBuilder(project, last.getKind(), last.getId())
                : Key.newBuilder(project, last.getKind(), last.getName());
        builder.setNamespace(ns).addAncestors(path.subList(0, path.size() - 1));
        return builder.build();
    }

    private String stringArgument(String function) {
        Token token = peek();
        if (token.type != Type.STRING) {
            throw error(token, function + "(...) takes a quoted string");
        }
        next++;
        expect(")", "')' to close " + function + "(...)");
        return token.text;
    }

    private Value<?> datetime() {
        expect("(", "'(' after DATETIME, as in DATETIME('2024-05-01T00:00:00Z')");
        Token token = peek();
        if (token.type != Type.STRING) {
            throw error(token, "DATETIME(...) takes a quoted date and time, as in DATETIME('2024-05-01T00:00:00Z')");
        }
        next++;
        expect(")", "')' to close DATETIME(...)");
        try {
            OffsetDateTime time = OffsetDateTime.parse(token.text);
            return TimestampValue.of(Timestamp.ofTimeSecondsAndNanos(time.toEpochSecond(), time.getNano()));
        } catch (DateTimeParseException e) {
            throw error(token, "'" + token.text + "' is not a date and time with an offset, such as "
                    + "2024-05-01T00:00:00Z or 2024-05-01T09:30:00+02:00");
        }
    }

    private Value<?> blob() {
        expect("(", "'(' after BLOB, as in BLOB('SGVsbG8')");
        Token token = peek();
        if (token.type != Type.STRING) {
            throw error(token, "BLOB(...) takes a quoted base64 string");
        }
        next++;
        expect(")", "')' to close BLOB(...)");
        try {
            // GQL's BLOB takes web-safe base64 without padding (the emulator refuses '='); the standard alphabet and
            // padding are read too, as the same bytes
            String base64 = token.text.replace('-', '+').replace('_', '/');
            return BlobValue.of(Blob.copyFrom(Base64.getDecoder().decode(base64)));
        } catch (IllegalArgumentException e) {
            throw error(token, "'" + token.text + "' is not base64");
        }
    }

    private Integer count(String expected) {
        Token token = peek();
        if (token.type != Type.NUMBER || !token.text.matches("\\d{1,9}")) {
            throw error(token, "expected " + expected);
        }
        next++;
        return Integer.parseInt(token.text);
    }

    private String name(String expected) {
        Token token = peek();
        if (token.type == Type.NAME || token.type == Type.WORD && !Lexer.RESERVED.contains(
                token.text.toUpperCase(Locale.ROOT))) {
            next++;
            return token.text;
        }
        throw error(token, "expected " + expected);
    }

    private Token take() {
        return tokens.get(next++);
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token peekAt(int ahead) {
        return tokens.get(Math.min(next + ahead, tokens.size() - 1));
    }

    private boolean peekKeyword(String keyword) {
        Token token = peek();
        return token.type == Type.WORD && token.text.equalsIgnoreCase(keyword);
    }

    private boolean acceptKeyword(String keyword) {
        if (peekKeyword(keyword)) {
            next++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String keyword, String expected) {
        if (!acceptKeyword(keyword)) {
            throw error(peek(), "expected " + expected);
        }
    }

    private boolean accept(String symbol) {
        Token token = peek();
        if (token.type == Type.SYMBOL && token.text.equals(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    private void expect(String symbol, String expected) {
        if (!accept(symbol)) {
            throw error(peek(), "expected " + expected);
        }
    }

    private GqlException error(Token at, String message) {
        String found = at.type == Type.END ? "the end of the query" : "'" + at.text + "'";
        return new GqlException("GQL error at column " + (at.offset + 1) + ", at " + found + ": " + message + ".",
                at.offset + 1);
    }

    enum Type { WORD, NAME, STRING, NUMBER, SYMBOL, END }

    /** A token and where it is in the text (0-based offsets). */
    record Token(Type type, String text, int offset, int end) {
    }

    /** Splits GQL into tokens; an unclosed quote or an unknown character is an error at its column. */
    static final class Lexer {
        static final java.util.Set<String> RESERVED = java.util.Set.of("SELECT", "FROM", "WHERE", "AND", "OR",
                "ORDER", "BY", "ASC", "DESC", "LIMIT", "OFFSET", "IN", "NOT", "IS", "NULL", "HAS", "ANCESTOR",
                "DISTINCT", "TRUE", "FALSE");
        private final String text;
        private int at;

        Lexer(String text) {
            this.text = text;
        }

        List<Token> tokens() {
            List<Token> out = new ArrayList<>();
            while (true) {
                while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                    at++;
                }
                if (at >= text.length()) {
                    out.add(new Token(Type.END, "", at, at));
                    return out;
                }
                out.add(token());
            }
        }

        private Token token() {
            int start = at;
            char c = text.charAt(at);
            if (c == '\'' || c == '"' || c == '`') {
                return quoted(c, start);
            }
            if (Character.isDigit(c) || c == '.' && at + 1 < text.length() && Character.isDigit(text.charAt(at + 1))) {
                while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.'
                        || (text.charAt(at) == 'e' || text.charAt(at) == 'E') && at + 1 < text.length()
                        || (text.charAt(at) == '-' || text.charAt(at) == '+')
                        && (text.charAt(at - 1) == 'e' || text.charAt(at - 1) == 'E'))) {
                    at++;
                }
                String number = text.substring(start, at);
                if (!number.matches("\\d+|\\d*\\.\\d+([eE][-+]?\\d+)?|\\d+(\\.\\d*)?[eE][-+]?\\d+")) {
                    throw new GqlException("GQL error at column " + (start + 1) + ": '" + number
                            + "' is not a number.", start + 1);
                }
                return new Token(Type.NUMBER, number, start, at);
            }
            if (Character.isLetter(c) || c == '_' || c == '$') {
                while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at))
                        || "_$.".indexOf(text.charAt(at)) >= 0)) {
                    at++;
                }
                return new Token(Type.WORD, text.substring(start, at), start, at);
            }
            for (String symbol : List.of("<=", ">=", "!=", "=", "<", ">", "(", ")", ",", "*", "-", "@")) {
                if (text.startsWith(symbol, at)) {
                    at += symbol.length();
                    return new Token(Type.SYMBOL, symbol, start, at);
                }
            }
            throw new GqlException("GQL error at column " + (start + 1) + ": unexpected character '" + c + "'.",
                    start + 1);
        }

        /** 'a''b' or 'a\'b' for a quote inside; backticks make a name. */
        private Token quoted(char quote, int start) {
            StringBuilder value = new StringBuilder();
            at++;
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c == '\\' && at + 1 < text.length()) {
                    char escaped = text.charAt(at + 1);
                    value.append(switch (escaped) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        default -> escaped;
                    });
                    at += 2;
                } else if (c == quote) {
                    if (at + 1 < text.length() && text.charAt(at + 1) == quote) {
                        value.append(quote);
                        at += 2;
                    } else {
                        at++;
                        return new Token(quote == '`' ? Type.NAME : Type.STRING, value.toString(), start, at);
                    }
                } else {
                    value.append(c);
                    at++;
                }
            }
            throw new GqlException("GQL error at column " + (start + 1) + ": the " + (quote == '`' ? "name" : "string")
                    + " that starts here has no closing " + quote + ".", start + 1);
        }
    }
}
