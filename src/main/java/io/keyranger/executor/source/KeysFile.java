package io.keyranger.executor.source;

import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import io.keyranger.query.Gql;
import io.keyranger.query.GqlException;
import java.io.BufferedWriter;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * A file of keys, one GQL key literal a line ({@code KEY(Account, 42)}, as {@code diff} writes them and
 * {@code entity get} reads them); blank lines and lines starting with # are passed over.
 */
public final class KeysFile {
    private KeysFile() {
    }

    /** The keys of {@code file}, in {@code project} and (unless a key names one) {@code namespace}. */
    public static Set<Key> read(Path file, String project, String namespace) {
        return read(LocalFileStore.INSTANCE, file.toString(), project, namespace);
    }

    /** The keys of the file at {@code file} in {@code store}, as {@link #read(Path, String, String)} reads them. */
    public static Set<Key> read(FileStore store, String file, String project, String namespace) {
        List<String> lines;
        try (InputStream in = store.open(file)) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (NoSuchFileException | FileNotFoundException e) {
            throw new KeyRangerException("The keys file " + file + " does not exist.");
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the keys file " + file + ": " + e.getMessage(), e);
        }
        Set<Key> keys = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                keys.add(Gql.key(line, project, namespace));
            } catch (GqlException e) {
                throw new KeyRangerException("Line " + (i + 1) + " of the keys file " + file + " is not a key: "
                        + e.getMessage() + " Write one key a line, e.g. KEY(Account, 42).");
            }
        }
        if (keys.isEmpty()) {
            throw new KeyRangerException("The keys file " + file + " holds no key: write one a line, e.g. "
                    + "KEY(Account, 42).");
        }
        return keys;
    }

    /**
     * Those of {@code keys} of {@code kind} in {@code namespace}, in key order: what a restore or a comparison of that
     * kind takes from a keys file.
     */
    public static NavigableSet<Key> selecting(Collection<Key> keys, String namespace, String kind,
                                              Comparator<Key> order) {
        NavigableSet<Key> selected = new TreeSet<>(order);
        for (Key key : keys) {
            if (key.getKind().equals(kind) && key.getNamespace().equals(namespace)) {
                selected.add(key);
            }
        }
        return selected;
    }

    /** Writes keys one a line, as {@link #read} reads them. */
    public static void write(Path file, Iterable<Key> keys) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (Key key : keys) {
                out.write(Gql.keyLiteral(key));
                out.newLine();
            }
        }
    }
}
