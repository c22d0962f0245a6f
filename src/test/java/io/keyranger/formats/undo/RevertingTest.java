package io.keyranger.formats.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StringValue;
import org.junit.jupiter.api.Test;

/** What differs between a kept state and the entity now, as a report names it. */
class RevertingTest {
    private static final Key KEY = Key.newBuilder("p", "Item", 5).build();

    @Test
    @SuppressWarnings("deprecation")
    void aChangeOfMeaningAloneIsNamedNotShownAsTheSameValueTwice() {
        Entity kept = Entity.newBuilder(KEY).set("body", "hello").build();
        Entity now = Entity.newBuilder(KEY).set("body", StringValue.newBuilder("hello").setMeaning(15).build())
                .build();
        assertThat(Reverting.same(kept, now)).isFalse();
        assertThat(Reverting.differences(kept, now, "at --until"))
                .isEqualTo("body: at --until hello (meaning 0), now hello (meaning 15)");
    }
}
