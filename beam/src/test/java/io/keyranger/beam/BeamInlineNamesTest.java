package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.support.InlineNames;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** This module's main sources name their types by import, as the app's do (the app's InlineNamesTest). */
class BeamInlineNamesTest {
    @Test
    void mainSourcesWriteNoQualifiedNameInline() throws Exception {
        assertThat(InlineNames.under(Path.of("src/main/java")).stream().filter(f -> !f.allowed()))
                .as("inline qualified names (import them)").isEmpty();
    }
}
