package io.keyranger.backup;

import io.keyranger.executor.source.KeysFile;
import io.keyranger.query.Gql;
import java.io.BufferedWriter;
import java.io.Closeable;
import com.google.cloud.datastore.Key;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A list of keys being written, one GQL key literal a line as {@link KeysFile} reads them (appended to when a stopped
 * comparison goes on), or nothing when no folder was given.
 */
record KeyListWriter(Path file, BufferedWriter out) implements Closeable {
    static KeyListWriter in(Path folder, String name, boolean append) throws IOException {
        Path file = folder == null ? null : folder.resolve(name);
        return new KeyListWriter(file, file == null ? null : Files.newBufferedWriter(file,
                append ? new OpenOption[] {StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND} : new OpenOption[0]));
    }

    /** Writes out what is buffered; the file's length then. */
    long flushed() throws IOException {
        if (out == null) {
            return 0;
        }
        out.flush();
        return Files.size(file);
    }

    void write(Key key) throws IOException {
        if (out != null) {
            out.write(Gql.keyLiteral(key));
            out.newLine();
        }
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            out.close();
        }
    }
}
