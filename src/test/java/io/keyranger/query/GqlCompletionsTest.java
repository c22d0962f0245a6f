package io.keyranger.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The query box's completions: kinds after FROM, else properties and keywords; whole texts to replace the box's. */
class GqlCompletionsTest {
    private static final List<String> KINDS = List.of("Account", "Event", "Org");
    private static final List<String> PROPERTIES = List.of("active", "balance", "tier");

    @Test
    void kindsAfterFromPropertiesAndKeywordsElsewhere() {
        assertThat(GqlCompletions.of("SELECT * FROM Ev", KINDS, PROPERTIES)).containsExactly("SELECT * FROM Event");
        assertThat(GqlCompletions.of("SELECT * FROM Account WHERE bal", KINDS, PROPERTIES))
                .containsExactly("SELECT * FROM Account WHERE balance");
        assertThat(GqlCompletions.of("SELECT * FROM Account WHERE tier = 'pro' AN", KINDS, PROPERTIES))
                .containsExactly("SELECT * FROM Account WHERE tier = 'pro' AND");
        assertThat(GqlCompletions.of("SELECT * FROM Account WHERE a", KINDS, PROPERTIES))
                .contains("SELECT * FROM Account WHERE active", "SELECT * FROM Account WHERE ASC",
                        "SELECT * FROM Account WHERE AND");
    }

    @Test
    void nothingAfterASpaceOrForAWordAlreadyWhole() {
        assertThat(GqlCompletions.of("SELECT * FROM ", KINDS, PROPERTIES)).isEmpty();
        assertThat(GqlCompletions.of("", KINDS, PROPERTIES)).isEmpty();
        assertThat(GqlCompletions.of("SELECT * FROM Org", KINDS, PROPERTIES)).isEmpty();
    }
}
