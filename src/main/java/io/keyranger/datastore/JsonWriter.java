package io.keyranger.datastore;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * What writes one JSON value to a generator: the codecs' one form of keys and entities, sent straight to where the
 * JSON goes (an undo record, deflated; an export line) or made into a tree ({@link JsonTree}).
 */
@FunctionalInterface
public interface JsonWriter {
    void write(JsonGenerator json) throws IOException;
}
