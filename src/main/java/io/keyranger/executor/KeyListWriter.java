package io.keyranger.executor;

import io.keyranger.executor.source.KeysFile;
import com.google.cloud.datastore.Key;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A list of keys being written, one GQL key literal a line as {@link KeysFile} reads them (appended to when a stopped
 * comparison goes on), or nothing when no folder was given.
 */
record KeyListWriter(Path file, java.io.BufferedWriter out) implements java.io.Closeable {
    static KeyListWriter in(Path folder, String name, boolean append) throws IOException {
        Path file = folder == null ? null : folder.resolve(name);
        return new KeyListWriter(file, file == null ? null : java.nio.file.Files.newBufferedWriter(file,
                append ? new java.nio.file.OpenOption[] {java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND} : new java.nio.file.OpenOption[0]));
    }

    /** Writes out what is buffered; the file's length then. */
    long flushed() throws IOException {
        if (out == null) {
            return 0;
        }
        out.flush();
        return java.nio.file.Files.size(file);
    }

    void write(Key key) throws IOException {
        if (out != null) {
            out.write(io.keyranger.query.Gql.keyLiteral(key));
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
