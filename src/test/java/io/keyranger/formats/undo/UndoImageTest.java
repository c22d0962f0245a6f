package io.keyranger.formats.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StringValue;
import io.keyranger.datastore.EntityCodec;
import org.junit.jupiter.api.Test;

class UndoImageTest {
    /** An after state that differs from the before only in a value's meaning is a change the image keeps. */
    @Test
    @SuppressWarnings("deprecation") // meaning: deprecated in the client, kept by Datastore
    void aMeaningThatChangedIsKeptInTheAfterState() {
        Key target = Key.newBuilder("p", "A", "a").build();
        Entity before = Entity.newBuilder(target)
                .set("text", StringValue.newBuilder("t").setMeaning(15).setExcludeFromIndexes(true).build()).build();
        Entity after = Entity.newBuilder(target)
                .set("text", StringValue.newBuilder("t").setExcludeFromIndexes(true).build()).build();
        Key ledger = Key.newBuilder("p", "_KeyRangerLedger", "cell").build();

        UndoImage read = UndoImage.of(new UndoImage(target, before, after).toEntity(UndoRecords.key(ledger, "job", target)));
        assertThat(read.before()).isEqualTo(before);
        assertThat(read.after()).isEqualTo(after);
        assertThat(EntityCodec.meaning(read.before().getValue("text"))).isEqualTo(15);
        assertThat(Reverting.same(read.after(), before)).isFalse();
    }
}
