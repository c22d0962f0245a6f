package io.keyranger.undo.records;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.EntitySize;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UndoBatchTest {
    private static final Key LEDGER = Key.newBuilder("p", "_KeyRangerLedger", "cell").build();

    private static Key key(String name) {
        return Key.newBuilder("p", "A", name).build();
    }

    private static Entity entity(Key key, long n) {
        return Entity.newBuilder(key).set("n", n).set("s", "x" + n).build();
    }

    /** A created, a changed, a deleted entity and one in another group: each image comes back as it was kept. */
    @Test
    void aBatchKeepsEveryImageOfACommitInOneRecordAndGivesThemBack() {
        Key child = Key.newBuilder("p", "B", 7).addAncestor(PathElement.of("A", "root")).setNamespace("ns").build();
        List<UndoImage> images = List.of(
                new UndoImage(key("created"), null, entity(key("created"), 1)),
                new UndoImage(key("changed"), entity(key("changed"), 2), entity(key("changed"), 3)),
                new UndoImage(key("deleted"), entity(key("deleted"), 4), null),
                new UndoImage(child, Entity.newBuilder(child).set("n", 5L).build(),
                        Entity.newBuilder(child).build()));

        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, Long.MAX_VALUE);

        assertThat(batches).hasSize(1);
        Entity record = batches.get(0).record();
        assertThat(record.getKey().getKind()).isEqualTo(UndoRecords.kind("job"));
        assertThat(record.getKey().getParent()).isEqualTo(LEDGER);
        assertThat(UndoRecords.isBatch(record.getKey())).isTrue();
        assertThat(UndoRecords.imagesIn(record.getKey())).isEqualTo(4);
        assertThat(UndoBatch.imagesOf(record)).isEqualTo(images);
    }

    /** A record of one target, the form kept before batches (and still by copies and imports), reads the same way. */
    @Test
    void aRecordOfOneTargetIsReadAsOneImage() {
        UndoImage image = new UndoImage(key("a"), entity(key("a"), 1), entity(key("a"), 2));
        Entity record = image.toEntity(UndoRecords.key(LEDGER, "job", key("a")));

        assertThat(UndoRecords.isBatch(record.getKey())).isFalse();
        assertThat(UndoRecords.imagesIn(record.getKey())).isEqualTo(1);
        assertThat(UndoBatch.imagesOf(record)).containsExactly(image);
    }

    /** At most {@code maxImages} a record (an entity-group limit), each record named by its own first target. */
    @Test
    void aBatchHoldsAtMostItsCapEachRecordNamedByItsFirstTarget() {
        List<UndoImage> images = new ArrayList<>();
        for (int i = 0; i < 45; i++) {
            images.add(new UndoImage(key("k" + i), entity(key("k" + i), i), entity(key("k" + i), i + 1)));
        }
        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, 19, Long.MAX_VALUE);

        assertThat(batches).extracting(b -> UndoRecords.imagesIn(b.record().getKey())).containsExactly(19, 19, 7);
        assertThat(batches.stream().map(b -> b.record().getKey()).distinct()).hasSize(3);
        assertThat(batches.stream().flatMap(b -> UndoBatch.imagesOf(b.record()).stream()).toList()).isEqualTo(images);
    }

    /** Images that do not compress, over the entity limit together: cut into records that fit; one alone is left over. */
    @Test
    void aBatchOverTheEntityLimitIsCutAndAnImageOverItAloneIsABatchThatDoesNotFit() {
        Random random = new Random(1);
        List<UndoImage> images = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            images.add(new UndoImage(key("big" + i), blob(key("big" + i), 300_000, random), null));
        }
        images.add(new UndoImage(key("huge"), blob(key("huge"), 1_100_000, random), null));

        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, Long.MAX_VALUE);

        assertThat(batches.stream().flatMap(b -> UndoBatch.imagesOf(b.record()).stream()).toList()).isEqualTo(images);
        List<UndoBatch> fitting = batches.stream().filter(UndoBatch::fits).toList();
        assertThat(fitting.stream().mapToInt(b -> b.images().size()).sum()).isEqualTo(5);
        assertThat(fitting).hasSizeGreaterThan(1)
                .allMatch(b -> EntitySize.bytes(b.record()) <= EntitySize.MAX_BYTES);
        assertThat(batches).filteredOn(b -> !b.fits()).singleElement()
                .satisfies(b -> assertThat(b.images()).extracting(UndoImage::target).containsExactly(key("huge")));
    }

    /**
     * Before-images that compress to almost nothing (zero-filled): one small record could hold them all, but its
     * revert writes each in full, so the batch is cut where the restore bytes pass the cap; one image alone is a batch.
     */
    @Test
    void aBatchWhoseRestoreIsOverTheCapIsCutThoughItCompresses() {
        List<UndoImage> images = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Entity zeros = Entity.newBuilder(key("z" + i)).set("data", BlobValue.newBuilder(
                    Blob.copyFrom(new byte[310_000])).setExcludeFromIndexes(true).build()).build();
            images.add(new UndoImage(key("z" + i), zeros, null));
        }
        long each = UndoBatch.restoreBytes(images.get(0));
        assertThat(each).isGreaterThanOrEqualTo(2 * 310_000L); // the put, and the revert's own undo image of it

        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, 4 * each + 16); // names differ by a byte

        assertThat(batches).extracting(b -> b.images().size()).containsExactly(4, 4, 4);
        assertThat(batches).allMatch(UndoBatch::fits);
        assertThat(batches.stream().flatMap(b -> UndoBatch.imagesOf(b.record()).stream()).toList()).isEqualTo(images);
        assertThat(UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, 1)).hasSize(12);
    }

    private static Entity blob(Key key, int bytes, Random random) {
        byte[] data = new byte[bytes];
        random.nextBytes(data);
        return Entity.newBuilder(key).set("data", BlobValue.newBuilder(Blob.copyFrom(data))
                .setExcludeFromIndexes(true).build()).build();
    }
}
