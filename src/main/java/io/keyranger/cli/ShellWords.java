package io.keyranger.cli;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A command line printed for the user to paste: each word as a POSIX shell reads it back, quoted when it must be. */
final class ShellWords {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

    private ShellWords() {
    }

    static String line(List<String> words) {
        return words.stream().map(ShellWords::quote).collect(Collectors.joining(" "));
    }

    /** The word itself when it holds only safe characters; else in single quotes, each ' written as '\''. */
    static String quote(String word) {
        return SAFE.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
