package io.keyranger.formats.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import java.util.List;
import org.junit.jupiter.api.Test;

class UndoRecordsTest {
    private static Key.Builder in(String namespace, String kind, String name) {
        return Key.newBuilder("p", kind, name).setNamespace(namespace);
    }

    /** A record's name is its target's alone: keys that look alike in any printed form still get names of their own. */
    @Test
    void everyKeyGetsANameOfItsOwnAndAlwaysTheSame() {
        List<Key> keys = List.of(
                Key.newBuilder("p", "A", 1).build(),
                in("", "A", "1").build(),
                Key.newBuilder("p", "A", 12).build(),
                in("", "A", "#12;").build(),
                in("", "A:1", "x").build(),
                in("", "A", "1:x").build(),
                in("ns", "A", "x").build(),
                in("", "nsA", "x").build(),
                Key.newBuilder("q", "A", "x").build(),
                Key.newBuilder("p", "B", "x").addAncestor(PathElement.of("A", 1)).build(),
                Key.newBuilder("p", "B", "x").addAncestor(PathElement.of("A", "1")).build(),
                in("", "1:A1:B", "x").build());
        List<String> names = keys.stream().map(UndoRecords::nameOf).toList();
        assertThat(names).doesNotHaveDuplicates();
        assertThat(keys.stream().map(k -> Key.fromUrlSafe(k.toUrlSafe())).map(UndoRecords::nameOf)).isEqualTo(names);
    }
}
