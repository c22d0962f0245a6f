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
import io.keyranger.query.GqlLexer.Token;
import io.keyranger.query.GqlLexer.Type;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Reads GQL's values at the cursor: strings, numbers, true, false, null, {@code KEY(…)} (in the given project, database
 * and namespace unless it names others), {@code DATETIME('…')}, {@code BLOB('…')} and lists of them; and writes a key
 * back as its {@code KEY(…)} literal.
 */
final class GqlValues {
    private final GqlCursor in;
    private final String projectId;
    private final String databaseId;
    private final String namespace;

    GqlValues(GqlCursor in, String projectId, String databaseId, String namespace) {
        this.in = in;
        this.projectId = projectId;
        this.databaseId = databaseId == null ? "" : databaseId;
        this.namespace = namespace == null ? "" : namespace;
    }

    /**
     * A key as GQL's KEY(...) literal, which {@link Gql#key} reads back: its namespace when it has one, and its project
     * and database when they are not {@code projectId} and {@code databaseId} (null: never named).
     */
    static String keyLiteral(Key key, String projectId, String databaseId) {
        StringBuilder out = new StringBuilder("KEY(");
        if (projectId != null && !key.getProjectId().equals(projectId)) {
            out.append("PROJECT(").append(quote(key.getProjectId())).append("), ");
        }
        String database = key.getDatabaseId() == null ? "" : key.getDatabaseId();
        if (databaseId != null && !database.equals(databaseId)) {
            out.append("DATABASE(").append(quote(database)).append("), ");
        }
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
                    && !GqlLexer.RESERVED.contains(e.getKind().toUpperCase(Locale.ROOT)) ? e.getKind() : quote(e.getKind()))
                    .append(", ").append(e.hasId() ? String.valueOf(e.getId()) : quote(e.getName()));
        }
        return out.append(')').toString();
    }

    /**
     * A GQL string literal of {@code text} that holds no line break, so that a key file stays one key a line: a
     * backslash is written {@code \\}, a quote {@code ''}, a line feed {@code \n}, a carriage return {@code \r} and
     * a tab {@code \t} (as the lexer reads them); everything else as it is.
     */
    private static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('\'');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\'' -> out.append("''");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.append('\'').toString();
    }

    /** {@code (v, …)} or {@code ARRAY(v, …)}. */
    List<Value<?>> list() {
        in.acceptKeyword("ARRAY");
        in.expect("(", "a list of values in parentheses, e.g. ('gold', 'silver')");
        List<Value<?>> values = new ArrayList<>();
        do {
            values.add(value());
        } while (in.accept(","));
        in.expect(")", "',' or ')' in the list of values");
        return values;
    }

    Value<?> value() {
        Token token = in.peek();
        switch (token.type()) {
            case STRING -> {
                in.skip(1);
                return StringValue.of(token.text());
            }
            case NUMBER -> {
                in.skip(1);
                return number(token, false);
            }
            case SYMBOL -> {
                if (token.text().equals("-") && in.peekAt(1).type() == Type.NUMBER) {
                    in.skip(1);
                    Token number = in.peek();
                    in.skip(1);
                    return number(number, true);
                }
                if (token.text().equals("@")) {
                    throw in.error(token, "bindings (@name) are not supported: write the value itself");
                }
                throw in.error(token, "expected a value: a 'string', a number, true, false, null, KEY(...), "
                        + "DATETIME('...') or BLOB('...')");
            }
            case WORD -> {
                String word = token.text().toUpperCase(Locale.ROOT);
                in.skip(1);
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
                        in.skip(-1);
                        throw in.error(token, "'" + token.text() + "' is not a value: quote strings, as in '"
                                + token.text() + "'");
                }
            }
            default -> throw in.error(token, "expected a value: a 'string', a number, true, false, null, KEY(...), "
                    + "DATETIME('...') or BLOB('...')");
        }
    }

    Value<?> number(Token token, boolean negative) {
        String digits = (negative ? "-" : "") + token.text();
        try {
            if (digits.matches("-?\\d+")) {
                return LongValue.of(Long.parseLong(digits));
            }
            double d = Double.parseDouble(digits);
            if (Double.isInfinite(d)) {
                throw in.error(token, "the number " + digits + " is too large");
            }
            return DoubleValue.of(d);
        } catch (NumberFormatException e) {
            throw in.error(token, "the number " + digits + " does not fit in a 64-bit integer");
        }
    }

    /** {@code KEY([PROJECT('p'),] [DATABASE('d'),] [NAMESPACE('n'),] Kind, id_or_name, …)}; the caller has read KEY. */
    Key key() {
        Token open = in.peek();
        in.expect("(", "'(' after KEY, as in KEY(Account, 42)");
        String project = projectId;
        String database = databaseId;
        String ns = namespace;
        if (in.peekKeyword("PROJECT") && in.peekAt(1).text().equals("(")) {
            in.skip(2);
            project = stringArgument("PROJECT");
            in.expect(",", "',' and the key's path after PROJECT(...)");
        }
        if (in.peekKeyword("DATABASE") && in.peekAt(1).text().equals("(")) {
            in.skip(2);
            database = stringArgument("DATABASE");
            in.expect(",", "',' and the key's path after DATABASE(...)");
        }
        if (in.peekKeyword("NAMESPACE") && in.peekAt(1).text().equals("(")) {
            in.skip(2);
            ns = stringArgument("NAMESPACE");
            in.expect(",", "',' and the key's path after NAMESPACE(...)");
        }
        List<PathElement> path = new ArrayList<>();
        do {
            Token kindToken = in.peek();
            String kind = kindToken.type() == Type.STRING ? in.take().text() : in.name("a kind in KEY(...)");
            in.expect(",", "',' and an id or a name after the kind '" + kind + "' in KEY(...)");
            Token id = in.peek();
            if (kind.isEmpty() || kind.matches("__.*__")) {
                throw in.error(kindToken, kind.isEmpty() ? "a kind cannot be empty" : "kinds like " + kind
                        + " are reserved by Datastore");
            }
            if (id.type() == Type.NUMBER && id.text().matches("\\d+")) {
                in.skip(1);
                long number;
                try {
                    number = Long.parseLong(id.text());
                } catch (NumberFormatException e) {
                    throw in.error(id, "the id " + id.text() + " does not fit in a 64-bit integer");
                }
                if (number < 1) {
                    throw in.error(id, "numeric ids start at 1");
                }
                path.add(PathElement.of(kind, number));
            } else if (id.type() == Type.STRING) {
                in.skip(1);
                if (id.text().isEmpty() || id.text().matches("__.*__")) {
                    throw in.error(id, id.text().isEmpty() ? "a key name cannot be empty: type one between the quotes"
                            : "names like " + id.text() + " are reserved by Datastore");
                }
                path.add(PathElement.of(kind, id.text()));
            } else {
                throw in.error(id, "expected a numeric id or a 'name' in KEY(...)");
            }
        } while (in.accept(","));
        in.expect(")", "')' to close KEY(...)");
        if (path.isEmpty()) {
            throw in.error(open, "KEY(...) needs a kind and an id or name");
        }
        PathElement last = path.get(path.size() - 1);
        Key.Builder builder = last.hasId() ? Key.newBuilder(project, last.getKind(), last.getId())
                : Key.newBuilder(project, last.getKind(), last.getName());
        builder.setDatabaseId(database).setNamespace(ns).addAncestors(path.subList(0, path.size() - 1));
        return builder.build();
    }

    String stringArgument(String function) {
        Token token = in.peek();
        if (token.type() != Type.STRING) {
            throw in.error(token, function + "(...) takes a quoted string");
        }
        in.skip(1);
        in.expect(")", "')' to close " + function + "(...)");
        return token.text();
    }

    Value<?> datetime() {
        in.expect("(", "'(' after DATETIME, as in DATETIME('2024-05-01T00:00:00Z')");
        Token token = in.peek();
        if (token.type() != Type.STRING) {
            throw in.error(token, "DATETIME(...) takes a quoted date and time, as in DATETIME('2024-05-01T00:00:00Z')");
        }
        in.skip(1);
        in.expect(")", "')' to close DATETIME(...)");
        try {
            OffsetDateTime time = OffsetDateTime.parse(token.text());
            return TimestampValue.of(Timestamp.ofTimeSecondsAndNanos(time.toEpochSecond(), time.getNano()));
        } catch (DateTimeParseException e) {
            throw in.error(token, "'" + token.text() + "' is not a date and time with an offset, such as "
                    + "2024-05-01T00:00:00Z or 2024-05-01T09:30:00+02:00");
        }
    }

    Value<?> blob() {
        in.expect("(", "'(' after BLOB, as in BLOB('SGVsbG8')");
        Token token = in.peek();
        if (token.type() != Type.STRING) {
            throw in.error(token, "BLOB(...) takes a quoted base64 string");
        }
        in.skip(1);
        in.expect(")", "')' to close BLOB(...)");
        try {
            // GQL's BLOB takes web-safe base64 without padding (the emulator refuses '='); the standard alphabet and
            // padding are read too, as the same bytes
            String base64 = token.text().replace('-', '+').replace('_', '/');
            return BlobValue.of(Blob.copyFrom(Base64.getDecoder().decode(base64)));
        } catch (IllegalArgumentException e) {
            throw in.error(token, "'" + token.text() + "' is not base64");
        }
    }
}
