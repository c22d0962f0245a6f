package io.keyranger.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --report FILE.json}: where a command writes its final report as JSON. What the report holds is each
 * command's own, said in its description ({@link OptionTexts}).
 */
final class ReportFile {
    @Option(names = "--report", paramLabel = "FILE.json", descriptionKey = "report")
    Path file;
}
