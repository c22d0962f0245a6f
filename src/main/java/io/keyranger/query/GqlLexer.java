package io.keyranger.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Splits GQL into tokens; an unclosed quote or an unknown character is an error at its column. */
/** Splits GQL into tokens; an unclosed quote or an unknown character is an error at its column. */
final class GqlLexer {
    enum Type { WORD, NAME, STRING, NUMBER, SYMBOL, END }

    /** A token and where it is in the text (0-based offsets). */
    record Token(Type type, String text, int offset, int end) {
    }

    static final Set<String> RESERVED = Set.of("SELECT", "FROM", "WHERE", "AND", "OR",
            "ORDER", "BY", "ASC", "DESC", "LIMIT", "OFFSET", "IN", "NOT", "IS", "NULL", "HAS", "ANCESTOR",
            "DISTINCT", "TRUE", "FALSE");
    private final String text;
    private int at;

    GqlLexer(String text) {
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
