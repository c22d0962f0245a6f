package io.keyranger.cli;

import io.keyranger.launch.Consent;
import picocli.CommandLine.Option;

/** {@code --confirm-project ID}: the commands that write take a project that is not an emulator only with its id. */
final class ConfirmProject {
    @Option(names = "--confirm-project", paramLabel = "ID",
            description = "Required to write to a project that is not an emulator: its id.")
    String id;

    /**
     * Throws what stops a job the user has not agreed to: a refusal (a read-only connection), or the project's id not
     * confirmed, saying how to confirm it (naming a group's kinds, and that a job without undo cannot be reverted).
     */
    void require(Consent consent) {
        consent.require(id, "add --confirm-project " + consent.project() + (consent.severalKinds() ? " (it "
                + consent.template().name() + "s " + (consent.allKinds() ? "EVERY kind of the namespace" : "kinds "
                + String.join(",", consent.kinds())) + ")" : "") + (consent.noUndo() ? " (with --no-undo it keeps "
                + "no undo records: it cannot be reverted)" : ""));
    }
}
