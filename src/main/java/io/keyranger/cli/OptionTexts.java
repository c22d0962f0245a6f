package io.keyranger.cli;

import java.util.ListResourceBundle;

/**
 * The descriptions of shared options ({@link ReportFile}, {@link TestHooks}) that say something of their own in each
 * command: picocli looks an option's description up by the command's qualified name and the option's key first.
 */
public final class OptionTexts extends ListResourceBundle {
    @Override
    protected Object[][] getContents() {
        return new Object[][] {
            {"keyranger.run.report", "Write the job's final report as JSON."},
            {"keyranger.restore.report", "Write the restore's final report as JSON."},
            {"keyranger.revert.report", "Write the revert's final report as JSON."},
            {"keyranger.diff.report", "Write the counts and examples as JSON."},
            {"keyranger.run.hold-after-chunks", "Testing only: after N chunks, hold every worker inside its next "
                    + "chunk (its transaction open; an import: its next commit), print 'keyranger: held' and go on "
                    + "when a line arrives on standard input."},
            {"keyranger.restore.hold-after-chunks", "Testing only: after N chunks, hold inside the next commit and "
                    + "print 'keyranger: held'."},
            {"keyranger.run.hold-between-chunks", "Testing only: after N chunks, let the transactions in flight end, "
                    + "hold every worker before its next one, print 'keyranger: held' and go on when a line arrives "
                    + "on standard input."},
            {"keyranger.restore.hold-between-chunks", "Testing only: after N chunks, hold every worker between its "
                    + "transactions and print 'keyranger: held'."},
        };
    }
}
