package io.keyranger.query;

import io.keyranger.query.GqlLexer.Token;
import io.keyranger.query.GqlLexer.Type;
import java.util.List;
import java.util.Locale;

/** The tokens of one GQL text and the reader's place in them: what the statement and value readers take, peek and expect. */
final class GqlCursor {
    private final List<Token> tokens;
    private int next;

    GqlCursor(String text) {
        this.tokens = new GqlLexer(text).tokens();
    }

    /** Moves the place by {@code tokens} (back when negative). */
    void skip(int tokens) {
        next += tokens;
    }

    /** Where the last token taken ends in the text. */
    int previousEnd() {
        return tokens.get(next - 1).end();
    }

    Integer count(String expected) {
        Token token = peek();
        if (token.type() != Type.NUMBER || !token.text().matches("\\d{1,9}")) {
            throw error(token, "expected " + expected);
        }
        next++;
        return Integer.parseInt(token.text());
    }

    String name(String expected) {
        Token token = peek();
        if (token.type() == Type.NAME || token.type() == Type.WORD && !GqlLexer.RESERVED.contains(
                token.text().toUpperCase(Locale.ROOT))) {
            next++;
            return token.text();
        }
        throw error(token, "expected " + expected);
    }

    Token take() {
        return tokens.get(next++);
    }

    Token peek() {
        return tokens.get(next);
    }

    Token peekAt(int ahead) {
        return tokens.get(Math.min(next + ahead, tokens.size() - 1));
    }

    boolean peekKeyword(String keyword) {
        Token token = peek();
        return token.type() == Type.WORD && token.text().equalsIgnoreCase(keyword);
    }

    boolean acceptKeyword(String keyword) {
        if (peekKeyword(keyword)) {
            next++;
            return true;
        }
        return false;
    }

    void expectKeyword(String keyword, String expected) {
        if (!acceptKeyword(keyword)) {
            throw error(peek(), "expected " + expected);
        }
    }

    boolean accept(String symbol) {
        Token token = peek();
        if (token.type() == Type.SYMBOL && token.text().equals(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    void expect(String symbol, String expected) {
        if (!accept(symbol)) {
            throw error(peek(), "expected " + expected);
        }
    }

    GqlException error(Token at, String message) {
        String found = at.type() == Type.END ? "the end of the query" : "'" + at.text() + "'";
        return new GqlException("GQL error at column " + (at.offset() + 1) + ", at " + found + ": " + message + ".",
                at.offset() + 1);
    }
}
