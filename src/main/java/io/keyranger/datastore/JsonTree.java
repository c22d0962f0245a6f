package io.keyranger.datastore;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.io.StringWriter;

/**
 * A JSON object written field by field, as a tree or a line. The codecs write keys and entities as a stream, the one form of
 * each, so a writer that sends them straight out (an undo record, deflated) builds no tree; the callers that want the
 * tree get it from the same writer here.
 */
final class JsonTree {
    private static final ObjectMapper TREES = new ObjectMapper();

    private JsonTree() {
    }

    /** The object {@code writer} writes. */
    static ObjectNode of(JsonWriter writer) {
        try (TokenBuffer buffer = new TokenBuffer(TREES, false)) {
            writer.write(buffer);
            return TREES.readTree(buffer.asParser());
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
    }

    /** What {@code writer} writes, as one line of JSON: the tree's {@code toString()}, without the tree. */
    static String line(JsonWriter writer) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = TREES.getFactory().createGenerator(out)) {
            writer.write(json);
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        return out.toString();
    }
}
